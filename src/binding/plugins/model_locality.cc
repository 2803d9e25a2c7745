// Why a label score and not the transfer model's seconds: a node's load time differs from
// another's in the same cluster mostly by whether it holds the bytes (its NIC and the
// origin are shared by all), so "bytes held / bytes needed" orders nodes as the estimate
// would, and it needs no bandwidth the profile does not know. The fetch schedule
// (engine/model_load.h) then says how long the pods it placed wait.
#include "binding/plugins/model_locality.h"

#include "binding/framework/plugin_names.h"
#include "core/quantity.h"
#include "model/berth_names.h"
#include "model/data_objects.h"

namespace berth::binding {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "name[=size],..." into artifacts; a size that does not parse, or none, weighs 1.
void AddAnnotated(std::string_view text, std::vector<PodArtifact>* out) {
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const size_t eq = item.find('=');
    std::string_view name = Trim(item.substr(0, eq));
    if (name.empty()) continue;
    PodArtifact a;
    a.node_label = std::string(model::kModelCacheLabelPrefix) + std::string(name);
    if (eq != std::string_view::npos) {
      core::Result<core::Quantity> q = core::Quantity::Parse(Trim(item.substr(eq + 1)));
      if (q.has_value()) {
        core::Result<int64_t> v = q->Value();
        if (v.has_value() && *v > 0) a.bytes = static_cast<double>(*v);
      }
    }
    out->push_back(std::move(a));
  }
}

const std::string* FindValue(const core::Labels& labels, std::string_view key) {
  auto it = labels.find(key);
  return it == labels.end() ? nullptr : &it->second;
}

bool HasClaimVolume(const model::Pod& pod) {
  for (const model::PodVolume& v : pod.volumes) {
    if (!v.claim_name.empty()) return true;
  }
  return false;
}

}  // namespace

std::vector<PodArtifact> PodArtifacts(const model::Snapshot& snapshot, const model::Pod& pod) {
  std::vector<PodArtifact> out;
  if (const std::string* models = FindValue(pod.meta.annotations, model::kBerthModelsKey)) {
    AddAnnotated(*models, &out);
  }
  if (const std::string* isvc = FindValue(pod.meta.labels, model::kInferenceServiceLabel)) {
    for (const model::InferenceServiceModel& m : snapshot.inference_services) {
      if (m.meta.name != *isvc || m.meta.namespace_ != pod.meta.namespace_) continue;
      PodArtifact a;
      a.node_label = std::string(model::kModelCacheLabelPrefix) + model::ModelCacheName(m);
      if (m.size_bytes.has_value() && *m.size_bytes > 0) a.bytes = static_cast<double>(*m.size_bytes);
      // The annotation may name the same model: count it once.
      bool seen = false;
      for (const PodArtifact& b : out) seen = seen || b.node_label == a.node_label;
      if (!seen) out.push_back(std::move(a));
      break;
    }
  }
  for (const model::PodVolume& v : pod.volumes) {
    if (v.claim_name.empty()) continue;
    for (const model::Dataset& d : snapshot.datasets) {
      if (d.meta.name != v.claim_name || d.meta.namespace_ != pod.meta.namespace_) continue;
      PodArtifact a;
      a.node_label = model::FluidDatasetLabel(d.meta);
      if (d.ufs_total_bytes.has_value() && *d.ufs_total_bytes > 0) {
        a.bytes = static_cast<double>(*d.ufs_total_bytes);
      }
      out.push_back(std::move(a));
      break;
    }
  }
  return out;
}

bool ModelLocalityScoresPod(const CycleContext& ctx) {
  if (ctx.profile.Weight(kModelLocality) == 0) return false;
  const model::Pod& pod = ctx.pod;
  if (FindValue(pod.meta.annotations, model::kBerthModelsKey) == nullptr &&
      FindValue(pod.meta.labels, model::kInferenceServiceLabel) == nullptr &&
      !(HasClaimVolume(pod) && !ctx.snapshot.datasets.empty())) {
    return false;
  }
  return !PodArtifacts(ctx.snapshot, pod).empty();
}

bool ModelLocalityScore::PreScore(const CycleContext& ctx,
                                  std::span<const model::NodeIndex> /*feasible*/) {
  artifacts_ = PodArtifacts(ctx.snapshot, ctx.pod);
  total_bytes_ = 0;
  for (const PodArtifact& a : artifacts_) total_bytes_ += a.bytes;
  return !artifacts_.empty();
}

int64_t ModelLocalityScore::Score(const CycleContext& ctx, model::NodeIndex node) const {
  const core::Labels& labels = ctx.state.node(node).meta.labels;
  double held = 0;
  for (const PodArtifact& a : artifacts_) {
    const std::string* v = FindValue(labels, a.node_label);
    if (v != nullptr && *v == "true") held += a.bytes;
  }
  return static_cast<int64_t>(static_cast<double>(kMaxNodeScore) * held / total_bytes_);
}

}  // namespace berth::binding
