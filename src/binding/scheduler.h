// Scheduler: kube-scheduler's semantics for one cluster, one pod at a time. Filters
// (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodeResourcesFit,
// PodTopologySpread, InterPodAffinity, and DynamicResources for pods with ResourceClaims,
// which allocates their devices on bind; VolumeRestrictions, NodeVolumeLimits, VolumeBinding
// and VolumeZone for pods with PersistentVolumeClaim volumes, which bind claims on bind) then scores (NodeResourcesFit with the profile's
// strategy, NodeResourcesBalancedAllocation, TaintToleration, NodeAffinity,
// PodTopologySpread, InterPodAffinity), highest total wins, ties to the node name that
// sorts first.
// Pods already bound consume capacity. Beyond one pod at a time: ScheduleGang places a pod
// group all or nothing, Unbind takes a pod off its node (preemption victims, rollback), and
// OverridePod changes a pending pod's node constraints (Kueue's flavor, a topology domain).
// Borrows the Snapshot for its lifetime (it copies the config); holds the evolving per-node
// state. Semantics and the index: docs/binding.md. Not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
  // The cluster's nodes, when the snapshot does not hold them: node i of this Scheduler
  // (NodeIndex{i} in decisions, explanations and NodeFree) is
  // (*node_source)[node_indices[i]], and the snapshot's own nodes are ignored. A fleet's
  // member cluster borrows its nodes from the whole input this way instead of copying them.
  // Only where CanBorrowNodes(snapshot) holds (BERTH_CHECK). Both borrowed for the
  // Scheduler's lifetime.
  const std::vector<model::Node>* node_source = nullptr;
  std::span<const model::NodeIndex> node_indices;
};

// Whether a Scheduler on `snapshot` may take its nodes from SchedulerOptions::node_source:
// not when the snapshot has DRA objects (DeviceClasses, ResourceClaims or their templates,
// ResourceSlices, pods with claims) or GPU-fraction pods, because the device allocator and
// the fraction ledgers index the snapshot's own nodes. O(pods).
bool CanBorrowNodes(const model::Snapshot& snapshot);

// One ResourceClaim placed with a pod: the DynamicResources plugin's Reserve and PreBind.
struct ClaimBinding {
  model::PodIndex pod;
  devices::ClaimIndex claim;  // index into Snapshot::resource_claims
  // True when this bind allocated the claim; false when it was allocated already (read so,
  // or allocated for an earlier pod sharing it) and the pod only joins its consumers.
  bool allocated = false;
  model::AllocationResult allocation;  // the claim's allocation after the bind
};

// One PersistentVolumeClaim bound by a bind in this plan (VolumeBinding's PreBind): a
// WaitForFirstConsumer claim given an available volume (spec.volumeName and the volume's
// claimRef), or left to its class's provisioner on the pod's node (the selected-node
// annotation).
struct PlannedVolumeBinding {
  model::PodIndex pod;  // the pod whose bind made it
  int32_t claim = -1;   // index into Snapshot::persistent_volume_claims
  int32_t volume = -1;  // index into Snapshot::persistent_volumes; -1: provisioned on `node`
  std::string node;     // the node's name
};

// What ScheduleGang did.
struct GangOutcome {
  // At least min_bound of the pods are bound (and stay bound).
  bool placed = false;
  // One per pod given, in order. Bound pods carry their node. When the gang failed, every
  // pod this call had bound was unbound again and carries a Coscheduling rejection
  // (kReasonGangRejected), the pods that did not fit carry their own unschedulable
  // decision, and the pods left untried once min_bound was out of reach carry the
  // Coscheduling rejection too.
  std::vector<model::PodDecision> decisions;
  // How many of the pods are bound when the call returns: 0 after a failure unless some
  // were bound before the call (those are never unbound by it).
  int32_t bound = 0;
};

// The plugin and reason of the decisions of a gang's pods undone or left untried because
// the gang as a whole could not be placed: scheduler-plugins' Coscheduling, whose PostFilter
// rejects the group's waiting pods with this text.
inline constexpr std::string_view kCoscheduling = "Coscheduling";
inline constexpr std::string_view kReasonGangRejected = "optimistic rejection in PostFilter";

// What DefaultPreemption (kube-scheduler's PostFilter) found for a pod that fits no node.
struct PreemptionOutcome {
  // The node chosen, where the victims' removal lets the pod fit (status.nominatedNodeName).
  std::optional<model::NodeIndex> node;
  std::vector<model::PodIndex> victims;  // on `node`, most important first
  int32_t pdb_violations = 0;            // victims whose removal breaks a PodDisruptionBudget
  int32_t candidates = 0;                // candidate nodes compared
  // The pickOneNodeForPreemption rule that chose `node` ("fewest PDB violations", ...,
  // "only candidate", "first candidate").
  std::string criterion;
  // The PostFilter's message, "preemption: ..." as upstream appends it to the pod's
  // "0/N nodes are available: ..." (after a space); empty when a node was chosen.
  std::string message;
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

  // Replaces the scheduling constraints of a pending pod before it is scheduled: Kueue
  // injects the admitted flavor's nodeLabels into nodeSelector and its tolerations, and
  // topology-aware scheduling pins pods to a domain through a nodeSelector. `replacement`
  // is the pod as it must be scheduled from now on (ScheduleOne, ScheduleGang, Explain;
  // QueueOrder keeps the snapshot's order); only node_selector, node_affinity, tolerations
  // and labels/annotations may differ from the pod's. Adding GPU-fraction annotations in a
  // snapshot where no pod has them finds no GPU to share. Preconditions (BERTH_CHECK): the
  // pod is not bound, and the replacement has its name, namespace and no spec.nodeName
  // (a guest slot of AddPod may take any guest pod: fleet dispatch reuses slots).
  void OverridePod(model::PodIndex pod, const model::Pod& replacement);

