// ray.io/v1: RayCluster and RayJob (KubeRay). Pod sets as Kueue's raycluster and rayjob
// integrations build them: "head" (one pod), then one per worker group named after its
// groupName lowercased; a RayJob in K8sJobMode (the CRD's default submissionMode) adds
// "submitter", the pod of the Job that submits the Ray job, from submitterPodTemplate or
// the default template Kueue and KubeRay share (the head's image, requests 500m cpu and
// 200Mi memory). A worker group makes as many pods as KubeRay's desired replicas:
// replicas clamped to [minReplicas, maxReplicas] (CRD defaults 0, 0, 2^31-1), none when
// the group is suspended, times numOfHosts.
#include <simdjson.h>

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <string_view>

#include "core/ascii.h"
#include "io/internal/crd_workload_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

// A JSON string literal of `s`.
std::string Quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

core::Status DecodeWorkerGroup(dom::element e, const std::string& field,
                               model::ResourceCatalog& catalog, std::set<std::string>* names,
                               DecodedWorkload* out) {
  auto group = AsObject(e);
  BERTH_IO_RETURN_IF_ERROR_AT(group, field);
  std::string name;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(*group, "groupName", &name), field);
  if (name.empty()) return FieldError(field + ".groupName", "required value");
  if (!names->insert(core::AsciiLower(name)).second) {
    return FieldError(field + ".groupName",
                      "duplicate value " + core::Quote(name) + ": pod set names must be unique");
  }
  int32_t replicas = 0;
  int32_t min_replicas = 0;
  int32_t max_replicas = std::numeric_limits<int32_t>::max();
  int32_t hosts = 1;
  bool suspended = false;
  BERTH_RETURN_IF_ERROR(GetReplicas(*group, field, &replicas));
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*group, "minReplicas", &min_replicas), field);
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*group, "maxReplicas", &max_replicas), field);
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*group, "numOfHosts", &hosts), field);
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(*group, "suspend", &suspended), field);
  if (min_replicas < 0)
    return FieldError(field + ".minReplicas", "must be greater than or equal to 0");
  if (max_replicas < 0)
    return FieldError(field + ".maxReplicas", "must be greater than or equal to 0");
  if (min_replicas > max_replicas) {
    return FieldError(field + ".minReplicas", "must be less than or equal to maxReplicas (" +
                                                  std::to_string(max_replicas) + ")");
  }
  if (hosts < 1) return FieldError(field + ".numOfHosts", "must be greater than or equal to 1");
  const int64_t desired =
      suspended ? 0
                : static_cast<int64_t>(std::clamp(replicas, min_replicas, max_replicas)) * hosts;
  if (desired > std::numeric_limits<int32_t>::max()) {
    return FieldError(field + ".replicas", "replicas times numOfHosts is too large");
  }
  BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(*group, field, "template"));
  model::PodSetTemplate pod_set;
  pod_set.name = core::AsciiLower(name);
  pod_set.count = static_cast<int32_t>(desired);
  PodSetSource source;
  source.pods_per_group = hosts;
  BERTH_RETURN_IF_ERROR(
      AppendPodSet(tmpl, field + ".template", std::move(pod_set), std::move(source), catalog, out));
  core::Labels& labels = out->workload.pod_sets.back().pod_template.meta.labels;
  labels["ray.io/node-type"] = "worker";
  labels["ray.io/group"] = name;
  return core::OkStatus();
}

// spec (at `field`) of a RayCluster: head, then the worker groups.
core::Status DecodeRayClusterSpec(dom::object spec, const std::string& field,
                                  const std::string& cluster_name, model::ResourceCatalog& catalog,
                                  DecodedWorkload* out) {
  BERTH_ASSIGN_OR_RETURN(dom::object head, GetRequiredObject(spec, field, "headGroupSpec"));
  BERTH_ASSIGN_OR_RETURN(dom::object head_tmpl,
                         GetRequiredObject(head, field + ".headGroupSpec", "template"));
  model::PodSetTemplate head_set;
  head_set.name = "head";
  head_set.count = 1;
  BERTH_RETURN_IF_ERROR(AppendPodSet(head_tmpl, field + ".headGroupSpec.template",
                                     std::move(head_set), PodSetSource(), catalog, out));
  core::Labels& head_labels = out->workload.pod_sets.back().pod_template.meta.labels;
  head_labels["ray.io/node-type"] = "head";
  head_labels["ray.io/group"] = "headgroup";
  head_labels["ray.io/cluster"] = cluster_name;
  dom::array groups;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "workerGroupSpecs", &groups, &found), field);
  if (!found) return core::OkStatus();
  std::set<std::string> names = {"head"};
  size_t i = 0;
  for (dom::element e : groups) {
    BERTH_RETURN_IF_ERROR(
        DecodeWorkerGroup(e, field + ".workerGroupSpecs" + IndexField(i++), catalog, &names, out));
    out->workload.pod_sets.back().pod_template.meta.labels["ray.io/cluster"] = cluster_name;
  }
  return core::OkStatus();
}

