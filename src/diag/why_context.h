// What `berth why` learns about its target from the baseline plan, shared by the chain
// (why_chain.h) and the fixes (why_fixes.h): the resolved target, the plan, the target's
// Kueue decision or its representative pod's per-node verdicts grouped by first failing
// filter, and each node's free capacity at the moment the pod was scheduled. Built once by
// AnswerWhy; read-only afterwards. Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diag/why.h"
#include "diag/why_target.h"
#include "engine/explain_types.h"
#include "engine/explain_workload.h"
#include "engine/plan.h"
#include "model/resources.h"
#include "model/snapshot.h"

namespace berth::diag {

// Nodes that rejected the pod for the same first failing filter and reason (the way
// kube-scheduler counts them), with the layer that filter belongs to.
struct NodeGroup {
  std::string plugin;
  std::string reason;
  WhyLayer layer = WhyLayer::kNode;
  std::vector<int32_t> nodes;  // indices into the input's nodes, in name order
  // The filter's detail on the first node, when it has one (DynamicResources: which claim
  // and request could not be satisfied and why).
  std::string detail;
};

struct WhyContext {
  const model::Snapshot* input = nullptr;
  const WhyOptions* options = nullptr;
  ResolvedTarget target;
  engine::Plan base;

  // kKueue: its decision in the baseline plan and its ClusterQueue's state (null when the
  // queue is unknown), and the fleet dispatch when its ClusterQueue has a fleet check.
  const engine::WorkloadDecision* decision = nullptr;
  const engine::ClusterQueueState* cluster_queue = nullptr;
  const engine::Dispatch* dispatch = nullptr;

  // The pod whose nodes are explained: the target pod, or the first of the target's pods
  // the plan left pending; -1 when none is (or the explanation was not available).
  int32_t pod = -1;
  std::optional<model::PodDecision> pod_decision;
  std::vector<NodeGroup> groups;  // from engine::ExplainPod; empty: see pod_decision
  // Per input node: allocatable minus what pods bound in the input and pods the plan bound
  // before `pod` hold; computed only when `pod` is set.
  std::vector<model::ResourceVector> free_at_turn;
};

// The layer a kube-scheduler filter's rejection belongs to: DRA, GPU-sharing plugins and
// resource fits that are only about accelerators are "device", spread and pod
// (anti-)affinity are "topology", the rest "node".
WhyLayer LayerOfFilter(const std::string& plugin, const std::string& reason);

// Whether a resource name is an accelerator's (nvidia.com/gpu, nvidia.com/mig-1g.10gb,
// amd.com/gpu, ...).
bool IsAcceleratorResource(const std::string& name);

// How a node is described when nodes are grouped: its GPU product label, else "no GPU"
// when it has no accelerator capacity, else "GPU without product label".
std::string NodeClassOf(const model::Node& node);

// Whether the target runs in `plan` (pods bound, Workload admitted and dispatched), and
// its state there. `input` is the snapshot the plan was made from.
WhyState StateIn(const engine::Plan& plan, const model::Snapshot& input,
                 const ResolvedTarget& target, bool* runs);

// The Kueue decision for workload `w` in `plan`, or nullptr.
const engine::WorkloadDecision* DecisionIn(const engine::Plan& plan, const model::Snapshot& input,
                                           int32_t w);

// "a, b, c, +4 more".
std::string NameList(const std::vector<std::string>& names, size_t shown = 3);

// An amount in the resource's units ("8", "500m", "16Gi").
std::string AmountText(const model::ResourceCatalog& catalog, model::ResourceId id, int64_t amount);

}  // namespace berth::diag
