// Why one plan and many schedules: where replicas land is the engine's decision and does not
// depend on how the model gets there (berth's binding does not score load time yet), so the
// strategies differ only in the data module's inputs (copies, limits, origin bandwidth). One
// plan keeps the comparison fair (same nodes for every strategy) and cheap.
//
// Why a staged warm-up is two schedules: the DataLoad to the seed nodes happens before the
// scale-out (an operator runs it ahead of time), so its duration is a cost shown apart; at the
// scale-out the seeds hold the model and serve copies to their cluster (Dragonfly seed peers,
// data::NodeCopy::serves_peers), and the replicas' times count from the scale-out.
#include "sim/modelload/study.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>
#include <utility>

#include "data/data_view.h"
#include "data/fetch_schedule.h"
#include "data/transfer_model.h"
#include "engine/model_load.h"
#include "model/data_objects.h"

namespace berth::sim::modelload {
namespace {

constexpr double kBytesPerGB = 1e9;

bool IsPredictorOf(const model::Pod& pod, const model::InferenceServiceModel& m) {
  if (pod.cluster != m.cluster || pod.meta.namespace_ != m.meta.namespace_) return false;
  auto it = pod.meta.labels.find(model::kInferenceServiceLabel);
  return it != pod.meta.labels.end() && it->second == m.meta.name;
}

// Makes the service's predictor pods number `replicas` by copying its first pod. The copies
// are what KServe's Deployment would create on a scale-out: the same template, new names.
core::Status ScaleOut(model::Snapshot& fleet, int32_t service, int32_t replicas,
                      const ModelLoadStudy& study) {
  model::InferenceServiceModel& m = fleet.inference_services[static_cast<size_t>(service)];
  std::set<std::string> names;
  std::optional<size_t> first;
  int32_t have = 0;
  for (size_t i = 0; i < fleet.pods.size(); ++i) {
    const model::Pod& pod = fleet.pods[i];
    if (pod.cluster == m.cluster && pod.meta.namespace_ == m.meta.namespace_) {
      names.insert(pod.meta.name);
    }
    if (!IsPredictorOf(pod, m)) continue;
    if (!first) first = i;
    ++have;
  }
  const core::Location at{study.path, "ModelLoadStudy/" + study.name, "spec.replicas"};
  if (!first) {
    return core::FailedPrecondition("InferenceService " + m.meta.namespace_ + "/" + m.meta.name +
                                        " has no predictor pod to scale out (minReplicas 0?)",
                                    at);
  }
  if (replicas < have) {
    // Removing pods would shift the indices Kueue workloads keep: a study scales out.
    return core::InvalidArgument(std::to_string(replicas) + " is fewer than the service's " +
                                     std::to_string(have) + " predictor pods: a study scales out",
                                 at);
  }
  m.min_replicas = replicas;
  const model::Pod tmpl = fleet.pods[*first];
  for (int32_t k = 0; have < replicas; ++k) {
    std::string name = m.meta.name + "-" + std::to_string(k);
    if (!names.insert(name).second) continue;
    model::Pod pod = tmpl;
    pod.meta.name = std::move(name);
    pod.meta.uid.clear();
    fleet.pods.push_back(std::move(pod));
    ++have;
  }
  return core::Status();
}

data::OriginLink OriginOf(const data::Artifact& artifact, const OriginOverride& study,
                          const OriginOverride& strategy) {
  data::OriginLink link;
  link.location = artifact.origin.location;
  const double egress = strategy.egress_gbps > 0 ? strategy.egress_gbps : study.egress_gbps;
  const double stream = strategy.stream_gbps > 0 ? strategy.stream_gbps : study.stream_gbps;
  link.egress_bytes_per_s = egress * kBytesPerGB;  // 0 stays 0: the default
  link.stream_bytes_per_s = stream * kBytesPerGB;
  return link;
}

core::Error InStrategy(core::Error e, const ModelLoadStudy& study, const StudyStrategy& s) {
  return core::Error(e.code(), "strategy " + s.name + ": " + e.ToString(),
                     core::Location{study.path, "ModelLoadStudy/" + study.name, ""});
}

struct Placed {
  std::vector<data::Replica> replicas;
  std::vector<std::string> nodes;  // distinct, ascending
};

core::Result<StrategyResult> RunStrategy(const StudyStrategy& s, const ModelLoadStudy& study,
                                         const data::Artifact& artifact,
                                         const engine::DataInputs& base, const Placed& placed) {
  StrategyResult out;
  out.strategy = s;
  data::Topology topology = base.topology;
  data::Copies copies = base.copies;
  if (!s.fleet_cache) {
    std::erase_if(copies.nodes, [&](const data::NodeCopy& c) { return c.artifact == artifact.id; });
  }
  topology.origins.push_back(OriginOf(artifact, study.origin, s.origin));
  std::set<std::string> warm;
  for (const data::NodeCopy& c : copies.nodes) {
    if (c.artifact == artifact.id && c.complete) warm.insert(c.node);
  }
  // Warm nodes and seeds: the replicas' nodes in name order, skipping those already warm, so
  // the choice is reproducible and spreads nothing by chance.
  auto take = [&](int32_t count) {
    std::vector<std::string> picked;
    for (const std::string& n : placed.nodes) {
      if (static_cast<int32_t>(picked.size()) >= count) break;
      if (!warm.contains(n)) picked.push_back(n);
    }
    return picked;
  };
  int32_t warm_count = s.warm_nodes;
  if (s.warm_percent) {
    warm_count = static_cast<int32_t>(
        std::ceil(*s.warm_percent / 100 * static_cast<double>(placed.nodes.size()) - 1e-9));
  }
  for (const std::string& n : take(warm_count)) {
    copies.nodes.push_back(data::NodeCopy{artifact.id, n, true, 0, 0, false});
    warm.insert(n);
  }
  for (const std::string& n : placed.nodes) out.warm_nodes += warm.contains(n) ? 1 : 0;
  const data::FetchLimits limits{s.max_origin_pulls, s.max_origin_pulls_per_cluster, s.p2p};
  if (s.warmup_seed_nodes > 0) {
    out.seed_nodes = take(s.warmup_seed_nodes);
    std::vector<data::Replica> loaders;
    for (const std::string& n : out.seed_nodes) loaders.push_back({"warmup/" + n, n, ""});
    auto view = data::DataView::Build(topology, copies);
    if (!view) return InStrategy(view.error(), study, s);
    auto warmup = data::ScheduleFetches(artifact, loaders, limits, *view);
    if (!warmup) return InStrategy(warmup.error(), study, s);
    // On disk is what the warm-up is for; the replicas copy to their GPUs themselves.
    for (const data::ReplicaFetch& f : warmup->replicas) {
      if (!f.forbidden_reason.empty()) continue;
      out.warmup_s = std::max(out.warmup_s, f.fetched_s);
      copies.nodes.push_back(data::NodeCopy{artifact.id, f.node, true, 0, 0, true});
      warm.insert(f.node);
    }
    out.warmup_origin_bytes = warmup->origin_bytes;
  }

  auto view = data::DataView::Build(std::move(topology), std::move(copies));
  if (!view) return InStrategy(view.error(), study, s);
  auto schedule = data::ScheduleFetches(artifact, placed.replicas, limits, *view);
  if (!schedule) return InStrategy(schedule.error(), study, s);
  for (const data::ReplicaFetch& f : schedule->replicas) {
    if (!f.forbidden_reason.empty()) continue;
    out.ready_s.push_back(f.end_s);
    ++out.by_source[data::LoadSourceName(f.source)];
  }
  std::sort(out.ready_s.begin(), out.ready_s.end());
  out.load_s = SummarizeSorted(out.ready_s);
  out.forbidden = schedule->forbidden;
  out.origin_bytes = schedule->origin_bytes;
  out.peak_origin_pulls = schedule->peak_origin_pulls;
  out.all_ready_s = schedule->all_ready_s;
  return out;
}

// Shortest round-trip text of a setting (4, 0.3, 12.5), with no locale.
std::string Decimal(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : "?";
}

}  // namespace

std::string DescribeStrategy(const StrategyResult& r) {
  const StudyStrategy& s = r.strategy;
  std::vector<std::string> parts;
  if (r.warm_nodes == 0 && r.seed_nodes.empty()) parts.push_back("cold");
  if (r.warm_nodes > 0) {
    parts.push_back(std::to_string(r.warm_nodes) + (r.warm_nodes == 1 ? " node" : " nodes") +
                    " warm" + (s.warm_percent ? " (" + Decimal(*s.warm_percent) + "%)" : ""));
  }
  if (!s.fleet_cache) parts.push_back("fleet cache ignored");
  if (!r.seed_nodes.empty()) {
    parts.push_back("warm-up to " + std::to_string(r.seed_nodes.size()) + " seed" +
                    (r.seed_nodes.size() == 1 ? "" : "s"));
  }
  parts.push_back(s.max_origin_pulls > 0
                      ? std::to_string(s.max_origin_pulls) +
                            (s.max_origin_pulls == 1 ? " origin pull" : " origin pulls") +
                            " at once"
                      : "no pull limit");
  if (s.max_origin_pulls_per_cluster > 0) {
    parts.push_back(std::to_string(s.max_origin_pulls_per_cluster) + " per cluster");
  }
  if (s.p2p) parts.push_back("p2p");
  if (s.origin.egress_gbps > 0) {
    parts.push_back("origin " + Decimal(s.origin.egress_gbps) + " GB/s");
  }
  if (s.origin.stream_gbps > 0) {
    parts.push_back(Decimal(s.origin.stream_gbps) + " GB/s per pull");
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

core::Result<StudyResult> RunModelLoadStudy(model::Snapshot&& fleet, const ModelLoadStudy& study,
                                            const engine::PlanOptions& options) {
  const core::Location at{study.path, "ModelLoadStudy/" + study.name, "spec.inferenceService"};
  auto found = engine::FindInferenceService(fleet, study.inference_service);
  if (!found) return core::Error(found.error().code(), found.error().ToString(), at);
  const int32_t service = *found;
  const model::InferenceServiceModel& m = fleet.inference_services[static_cast<size_t>(service)];
  auto artifact = engine::ArtifactOf(m);
  if (!artifact) {
    return core::Error(artifact.error().code(),
                       "InferenceService " + m.meta.namespace_ + "/" + m.meta.name + ": " +
                           artifact.error().message(),
                       at);
  }
  StudyResult out;
  out.name = study.name;
  out.service = m.meta.namespace_ + "/" + m.meta.name;
  out.artifact = artifact->id;
  out.model_bytes = artifact->size_bytes;
  out.origin = artifact->origin.scheme + "://" + artifact->origin.location +
               (artifact->origin.region.empty() ? "" : " (" + artifact->origin.region + ")");
  out.replicas = study.replicas.value_or(m.min_replicas);
  BERTH_RETURN_IF_ERROR(ScaleOut(fleet, service, out.replicas, study));

  // The one plan: the engine binds the predictor pods (and everything else in the fleet).
  BERTH_ASSIGN_OR_RETURN(engine::ModelLoadExplanation explained,
                         engine::ExplainInferenceService(std::move(fleet), out.service, options));
  const model::Snapshot& planned = explained.plan.planned;
  Placed placed;
  std::set<std::string> nodes;
  for (const model::PodDecision& d : explained.load.pods) {
    if (!d.node.has_value()) {
      ++out.unplaced;
      continue;
    }
    const std::string& node = planned.node(*d.node).meta.name;
    placed.replicas.push_back({planned.pod(d.pod).meta.name, node, ""});
    nodes.insert(node);
  }
  placed.nodes.assign(nodes.begin(), nodes.end());
  out.nodes = static_cast<int32_t>(placed.nodes.size());
  const engine::DataInputs base = engine::BuildDataInputs(planned);
  for (const StudyStrategy& s : study.strategies) {
    BERTH_ASSIGN_OR_RETURN(StrategyResult r, RunStrategy(s, study, *artifact, base, placed));
    r.all_ready = out.unplaced == 0 && r.forbidden == 0 && !placed.replicas.empty();
    out.strategies.push_back(std::move(r));
  }
  return out;
}

}  // namespace berth::sim::modelload