// The first container's image of the head template (what the default submitter runs).
std::string HeadImage(dom::object spec) {
  dom::element e;
  dom::object head, tmpl, pod_spec;
  dom::array containers;
  if (!Find(spec, "headGroupSpec", &e) || e.get(head) != simdjson::SUCCESS ||
      !Find(head, "template", &e) || e.get(tmpl) != simdjson::SUCCESS ||
      !Find(tmpl, "spec", &e) || e.get(pod_spec) != simdjson::SUCCESS ||
      !Find(pod_spec, "containers", &e) || e.get(containers) != simdjson::SUCCESS) {
    return "";
  }
  for (dom::element c : containers) {
    dom::object container;
    std::string_view image;
    if (c.get(container) != simdjson::SUCCESS || !Find(container, "image", &e) ||
        e.get(image) != simdjson::SUCCESS) {
      return "";
    }
    return std::string(image);
  }
  return "";
}

}  // namespace

std::string DefaultRaySubmitterTemplate(std::string_view head_image) {
  return "{\"spec\":{\"containers\":[{\"name\":\"ray-job-submitter\",\"image\":" +
         Quoted(head_image) +
         ",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},"
         "\"requests\":{\"cpu\":\"500m\",\"memory\":\"200Mi\"}}}],\"restartPolicy\":\"Never\"}}";
}

core::Result<DecodedWorkload> DecodeRayCluster(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "suspend", &out.workload.suspended), "spec");
  BERTH_RETURN_IF_ERROR(DecodeRayClusterSpec(spec, "spec", out.workload.meta.name, catalog, &out));
  return out;
}

core::Result<DecodedWorkload> DecodeRayJob(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "suspend", &out.workload.suspended), "spec");
  std::string mode = "K8sJobMode";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "submissionMode", &mode), "spec");
  if (mode != "K8sJobMode" && mode != "HTTPMode" && mode != "SidecarMode" &&
      mode != "InteractiveMode") {
    return Unsupported("spec.submissionMode", mode,
                       {"HTTPMode", "InteractiveMode", "K8sJobMode", "SidecarMode"});
  }
  // The RayCluster it makes is named status.rayClusterName once KubeRay chose the name
  // (`<rayjob>-<random>`); before that its pods are named after the RayJob.
  std::string cluster_name = out.workload.meta.name;
  dom::object status;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "rayClusterName", &cluster_name), "status");
    if (cluster_name.empty()) cluster_name = out.workload.meta.name;
  }
  dom::object cluster_spec;
  bool has_cluster_spec = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "rayClusterSpec", &cluster_spec, &has_cluster_spec),
                              "spec");
  if (has_cluster_spec) {
    BERTH_RETURN_IF_ERROR(
        DecodeRayClusterSpec(cluster_spec, "spec.rayClusterSpec", cluster_name, catalog, &out));
  } else {
    // Without a cluster spec the RayJob runs on an existing cluster its clusterSelector
    // names (and makes only the submitter); KubeRay's validation wants one of the two.
    dom::object selector;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "clusterSelector", &selector, &found), "spec");
    if (!found) {
      return FieldError("spec.rayClusterSpec",
                        "required value: one of rayClusterSpec or clusterSelector must be set");
    }
  }
  if (mode != "K8sJobMode") return out;
  dom::object submitter;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "submitterPodTemplate", &submitter, &found), "spec");
  model::PodSetTemplate pod_set;
  pod_set.name = "submitter";
  PodSetSource source;
  if (found) {
    BERTH_RETURN_IF_ERROR(AppendPodSet(submitter, "spec.submitterPodTemplate", std::move(pod_set),
                                       std::move(source), catalog, &out));
    return out;
  }
  const std::string text =
      DefaultRaySubmitterTemplate(has_cluster_spec ? HeadImage(cluster_spec) : "");
  dom::parser parser;
  dom::object tmpl;
  if (parser.parse(text).get(tmpl) != simdjson::SUCCESS) {
    return FieldError("spec.submitterPodTemplate", "the default submitter template did not parse");
  }
  BERTH_RETURN_IF_ERROR(AppendPodSet(tmpl, "spec.submitterPodTemplate", std::move(pod_set),
                                     std::move(source), catalog, &out));
  return out;
}

}  // namespace berth::io::internal
