#include "queueing/admission_state.h"

#include "core/check.h"

namespace berth::queueing {

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
  BERTH_CHECK(!held_[static_cast<size_t>(wl)].has_value(), "workload already holds quota");
  AddUsage(quota.cq, quota.usage);
  const size_t q = static_cast<size_t>(quota.cq);
  held_[static_cast<size_t>(wl)] = std::move(quota);
  admitted_by_cq_[q].insert(wl);  // after held_ is set: the order reads it
}

HeldQuota AdmissionState::Release(int32_t wl) {
  auto& slot = held_[static_cast<size_t>(wl)];
  // Only holders are released: preemption targets come from admitted_by_cq_.
  BERTH_CHECK(slot.has_value(), "releasing a workload that holds no quota");
  admitted_by_cq_[static_cast<size_t>(slot->cq)].erase(wl);  // before held_ is cleared
  HeldQuota quota = std::move(*slot);
  slot.reset();
  RemoveUsage(quota.cq, quota.usage);
  return quota;
}

}  // namespace berth::queueing
