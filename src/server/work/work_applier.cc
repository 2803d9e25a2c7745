// One ApplyWork call is what OCM's agent does for a work across three controllers, run in
// their order within one sync (pkg/work/spoke/controllers):
//  1. manifestworkReconciler.reconcile: parse the manifests and apply them sorted by kind
//     rank (resourceApplyOrder: Namespaces and other cluster foundations first, workloads
//     later, spec order within a rank), each by its manifestConfig's strategy, skipping a
//     manifest whose Complete condition is True; Applied per manifest and for the work.
//  2. appliedManifestWorkReconciler.reconcile: the applied resources (uid from the apply's
//     answer, else read), and deletion of those a new generation no longer lists
//     (FindUntrackedResources + DeleteAppliedResources). Skipped until the work has an
//     Applied condition, as upstream protects a work re-created on a new hub.
//  3. AvailableStatusController.syncManifestWork: Available, StatusFeedbackSynced and rule
//     conditions per manifest, and the aggregated work conditions.
// A Complete work (work condition Complete=True) is not applied again (manifestwork
// controller) but its status is still refreshed (the status controller does not check).
//
// Deviation: a manifest whose resource is unknown (or that does not parse) is simply absent
// from the record. Upstream's getUIDFromResult fails on it and the whole record update is
// skipped, so a work with one unknown kind never records (nor later deletes) the resources it
// did apply; berth records them.
#include "server/work/work_applier.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server/work/applied_resource_gc.h"
#include "server/work/condition_rules.h"
#include "server/work/delete_option.h"
#include "server/work/manifest_applier.h"
#include "server/work/manifest_config.h"
#include "server/work/resource_meta.h"
#include "server/work/work_conditions.h"

