// Gang binding: the pods of one gang bound at once on a member cluster's binding::Scheduler,
// all or nothing (Scheduler::ScheduleGang undoes what it bound when a pod does not fit),
// with a verdict per pod. The one place the engine does it, for Kueue admission checks in
// `berth plan` (BindingOracle: a workload's own pods with the admitted spec), fleet dispatch
// (FleetDispatcher: a hub workload's pods as guests of a worker's scheduler) and berth
// simulate (GuestBinder: admitted workloads' pods as guests). Guests are pods the snapshot
// lacks; GuestSlots keeps the scheduler slots they take (Scheduler::AddPod) and reuses a
// slot once its pod is unbound (Scheduler::OverridePod), so a scheduler grows to the most
// guests bound at once, not to every guest ever tried. Borrows the scheduler; one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "binding/scheduler.h"
#include "model/decision.h"
#include "model/snapshot.h"

namespace berth::engine {

struct GangVerdict {
  bool placed = false;
  // One per pod, in the order given; bound pods carry their node. After a failure, pods the
  // attempt had bound (undone) or left untried carry Coscheduling's rejection, and the pods
  // that did not fit carry their own unschedulable decision.
  std::vector<model::PodDecision> decisions;
  // Pods that did not fit on their own (not rejected because the gang as a whole failed),
  // and the position of the first of them.
  int32_t failed = 0;
  std::optional<size_t> first_failure;

  // The message of the first pod that did not fit on its own and has one; empty if none.
  std::string_view FirstMessage() const;
};

// Binds `pods` (distinct, pending, already in the scheduler) as one gang.
GangVerdict BindGang(binding::Scheduler& scheduler, const std::vector<model::PodIndex>& pods);

// Guest pods on one scheduler. Movable; the scheduler must outlive it.
class GuestSlots {
 public:
  explicit GuestSlots(binding::Scheduler& scheduler) : scheduler_(&scheduler) {}

  binding::Scheduler& scheduler() const { return *scheduler_; }

  // Binds `pods` as one gang of guests. When placed, `*slots` holds their slots (one per
  // pod, in order), bound until Release; otherwise the slots are free again and `*slots` is
  // empty. O(the pods' ScheduleGang).
  GangVerdict Bind(const std::vector<model::Pod>& pods, std::vector<model::PodIndex>* slots);
  // Binds one guest on its own (ScheduleOne); nullopt, and the slot free again, when it
  // does not fit.
  std::optional<model::PodIndex> BindOne(const model::Pod& pod);
  // Unbinds guests Bind or BindOne bound and frees their slots.
  void Release(const std::vector<model::PodIndex>& slots);

 private:
  // A pending slot holding `pod`: the last one freed, or a new one.
  model::PodIndex Take(const model::Pod& pod);

  binding::Scheduler* scheduler_;
  std::vector<model::PodIndex> spare_;  // slots whose pod is not bound, reused last-freed first
};

}  // namespace berth::engine
