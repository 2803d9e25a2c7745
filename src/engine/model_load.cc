// Why the fetch schedule and not one estimate per pod: replicas starting together share the
// origin, so each pod's own best path (EstimateLoad) says nothing about the storm; the
// schedule simulates them together with the pull limit, which is what the user needs to
// know ("all replicas ready after ...", "origin bytes ..."). One pull per node; pods that
// share a node read its cache.
#include "engine/model_load.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "core/ascii.h"
#include "core/quantity.h"
#include "data/data_view.h"
#include "data/fetch_schedule.h"
#include "data/transfer_model.h"
#include "engine/find_by_name.h"
#include "engine/fleet_measure.h"
#include "model/berth_names.h"
#include "model/data_residency.h"
#include "placement/berth_scorers.h"

namespace berth::engine {
namespace {

// The pull limit when the InferenceService names none: a handful of concurrent pulls per
// origin, the order of kubelet's registryBurst (docs/data.md).
constexpr int32_t kDefaultMaxOriginPulls = 4;

std::string SourceText(data::LoadSource source) {
  switch (source) {
    case data::LoadSource::kNodeCache:
      return "node cache";
    case data::LoadSource::kClusterCache:
      return "cluster cache";
    case data::LoadSource::kPeer:
      return "peer";
    case data::LoadSource::kOriginSameRegion:
      return "origin (same region)";
    case data::LoadSource::kOriginCrossRegion:
      return "origin (other region)";
  }
  return "";
}

std::string_view Label(const core::Labels& labels, const char* key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string_view() : std::string_view(it->second);
}

// The node's bandwidth.berth.dev/<name> label in bytes per second; 0 (the default table)
// when absent, and when it is not a positive quantity, with a warning naming node and label.
double NodeBandwidth(const model::Node& n, std::string_view name, std::vector<std::string>* warnings) {
  std::string key = model::kNodeBandwidthLabelPrefix;
  key += name;
  auto it = n.meta.labels.find(key);
  if (it == n.meta.labels.end()) return 0;
  core::Result<core::Quantity> q = core::Quantity::Parse(it->second);
  core::Result<int64_t> v = q.has_value() ? q->Value() : core::Result<int64_t>(q.error());
  if (!v.has_value() || *v <= 0) {
    warnings->push_back("Node " + n.meta.name + ": label " + key + "=\"" + it->second +
                        "\" is not a positive quantity of bytes per second; the default is used");
    return 0;
  }
  return static_cast<double>(*v);
}

}  // namespace

DataInputs BuildDataInputs(const model::Snapshot& snapshot) {
  DataInputs out;
  // A cluster's region: the region label most of its nodes carry (ties: the first in name
  // order), "" when none does.
  std::map<std::string, std::map<std::string, int32_t>> regions;
  for (const model::Node& n : snapshot.nodes) {
    std::map<std::string, int32_t>& counts = regions[n.cluster];
    if (std::string_view r = Label(n.meta.labels, placement::kTopologyRegionLabel); !r.empty()) {
      ++counts[std::string(r)];
    }
  }
  for (const auto& [cluster, counts] : regions) {
    data::DataCluster c;
    c.name = cluster;
    int32_t best = 0;
    for (const auto& [region, count] : counts) {
      if (count > best) {
        best = count;
        c.region = region;
      }
    }
    out.topology.clusters.push_back(std::move(c));
  }
  const std::string_view prefix = model::kModelCacheLabelPrefix;
  for (const model::Node& n : snapshot.nodes) {
    data::DataNode node;
    node.name = n.meta.name;
    node.cluster = n.cluster;
    node.nic_bytes_per_s = NodeBandwidth(n, "nic", &out.warnings);
    node.disk_read_bytes_per_s = NodeBandwidth(n, "disk-read", &out.warnings);
    node.host_to_gpu_bytes_per_s = NodeBandwidth(n, "host-to-gpu", &out.warnings);
    out.topology.nodes.push_back(std::move(node));
    for (const auto& [key, value] : n.meta.labels) {
      if (!key.starts_with(prefix) || value != "true") continue;
      data::NodeCopy copy;
      copy.artifact = "model/" + key.substr(prefix.size());
      copy.node = n.meta.name;
      copy.complete = true;
      out.copies.nodes.push_back(std::move(copy));
    }
  }
  return out;
}

core::Result<data::Artifact> ArtifactOf(const model::InferenceServiceModel& model) {
  if (!model.size_bytes.has_value()) {
    return core::FailedPrecondition(
        "the model's size is unknown: annotate the InferenceService with " +
        std::string(model::kBerthModelSizeKey) + " (a quantity, e.g. 16Gi)");
  }
  data::Artifact a;
  a.id = "model/" + model::ModelCacheName(model);
  a.kind = data::ArtifactKind::kModel;
  a.size_bytes = *model.size_bytes;
  a.origin.scheme = model.storage.scheme;
  a.origin.location = model.storage.location;
  a.origin.region = model.origin_region;
  if (auto it = model.meta.annotations.find(model::kBerthDataRegionsKey);
      it != model.meta.annotations.end()) {
    auto regions = model::ParseRegionList(it->second);
    if (!regions.has_value()) {
      return core::InvalidArgument(
          "InferenceService " + model.meta.NamespacedName() + ": annotation " +
              model::kBerthDataRegionsKey + " " + regions.error().message(),
          {"", "InferenceService/" + model.meta.NamespacedName(),
           std::string("metadata.annotations[") + model::kBerthDataRegionsKey + "]"});
    }
    a.allowed_regions = std::move(*regions);
  }
  return a;
}

core::Result<int32_t> FindInferenceService(const model::Snapshot& snapshot,
                                           const std::string& name) {
  return FindByName(snapshot.inference_services, name, "inferenceservice");
}

ModelLoad ScheduleModelLoad(const Plan& plan, int32_t service) {
  ModelLoad out;
  out.service = service;
  const model::Snapshot& planned = plan.planned;
  const model::InferenceServiceModel& m = planned.inference_services[static_cast<size_t>(service)];
  out.cache_name = model::ModelCacheName(m);
  out.max_origin_pulls = m.max_origin_pulls.value_or(kDefaultMaxOriginPulls);
  out.share_in_cluster = m.p2p;

  // The predictor pods: the pods of this cluster and namespace labelled with the service.
  auto is_predictor = [&](const model::Pod& pod) {
    return pod.cluster == m.cluster && pod.meta.namespace_ == m.meta.namespace_ &&
           Label(pod.meta.labels, model::kInferenceServiceLabel) == m.meta.name;
  };
  std::vector<data::Replica> replicas;
  std::vector<bool> decided(planned.pods.size(), false);
  for (const model::PodDecision& d : plan.pod_decisions) {
    const model::Pod& pod = planned.pod(d.pod);
    if (!is_predictor(pod)) continue;
    decided[static_cast<size_t>(d.pod.v)] = true;
    out.pods.push_back(d);
    if (d.node.has_value()) {
      replicas.push_back(data::Replica{pod.meta.name, planned.node(*d.node).meta.name, ""});
    }
  }
  // Replicas the input already runs loaded the model: their nodes hold it (below).
  for (size_t i = 0; i < planned.pods.size(); ++i) {
    const model::Pod& pod = planned.pods[i];
    if (decided[i] || pod.node_name.empty() || pod.IsTerminal() || !is_predictor(pod)) continue;
    out.running.push_back(RunningReplica{pod.meta.name, pod.node_name});
  }
  if (replicas.empty()) {
    out.no_schedule = "no pod of it is bound: nothing to load yet";
    return out;
  }
  auto artifact = ArtifactOf(m);
  if (!artifact.has_value()) {
    out.no_schedule = artifact.error().message();
    return out;
  }
  DataInputs inputs = BuildDataInputs(planned);
  out.warnings = std::move(inputs.warnings);
  // A node running a replica holds the model whether or not its cache label says so; with
  // sharing on, it serves the new replicas' nodes too.
  for (const RunningReplica& r : out.running) {
    data::NodeCopy copy;
    copy.artifact = artifact->id;
    copy.node = r.node;
    copy.complete = true;
    copy.serves_peers = out.share_in_cluster;
    inputs.copies.nodes.push_back(std::move(copy));
  }
  // The InferenceService's own word on its origin's bandwidth.
  if (m.origin_stream_bytes_per_s.has_value() || m.origin_egress_bytes_per_s.has_value()) {
    data::OriginLink link;
    link.location = m.storage.location;
    link.stream_bytes_per_s = static_cast<double>(m.origin_stream_bytes_per_s.value_or(0));
    link.egress_bytes_per_s = static_cast<double>(m.origin_egress_bytes_per_s.value_or(0));
    inputs.topology.origins.push_back(std::move(link));
  }
  auto view = data::DataView::Build(std::move(inputs.topology), std::move(inputs.copies));
  if (!view.has_value()) {
    out.no_schedule = "the cluster's nodes could not be read as a topology: " +
                      view.error().ToString();
    return out;
  }
  data::FetchLimits limits;
  limits.max_origin_pulls = out.max_origin_pulls;
  limits.share_in_cluster = out.share_in_cluster;
  auto schedule = data::ScheduleFetches(*artifact, replicas, limits, *view);
  if (!schedule.has_value()) {
    out.no_schedule = schedule.error().ToString();
    return out;
  }
  for (const data::ReplicaFetch& f : schedule->replicas) {
    ReplicaLoad load;
    load.pod = f.pod;
    load.node = f.node;
    load.forbidden = f.forbidden_reason;
    if (load.forbidden.empty()) {
      load.source = SourceText(f.source);
      load.source_id = data::LoadSourceName(f.source);
    }
    load.peer = f.peer_node;
    load.start_s = f.start_s;
    load.end_s = f.end_s;
    load.origin_bytes = f.origin_bytes;
    out.loads.push_back(std::move(load));
  }
  out.all_ready_s = schedule->all_ready_s;
  out.origin_bytes = schedule->origin_bytes;
  out.peak_origin_pulls = schedule->peak_origin_pulls;
  return out;
}

std::optional<int32_t> InferenceServiceOfPod(const model::Snapshot& snapshot,
                                             const model::Pod& pod) {
  std::string_view isvc = Label(pod.meta.labels, model::kInferenceServiceLabel);
  if (isvc.empty()) return std::nullopt;
  for (size_t i = 0; i < snapshot.inference_services.size(); ++i) {
    const model::InferenceServiceModel& m = snapshot.inference_services[i];
    if (m.meta.name == isvc && m.meta.namespace_ == pod.meta.namespace_ && m.cluster == pod.cluster) {
      return static_cast<int32_t>(i);
    }
  }
  return std::nullopt;
}

core::Result<ModelLoadExplanation> ExplainInferenceService(model::Snapshot&& snapshot,
                                                           const std::string& name,
                                                           const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(int32_t service, FindInferenceService(snapshot, name));
  ModelLoadExplanation out;
  out.plan = RunPlan(std::move(snapshot), options);
  out.load = ScheduleModelLoad(out.plan, service);
  return out;
}

}  // namespace berth::engine
