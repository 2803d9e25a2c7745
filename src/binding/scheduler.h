// Scheduler: kube-scheduler's semantics for one cluster, one pod at a time. Filters
// (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit,
// PodTopologySpread, InterPodAffinity, and DynamicResources for pods with ResourceClaims,
// which allocates their devices on bind) then scores (NodeResourcesFit with the profile's
// strategy, NodeResourcesBalancedAllocation, TaintToleration, NodeAffinity,
// PodTopologySpread, InterPodAffinity), highest total wins, ties to the node name that
// sorts first.
// Pods already bound consume capacity. Borrows the Snapshot for its lifetime (it copies the
// config); holds the evolving per-node state. Semantics and the index: docs/binding.md.
// Not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "devices/allocator.h"
#include "model/decision.h"
#include "model/scheduler_config.h"
#include "model/snapshot.h"

namespace berth::binding {

// One score plugin's contribution on one node.
struct PluginScore {
  std::string plugin;
  int64_t raw = 0;         // before normalization
  int64_t normalized = 0;  // 0..100 after the plugin's NormalizeScore
  int32_t weight = 0;
  int64_t weighted() const { return normalized * weight; }
};

// One filter's verdict on one node.
struct FilterVerdict {
  FilterVerdict() = default;
  // {plugin, passed, reason}, as callers wrote it before `detail` came.
  FilterVerdict(std::string plugin_name, bool passed_value, std::string reason_text,
                std::string detail_text = "")
      : plugin(std::move(plugin_name)),
        passed(passed_value),
        reason(std::move(reason_text)),
        detail(std::move(detail_text)) {}

  std::string plugin;
  bool passed = true;
  std::string reason;  // kube-scheduler's reason text when not passed
  // berth's detail beyond the reason, when the plugin has one (DynamicResources: the devices
  // each request got, or which claim and request could not be satisfied and why).
  std::string detail;
};

struct NodeVerdict {
  model::NodeIndex node;
  bool feasible = false;
  std::vector<FilterVerdict> filters;  // every filter that ran, in plugin order
  std::vector<PluginScore> scores;     // feasible nodes only
  int64_t total_score = 0;
};

struct PodExplanation {
  model::PodIndex pod;
  std::vector<NodeVerdict> nodes;  // every node, in name order
  model::PodDecision decision;     // what ScheduleOne would decide now
};

struct SchedulerOptions {
  SchedulerOptions() = default;
  // SchedulerOptions{use_index}, as callers wrote it before the DRA fields came.
  explicit SchedulerOptions(bool use_index_value) : use_index(use_index_value) {}

  // Decide the pods the index covers through it (docs/binding.md). false sends every pod
  // through the per-node reference path: the baseline the index is tested and benchmarked
  // against. Both decide identically.
  bool use_index = true;
  // The member cluster the snapshot holds, whose ResourceClaims and ResourceSlices the
  // device allocator reads; empty: the cluster of the first node (or pod), else "default".
  std::string cluster;
  // Where the device allocator reports problems in the DRA objects (a selector that does
  // not compile, an unknown DeviceClass, an invalid pool) when it is built; null: dropped.
  // Borrowed for the Scheduler's lifetime.
  core::Diagnostics* diagnostics = nullptr;
};

// One ResourceClaim placed with a pod: the DynamicResources plugin's Reserve and PreBind.
struct ClaimBinding {
  model::PodIndex pod;
  devices::ClaimIndex claim;  // index into Snapshot::resource_claims
  // True when this bind allocated the claim; false when it was allocated already (read so,
  // or allocated for an earlier pod sharing it) and the pod only joins its consumers.
  bool allocated = false;
  model::AllocationResult allocation;  // the claim's allocation after the bind
};

// How ScheduleOne decided, for benchmarks and tests.
struct SchedulerStats {
  int64_t indexed = 0;       // pods decided by the index
  int64_t reference = 0;     // pods decided node by node
  int32_t node_classes = 0;  // equivalence classes the index groups the nodes into
};

class Scheduler {
 public:
  Scheduler(const model::Snapshot& snapshot, const model::SchedulerConfig& config);
  Scheduler(const model::Snapshot& snapshot, const model::SchedulerConfig& config,
            const SchedulerOptions& options);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Pending pods (unbound, not terminal, schedulerName served by a profile), by priority
  // (high first), then creation time, then namespace/name.
  std::vector<model::PodIndex> QueueOrder() const;

  // Decides one pod against the current state and, when a node is chosen, binds it there so
  // later pods see it. Cost: sub-linear in nodes for pods without inter-pod constraints
  // (nodes are indexed by equivalence class and free capacity).
  model::PodDecision ScheduleOne(model::PodIndex pod);

  // ScheduleOne over QueueOrder().
  std::vector<model::PodDecision> ScheduleAll();

  // Evaluates every filter and score on every node for `pod` at the current state, without
  // binding. Linear in nodes; for explain, and as the reference the index is tested against.
  PodExplanation Explain(model::PodIndex pod) const;

  SchedulerStats stats() const;

  // The ResourceClaims of every pod bound so far, in bind order: each claim's allocation and
  // whether the bind made it. The pod is then reserved for the claim (status.reservedFor).
  const std::vector<ClaimBinding>& ClaimBindings() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace berth::binding
