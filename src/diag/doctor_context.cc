// Builds the doctor's indexes in one pass over nodes and pods, so each rule's cost is its own
// objects times a lookup, never nodes times pods.
#include "diag/doctor_context.h"

#include <algorithm>
#include <set>

#include "model/pod_requests.h"

namespace berth::diag {

namespace {

const std::vector<model::NodeIndex> kNoNodes;
const std::vector<model::PodIndex> kNoPods;
const std::vector<std::string> kNoObjects;
const std::vector<TaintClass> kNoTaintClasses;
const model::ResourceVector kNoResources;

bool TaintsEqual(const std::vector<core::Taint>& a, const std::vector<core::Taint>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || a[i].value != b[i].value || a[i].effect != b[i].effect) return false;
  }
  return true;
}

// "<vendor>/gpu", the NVIDIA plugin's names (gpu, gpu.shared, mig-<p>[.shared]) and
// gpu.intel.com/*: what a GPU quota or request is written in.
bool GpuResourceName(std::string_view name) {
  if (gpu::IsNvidiaGpuResource(name)) return true;
  if (name.starts_with("gpu.intel.com/")) return true;
  const size_t slash = name.find('/');
  return slash != std::string_view::npos && name.substr(slash + 1) == "gpu";
}

// Where a workload kind keeps the pod spec of one pod set, as a JSON path prefix.
std::string TemplatePrefix(std::string_view kind) {
  if (kind == "Job" || kind == "Deployment" || kind == "StatefulSet" || kind == "ReplicaSet" ||
      kind == "DaemonSet") {
    return "spec.template.spec.";
  }
  if (kind == "JobSet") return "spec.replicatedJobs[].template.spec.template.spec.";
  if (kind == "PyTorchJob") return "spec.pytorchReplicaSpecs[].template.spec.";
  if (kind == "MPIJob") return "spec.mpiReplicaSpecs[].template.spec.";
  if (kind == "LeaderWorkerSet") return "spec.leaderWorkerTemplate.workerTemplate.spec.";
  if (kind == "RayCluster") return "spec.workerGroupSpecs[].template.spec.";
  if (kind == "RayJob") return "spec.rayClusterSpec.workerGroupSpecs[].template.spec.";
  return "spec.tasks[].template.spec.";  // Volcano's Job
}

}  // namespace

DoctorContext::DoctorContext(const model::Snapshot& snapshot, const core::Diagnostics& diagnostics,
                             core::Timestamp now)
    : snapshot_(snapshot), now_(now) {
  const model::ResourceCatalog& catalog = snapshot.resources;
  gpu_resource_.assign(catalog.size(), false);
  for (size_t i = 0; i < catalog.size(); ++i) {
    model::ResourceId id{static_cast<uint16_t>(i)};
    if (GpuResourceName(catalog.Name(id))) {
      gpu_resource_[i] = true;
      gpu_resources_.push_back(id);
    }
  }

  std::set<std::string> clusters;
  node_gpus_.reserve(snapshot.nodes.size());
  for (size_t i = 0; i < snapshot.nodes.size(); ++i) {
    const model::Node& node = snapshot.nodes[i];
    const model::NodeIndex at{static_cast<int32_t>(i)};
    clusters.insert(node.cluster);
    ClusterIndex& c = index_[node.cluster];
    c.nodes.push_back(at);
    for (const auto& [key, value] : node.meta.labels) {
      c.by_label[key + "=" + value].push_back(at);
      c.by_key[key].push_back(at);
    }
    node_gpus_.push_back(gpu::ReadNodeGpus(node, catalog));
    auto same = std::find_if(c.taint_classes.begin(), c.taint_classes.end(),
                             [&](const TaintClass& t) { return TaintsEqual(t.taints, node.taints); });
    if (same == c.taint_classes.end()) {
      c.taint_classes.push_back(TaintClass{node.taints, {}, 0});
      same = c.taint_classes.end() - 1;
    }
    same->nodes.push_back(at);
    if (!node_gpus_.back().empty()) ++same->gpu_nodes;
    for (size_t r = 0; r < node.allocatable.size(); ++r) {
      const model::ResourceId id{static_cast<uint16_t>(r)};
      c.max_allocatable.Set(id, std::max(c.max_allocatable.Get(id), node.allocatable.Get(id)));
    }
  }

  std::set<std::tuple<std::string, std::string, std::string, std::string>> workloads;
  for (const model::WorkloadObject& w : snapshot.workloads) {
    workloads.emplace(w.cluster, w.meta.namespace_, w.kind, w.meta.name);
  }
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    clusters.insert(pod.cluster);
    index_[pod.cluster].pods_by_namespace[pod.meta.namespace_].push_back(
        model::PodIndex{static_cast<int32_t>(i)});
    if (!pod.source.valid()) continue;  // expanded from a template: the template is checked
    if (pod.owner.has_value() &&
        workloads.contains({pod.cluster, pod.meta.namespace_, pod.owner->kind, pod.owner->name})) {
      continue;
    }
    pod_specs_.push_back(PodSpecRef{&pod, PodRef(pod), "spec.", 1, nullptr, {}});
  }
  for (const model::WorkloadObject& w : snapshot.workloads) {
    for (const model::PodSetTemplate& set : w.pod_sets) {
      pod_specs_.push_back(PodSpecRef{&set.pod_template, RefOf(w, w.api_version, w.kind),
                                      TemplatePrefix(w.kind), set.count, &w, set.name});
    }
  }
  for (const model::ManagedCluster& mc : snapshot.managed_clusters) clusters.insert(mc.meta.name);
  clusters_.assign(clusters.begin(), clusters.end());

  // "Kind/namespace/name" → kind.
  for (const core::Diagnostic& d : diagnostics.entries()) {
    if (d.severity != core::Severity::kError) continue;
    const std::string& object = d.error.location().object;
    const size_t slash = object.find('/');
    if (slash == std::string::npos || slash == 0) continue;
    unread_[object.substr(0, slash)].push_back(object);
  }
}

