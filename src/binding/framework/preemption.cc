#include "binding/framework/preemption.h"

#include <algorithm>
#include <limits>

namespace berth::binding {
namespace {

bool SelectorMatchesPod(const core::LabelSelector* selector, const model::Pod& pod) {
  // Upstream's preemption: a nil or empty selector matches nothing (unlike the eviction API).
  if (selector == nullptr ||
      (selector->match_labels.empty() && selector->match_expressions.empty())) {
    return false;
  }
  return selector->Matches(pod.meta.labels);
}

bool HealthyForBudget(const model::Pod& pod) {
  return pod.IsBound() && !pod.IsTerminal() && !pod.deletion_timestamp.has_value();
}

// GetScaledValueFromIntOrPercent with roundUp, as the disruption controller scales budgets.
int64_t ScaledUp(const model::CountOrPercent& v, int64_t total) {
  if (!v.percent) return v.value;
  return (static_cast<int64_t>(v.value) * total + 99) / 100;
}

// The earliest start among the highest-priority victims (GetEarliestPodStartTime); a pod
// without a start time counts as started last.
int64_t EarliestTopStart(const std::vector<const model::Pod*>& victims) {
  int64_t earliest = std::numeric_limits<int64_t>::max();
  if (victims.empty()) return earliest;
  const int32_t top = victims.front()->priority;
  for (const model::Pod* p : victims) {
    if (p->priority != top) continue;
    const int64_t s = p->start_time ? p->start_time->unix_s : std::numeric_limits<int64_t>::max();
    earliest = std::min(earliest, s);
  }
  return earliest;
}

}  // namespace

std::string DisruptionTargetMessage(std::string_view scheduler_name) {
  std::string out(scheduler_name);
  out += ": preempting to accommodate a higher priority pod";
  return out;
}

int32_t ComputeDisruptionsAllowed(const model::PodDisruptionBudget& pdb,
                                  const std::vector<model::Pod>& pods) {
  const core::LabelSelector* selector = pdb.selector ? &*pdb.selector : nullptr;
  int64_t expected = 0;
  int64_t healthy = 0;
  for (const model::Pod& pod : pods) {
    if (pod.cluster != pdb.cluster || pod.meta.namespace_ != pdb.meta.namespace_) continue;
    if (pod.IsTerminal() || !SelectorMatchesPod(selector, pod)) continue;
    ++expected;
    if (HealthyForBudget(pod)) ++healthy;
  }
  int64_t desired = 0;
  if (pdb.max_unavailable.has_value()) {
    desired = std::max<int64_t>(0, expected - ScaledUp(*pdb.max_unavailable, expected));
  } else if (pdb.min_available.has_value()) {
    desired = ScaledUp(*pdb.min_available, expected);
  }
  const int64_t allowed = std::max<int64_t>(0, healthy - desired);
  return static_cast<int32_t>(std::min<int64_t>(allowed, std::numeric_limits<int32_t>::max()));
}

std::vector<PdbBudget> ResolvePdbBudgets(const model::Snapshot& snapshot,
                                         std::string_view cluster) {
  std::vector<PdbBudget> out;
  for (const model::PodDisruptionBudget& pdb : snapshot.pod_disruption_budgets) {
    if (pdb.cluster != cluster) continue;
    PdbBudget b;
    b.namespace_ = pdb.meta.namespace_;
    b.selector = pdb.selector ? &*pdb.selector : nullptr;
    b.allowed = pdb.disruptions_allowed ? *pdb.disruptions_allowed
                                        : ComputeDisruptionsAllowed(pdb, snapshot.pods);
    b.disrupted_pods = &pdb.disrupted_pods;
    out.push_back(std::move(b));
  }
  return out;
}

bool MoreImportantPod(const model::Pod& a, const model::Pod& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  const int64_t sa = a.start_time ? a.start_time->unix_s : std::numeric_limits<int64_t>::max();
  const int64_t sb = b.start_time ? b.start_time->unix_s : std::numeric_limits<int64_t>::max();
  return sa < sb;
}

std::vector<int32_t> MatchingBudgets(const model::Pod& pod, const std::vector<PdbBudget>& budgets) {
  std::vector<int32_t> out;
  // A pod without labels matches no budget.
  if (pod.meta.labels.empty()) return out;
  for (size_t i = 0; i < budgets.size(); ++i) {
    const PdbBudget& b = budgets[i];
    if (b.namespace_ != pod.meta.namespace_ || !SelectorMatchesPod(b.selector, pod)) continue;
    out.push_back(static_cast<int32_t>(i));
  }
  return out;
}

PdbSplit SplitByPdbViolation(const std::vector<const model::Pod*>& pods,
                             const std::vector<PdbBudget>& budgets,
                             const std::vector<const std::vector<int32_t>*>* matches) {
  PdbSplit out;
  std::vector<int64_t> allowed(budgets.size());
  for (size_t i = 0; i < budgets.size(); ++i) allowed[i] = budgets[i].allowed;
  std::vector<int32_t> own;
  for (size_t at = 0; at < pods.size(); ++at) {
    const model::Pod& pod = *pods[at];
    bool violated = false;
    if (!budgets.empty()) {
      const std::vector<int32_t>* matched = nullptr;
      if (matches != nullptr) {
        matched = (*matches)[at];
      } else {
        own = MatchingBudgets(pod, budgets);
        matched = &own;
      }
      for (int32_t i : *matched) {
        const PdbBudget& b = budgets[static_cast<size_t>(i)];
        // Already counted by the API server's eviction: not decremented again.
        if (b.disrupted_pods != nullptr &&
            std::find(b.disrupted_pods->begin(), b.disrupted_pods->end(), pod.meta.name) !=
                b.disrupted_pods->end()) {
          continue;
        }
        if (--allowed[static_cast<size_t>(i)] < 0) violated = true;
      }
    }
    (violated ? out.violating : out.non_violating).push_back(at);
  }
  return out;
}

std::optional<NodeVictims> SelectVictims(const std::vector<const model::Pod*>& pods,
                                         const std::vector<PdbBudget>& budgets,
                                         const std::function<bool(const std::vector<bool>&)>& fits,
                                         const std::vector<const std::vector<int32_t>*>* matches) {
  std::vector<bool> kept(pods.size(), false);
  if (!fits(kept)) return std::nullopt;
  const PdbSplit split = SplitByPdbViolation(pods, budgets, matches);
  NodeVictims out;
  auto reprieve = [&](size_t at) {
    kept[at] = true;
    if (fits(kept)) return true;
    kept[at] = false;
    out.victims.push_back(at);
    return false;
  };
  for (size_t at : split.violating) {
    if (!reprieve(at)) ++out.pdb_violations;
  }
  for (size_t at : split.non_violating) reprieve(at);
  // Both groups are in importance order; merged, the victims are again.
  if (!split.violating.empty() && !split.non_violating.empty()) {
    std::stable_sort(out.victims.begin(), out.victims.end(),
                     [&](size_t a, size_t b) { return MoreImportantPod(*pods[a], *pods[b]); });
  }
  return out;
}

size_t PickOneNodeForPreemption(const std::vector<PreemptionCandidate>& candidates,
                                std::string* criterion) {
  std::vector<size_t> left(candidates.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = i;
  using Score = std::function<int64_t(const PreemptionCandidate&)>;
  const std::pair<const char*, Score> rules[] = {
      {"fewest PDB violations",
       [](const PreemptionCandidate& c) { return -int64_t{c.pdb_violations}; }},
      {"lowest highest-victim priority",
       [](const PreemptionCandidate& c) {
         return c.victims.empty() ? int64_t{0} : -int64_t{c.victims.front()->priority};
       }},
      {"smallest sum of victim priorities",
       [](const PreemptionCandidate& c) {
         int64_t sum = 0;
         for (const model::Pod* p : c.victims) {
           sum += int64_t{p->priority} + int64_t{std::numeric_limits<int32_t>::max()} + 1;
         }
         return -sum;
       }},
      {"fewest victims",
       [](const PreemptionCandidate& c) { return -static_cast<int64_t>(c.victims.size()); }},
      {"latest start of the highest-priority victims",
       [](const PreemptionCandidate& c) { return EarliestTopStart(c.victims); }},
  };
  if (criterion != nullptr) *criterion = "only candidate";
  if (left.size() == 1) return 0;
  for (const auto& [name, score] : rules) {
    int64_t best = std::numeric_limits<int64_t>::min();
    std::vector<size_t> selected;
    for (size_t i : left) {
      const int64_t s = score(candidates[i]);
      if (s > best) {
        best = s;
        selected.clear();
      }
      if (s == best) selected.push_back(i);
    }
    if (selected.size() == 1) {
      if (criterion != nullptr) *criterion = name;
      return selected.front();
    }
    left = std::move(selected);
  }
  if (criterion != nullptr) *criterion = "first candidate";
  return left.front();
}

int32_t NumPreemptionCandidates(int32_t potential_nodes) {
  int32_t n = static_cast<int32_t>(int64_t{potential_nodes} * 10 / 100);
  n = std::max(n, int32_t{100});
  return std::min(n, potential_nodes);
}

}  // namespace berth::binding