  // Adds a pending pod the snapshot lacks (a guest: a hub workload's pod tried on this
  // member cluster by fleet dispatch) and returns its index, which follows the snapshot's
  // pods. It is never in QueueOrder; ScheduleOne, ScheduleGang, Unbind and OverridePod take
  // it like any pod. Preconditions (BERTH_CHECK): no spec.nodeName and no ResourceClaims
  // (claims live in the cluster that owns them). O(1) amortised.
  model::PodIndex AddPod(const model::Pod& pod);

  // All or nothing, as kube-scheduler's coscheduling and Kueue's gangs: schedules `pods`
  // (distinct) in the given order; once fewer than `min_bound` (-1: all of them) can end
  // up bound, stops and unbinds every pod this call bound, newest first, which restores
  // node resources, the index, inter-pod affinity and spread counts, fractional GPUs,
  // device allocations and claim reservations exactly: the next pod gets the node it would
  // have got without the attempt. With placed=true the pods beyond min_bound that did not
  // fit stay unbound. Pods bound before the call count as bound and are left alone. Cost:
  // the pods' ScheduleOne, plus their Unbind on failure.
  GangOutcome ScheduleGang(const std::vector<model::PodIndex>& pods, int32_t min_bound = -1);

  // Removes a bound pod (bound in the input or by this Scheduler), as its deletion would:
  // its node's resources, signature and affinity counts and GPU portions come free, it
  // leaves the reservedFor of its ResourceClaims, and a claim no pod reserves any more is
  // deallocated (its devices free), so later pods can use all of it. For preemption
  // victims and rollback. A pod this Scheduler bound is pending again (QueueOrder lists it);
  // a pod bound in the input is not listed but may be passed to ScheduleOne, which then
  // places it as if its spec.nodeName were empty. Precondition (BERTH_CHECK): the pod is
  // bound. O(resources + the pod's claims + placed pods with affinity terms), no rebuild.
  void Unbind(model::PodIndex pod);

  // The ResourceClaim `claim` (an index into Snapshot::resource_claims) with the status
  // this Scheduler now gives it: its allocation (as read, made by a bind, or none once an
  // Unbind released it) and the pods it is reserved for. What the engine writes for claims
  // whose pods were unbound in the input.
  model::ResourceClaim ClaimStatus(devices::ClaimIndex claim) const;

  // DefaultPreemption's PostFilter for a pending pod ScheduleOne could not place: unless
  // the pod's preemptionPolicy is Never, the nodes where it failed for a reason removing
  // pods can fix (not node affinity, taints, nodeName, unschedulable, ...) are tried in name
  // order, each with SelectVictimsOnNode (every pod of strictly lower priority removed, then
  // as many put back as still let the pod fit: PDB-violating ones first, most important
  // first), until upstream's candidate count is reached; the winner is picked by
  // pickOneNodeForPreemption. Binds and unbinds nothing: the caller unbinds the victims (a
  // settled plan) or nominates the pod (one cycle). Cost: the candidates' pods, times their
  // fit checks; pods the index covers visit no node class that static filters reject.
  PreemptionOutcome Preempt(model::PodIndex pod);

  // Reserves `node` for a pending pod Preempt nominated there but that stays unbound (one
  // cycle: its victims are still terminating), as kube-scheduler's nominator does: the pods
  // scheduled after it (by queue order, none more important) see its requests, ports and
  // affinity terms on the node (RunFilterPluginsWithNominatedPods), so a second preemptor
  // picks another node rather than the one already promised. The pod stays unbound, is never
  // a victim, reserves no claim or volume; ScheduleOne or ScheduleOnNominated of the pod
  // releases the reservation first. Precondition (BERTH_CHECK): the pod is neither bound
  // nor nominated. O(resources).
  void Nominate(model::PodIndex pod, model::NodeIndex node);

  // Undoes Nominate for `pod` (nothing when it holds no node): the pod is then explained
  // without its own hold, as upstream's filters skip the pod itself. O(resources).
  void ReleaseNomination(model::PodIndex pod);

  // ScheduleOne for a pod nominated to `node` (status.nominatedNodeName, or after Preempt):
  // upstream tries the nominated node first and takes it when every filter passes there;
  // otherwise the pod is scheduled as ScheduleOne does.
  model::PodDecision ScheduleOnNominated(model::PodIndex pod, model::NodeIndex node);

  // Evaluates every filter and score on every node for `pod` at the current state, without
  // binding. Linear in nodes; for explain, and as the reference the index is tested against.
  PodExplanation Explain(model::PodIndex pod) const;

  // Free capacity as binding accounts it: a node's allocatable minus what the pods bound
  // there request (the input's bound pods, every bind and unbind since; guests included),
  // per resource in ResourceVector units; negative on an overcommitted node. The node's is
  // O(resources); the cluster's sums every node of the snapshot, O(nodes x resources).
  model::ResourceVector NodeFree(model::NodeIndex node) const;
  model::ResourceVector ClusterFree() const;

  SchedulerStats stats() const;

  // The ResourceClaims of every pod this Scheduler bound and that is still bound, in bind
  // order: each claim's allocation and whether the bind made it (after an Unbind, the next
  // binding of a claim that stays allocated is the one that made it; a claim released by
  // an Unbind is in none). The pod is then reserved for the claim (status.reservedFor).
  const std::vector<ClaimBinding>& ClaimBindings() const;

  // The PersistentVolumeClaims bound by the pods this Scheduler bound and that are still
  // bound, in bind order (an Unbind releases what its pod's bind planned once no bound pod
  // uses the claim). What the engine writes back.
  const std::vector<PlannedVolumeBinding>& VolumeBindings() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace berth::binding
