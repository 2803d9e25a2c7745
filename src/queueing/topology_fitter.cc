#include "queueing/topology_fitter.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "queueing/flavor_assigner.h"
#include "queueing/preemptor.h"
#include "queueing/topology_assigner.h"

namespace berth::queueing {
namespace {

int32_t FlavorIndex(const AdmissionState& state, const std::string& name) {
  auto it = state.setup().flavor_by_name.find(name);
  return it == state.setup().flavor_by_name.end() ? -1 : it->second;
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

bool TopologyFitter::Requested(const WorkloadInfo& wl, size_t p) const {
  const model::Workload& w = state_.workload(wl.index);
  if (p < w.pod_sets.size() && !w.pod_sets[p].topology_request.empty()) return true;
  return state_.IsTasOnly(wl.cq);
}

std::string TopologyFitter::FlavorMismatch(const WorkloadInfo& wl, size_t p,
                                           int32_t flavor) const {
  TopologyCache& cache = state_.topology();
  const model::ResourceFlavor& f = state_.snapshot().resource_flavors[static_cast<size_t>(flavor)];
  const model::TopologyRequest& request = state_.workload(wl.index).pod_sets[p].topology_request;
  if (!Requested(wl, p)) {
    if (cache.IsTasFlavor(flavor)) {
      return "Flavor " + Quoted(f.meta.name) + " supports only TopologyAwareScheduling";
    }
    return "";
  }
  // Implied TAS: every flavor of the queue is a TAS flavor, and the request is empty.
  if (!cache.IsTasFlavor(flavor)) {
    // Upstream accepts a non-TAS flavor only for resources the TAS flavors do not provide;
    // berth's resource groups give every requested resource of the group this flavor.
    return "Flavor " + Quoted(f.meta.name) + " does not support TopologyAwareScheduling";
  }
  const TopologySnapshot* tree = cache.Get(flavor);
  if (tree == nullptr) {
    return "Flavor " + Quoted(f.meta.name) + " information missing in TAS cache";
  }
  if (!TopologySupportsRequest(*tree, request)) {
    return "Flavor " + Quoted(f.meta.name) + " does not contain the requested level";
  }
  return "";
}

std::optional<TopologyFitter::Failure> TopologyFitter::Place(const WorkloadInfo& wl,
                                                             Assignment& a) {
  const model::Workload& w = state_.workload(wl.index);
  // Per TAS flavor, its pod sets in order (Kueue groups the requests by flavor).
  std::map<int32_t, std::vector<size_t>> by_flavor;
  std::vector<size_t> flavor_order;
  for (size_t p = 0; p < a.pod_sets.size() && p < wl.pod_sets.size(); ++p) {
    PlannedPodSet& ps = a.pod_sets[p];
    ps.topology_assignment.reset();
    if (ps.count == 0 || !Requested(wl, p)) continue;
    int32_t flavor = -1;
    for (const auto& [res, name] : ps.flavors) {
      const int32_t f = FlavorIndex(state_, name);
      if (state_.topology().IsTasFlavor(f)) {
        flavor = f;
        break;
      }
    }
    if (flavor < 0) return Failure{ps.name, "no TAS flavor assigned"};
    by_flavor[flavor].push_back(p);
  }
  // Every tree is built before any is charged, so the pod sets placed through one flavor are
  // charged on its siblings (Kueue places a workload's pod sets one after another on the
  // same node usage: "multi-PodSet workload across sibling flavors must not self-overlap").
  for (auto& [flavor, pod_sets] : by_flavor) {
    if (state_.topology().Get(flavor) == nullptr) {
      return Failure{a.pod_sets[pod_sets.front()].name, "no TAS cache"};
    }
  }
  struct Charged {
    int32_t flavor;
    const model::TopologyAssignment* assignment;
    model::ResourceVector per_pod;
  };
  std::vector<Charged> charged;
  auto undo = [&] {
    for (const Charged& c : charged) {
      state_.topology().ApplyToAll(c.flavor, *c.assignment, c.per_pod, -1, c.flavor);
    }
  };
  for (auto& [flavor, pod_sets] : by_flavor) {
    TopologySnapshot* tree = state_.topology().Get(flavor);
    std::vector<TopologyPodSetRequest> requests;
    for (size_t p : pod_sets) {
      TopologyPodSetRequest r;
      r.request = w.pod_sets[p].topology_request;
      for (const auto& [res, v] : wl.pod_sets[p].per_pod) {
        if (res != model::kPods) r.per_pod.Set(res, v);
      }
      r.count = a.pod_sets[p].count;
      r.pod_template = &w.pod_sets[p].pod_template;
      requests.push_back(std::move(r));
    }
    // FindTopologyAssignments stops at the first pod set that fails; run the pod sets one
    // prefix at a time only to name it (cheap: a workload has a handful of pod sets).
    core::Result<std::vector<model::TopologyAssignment>> placed =
        FindTopologyAssignments(*tree, requests);
    if (!placed.has_value()) {
      size_t failed = requests.size() - 1;
      for (size_t k = 1; k < requests.size(); ++k) {
        std::vector<TopologyPodSetRequest> prefix(requests.begin(),
                                                  requests.begin() + static_cast<long>(k));
        if (!FindTopologyAssignments(*tree, prefix).has_value()) {
          failed = k - 1;
          break;
        }
      }
      undo();
      return Failure{a.pod_sets[pod_sets[failed]].name, placed.error().message()};
    }
    for (size_t k = 0; k < pod_sets.size(); ++k) {
      a.pod_sets[pod_sets[k]].topology_assignment = std::move(placed.value()[k]);
    }
    if (by_flavor.size() < 2) continue;
    for (size_t k = 0; k < pod_sets.size(); ++k) {
      charged.push_back(
          {flavor, &*a.pod_sets[pod_sets[k]].topology_assignment, requests[k].per_pod});
      state_.topology().ApplyToAll(flavor, *charged.back().assignment, charged.back().per_pod, 1,
                                   flavor);
    }
  }
  undo();
  return std::nullopt;
}

bool TopologyFitter::HasTopology(const Assignment& a) {
  return std::any_of(a.pod_sets.begin(), a.pod_sets.end(),
                     [](const PlannedPodSet& ps) { return ps.topology_assignment.has_value(); });
}

void TopologyFitter::CompleteTargets(const WorkloadInfo& wl, Assignment& a,
                                     PreemptionResult& preemption) {
  if (a.mode != Assignment::Mode::kPreempt) return;
  bool any_tas = false;
  std::vector<int32_t> tas_flavors;
  for (size_t p = 0; p < a.pod_sets.size() && p < wl.pod_sets.size(); ++p) {
    if (a.pod_sets[p].count == 0 || !Requested(wl, p)) continue;
    any_tas = true;
    for (const auto& [res, name] : a.pod_sets[p].flavors) {
      const int32_t f = FlavorIndex(state_, name);
      if (state_.topology().IsTasFlavor(f)) tas_flavors.push_back(f);
    }
  }
  if (!any_tas) return;
  TopologyCache& cache = state_.topology();
  const int32_t q = wl.cq;
  // Quota without victims of its own: with no quota targets and quota short, preemption
  // cannot help; only the "could it ever fit" check below applies.
  bool quota_ok = !preemption.targets.empty();
  if (!quota_ok) {
    quota_ok = true;
    for (const auto& [fr, v] : a.usage) quota_ok = quota_ok && v <= state_.tree().Available(q, fr);
  }
  for (const PreemptionTarget& t : preemption.targets) cache.Suspend(t.workload);
  std::vector<int32_t> extra;
  bool fits = !Place(wl, a).has_value();
  std::optional<Failure> failure;
  const auto& policy = state_.cq_spec(q).preemption.within_cluster_queue;
  const auto is_target = [&](int32_t v) {
    return std::any_of(preemption.targets.begin(), preemption.targets.end(),
                       [&](const PreemptionTarget& t) { return t.workload == v; });
  };
  // The admitted set is in Kueue's candidate order (lower priority, newest first).
  for (int32_t v : state_.admitted(q)) {
    if (fits) break;
    if (v == wl.index || is_target(v) || !PolicyAllows(policy, wl, state_.info(v))) continue;
    if (!std::any_of(tas_flavors.begin(), tas_flavors.end(),
                     [&](int32_t f) { return cache.UsesFlavor(v, f); })) {
      continue;
    }
    cache.Suspend(v);
    extra.push_back(v);
    failure = Place(wl, a);
    fits = !failure.has_value();
  }
  if (fits && !extra.empty()) {
    // Fill back: newest removal first, never the last (it made the placement fit).
    for (int32_t k = static_cast<int32_t>(extra.size()) - 2; k >= 0; --k) {
      cache.Resume(extra[static_cast<size_t>(k)]);
      if (!Place(wl, a).has_value()) {
        extra.erase(extra.begin() + k);
      } else {
        cache.Suspend(extra[static_cast<size_t>(k)]);
      }
    }
  }
  for (int32_t v : extra) cache.Resume(v);
  for (const PreemptionTarget& t : preemption.targets) cache.Resume(t.workload);
  // The placement was computed with victims gone: the admission is placed again once they are.
  for (PlannedPodSet& ps : a.pod_sets) ps.topology_assignment.reset();
  if (!fits) {
    a.mode = Assignment::Mode::kNoFit;
    a.reason = "TopologyPlacementFailed";
    preemption.targets.clear();
    return;
  }
  if (!quota_ok) return;  // waits for quota (WaitingForQuota), placement possible
  for (int32_t v : extra) preemption.targets.push_back({v, "InClusterQueue", true});
  // Keep explain in step: the extra victims are chosen candidates too.
  for (int32_t v : extra) {
    preemption.candidates.push_back({v, state_.cq(q).name, true, "InClusterQueue"});
  }
}

}  // namespace berth::queueing
