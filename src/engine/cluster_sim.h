// ClusterSim: one member cluster's engine kept across virtual time, for berth simulate: its
// Kueue (queueing::AdmissionScheduler used incrementally, which sim cannot see: workloads
// are submitted as they arrive, finished as they end, and each Schedule call runs only the
// cycles the changes cause) and its kube-scheduler, which the simulator drives directly
// through binder() (GuestBinder: the admitted workloads' pods bound as gangs, blockers for
// failed or drained capacity, free capacity, who runs where). Admission is by quota, as
// Kueue without TAS: an admitted workload whose pods do not fit the nodes yet holds its
// quota until Bind succeeds. The world snapshot (queues, nodes, and every workload that will
// ever be submitted) must outlive it. One thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/time.h"
#include "engine/guest_binder.h"
#include "model/kueue.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::binding {
class Scheduler;
}
namespace berth::queueing {
class AdmissionScheduler;
}

namespace berth::engine {

struct SimChange {
  int32_t workload = -1;
  bool admitted = false;  // true: quota reserved; false: evicted by Kueue's preemption
};

class ClusterSim {
 public:
  // `config`: the binding profile; nullopt: the snapshot's or kube-scheduler's defaults. A
  // cluster without nodes only admits (Bind always succeeds, nothing is placed).
  ClusterSim(const model::Snapshot& world, const std::string& cluster,
             const std::optional<model::SchedulerConfig>& config, core::Diagnostics& diags);
  ~ClusterSim();
  ClusterSim(const ClusterSim&) = delete;
  ClusterSim& operator=(const ClusterSim&) = delete;

  bool has_nodes() const { return binder_->has_nodes(); }

  // Kueue. Submit: the workload arrives or comes back (queue_order_time: Kueue's requeue
  // timestamp after an eviction). Finish: it ended or was evicted outside Kueue; its quota is
  // freed (its pods are the caller's to release). Schedule: the cycles at `now`; changes in
  // the order they happened (a workload may be admitted, preempted and admitted again).
  void Submit(int32_t wl, std::optional<core::Timestamp> queue_order_time = std::nullopt);
  void Finish(int32_t wl);
  std::vector<SimChange> Schedule(core::Timestamp now, int32_t* cycles);
  const std::optional<model::Admission>& admission(int32_t wl) const;
  // The workloads holding quota now, ascending (admission() keeps a workload's last admission
  // after Finish). O(holders · log holders).
  std::vector<int32_t> QuotaHolders() const;

  // Binds every pod of the admitted workload, all or nothing (its Kueue admission given to
  // the binder); false when it has none or the pods do not fit now.
  bool Bind(int32_t wl);
  // The cluster's kube-scheduler: Release(wl) unbinds, NodesOf / WorkloadsOn, Free, and
  // Fill / FillGpus for capacity out of service.
  GuestBinder& binder() { return *binder_; }
  const GuestBinder& binder() const { return *binder_; }
  // For the per-step invariant check (invariants.h): the world, the cluster and its scheduler.
  const model::Snapshot& world() const { return world_; }
  const std::string& cluster() const { return cluster_; }
  const binding::Scheduler& scheduler() const { return *scheduler_; }

 private:
  const model::Snapshot& world_;
  std::string cluster_;
  std::unique_ptr<binding::Scheduler> scheduler_;
  std::unique_ptr<GuestBinder> binder_;
  std::unique_ptr<queueing::AdmissionScheduler> kueue_;
};

}  // namespace berth::engine
