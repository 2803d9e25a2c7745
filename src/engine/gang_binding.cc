#include "engine/gang_binding.h"

namespace berth::engine {
namespace {

GangVerdict Verdict(binding::GangOutcome outcome) {
  GangVerdict out;
  out.placed = outcome.placed;
  out.decisions = std::move(outcome.decisions);
  if (out.placed) return out;
  for (size_t i = 0; i < out.decisions.size(); ++i) {
    const model::PodDecision& d = out.decisions[i];
    if (d.node) continue;
    // Undone or untried because another pod failed: Coscheduling's rejection, not the pod's.
    const bool gang_rejection =
        !d.rejections.empty() && d.rejections.front().plugin == binding::kCoscheduling;
    if (gang_rejection) continue;
    ++out.failed;
    if (!out.first_failure) out.first_failure = i;
  }
  return out;
}

}  // namespace

std::string_view GangVerdict::FirstMessage() const {
  if (!first_failure) return {};
  for (size_t i = *first_failure; i < decisions.size(); ++i) {
    const model::PodDecision& d = decisions[i];
    if (d.node || d.message.empty()) continue;
    if (!d.rejections.empty() && d.rejections.front().plugin == binding::kCoscheduling) continue;
    return d.message;
  }
  return {};
}

GangVerdict BindGang(binding::Scheduler& scheduler, const std::vector<model::PodIndex>& pods) {
  return Verdict(scheduler.ScheduleGang(pods));
}

model::PodIndex GuestSlots::Take(const model::Pod& pod) {
  if (spare_.empty()) return scheduler_->AddPod(pod);
  const model::PodIndex slot = spare_.back();
  spare_.pop_back();
  scheduler_->OverridePod(slot, pod);
  return slot;
}

GangVerdict GuestSlots::Bind(const std::vector<model::Pod>& pods,
                             std::vector<model::PodIndex>* slots) {
  slots->clear();
  slots->reserve(pods.size());
  for (const model::Pod& pod : pods) slots->push_back(Take(pod));
  GangVerdict verdict = BindGang(*scheduler_, *slots);
  if (!verdict.placed) {
    // ScheduleGang unbound whatever it had bound: every slot is free again.
    spare_.insert(spare_.end(), slots->begin(), slots->end());
    slots->clear();
  }
  return verdict;
}

std::optional<model::PodIndex> GuestSlots::BindOne(const model::Pod& pod) {
  const model::PodIndex slot = Take(pod);
  if (!scheduler_->ScheduleOne(slot).node) {
    spare_.push_back(slot);
    return std::nullopt;
  }
  return slot;
}

void GuestSlots::Release(const std::vector<model::PodIndex>& slots) {
  for (model::PodIndex p : slots) scheduler_->Unbind(p);
  spare_.insert(spare_.end(), slots.begin(), slots.end());
}

}  // namespace berth::engine