namespace berth::server::work {

namespace {

// resourceApplyOrder (manifestwork_reconciler.go): lower ranks are applied first; kinds not
// listed come after every listed kind, unparsable manifests last.
int WorkKindRank(std::string_view kind) {
  static constexpr std::pair<std::string_view, int> kRanks[] = {
      {"PriorityClass", 0},
      {"Namespace", 0},
      {"CustomResourceDefinition", 0},
      {"StorageClass", 0},
      {"PersistentVolume", 0},
      {"PodSecurityPolicy", 0},
      {"ClusterRole", 1},
      {"ClusterRoleBinding", 1},
      {"Role", 1},
      {"RoleBinding", 1},
      {"NetworkPolicy", 2},
      {"ResourceQuota", 2},
      {"LimitRange", 2},
      {"PodDisruptionBudget", 2},
      {"ServiceAccount", 2},
      {"Secret", 3},
      {"ConfigMap", 3},
      {"PersistentVolumeClaim", 3},
      {"Service", 4},
      {"DaemonSet", 5},
      {"Pod", 5},
      {"ReplicationController", 5},
      {"ReplicaSet", 5},
      {"Deployment", 5},
      {"HorizontalPodAutoscaler", 5},
      {"StatefulSet", 5},
      {"Job", 5},
      {"CronJob", 5},
      {"APIService", 6},
      {"MutatingWebhookConfiguration", 6},
      {"ValidatingWebhookConfiguration", 6},
      {"ValidatingAdmissionPolicy", 6},
      {"ValidatingAdmissionPolicyBinding", 6}};
  for (const auto& [name, rank] : kRanks) {
    if (name == kind) return rank;
  }
  return 1000;
}

std::string WorkString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// object[k1][k2]... or null.
Json WorkMember(const Json& object, std::initializer_list<const char*> keys) {
  const Json* cur = &object;
  for (const char* k : keys) {
    if (!cur->is_object()) return nullptr;
    auto it = cur->find(k);
    if (it == cur->end()) return nullptr;
    cur = &*it;
  }
  return *cur;
}

// One manifest of the spec, parsed: its meta, its resource when served, or why not.
struct ParsedManifest {
  size_t index = 0;
  Json object;  // null when the manifest is not an object
  ResourceMeta meta;
  std::optional<kube::Resource> resource;
  std::string error;  // set when the manifest cannot be applied at all
  int rank = 1001;
};

ParsedManifest ParseWorkManifest(size_t index, const Json& manifest) {
  ParsedManifest out;
  out.index = index;
  out.meta.ordinal = static_cast<int32_t>(index);
  if (!manifest.is_object()) {
    out.error = "the manifest is not a JSON object";
    return out;
  }
  out.object = manifest;
  const std::string raw =
      manifest.dump(-1, ' ', false, Json::error_handler_t::replace).substr(0, 200);
  const std::string kind = WorkString(manifest, "kind");
  const std::string api_version = WorkString(manifest, "apiVersion");
  // unstructured's decoder: "Object 'Kind' is missing in '<manifest>'".
  if (kind.empty()) {
    out.error = "Object 'Kind' is missing in '" + raw + "'";
    return out;
  }
  if (api_version.empty()) {
    out.error = "Object 'apiVersion' is missing in '" + raw + "'";
    return out;
  }
  out.rank = WorkKindRank(kind);
  const size_t slash = api_version.find('/');
  out.meta.group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  out.meta.version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
  out.meta.kind = kind;
  const Json meta = WorkMember(manifest, {"metadata"});
  out.meta.name = WorkString(meta, "name");
  out.meta.namespace_ = WorkString(meta, "namespace");
  auto resource = kube::ResourceFor(api_version, kind);
  if (!resource) {
    // BuildResourceMeta's RESTMapping failure, as upstream words it.
    out.error = "the server doesn't have a resource type \"" + kind + "\"";
    return out;
  }
  out.meta.resource = resource->resource;
  if (!resource->namespaced) out.meta.namespace_.clear();
  out.resource = std::move(resource).value();
  return out;
}

// A manifest's outcome in spec order.
struct ManifestResult {
  ResourceMeta meta;
  bool ok = false;
  Json object;
  std::string error;
  bool ignore_field_error = false;
  bool ssa_conflict = false;
};

Json AppliedCondition(const ManifestResult& r, int64_t generation) {
  if (r.ok) {
    return MakeCondition("Applied", "True", "AppliedManifestComplete", "Apply manifest complete",
                         generation);
  }
  if (r.ignore_field_error) {
    return MakeCondition("Applied", "False", "AppliedManifestSSAIgnoreFieldError",
                         "Failed to process ignoreFields: " + r.error, generation);
  }
  return MakeCondition("Applied", "False", "AppliedManifestFailed",
                       "Failed to apply manifest: " + r.error, generation);
}

std::string WorkMetaLabel(const ResourceMeta& m) {
  std::string where = m.namespace_.empty() ? m.name : m.namespace_ + "/" + m.name;
  return "manifest " + std::to_string(m.ordinal) + " (" + (m.kind.empty() ? "?" : m.kind) + " " +
         where + ")";
}

// FindManifestCondition: the previous status entry for `meta`, matched without the ordinal.
const Json* PreviousManifestEntry(const Json& previous_manifests, const ResourceMeta& meta) {
  if (!previous_manifests.is_array()) return nullptr;
  ResourceMeta wanted = meta;
  wanted.ordinal = 0;
  for (const Json& entry : previous_manifests) {
    ResourceMeta m = ResourceMeta::FromJson(WorkMember(entry, {"resourceMeta"}));
    m.ordinal = 0;
    if (m == wanted) return &entry;
  }
  return nullptr;
}

ManifestResult ApplyOneManifest(kube::Client& client, const ParsedManifest& parsed,
                                const Json& spec, const Json& previous_manifests,
                                const DeleteOption& delete_option, const std::string& owner,
                                const ApplyOptions& options) {
  ManifestResult out;
  out.meta = parsed.meta;
  if (!parsed.error.empty()) {
    out.error = parsed.error;
    return out;
  }
  Json required = parsed.object;
  // A uid in the manifest would be taken as a precondition: upstream drops it.
  if (required.contains("metadata") && required["metadata"].is_object()) {
    required["metadata"].erase("uid");
  }
  // Manifests already Complete are not applied again.
  if (const Json* previous = PreviousManifestEntry(previous_manifests, parsed.meta);
      previous != nullptr && IsConditionTrue(WorkMember(*previous, {"conditions"}), "Complete")) {
    out.ok = true;
    out.object = std::move(required);
    return out;
  }
  const ManifestConfig config =
      FindManifestConfig(parsed.meta, WorkMember(spec, {"manifestConfigs"}));
  const bool owned = delete_option.Owns(parsed.meta.group, parsed.meta.resource,
                                        parsed.meta.namespace_, parsed.meta.name);
  const bool ssa = config.strategy == "ServerSideApply";
  ManifestApplyOutcome outcome;
  for (int attempt = 0; attempt < std::max(1, options.conflict_attempts); ++attempt) {
    outcome = ApplyManifest(client, *parsed.resource, required, config, owner, owned);
    if (outcome.ok || outcome.http_status != 409 || ssa) break;
  }
  out.ok = outcome.ok;
  out.object = std::move(outcome.object);
  out.error = std::move(outcome.error);
  out.ignore_field_error = outcome.ignore_field_error;
  out.ssa_conflict = !outcome.ok && ssa && outcome.http_status == 409;
  return out;
}

kube::Resource WorkResourceOf(const ResourceMeta& meta) {
  kube::Resource r;
  r.group = meta.group;
  r.version = meta.version;
  r.resource = meta.resource;
  r.kind = meta.kind;
  r.namespaced = !meta.namespace_.empty();
  return r;
}

std::string WorkObjectUid(const Json& object) {
  return WorkString(WorkMember(object, {"metadata"}), "uid");
}

// Step 2: the record of what is applied, and deletion of what the work no longer lists.
void RecordAndCollect(kube::Client& client, const std::vector<ManifestResult>& results,
                      const AppliedRecord& previous, const std::string& owner,
                      WorkApplyResult* out) {
  std::vector<AppliedResource> applied;
  bool read_failed = false;
  for (const ManifestResult& r : results) {
    if (!r.meta.Complete()) continue;
    AppliedResource a{r.meta.group,      r.meta.version, r.meta.resource,
                      r.meta.namespace_, r.meta.name,    ""};
    if (r.ok) a.uid = WorkObjectUid(r.object);
    if (a.uid.empty()) {
      auto got = client.Get(WorkResourceOf(r.meta), r.meta.namespace_, r.meta.name);
      if (got && got->status == 404) continue;
      if (!got || !got->ok()) {
        out->errors.push_back("failed to get resource with key " + r.meta.namespace_ + "/" +
                              r.meta.name + ": " + (got ? got->Message() : got.error().message()));
        read_failed = true;
        continue;
      }
      a.uid = WorkObjectUid(got->Parsed());
    }
    applied.push_back(std::move(a));
  }
  if (read_failed) {
    // Without the full picture nothing is deleted; the record keeps what it had and gains
    // what was seen, so nothing applied is forgotten.
    for (const AppliedResource& p : previous.resources) {
      const bool seen = std::any_of(applied.begin(), applied.end(),
                                    [&](const AppliedResource& a) { return a.SameIdentity(p); });
      if (!seen) applied.push_back(p);
    }
  } else {
    std::vector<AppliedResource> untracked;
    for (const AppliedResource& p : previous.resources) {
      const bool tracked = std::any_of(applied.begin(), applied.end(),
                                       [&](const AppliedResource& a) { return a.SameIdentity(p); });
      if (!tracked) untracked.push_back(p);
    }
    AppliedDeletion gc = DeleteAppliedResources(client, untracked, owner, nullptr);
    out->pending_deletions = !gc.kept.empty();
    for (AppliedResource& k : gc.kept) applied.push_back(std::move(k));
    for (std::string& e : gc.errors) out->errors.push_back(std::move(e));
  }
  SortAppliedResources(applied);
  out->record.resources = std::move(applied);
}

// Step 3 for one status entry: Available, feedback and rule conditions from the live object.
void RefreshManifestStatus(kube::Client& client, Json& entry, const Json& spec, int64_t generation,
                           const ApplyOptions& options) {
  const ResourceMeta meta = ResourceMeta::FromJson(WorkMember(entry, {"resourceMeta"}));
  Json& conditions = entry["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  if (!meta.Complete()) {
    SetCondition(conditions,
                 MakeCondition("Available", "Unknown", "IncompleteResourceMeta",
                               "Resource meta is incomplete"),
                 options.now);
    return;
  }
  auto got = client.Get(WorkResourceOf(meta), meta.namespace_, meta.name);
  if (got && got->status == 404) {
    SetCondition(
        conditions,
        MakeCondition("Available", "False", "ResourceNotAvailable", "Resource is not available"),
        options.now);
    return;
  }
  const Json object = got && got->ok() ? got->Parsed() : Json();
  if (!object.is_object()) {
    const std::string why = !got ? got.error().message()
                                 : (got->ok() ? "the reply is not a JSON object" : got->Message());
    SetCondition(conditions,
                 MakeCondition("Available", "Unknown", "FetchingResourceFailed",
                               "Failed to fetch resource: " + why),
                 options.now);
    return;
  }
  SetCondition(conditions,
               MakeCondition("Available", "True", "ResourceAvailable", "Resource is available"),
               options.now);

  const ManifestConfig config = FindManifestConfig(meta, WorkMember(spec, {"manifestConfigs"}));
  StatusFeedback feedback = EvaluateStatusFeedback(object, config.feedback_rules, options.feedback);
  Json previous_values = WorkMember(entry, {"statusFeedback", "values"});
  if (!previous_values.is_array()) previous_values = Json::array();
  if (previous_values != feedback.values) {
    // New values restart the condition's clock even when its status stays True.
    RemoveCondition(conditions, "StatusFeedbackSynced");
  }
  SetCondition(conditions, feedback.condition, options.now);
  Json status_feedback = Json::object();
  if (!feedback.values.empty()) status_feedback["values"] = std::move(feedback.values);
  entry["statusFeedback"] = std::move(status_feedback);

  for (Json& c : EvaluateConditionRules(object, config.condition_rules)) {
    if (generation != 0) c["observedGeneration"] = generation;
    SetCondition(conditions, c, options.now);
  }
  PruneRuleConditions(conditions, generation);
}

// Puts `entry`'s members in the Go struct's order: resourceMeta, statusFeedback, conditions.
Json CanonicalManifestEntry(Json entry) {
  Json out = Json::object();
  out["resourceMeta"] = entry.contains("resourceMeta") ? entry["resourceMeta"] : Json::object();
  out["statusFeedback"] =
      entry.contains("statusFeedback") ? entry["statusFeedback"] : Json::object();
  out["conditions"] = entry.contains("conditions") ? entry["conditions"] : Json::array();
  return out;
}

}  // namespace

core::Result<WorkApplyResult> ApplyWork(kube::Client& client, const Json& manifest_work,
                                        const AppliedRecord& previous,
                                        const ApplyOptions& options) {
  if (!manifest_work.is_object()) {
    return core::InvalidArgument("a ManifestWork must be a JSON object");
  }
  const Json metadata = WorkMember(manifest_work, {"metadata"});
  const std::string work_name = WorkString(metadata, "name");
  if (work_name.empty()) {
    return core::InvalidArgument("Required value", core::Location{"", "", "metadata.name"});
  }
  const Json generation_json = WorkMember(metadata, {"generation"});
  const int64_t generation =
      generation_json.is_number_integer() ? generation_json.get<int64_t>() : 0;
  const Json spec = WorkMember(manifest_work, {"spec"});
  const Json manifests = WorkMember(spec, {"workload", "manifests"});
  if (!manifests.is_null() && !manifests.is_array()) {
    return core::InvalidArgument("must be a list",
                                 core::Location{"", "", "spec.workload.manifests"});
  }
  const DeleteOption delete_option = DeleteOption::FromJson(WorkMember(spec, {"deleteOption"}));
  Json conditions = WorkMember(manifest_work, {"status", "conditions"});
  if (!conditions.is_array()) conditions = Json::array();
  Json manifest_status = WorkMember(manifest_work, {"status", "resourceStatus", "manifests"});
  if (!manifest_status.is_array()) manifest_status = Json::array();

  WorkApplyResult out;
  out.record.hub_hash = options.hub_hash;
  out.record.work_name = work_name;
  out.record.agent_id = options.agent_id;
  const std::string owner = out.record.Name();
  out.complete = IsConditionTrue(conditions, "Complete");

  if (out.complete || options.refresh_status_only) {
    out.record.resources = previous.resources;
  } else {
    // Step 1: apply in kind order; results and conditions in spec order.
    std::vector<ParsedManifest> parsed;
    if (manifests.is_array()) {
      for (size_t i = 0; i < manifests.size(); ++i)
        parsed.push_back(ParseWorkManifest(i, manifests[i]));
    }
    std::vector<size_t> order(parsed.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return parsed[a].rank < parsed[b].rank; });
    std::vector<ManifestResult> results(parsed.size());
    for (size_t i : order) {
      results[i] =
          ApplyOneManifest(client, parsed[i], spec, manifest_status, delete_option, owner, options);
    }
    Json fresh = Json::array();
    for (const ManifestResult& r : results) {
      if (!r.ok && !r.ssa_conflict) out.errors.push_back(WorkMetaLabel(r.meta) + ": " + r.error);
      Json entry = Json::object();
      entry["resourceMeta"] = r.meta.ToJson();
      entry["conditions"] = Json::array({AppliedCondition(r, generation)});
      fresh.push_back(std::move(entry));
    }
    manifest_status = MergeManifestConditions(manifest_status, fresh, options.now);
    const InCondition applied = AllInCondition("Applied", fresh);
    if (applied.exists) {
      SetCondition(conditions,
                   applied.in ? MakeCondition("Applied", "True", "AppliedManifestWorkComplete",
                                              "Apply manifest work complete", generation)
                              : MakeCondition("Applied", "False", "AppliedManifestWorkFailed",
                                              "Failed to apply manifest work", generation),
                   options.now);
    }
    // Step 2.
    if (FindCondition(conditions, "Applied") == nullptr) {
      out.record.resources = previous.resources;
    } else {
      RecordAndCollect(client, results, previous, owner, &out);
    }
  }

