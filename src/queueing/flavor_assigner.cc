#include "queueing/flavor_assigner.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/taint.h"
#include "model/resources.h"
#include "queueing/amount_text.h"

namespace berth::queueing {
namespace {

// Requests near int64's limit (Kueue's "prevent integer overflow" cases) saturate at
// INT64_MAX instead of wrapping, as sums do (model::SaturatingAdd). Amounts are never negative.
int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t out = 0;
  return __builtin_mul_overflow(a, b, &out) ? std::numeric_limits<int64_t>::max() : out;
}

// flavorassigner.go reasonSeverity: the QuotaReserved=False reasons of a NoFit assignment,
// least to most severe.
constexpr int kSeverityNone = 0;
constexpr int kSeverityTopologyPlacementFailed = 1;
constexpr int kSeverityWaitingForQuota = 2;
constexpr int kSeverityExceedsMaxQuota = 3;
constexpr int kSeverityNoMatchingFlavor = 4;

const char* NoFitReasonName(int severity) {
  switch (severity) {
    case kSeverityTopologyPlacementFailed:
      return "TopologyPlacementFailed";
    case kSeverityWaitingForQuota:
      return "WaitingForQuota";
    case kSeverityExceedsMaxQuota:
      return "ExceedsMaxQuota";
    default:
      // A pod set without any flavor attempt (upstream: NoMatchingFlavor too).
      return "NoMatchingFlavor";
  }
}

struct FlavorResult {
  FitMode mode = FitMode::kFit;
  int32_t borrow = 0;
};

// Kueue's isPreferred: which of two flavor results wins. NoFit never wins; a flavor whose
// preemption found no candidates beats NoFit (its quota is held for the cycle) but loses to
// every viable one.
bool Better(const FlavorResult& a, const FlavorResult& b, model::FungibilityPreference pref) {
  return IsPreferredFlavor(a.mode, a.borrow, b.mode, b.borrow, pref);
}

bool ShouldTryNextFlavor(const FlavorResult& r, const model::FlavorFungibility& f) {
  if (r.mode == FitMode::kNoFit || r.mode == FitMode::kNoCandidates) return true;
  if ((r.mode == FitMode::kPreempt || r.mode == FitMode::kReclaim) &&
      f.when_can_preempt == model::FungibilityPolicy::kTryNextFlavor) {
    return true;
  }
  return r.borrow > 0 && f.when_can_borrow == model::FungibilityPolicy::kTryNextFlavor;
}

// Kueue formats the corev1.Taint value with %s, which prints the Go struct
// ("{key value NoSchedule <nil>}": TimeAdded is nil on a flavor's taints).
std::string TaintText(const core::Taint& t) {
  return "{" + t.key + " " + t.value + " " + core::TaintEffectName(t.effect) + " <nil>}";
}

// flavorassigner.go flavorSelector: only the keys the flavor itself labels are evaluated;
// a required-affinity term left without expressions matches everything.
bool MatchesFlavorLabels(const model::Pod& pod, const core::Labels& flavor_labels) {
  for (const auto& [k, v] : pod.node_selector) {
    auto it = flavor_labels.find(k);
    if (it != flavor_labels.end() && it->second != v) return false;
  }
  if (!pod.node_affinity.required) return true;
  for (const auto& term : pod.node_affinity.required->terms) {
    core::NodeSelectorTerm kept;
    for (const auto& req : term.match_expressions) {
      if (flavor_labels.count(req.key) > 0) kept.match_expressions.push_back(req);
    }
    if (kept.match_expressions.empty()) return true;
    if (kept.Matches(flavor_labels, "")) return true;
  }
  return false;
}

void Accumulate(FrUsage& usage, int32_t fr, int64_t v) {
  auto it = std::lower_bound(usage.begin(), usage.end(), std::make_pair(fr, int64_t{0}),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
  if (it != usage.end() && it->first == fr) {
    it->second += v;
  } else {
    usage.insert(it, {fr, v});
  }
}

int64_t Lookup(const FrUsage& usage, int32_t fr) {
  for (const auto& [f, v] : usage) {
    if (f == fr) return v;
  }
  return 0;
}

// Kueue's Assignment.Message: every pod set that does not fit as is, its reasons sorted
// (Status.Message sorts them) and joined by ", ", pod sets joined by "; ".
std::string AssignmentMessage(const std::vector<PlannedPodSet>& pod_sets) {
  std::string out;
  for (const PlannedPodSet& ps : pod_sets) {
    if (ps.reasons.empty()) continue;
    std::vector<std::string> sorted = ps.reasons;
    std::sort(sorted.begin(), sorted.end());
    if (!out.empty()) out += "; ";
    out += "couldn't assign flavors to pod set " + ps.name + ": ";
    for (size_t i = 0; i < sorted.size(); ++i) out += (i == 0 ? "" : ", ") + sorted[i];
  }
  return out;
}

}  // namespace

OracleVerdict PreemptorOracle::SimulatePreemption(const WorkloadInfo& wl, int32_t fr,
                                                  int64_t amount, int32_t height) {
  const model::ClusterQueue& spec = state_.cq_spec(wl.cq);
  const bool any_preemption =
      preemptor_ != nullptr &&
      (spec.preemption.within_cluster_queue != model::PreemptionPolicy::kNever ||
       spec.preemption.reclaim_within_cohort != model::PreemptionPolicy::kNever);
  if (!any_preemption) return {FitMode::kNoCandidates, height};
  // A real target search limited to this resource (Kueue's PreemptionOracle).
  FrUsage single{{fr, amount}};
  PreemptionResult sim = preemptor_->GetTargets(wl, wl.cq, single, {fr}, false);
  if (sim.targets.empty()) return {FitMode::kNoCandidates, height};
  const bool all_outside = std::all_of(sim.targets.begin(), sim.targets.end(),
                                       [](const PreemptionTarget& t) { return !t.same_queue; });
  for (const auto& t : sim.targets) {
    state_.RemoveUsage(state_.held(t.workload)->cq, state_.held(t.workload)->usage);
  }
  const int32_t borrow = state_.tree().LowestSubtreeThatFits(wl.cq, fr, amount).first;
  for (const auto& t : sim.targets) {
    state_.AddUsage(state_.held(t.workload)->cq, state_.held(t.workload)->usage);
  }
  return {all_outside ? FitMode::kReclaim : FitMode::kPreempt, borrow};
}

const char* FitModeName(FitMode mode, int32_t borrow_level) {
  switch (mode) {
    case FitMode::kNoFit:
      return "NoFit";
    case FitMode::kNoCandidates:
      return "NoCandidates";
    case FitMode::kPreempt:
      return "Preempt";
    case FitMode::kReclaim:
      return "Reclaim";
    case FitMode::kFit:
      return borrow_level > 0 ? "Borrow" : "Fit";
  }
  return "NoFit";
}

bool IsPreferredFlavor(FitMode a_mode, int32_t a_borrow, FitMode b_mode, int32_t b_borrow,
                       model::FungibilityPreference pref) {
  const FlavorResult a{a_mode, a_borrow}, b{b_mode, b_borrow};
  if (a.mode == FitMode::kNoFit) return false;
  if (b.mode == FitMode::kNoFit) return true;
  const bool a_viable = a.mode >= FitMode::kPreempt;
  const bool b_viable = b.mode >= FitMode::kPreempt;
  if (a_viable != b_viable) return a_viable;
  if (pref == model::FungibilityPreference::kPreemptionOverBorrowing) {
    if (a.borrow != b.borrow) return a.borrow < b.borrow;
    return a.mode > b.mode;
  }
  if (a.mode != b.mode) return a.mode > b.mode;
  return a.borrow < b.borrow;
}

model::Admission ToAdmission(const std::string& cluster_queue, const Assignment& a) {
  model::Admission out;
  out.cluster_queue = cluster_queue;
  for (const auto& ps : a.pod_sets) {
    model::PodSetAssignment psa;
    psa.name = ps.name;
    psa.flavors = ps.flavors;
    psa.resource_usage = ps.resource_usage;
    psa.count = ps.count;
    psa.topology_assignment = ps.topology_assignment;
    out.pod_set_assignments.push_back(std::move(psa));
  }
  return out;
}

Assignment FlavorAssigner::Assign(const WorkloadInfo& wl, const std::vector<int32_t>& counts,
                                  bool explain) {
  Assignment out;
  const int32_t q = wl.cq;
  const ClusterQueueInfo& cq = state_.cq(q);
  const model::ClusterQueue& spec = state_.cq_spec(q);
  const QuotaTree& tree = state_.tree();
  const auto& catalog = state_.snapshot().resources;
  const model::Workload& workload = state_.workload(wl.index);
  const bool can_preempt_while_borrowing =
      spec.preemption.borrow_within_cohort.policy != model::PreemptionPolicy::kNever;
  // Kueue's resolveNoFitReason (flavorassigner.go): each NoFit flavor attempt has the most
  // severe reason of its resources; a resource group takes the least severe of its attempts
  // (the flavors are alternatives) and a pod set the most severe of its groups.
  int ps_severity = kSeverityNone;

  // Kueue assigns flavors per group of pod sets (flavorassigner.go assignFlavors): pod sets
  // sharing a podSetGroupName (a LeaderWorkerSet's leader and workers) are searched together
  // over their summed requests, every member's template must match the flavor, and each
  // member gets the group's flavors for the resources it requests; any other pod set is a
  // group of its own. Groups go in the order of their first member.
  std::vector<std::vector<size_t>> units;
  {
    std::map<std::string, size_t> unit_of_group;
    for (size_t p = 0; p < wl.pod_sets.size(); ++p) {
      const std::string& group_name = workload.pod_sets[p].topology_request.pod_set_group_name;
      if (group_name.empty()) {
        units.push_back({p});
        continue;
      }
      auto [it, inserted] = unit_of_group.emplace(group_name, units.size());
      if (inserted) units.emplace_back();
      units[it->second].push_back(p);
    }
  }
  // The planned pod sets by workload pod set index (TopologyFitter reads them by index).
  std::vector<std::optional<PlannedPodSet>> planned_at(wl.pod_sets.size());
  auto emit_planned = [&]() {
    for (auto& planned : planned_at) {
      if (planned) out.pod_sets.push_back(std::move(*planned));
    }
  };

  for (const std::vector<size_t>& unit : units) {
    const PodSetRequest& ps = wl.pod_sets[unit.front()];
    // Totals per member: per-pod requests × count, plus `pods` when covered; and their sum.
    std::vector<std::vector<std::pair<model::ResourceId, int64_t>>> member_totals;
    std::vector<std::pair<model::ResourceId, int64_t>> totals;
    for (size_t m : unit) {
      const int64_t count = counts[m];
      std::vector<std::pair<model::ResourceId, int64_t>> mine;
      for (const auto& [r, v] : wl.pod_sets[m].per_pod) {
        if (r != model::kPods) mine.emplace_back(r, SaturatingMul(v, count));
      }
      if (cq.covers_pods && count > 0) {
        mine.emplace_back(model::kPods, count);
        std::sort(mine.begin(), mine.end());
      }
      for (const auto& [r, v] : mine) {
        auto it =
            std::find_if(totals.begin(), totals.end(), [&r = r](const auto& t) { return t.first == r; });
        if (it != totals.end()) {
          it->second = model::SaturatingAdd(it->second, v);
        } else {
          totals.emplace_back(r, v);
        }
      }
      member_totals.push_back(std::move(mine));
    }
    std::sort(totals.begin(), totals.end());
    // (resource, flavor, FR) chosen for the unit's resources.
    std::vector<std::tuple<model::ResourceId, std::string, int32_t>> chosen_frs;
    std::vector<std::string> reasons;
    FitMode ps_mode = FitMode::kFit;
    ps_severity = kSeverityNone;
    std::vector<bool> done(totals.size(), false);
    for (size_t t = 0; t < totals.size() && ps_mode != FitMode::kNoFit; ++t) {
      if (done[t] || totals[t].second == 0) continue;
      auto g_it = cq.group_of_resource.find(totals[t].first.v);
      if (g_it == cq.group_of_resource.end()) {
        reasons.clear();  // a failing group's status replaces the pod set's (upstream)
        reasons.push_back("resource " + catalog.Name(totals[t].first) +
                          " unavailable in ClusterQueue");
        ps_severity = std::max(ps_severity, kSeverityNoMatchingFlavor);
        ps_mode = FitMode::kNoFit;
        break;
      }
      const QuotaGroup& group = cq.groups[static_cast<size_t>(g_it->second)];
      // The group's resources this pod set requests (all get the same flavor).
      std::vector<std::pair<size_t, int64_t>> wanted;  // (index in group.resources, amount)
      for (size_t u = 0; u < totals.size(); ++u) {
        auto pos = std::find(group.resources.begin(), group.resources.end(), totals[u].first);
        if (pos != group.resources.end() && totals[u].second > 0) {
          wanted.emplace_back(static_cast<size_t>(pos - group.resources.begin()), totals[u].second);
          done[u] = true;
        }
      }
      // Everything said about this group's flavors (Kueue's status of findFlavorForPodSets).
      std::vector<std::string> group_reasons;
      std::optional<size_t> best;
      int group_severity = kSeverityNone;  // least severe NoFit attempt; none yet
      bool group_no_fit = false;
      auto no_fit_attempt = [&](int severity) {
        group_severity = group_no_fit ? std::min(group_severity, severity) : severity;
        group_no_fit = true;
      };
      FlavorResult best_result{FitMode::kNoFit, 0};
      std::vector<int32_t> best_contested;
      for (size_t f = 0; f < group.flavors.size(); ++f) {
        const GroupFlavor& gf = group.flavors[f];
        FlavorAttempt attempt;
        if (explain) {
          attempt.pod_set = ps.name;
          attempt.flavor = gf.name;
        }
        FlavorResult result;
        std::vector<int32_t> contested;
        std::string skip;
        if (gf.flavor < 0 || gf.frs.size() != group.resources.size()) {
          skip = "flavor " + gf.name + " not found";
        } else {
          const model::ResourceFlavor& flavor =
              state_.snapshot().resource_flavors[static_cast<size_t>(gf.flavor)];
          for (size_t p : unit) {  // upstream checkFlavorForPodSets: every member
            const model::Pod& tmpl = workload.pod_sets[p].pod_template;
            std::vector<core::Toleration> tolerations = tmpl.tolerations;
            tolerations.insert(tolerations.end(), flavor.tolerations.begin(),
                               flavor.tolerations.end());
            if (const core::Taint* taint =
                    core::FindUntoleratedHardTaint(flavor.node_taints, tolerations)) {
              skip = "untolerated taint " + TaintText(*taint) + " in flavor " + gf.name;
            } else if (!MatchesFlavorLabels(tmpl, flavor.node_labels)) {
              skip = "flavor " + gf.name + " doesn't match node affinity";
            } else {
              skip = fitter_.FlavorMismatch(wl, p, gf.flavor);
            }
            if (!skip.empty()) break;
          }
        }
        if (!skip.empty()) {
          no_fit_attempt(kSeverityNoMatchingFlavor);
          group_reasons.push_back(skip);
          if (explain) {
            attempt.mode = "Skipped";
            attempt.reason = skip;
            out.attempts.push_back(std::move(attempt));
          }
          continue;
        }
        std::string flavor_reason;
        int flavor_severity = kSeverityNone;
        for (const auto& [ri, amount] : wanted) {
          const model::ResourceId r = group.resources[ri];
          const int32_t fr = gf.frs[ri];
          const int64_t previous = Lookup(out.usage, fr);
          // Saturating, as Kueue's resources.Amount: a sum past int64 is "more than any
          // quota" (ExceedsMaxQuota), never a wrapped negative that fits.
          const int64_t val = model::SaturatingAdd(previous, amount);
          const int64_t available = tree.Available(q, fr);
          const int64_t potential = tree.PotentialAvailable(q, fr);
          FitMode mode;
          int32_t borrow = 0;
          std::string why;
          if (val > potential) {
            mode = FitMode::kNoFit;
            flavor_severity = std::max(flavor_severity, kSeverityExceedsMaxQuota);
            why = "insufficient quota for " + catalog.Name(r) + " in flavor " + gf.name +
                  ", previously considered podsets requests (" + FormatAmount(r, previous) +
                  ") + current podset request (" + FormatAmount(r, amount) +
                  ") > maximum capacity (" + FormatAmount(r, potential) + ")";
          } else {
            auto [height, may_reclaim] = tree.LowestSubtreeThatFits(q, fr, val);
            borrow = height;
            if (val <= available) {
              mode = FitMode::kFit;
            } else {
              flavor_severity = std::max(flavor_severity, kSeverityWaitingForQuota);
              why = "insufficient unused quota for " + catalog.Name(r) + " in flavor " + gf.name +
                    ", " + FormatAmount(r, val - available) + " more needed";
              mode = FitMode::kNoFit;
              // Fair sharing (#4): any queue that may reclaim runs the oracle.
              const bool fair_reclaim =
                  oracle_->FairSharing() &&
                  spec.preemption.reclaim_within_cohort != model::PreemptionPolicy::kNever;
              if (val <= tree.SubtreeQuota(q, fr) || may_reclaim || can_preempt_while_borrowing ||
                  fair_reclaim) {
                const OracleVerdict verdict = oracle_->SimulatePreemption(wl, fr, val, height);
                mode = verdict.mode;
                borrow = verdict.borrow;
                // No candidates still needs preemption on this resource (Kueue's
                // flavorResourcesNeedPreemption), so the real search and the quota held
                // for the cycle both count it.
                contested.push_back(fr);
              }
            }
          }
          if (mode < result.mode) result.mode = mode;
          result.borrow = std::max(result.borrow, borrow);
          if (!why.empty()) {
            if (!flavor_reason.empty()) flavor_reason += ", ";
            flavor_reason += why;
            group_reasons.push_back(why);  // one reason per resource: the message sorts them
          }
          if (explain) {
            ResourceFit rf;
            rf.resource = catalog.Name(r);
            rf.requested = val;
            rf.nominal = tree.Nominal(q, fr);
            rf.used = tree.Usage(q, fr);
            rf.available = available;
            auto bl = tree.BorrowingLimit(q, fr);
            rf.borrowing_limit = bl ? *bl : -1;
            rf.verdict = FitModeName(mode, borrow);
            attempt.resources.push_back(std::move(rf));
          }
        }
        if (result.mode == FitMode::kNoFit) no_fit_attempt(flavor_severity);
        if (explain) {
          attempt.mode = FitModeName(result.mode, result.borrow);
          attempt.reason = flavor_reason;
          out.attempts.push_back(std::move(attempt));
        }
        if (!best || Better(result, best_result, spec.flavor_fungibility.preference)) {
          if (result.mode != FitMode::kNoFit) {
            best = f;
            best_result = result;
            best_contested = contested;
          } else if (!best) {
            best_result = result;
          }
        }
        if (!ShouldTryNextFlavor(result, spec.flavor_fungibility)) break;
      }
      if (group_no_fit) ps_severity = std::max(ps_severity, group_severity);
      if (!best) {
        // Upstream: a group without a flavor replaces the pod set's status with its own.
        reasons = std::move(group_reasons);
        ps_mode = FitMode::kNoFit;
        break;
      }
      // Upstream: a group whose chosen flavor fits says nothing (nil status); otherwise every
      // reason gathered over its flavors is kept.
      if (best_result.mode != FitMode::kFit) {
        reasons.insert(reasons.end(), group_reasons.begin(), group_reasons.end());
      }
      const GroupFlavor& chosen = group.flavors[*best];
      ps_mode = std::min(ps_mode, best_result.mode);
      out.borrow_level = std::max(out.borrow_level, best_result.borrow);
      for (int32_t fr : best_contested) out.contested.push_back(fr);
      for (const auto& [ri, amount] : wanted) {
        chosen_frs.emplace_back(group.resources[ri], chosen.name, chosen.frs[ri]);
      }
    }
    for (size_t k = 0; k < unit.size(); ++k) {
      PlannedPodSet& planned = planned_at[unit[k]].emplace();
      planned.name = wl.pod_sets[unit[k]].name;
      planned.count = counts[unit[k]];
      planned.reasons = reasons;
      // Upstream: a pod set without flavors for every group gets none and charges nothing.
      if (ps_mode == FitMode::kNoFit) continue;
      for (const auto& [r, flavor, fr] : chosen_frs) {
        auto it = std::find_if(member_totals[k].begin(), member_totals[k].end(),
                               [&, r = r](const auto& t) { return t.first == r; });
        if (it == member_totals[k].end() || it->second == 0) continue;
        planned.flavors[catalog.Name(r)] = flavor;
        planned.resource_usage[catalog.Name(r)] = it->second;
        Accumulate(planned.usage, fr, it->second);
      }
      // Later units count this one's usage (different groups never share an FR, so adding
      // it once the unit is done is the same as adding it per group).
      for (const auto& [fr, v] : planned.usage) Accumulate(out.usage, fr, v);
    }
    if (ps_mode == FitMode::kNoFit) {
      emit_planned();
      out.mode = Assignment::Mode::kNoFit;
      out.message = AssignmentMessage(out.pod_sets);
      out.reason = NoFitReasonName(ps_severity);
      return out;
    }
    if (ps_mode != FitMode::kFit) {
      out.mode = Assignment::Mode::kPreempt;
      out.reason = "WaitingForQuota";
    }
  }
  emit_planned();
  if (out.mode == Assignment::Mode::kPreempt) out.message = AssignmentMessage(out.pod_sets);
  if (out.mode == Assignment::Mode::kFit) {
    // Quota fits: the TAS pod sets must also be placed. A placement that fails turns the
    // pod set's flavors into Preempt (flavorassigner.go updateMode): victims may free the
    // domains even though quota is not short.
    if (std::optional<TopologyFitter::Failure> failure = fitter_.Place(wl, out)) {
      out.mode = Assignment::Mode::kPreempt;
      out.reason = "WaitingForQuota";
      for (PlannedPodSet& ps : out.pod_sets) {
        if (ps.name != failure->pod_set) continue;
        ps.reasons.push_back(failure->message);
        for (const auto& [fr, v] : ps.usage) out.contested.push_back(fr);
      }
      out.message = AssignmentMessage(out.pod_sets);
    }
  }
  std::sort(out.contested.begin(), out.contested.end());
  out.contested.erase(std::unique(out.contested.begin(), out.contested.end()), out.contested.end());
  return out;
}

}  // namespace berth::queueing