const std::vector<model::NodeIndex>& DoctorContext::NodesOf(std::string_view cluster) const {
  auto it = index_.find(cluster);
  return it == index_.end() ? kNoNodes : it->second.nodes;
}

const std::vector<model::NodeIndex>& DoctorContext::NodesWithLabel(std::string_view cluster,
                                                                   std::string_view key,
                                                                   std::string_view value) const {
  auto it = index_.find(cluster);
  if (it == index_.end()) return kNoNodes;
  std::string k(key);
  k += '=';
  k += value;
  auto found = it->second.by_label.find(k);
  return found == it->second.by_label.end() ? kNoNodes : found->second;
}

const std::vector<model::NodeIndex>& DoctorContext::NodesWithKey(std::string_view cluster,
                                                                 std::string_view key) const {
  auto it = index_.find(cluster);
  if (it == index_.end()) return kNoNodes;
  auto found = it->second.by_key.find(std::string(key));
  return found == it->second.by_key.end() ? kNoNodes : found->second;
}

bool DoctorContext::AnyNodeMatches(std::string_view cluster, const core::Labels& node_selector,
                                   const std::optional<core::NodeSelector>& required) const {
  // Candidates: the smallest posting list among the selector's pairs, else every node.
  const std::vector<model::NodeIndex>* candidates = &NodesOf(cluster);
  for (const auto& [key, value] : node_selector) {
    const std::vector<model::NodeIndex>& with = NodesWithLabel(cluster, key, value);
    if (with.size() < candidates->size()) candidates = &with;
  }
  for (model::NodeIndex i : *candidates) {
    const model::Node& node = snapshot_.node(i);
    bool ok = true;
    for (const auto& [key, value] : node_selector) {
      auto it = node.meta.labels.find(key);
      if (it == node.meta.labels.end() || it->second != value) {
        ok = false;
        break;
      }
    }
    if (ok && required.has_value() && !required->Matches(node.meta.labels, node.meta.name)) ok = false;
    if (ok) return true;
  }
  return false;
}

const std::vector<TaintClass>& DoctorContext::TaintClassesOf(std::string_view cluster) const {
  auto it = index_.find(cluster);
  return it == index_.end() ? kNoTaintClasses : it->second.taint_classes;
}

const model::ResourceVector& DoctorContext::MaxAllocatable(std::string_view cluster) const {
  auto it = index_.find(cluster);
  return it == index_.end() ? kNoResources : it->second.max_allocatable;
}

int64_t DoctorContext::PodGpuRequest(const model::Pod& pod) const {
  if (gpu_resources_.empty()) return 0;
  const model::ResourceVector requests = model::PodRequests(pod);
  int64_t total = 0;
  for (model::ResourceId id : gpu_resources_) total = model::SaturatingAdd(total, requests.Get(id));
  return total;
}

const std::vector<model::PodIndex>& DoctorContext::PodsIn(std::string_view cluster,
                                                          std::string_view ns) const {
  auto it = index_.find(cluster);
  if (it == index_.end()) return kNoPods;
  auto found = it->second.pods_by_namespace.find(ns);
  return found == it->second.pods_by_namespace.end() ? kNoPods : found->second;
}

std::vector<std::string> DoctorContext::NamespacesOf(std::string_view cluster) const {
  std::set<std::string> names;
  for (const model::Namespace& ns : snapshot_.namespaces) names.insert(ns.meta.name);
  if (auto it = index_.find(cluster); it != index_.end()) {
    for (const auto& [ns, pods] : it->second.pods_by_namespace) names.insert(ns);
  }
  return {names.begin(), names.end()};
}

ObjectRef DoctorContext::PodRef(const model::Pod& pod) const {
  if (!pod.source.valid() && pod.owner.has_value()) {
    return ObjectRef{pod.owner->api_version, pod.owner->kind, pod.meta.namespace_, pod.owner->name,
                     pod.cluster, {}, pod.meta.labels};
  }
  return ObjectRef{"v1", "Pod", pod.meta.namespace_, pod.meta.name, pod.cluster, pod.source, pod.meta.labels};
}

const std::vector<std::string>& DoctorContext::UnreadObjects(std::string_view kind) const {
  auto it = unread_.find(kind);
  return it == unread_.end() ? kNoObjects : it->second;
}

}  // namespace berth::diag