  // Step 3, once the work has been applied at all (the status controller waits for the
  // Applied condition: a work that never had a manifest reports nothing).
  if (FindCondition(conditions, "Applied") != nullptr) {
    for (Json& entry : manifest_status) {
      if (!entry.is_object()) entry = Json::object();
      RefreshManifestStatus(client, entry, spec, generation, options);
      entry = CanonicalManifestEntry(std::move(entry));
      if (options.refresh_status_only && entry["conditions"].is_array()) {
        const Json* available = FindCondition(entry["conditions"], "Available");
        if (available != nullptr && WorkString(*available, "reason") == "ResourceNotAvailable") {
          out.missing_objects = true;
        }
      }
    }
    for (const Json& c : AggregateManifestConditions(generation, manifest_status)) {
      SetCondition(conditions, c, options.now);
    }
    PruneRuleConditions(conditions, generation);
  }

  out.status = Json::object();
  out.status["conditions"] = std::move(conditions);
  out.status["resourceStatus"] = Json{{"manifests", std::move(manifest_status)}};
  return out;
}

WorkDeleteResult DeleteWork(kube::Client& client, const AppliedRecord& record,
                            const Json& delete_option) {
  WorkDeleteResult out;
  out.record = record;
  out.record.resources.clear();
  const DeleteOption option = DeleteOption::FromJson(delete_option);
  AppliedDeletion gc = DeleteAppliedResources(client, record.resources, record.Name(), &option);
  out.record.resources = std::move(gc.kept);
  out.errors = std::move(gc.errors);
  out.deleted = gc.deleted;
  return out;
}

}  // namespace berth::server::work
