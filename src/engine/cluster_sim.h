// ClusterSim: one member cluster's engine kept across virtual time, for berth simulate: its
// Kueue (queueing::AdmissionScheduler used incrementally: workloads are submitted as they
// arrive, finished as they end, and each Schedule call runs only the cycles the changes
// cause) and its kube-scheduler (binding::Scheduler through GuestBinder: the admitted
// workloads' pods bound as gangs, blockers for failed or drained capacity). Admission is by
// quota, as Kueue without TAS: an admitted workload whose pods do not fit the nodes yet holds
// its quota until Bind succeeds. The world snapshot (queues, nodes, and every workload that
// will ever be submitted) must outlive it. One thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/time.h"
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

class GuestBinder;

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

  bool has_nodes() const { return binder_ != nullptr; }

  // Kueue. Submit: the workload arrives or comes back (queue_order_time: Kueue's requeue
  // timestamp after an eviction). Finish: it ended or was evicted outside Kueue; its quota is
  // freed (its pods are the caller's to Unbind). Schedule: the cycles at `now`; changes in
  // the order they happened (a workload may be admitted, preempted and admitted again).
  void Submit(int32_t wl, std::optional<core::Timestamp> queue_order_time = std::nullopt);
  void Finish(int32_t wl);
  std::vector<SimChange> Schedule(core::Timestamp now, int32_t* cycles);
  const std::optional<model::Admission>& admission(int32_t wl) const;

  // kube-scheduler. Bind: every pod of the admitted workload, all or nothing.
  bool Bind(int32_t wl);
  void Unbind(int32_t wl);
  const std::vector<int32_t>& NodesOf(int32_t wl) const;
  std::vector<int32_t> WorkloadsOn(int32_t node) const;
  // Free `resource` on the freest node and in all (a necessary condition for Bind). O(nodes).
  struct Free {
    int64_t max_node = 0;
    int64_t total = 0;
  };
  Free FreeOf(model::ResourceId resource) const;
  // Capacity out of service (counted): a whole node (whatever is free there, kept full as
  // workloads leave), or `gpus` of its GPU resource.
  void Fill(int32_t node);
  void Unfill(int32_t node);
  bool FillGpus(int32_t node, int32_t gpus, model::ResourceId gpu);
  void UnfillGpus(int32_t node, int32_t gpus);

 private:
  const model::Snapshot& world_;
  std::unique_ptr<binding::Scheduler> scheduler_;
  std::unique_ptr<GuestBinder> binder_;
  std::unique_ptr<queueing::AdmissionScheduler> kueue_;
};

}  // namespace berth::engine
