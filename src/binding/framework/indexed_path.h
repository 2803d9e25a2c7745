// IndexedPath: decides a pod without visiting every node, when the pod's scheduling depends
// on nodes only through their class (node_classes.h) and their resource state (fit_index.h):
// no topology spread constraints, no inter-pod (anti-)affinity terms of its own and none of
// a placed pod selecting it, no spec.nodeName, no matchFields, no selector on a per-node
// label key, no fractional GPU request, no GPU request a GPU-sharing score plugin of its
// profile scores (gpu_share_score.h), no artifact ModelLocality scores (model_locality.h).
// For such a pod PodTopologySpread
// and InterPodAffinity skip, the static filters (NodeUnschedulable, NodeName,
// TaintToleration, NodeAffinity) and the raw TaintToleration /
// NodeAffinity scores are the same for a whole class and are computed once per (static
// signature, class), and the resource filter and scores come from the FitIndex of the pod's
// request signature. The winner is the best class head by total score, ties to the first
// node name; normalization uses the maxima over the classes that still have a fitting node,
// which are the maxima over the feasible nodes. Any other pod returns nullopt and goes to
// the reference path. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "binding/framework/cluster_state.h"
#include "binding/framework/cycle_context.h"
#include "binding/framework/fit_index.h"
#include "binding/framework/node_classes.h"
#include "binding/framework/reason_table.h"
#include "model/decision.h"

namespace berth::binding {

class IndexedPath {
 public:
  IndexedPath(const ClusterState& state, const ResourceTable& resources);
  ~IndexedPath();

  // The decision for ctx.pod at the current state, or nullopt when the index does not cover
  // the pod. Never binds.
  std::optional<model::PodDecision> TryDecide(const CycleContext& ctx);

  // For a pod with ResourceClaims whose totals do not depend on the feasible set (the
  // caller checks: Scheduler::Impl::TryDecideWithClaims): the best node passing the other
  // filters on which `accepts` (the device allocator) says yes, asked best first; nodes
  // with fewer than `min_devices` free devices (ClusterState::free_devices) are skipped
  // unasked. `covered` is false when the index does not take the pod; `node` is empty when
  // no node accepts (the caller then needs the reference path's message).
  struct ProbeOutcome {
    bool covered = false;
    std::optional<model::NodeIndex> node;
  };
  ProbeOutcome FirstAccepting(const CycleContext& ctx, int32_t min_devices,
                              const std::function<bool(model::NodeIndex)>& accepts);

  // For a pod with persistentVolumeClaim volumes (Scheduler::Impl::TryDecideWithVolumes):
  // the best node passing the other filters on which `accepts` (the volume filters) says
  // yes, with TaintToleration and NodeAffinity normalized over the accepting nodes, as the
  // reference path normalizes over the feasible ones. Each passing class is asked node by
  // node in its fit order until one accepts: within a class the static scores are one
  // value, so that node is the class's best, and the maxima over those classes are the
  // maxima over the feasible nodes. Costs a probe per class at least; FirstAccepting is
  // cheaper when normalization cannot depend on the feasible set.
  ProbeOutcome BestAccepting(const CycleContext& ctx,
                             const std::function<bool(model::NodeIndex)>& accepts);

  const NodeClasses& classes() const { return classes_; }

  // For a pod the index covers: per node class, the first static filter's rejection
  // (nullopt: the class passes NodeUnschedulable, NodeName, TaintToleration and
  // NodeAffinity). Null when the index does not cover the pod. DefaultPreemption reads it to
  // find, without visiting every node, the nodes removing pods could help. The vector lives
  // until the next call.
  const std::vector<std::optional<ReasonId>>* StaticRejections(const CycleContext& ctx);

 private:
  // Static verdicts and raw scores of one static signature, per class.
  struct StaticClasses {
    std::vector<std::optional<ReasonId>> rejection;  // per class: first static filter failure
    std::vector<int64_t> taint_raw;                  // per class
    std::vector<int64_t> affinity_raw;               // per class
    std::vector<int32_t> passing;                    // classes without a rejection
    uint64_t last_use = 0;
  };

  bool Eligible(const CycleContext& ctx);
  bool SelectedByPlacedTerms(const CycleContext& ctx);
  StaticClasses& Static(const CycleContext& ctx);
  FitIndex& Fit(const CycleContext& ctx, int32_t min_devices = 0);
  template <typename T>
  void EvictOldest(std::unordered_map<std::string, std::unique_ptr<T>>* cache, size_t limit);

  const ClusterState& state_;
  const ResourceTable& resources_;
  NodeClasses classes_;
  uint64_t clock_ = 0;
  std::string key_;  // scratch
  std::unordered_map<std::string, std::unique_ptr<StaticClasses>> statics_;
  std::unordered_map<std::string, std::unique_ptr<FitIndex>> fits_;
  // Per (namespace, labels) signature: how many placed affinity pods were checked against it
  // and whether one of them selects it (then it stays on the reference path), valid while
  // ClusterState::affinity_removals() is `removals`.
  struct PlacedTermCheck {
    size_t checked = 0;
    bool selected = false;
    uint64_t removals = 0;
  };
  std::vector<PlacedTermCheck> placed_checks_;
  // A class's best fitting node (with enough free devices, for FirstAccepting) and the
  // class's static part of the total: scratch space of TryDecide and FirstAccepting.
  struct Candidate {
    int32_t c;
    FitIndex::Entry entry;
    int64_t offset;
  };
  std::vector<Candidate> candidates_;
  // Fills candidates_: each passing class's best node in `fit` and its normalized taint and
  // affinity offset (the static scores normalized over the classes that have a node).
  void GatherCandidates(const CycleContext& ctx, const StaticClasses& statics, FitIndex& fit);
  // Sets each candidate's offset: the static scores normalized over the candidates' classes.
  void SetOffsets(const CycleContext& ctx, const StaticClasses& statics);
  // The candidate with the highest total, ties to the first node name; candidates_ non-empty.
  std::vector<Candidate>::iterator BestCandidate();
};

}  // namespace berth::binding
