// One parser for every command that takes a target, so `po/x`, `pods/x` and `Pod/x` mean
// the same to explain, rollout and why, and the kinds' names come from model's table of
// kinds (the API server's discovery serves the same names to kubectl).
#include "cli/resource_name.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "cli/suggest.h"
#include "core/ascii.h"

namespace berth::cli {

namespace {

// berth's own alias, not a short name upstream's CRD declares (Kueue's is `kwl`): explain
// took `wl/NAME` before TYPE was read from the table of kinds, so it is kept. Not served.
constexpr std::string_view kWorkloadAlias = "wl";

bool RowNamed(const model::KindInfo& row, std::string_view word) {
  if (core::AsciiLower(row.kind) == word || row.resource == word) return true;
  if (row.group == "kueue.x-k8s.io" && row.kind == "Workload" && word == kWorkloadAlias) return true;
  return std::find(row.short_names.begin(), row.short_names.end(), word) != row.short_names.end();
}

// Every name a type may be given by, plurals first (kubectl suggests plurals), for "did you
// mean".
std::vector<std::string> TypeWords() {
  std::vector<std::string> words;
  for (const model::KindInfo& row : model::AllKinds()) {
    if (row.served()) words.emplace_back(row.resource);
  }
  for (const model::KindInfo& row : model::AllKinds()) {
    if (!row.served()) continue;
    words.push_back(core::AsciiLower(row.kind));
    for (std::string_view s : row.short_names) words.emplace_back(s);
  }
  return words;
}

std::vector<std::string> SplitSlashes(std::string_view text) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t slash = text.find('/'); slash != std::string_view::npos;
       slash = text.find('/', from)) {
    parts.emplace_back(text.substr(from, slash - from));
    from = slash + 1;
  }
  parts.emplace_back(text.substr(from));
  return parts;
}

core::Error BadTarget(std::string_view text) {
  return core::InvalidArgument("expected TYPE/NAME or TYPE/NAMESPACE/NAME (pod/train-0, "
                               "workload/ml/job-train), got \"" + std::string(text) + "\"");
}

}  // namespace

core::Result<const model::KindInfo*> ResolveResourceType(std::string_view type) {
  const std::string lower = core::AsciiLower(type);
  // TYPE.GROUP: the word before the first dot, in that group (kubectl's `jobs.batch`).
  const size_t dot = lower.find('.');
  const std::string word = lower.substr(0, dot);
  const std::optional<std::string> group =
      dot == std::string::npos ? std::nullopt : std::optional<std::string>(lower.substr(dot + 1));
  if (!word.empty()) {
    for (const model::KindInfo& row : model::AllKinds()) {
      if (!row.served() || (group && row.group != *group)) continue;
      if (RowNamed(row, word)) return &row;
    }
  }
  std::string message = "the server doesn't have a resource type \"" + std::string(type) + "\"";
  if (auto near = Closest(lower, TypeWords())) message += "; did you mean \"" + *near + "\"?";
  return core::InvalidArgument(message);
}

core::Result<ResourceName> ParseResourceName(std::string_view text,
                                             std::string_view default_namespace) {
  const std::vector<std::string> parts = SplitSlashes(text);
  if (parts.size() < 2 || parts.size() > 3 ||
      std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); })) {
    return BadTarget(text);
  }
  BERTH_ASSIGN_OR_RETURN(const model::KindInfo* kind, ResolveResourceType(parts[0]));
  ResourceName out;
  out.kind = kind;
  out.name = parts.back();
  if (parts.size() == 3) {
    if (!kind->namespaced()) {
      return core::InvalidArgument(std::string(kind->kind) + " is cluster-scoped: \"" +
                                   std::string(text) + "\" names a namespace");
    }
    if (!default_namespace.empty() && parts[1] != default_namespace) {
      return core::InvalidArgument("\"" + std::string(text) + "\" names namespace \"" + parts[1] +
                                   "\" but -n says \"" + std::string(default_namespace) + "\"");
    }
    out.namespace_ = parts[1];
  } else if (kind->namespaced()) {
    out.namespace_ = std::string(default_namespace);
  }
  return out;
}

core::Result<ResourceName> ParseResourceWords(const std::vector<std::string>& words,
                                              std::string_view default_namespace) {
  if (words.size() == 1) return ParseResourceName(words[0], default_namespace);
  if (words.size() == 2 && words[0].find('/') == std::string::npos) {
    return ParseResourceName(words[0] + "/" + words[1], default_namespace);
  }
  std::string given;
  for (const std::string& w : words) given += (given.empty() ? "" : " ") + w;
  return BadTarget(given);
}

