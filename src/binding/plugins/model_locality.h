// ModelLocality (berth.dev/ModelLocality): a score plugin preferring nodes that already hold
// the pod's models and datasets, weighted by their size, as ImageLocality does for images.
// A pod's artifacts are:
// - each entry of its berth.dev/models annotation ("name[=size],...", size 1 when omitted),
//   held by a node labelled models.cache.berth.dev/<name>=true;
// - for a KServe predictor pod (label serving.kserve.io/inferenceservice), its
//   InferenceService's model (model::ModelCacheName, size berth.dev/model-size), same label;
// - each persistentVolumeClaim volume naming a Fluid Dataset of the pod's namespace (Fluid
//   names a dataset's PVC after it), size status.ufsTotal, held by a node labelled
//   fluid.io/s-<namespace>-<dataset>=true (Fluid's cache-worker label).
// Score = trunc(100 × bytes the node holds / bytes of all the pod's artifacts); a pod with
// none is skipped (PreScore false). berth's own plugin: only a profile that lists it under
// plugins.score.enabled weighs it (docs/binding.md "ModelLocality"), since kube-scheduler
// must run it too for the plan to stay true. Made per pod by MakeScorePlugins; O(artifacts)
// label lookups per node.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "binding/framework/cycle_context.h"
#include "binding/framework/score_plugin.h"

namespace berth::binding {

inline constexpr std::string_view kModelLocality = "berth.dev/ModelLocality";

// One artifact of a pod: the node label that says a node holds it, and its weight in bytes.
struct PodArtifact {
  std::string node_label;
  double bytes = 1;
};

// The pod's artifacts as listed above, in that order; an entry whose size does not parse
// counts 1 (io validates the annotations berth reads; this one is also free text).
std::vector<PodArtifact> PodArtifacts(const model::Snapshot& snapshot, const model::Pod& pod);

// Whether the profile weighs ModelLocality and the pod has an artifact it would score; such
// pods leave binding's index (IndexedPath), whose classes do not see cache labels. Cheap:
// no allocation for a pod without the annotation, the KServe label or a PVC volume.
bool ModelLocalityScoresPod(const CycleContext& ctx);

class ModelLocalityScore final : public ScorePlugin {
 public:
  std::string_view Name() const override { return kModelLocality; }
  bool PreScore(const CycleContext& ctx, std::span<const model::NodeIndex> feasible) override;
  int64_t Score(const CycleContext& ctx, model::NodeIndex node) const override;

 private:
  std::vector<PodArtifact> artifacts_;
  double total_bytes_ = 0;
};

}  // namespace berth::binding
