#include "queueing/admission_state.h"

#include <algorithm>
#include <set>
#include <string>

#include "core/check.h"
#include "model/resources.h"

namespace berth::queueing {

FrUsage AdmissionUsage(const QueueSetup& setup, const model::ResourceCatalog& catalog,
                       const model::Admission& admission) {
  FrUsage usage;
  for (const auto& psa : admission.pod_set_assignments) {
    for (const auto& [res, flavor] : psa.flavors) {
      model::ResourceId r;
      auto amount = psa.resource_usage.find(res);
      if (amount == psa.resource_usage.end() || !catalog.Find(res, &r)) continue;
      const int32_t fr = setup.FrId(flavor, r);
      if (fr < 0 || amount->second <= 0) continue;  // a flavor the queue no longer offers
      usage.emplace_back(fr, amount->second);
    }
  }
  std::sort(usage.begin(), usage.end());
  // Merge repeated FRs (several pod sets on one flavor).
  FrUsage merged;
  for (const auto& [fr, v] : usage) {
    if (!merged.empty() && merged.back().first == fr) {
      merged.back().second = model::SaturatingAdd(merged.back().second, v);
    } else {
      merged.emplace_back(fr, v);
    }
  }
  return merged;
}

bool VictimOrder::operator()(int32_t a, int32_t b) const {
  const WorkloadInfo& ia = state->info(a);
  const WorkloadInfo& ib = state->info(b);
  if (ia.priority != ib.priority) return ia.priority < ib.priority;
  const HeldQuota& ha = *state->held(a);
  const HeldQuota& hb = *state->held(b);
  if (ha.reserved_at != hb.reserved_at) return ha.reserved_at > hb.reserved_at;
  if (ha.sequence != hb.sequence) return ha.sequence > hb.sequence;
  const std::string& ua = state->workload(a).meta.uid;
  const std::string& ub = state->workload(b).meta.uid;
  if (ua != ub) return ua < ub;
  return a < b;
}

void AdmissionState::AddUsage(int32_t q, const FrUsage& usage) {
  for (const auto& [fr, v] : usage) setup_.tree.AddUsage(q, fr, v);
}

void AdmissionState::RemoveUsage(int32_t q, const FrUsage& usage) {
  for (const auto& [fr, v] : usage) setup_.tree.RemoveUsage(q, fr, v);
}

void AdmissionState::Hold(int32_t wl, HeldQuota quota) {
  // A workload holds at most one reservation: the scheduler only nominates pending ones.
  BERTH_CHECK(!held_.Get(wl).has_value(), "workload already holds quota");
  AddUsage(quota.cq, quota.usage);
  topology_.Hold(wl, TopologyUsageOf(wl, quota.admission));
  const size_t q = static_cast<size_t>(quota.cq);
  held_[wl] = std::move(quota);
  admitted_by_cq_[q].insert(wl);  // after held_ is set: the order reads it
}

HeldQuota AdmissionState::Release(int32_t wl) {
  // Only holders are released: preemption targets come from admitted_by_cq_ (QuotaProbe
  // checks held() first).
  BERTH_CHECK(held_.Get(wl).has_value(), "releasing a workload that holds no quota");
  auto& slot = held_[wl];
  admitted_by_cq_[static_cast<size_t>(slot->cq)].erase(wl);  // before held_ is cleared
  HeldQuota quota = std::move(*slot);
  held_.Erase(wl);
  RemoveUsage(quota.cq, quota.usage);
  topology_.Release(wl);
  return quota;
}

bool AdmissionState::IsTasOnly(int32_t q) const {
  bool any = false;
  for (const QuotaGroup& group : cq(q).groups) {
    for (const GroupFlavor& gf : group.flavors) {
      if (!topology_.IsTasFlavor(gf.flavor)) return false;
      any = true;
    }
  }
  return any;
}

void AdmissionState::MarkMissingTopologies() {
  for (ClusterQueueInfo& info : setup_.cqs) {
    std::string missing;
    std::set<int32_t> seen;
    for (const QuotaGroup& group : info.groups) {
      for (const GroupFlavor& gf : group.flavors) {
        if (!topology_.IsTasFlavor(gf.flavor) || topology_.TopologyOf(gf.flavor) != nullptr ||
            !seen.insert(gf.flavor).second) {
          continue;
        }
        const model::ResourceFlavor& f = snapshot_.resource_flavors[static_cast<size_t>(gf.flavor)];
        if (!missing.empty()) missing += ", ";
        missing += "there is no Topology \"" + f.topology_name + "\" for TAS flavor \"" +
                   f.meta.name + "\"";
      }
    }
    // A queue inactive for another reason keeps it: Kueue reports the first reason.
    if (missing.empty() || !info.active) continue;
    info.active = false;
    info.reason = "TopologyNotFound";
    info.message = "Can't admit new workloads: " + missing + ".";
  }
}

std::vector<TopologyUsage> AdmissionState::TopologyUsageOf(int32_t wl,
                                                           const model::Admission& admission) {
  std::vector<TopologyUsage> out;
  const model::Workload& w = workload(wl);
  const WorkloadInfo& wi = info(wl);
  for (const model::PodSetAssignment& psa : admission.pod_set_assignments) {
    if (!psa.topology_assignment) continue;
    int32_t flavor = -1;
    for (const auto& [res, name] : psa.flavors) {
      auto it = setup_.flavor_by_name.find(name);
      if (it != setup_.flavor_by_name.end() && topology_.IsTasFlavor(it->second)) {
        flavor = it->second;
        break;
      }
    }
    if (flavor < 0) continue;
    size_t p = 0;
    while (p < w.pod_sets.size() && w.pod_sets[p].name != psa.name) ++p;
    if (p == w.pod_sets.size() || p >= wi.pod_sets.size()) continue;
    TopologyUsage u;
    u.flavor = flavor;
    for (const auto& [r, v] : wi.pod_sets[p].per_pod) {
      if (r != model::kPods) u.per_pod.Set(r, v);
    }
    // Pods bound in the input are what the node capacity already shows: free them on
    // release by where they run, not by the assignment.
    if (p < w.pods.size()) {
      model::TopologyAssignment bound = topology_.BoundAssignment(flavor, w.pods[p]);
      if (!bound.domains.empty()) {
        u.assignment = std::move(bound);
        u.counted_by_build = true;
        out.push_back(std::move(u));
        continue;
      }
    }
    u.assignment = *psa.topology_assignment;
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace berth::queueing