bool ForEachObjectOfKind(const model::Snapshot& s, const model::KindInfo& kind,
                         const std::function<void(const model::ObjectMeta&)>& visit) {
  auto each = [&visit](const auto& objects) {
    for (const auto& object : objects) visit(object.meta);
    return true;
  };
  const std::string_view g = kind.group;
  const std::string_view k = kind.kind;
  if (kind.workload) {
    for (const model::WorkloadObject& w : s.workloads) {
      if (w.kind == k && model::ApiGroupOf(w.api_version) == g) visit(w.meta);
    }
    return true;
  }
  if (g.empty()) {
    if (k == "Pod") return each(s.pods);
    if (k == "Node") return each(s.nodes);
    if (k == "Namespace") return each(s.namespaces);
    return false;
  }
  if (g == "scheduling.k8s.io" && k == "PriorityClass") return each(s.priority_classes);
  if (g == "scheduling.k8s.io" && k == "Workload") {
    // One PodGroup per entry of its spec.podGroups: visit each Workload once.
    const model::PodGroup* last = nullptr;
    for (const model::PodGroup& pg : s.pod_groups) {
      if (pg.workload_pod_group.empty()) continue;
      if (last == nullptr || last->source.document != pg.source.document || last->meta.name != pg.meta.name) {
        visit(pg.meta);
      }
      last = &pg;
    }
    return true;
  }
  if (g == "trainer.kubeflow.org") {
    for (const model::TrainingRuntime& r : s.training_runtimes) {
      if (r.kind == k) visit(r.meta);
    }
    return true;
  }
  if (g == "resource.k8s.io") {
    if (k == "DeviceClass") return each(s.device_classes);
    if (k == "ResourceClaim") return each(s.resource_claims);
    if (k == "ResourceClaimTemplate") return each(s.resource_claim_templates);
    if (k == "ResourceSlice") return each(s.resource_slices);
    if (k == "DeviceTaintRule") return each(s.device_taint_rules);
    return false;
  }
  if (g == "kueue.x-k8s.io") {
    if (k == "ResourceFlavor") return each(s.resource_flavors);
    if (k == "ClusterQueue") return each(s.cluster_queues);
    if (k == "Cohort") return each(s.cohorts);
    if (k == "LocalQueue") return each(s.local_queues);
    if (k == "WorkloadPriorityClass") return each(s.workload_priority_classes);
    if (k == "Topology") return each(s.topologies);
    if (k == "AdmissionCheck") return each(s.admission_checks);
    if (k == "Workload") return each(s.kueue_workloads);
    if (k == "MultiKueueConfig") return each(s.multikueue_configs);
    if (k == "MultiKueueCluster") return each(s.multikueue_clusters);
    return false;
  }
  if (k == "PodGroup") {
    for (const model::PodGroup& pg : s.pod_groups) {
      if (model::ApiGroupOf(pg.api_version) == g && pg.workload_pod_group.empty()) visit(pg.meta);
    }
    return true;
  }
  if (g == "cluster.open-cluster-management.io") {
    if (k == "ManagedCluster") return each(s.managed_clusters);
    if (k == "ClusterClaim") return each(s.cluster_claims);
    if (k == "ManagedClusterSet") return each(s.managed_cluster_sets);
    if (k == "ManagedClusterSetBinding") return each(s.managed_cluster_set_bindings);
    if (k == "Placement") return each(s.placements);
    if (k == "PlacementDecision") return each(s.placement_decisions);
    if (k == "AddOnPlacementScore") return each(s.addon_placement_scores);
    return false;
  }
  if (g == "work.open-cluster-management.io") {
    if (k == "ManifestWork") return each(s.manifest_works);
    if (k == "ManifestWorkReplicaSet") return each(s.manifest_work_replica_sets);
    return false;
  }
  if (g == "apps" && k == "ControllerRevision") return each(s.controller_revisions);
  if (g == "federation-ai.open-cluster-management.io" && k == "FederatedLearning") {
    return each(s.federated_learnings);
  }
  return false;
}

core::Error NotFoundError(const model::Snapshot& snapshot, const ResourceName& target) {
  std::vector<std::string> in_namespace;
  std::vector<std::string> elsewhere;  // names in other namespaces, and their namespaces
  std::vector<std::string> elsewhere_namespaces;
  ForEachObjectOfKind(snapshot, *target.kind, [&](const model::ObjectMeta& meta) {
    if (target.namespace_.empty() || meta.namespace_ == target.namespace_) {
      in_namespace.push_back(meta.name);
    } else if (std::find(elsewhere.begin(), elsewhere.end(), meta.name) == elsewhere.end()) {
      elsewhere.push_back(meta.name);
      elsewhere_namespaces.push_back(meta.namespace_);
    }
  });
  std::string message = std::string(target.kind->resource) + " \"" + target.name + "\" not found";
  if (!target.namespace_.empty()) message += " in namespace \"" + target.namespace_ + "\"";
  std::optional<std::string> near = Closest(target.name, in_namespace);
  // The name (or a near one) in another namespace: the suggestion says which.
  if (!near) {
    if (auto other = Closest(target.name, elsewhere)) {
      const size_t i = static_cast<size_t>(
          std::find(elsewhere.begin(), elsewhere.end(), *other) - elsewhere.begin());
      near = elsewhere_namespaces[i] + "/" + *other;
    }
  }
  if (near) message += "; did you mean \"" + *near + "\"?";
  return core::NotFound(message);
}

core::Status CheckExists(const model::Snapshot& snapshot, const ResourceName& target) {
  bool found = false;
  const bool kept = ForEachObjectOfKind(snapshot, *target.kind, [&](const model::ObjectMeta& meta) {
    found = found || (meta.name == target.name &&
                      (target.namespace_.empty() || meta.namespace_ == target.namespace_));
  });
  if (!kept || found) return core::OkStatus();
  return NotFoundError(snapshot, target);
}

std::string NameOutputType(const model::KindInfo& kind) {
  std::string out = core::AsciiLower(kind.kind);
  if (!kind.group.empty()) out += "." + std::string(kind.group);
  return out;
}

}  // namespace berth::cli
