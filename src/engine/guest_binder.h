// GuestBinder: berth simulate's kube-scheduler for one cluster (ClusterSim::binder()): the
// pods of admitted workloads (GuestPods: their pod set templates with the flavors' node
// labels and tolerations) are bound as one gang each (GuestSlots, gang_binding.h: the same
// filters and scores as `berth plan`, all or nothing) and unbound when the workload ends or
// is preempted; guest slots of ended workloads are reused, so the scheduler grows to the
// most pods ever running at once, not to every pod of a trace. It knows which workloads run
// on each node (node failures, drains) and takes nodes or GPUs out of service with blocker
// pods (the scheduler has no run-time cordon). Free capacity is the scheduler's own
// (Scheduler::NodeFree). A cluster without nodes only admits: TryPlace always succeeds and
// nothing is placed. Also a queueing::PlacementOracle. Borrows the snapshot and the
// scheduler; one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <unordered_map>
#include <vector>

#include "binding/scheduler.h"
#include "engine/gang_binding.h"
#include "model/snapshot.h"
#include "queueing/placement_oracle.h"

namespace berth::engine {

class GuestBinder : public queueing::PlacementOracle {
 public:
  GuestBinder(const model::Snapshot& world, binding::Scheduler& scheduler, std::string cluster);

  bool has_nodes() const { return has_nodes_; }
  bool TryPlace(int32_t workload, const model::Admission& admission, std::string* why) override;
  void Release(int32_t workload) override;

  // The nodes (snapshot indices) the workload's pods are bound to, one per pod.
  const std::vector<int32_t>& NodesOf(int32_t workload) const;
  // Workloads with at least one pod on `node`, ascending. O(workloads there · log).
  std::vector<int32_t> WorkloadsOn(int32_t node) const;
  // Free amount of `resource` on the most free node and over all the cluster's nodes
  // (Scheduler::NodeFree, not below 0 per node; blockers hold what they cover): a necessary
  // condition callers check before a gang attempt. O(nodes).
  struct FreeSummary {
    int64_t max_node = 0;
    int64_t total = 0;
  };
  FreeSummary Free(model::ResourceId resource) const;

  // Takes `node` out of service: a blocker pod (tolerating every taint, pinned to the node)
  // takes whatever is free there, and is re-made whenever a workload leaves it, so nothing
  // new binds until Unfill (a cordon, and for an emptied node its removal). Counted: each
  // Fill needs its own Unfill. O(resources) per call and per later release on the node.
  void Fill(int32_t node);
  void Unfill(int32_t node);
  bool filled(int32_t node) const { return fills_.count(node) != 0; }
  // Holds `gpus` of the node's `gpu` resource out of service (failed GPUs) until UnfillGpus
  // with the same count. false when they are not free (the caller fails their jobs first).
  bool FillGpus(int32_t node, int32_t gpus, model::ResourceId gpu);
  void UnfillGpus(int32_t node, int32_t gpus);

 private:
  // A pod pinned to `node` asking for `requests`, tolerating everything.
  model::Pod Blocker(int32_t node, const model::ResourceVector& requests) const;
  // Binds a blocker of the node's free resources; returns its slot.
  std::optional<model::PodIndex> BindFill(int32_t node);
  // Re-makes a filled node's blocker at what is free now.
  void Refill(int32_t node);

  const model::Snapshot& world_;
  binding::Scheduler& scheduler_;
  std::string cluster_;
  bool has_nodes_ = false;
  GuestSlots guests_;
  struct Placed {
    std::vector<model::PodIndex> pods;
    std::vector<int32_t> nodes;  // per bound pod
  };
  std::unordered_map<int32_t, Placed> placed_;            // workload -> its bound pods
  std::vector<std::unordered_map<int32_t, int32_t>> on_node_;  // node -> workload -> pods
  struct FillState {
    int32_t count = 0;
    std::optional<model::PodIndex> pod;
  };
  std::unordered_map<int32_t, FillState> fills_;  // node -> its fill blocker
  std::unordered_map<int32_t, std::vector<std::pair<int32_t, model::PodIndex>>> gpu_fills_;
};

}  // namespace berth::engine
