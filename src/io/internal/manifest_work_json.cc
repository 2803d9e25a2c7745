// Why manifests are rendered from the documents rather than from the model: the model keeps
// only what scheduling reads, while the member cluster needs the whole object (containers,
// volumes, every field berth does not know). So the document is copied as read and only
// what must differ on the member cluster is changed: the fields the source cluster's API
// server owns go (the member's API server sets its own, and a stale resourceVersion or uid
// would make the apply fail), and the patch adds what the worker's Kueue would inject.
// Pod-set names follow the decoders (batch_v1.cc, apps_v1.cc, jobset_v1alpha2.cc,
// kubeflow_v1.cc, leaderworkerset_v1.cc, kueue_workloads.cc for bare Pods), so a patch
// built from model::PodSetTemplate::name finds its template.
#include "io/internal/manifest_work_json.h"

#include <string>
#include <utility>
#include <vector>

#include "core/check.h"
#include "io/internal/created_json.h"
#include "io/internal/federated_learning_json.h"
#include "io/internal/json_patch.h"
#include "io/internal/kind_table.h"
#include "io/internal/replica_set_json.h"
#include "model/kind_info.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;
using TemplatePatch = model::ManifestPatch::TemplatePatch;

constexpr const char* kQueueNameLabel = "kueue.x-k8s.io/queue-name";

// obj[key] when obj is an object holding an object there, else nullptr.
OrderedJson* WorkJsonObjectAt(OrderedJson& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}

void StripServerFields(OrderedJson& doc) {
  doc.erase("status");
  OrderedJson* md = WorkJsonObjectAt(doc, "metadata");
  if (md == nullptr) return;
  for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp",
                          "managedFields", "ownerReferences"}) {
    md->erase(key);
  }
  if (OrderedJson* annotations = WorkJsonObjectAt(*md, "annotations")) {
    annotations->erase(model::kClusterAnnotation);
    if (annotations->empty()) md->erase("annotations");
  }
}

void PatchObjectMeta(const model::ManifestPatch& patch, OrderedJson& doc) {
  if (!patch.labels.empty() || patch.queue_name.has_value()) {
    OrderedJson& md = ObjectMember(doc, "metadata");
    OrderedJson& labels = ObjectMember(md, "labels");
    for (const auto& [k, v] : patch.labels) labels[k] = v;
    if (patch.queue_name.has_value()) {
      // "" removes the label: the manager's queue means nothing on the worker.
      SetOrErase(labels, kQueueNameLabel, *patch.queue_name);
    }
    if (labels.empty()) md.erase("labels");
  }
  if (!patch.annotations.empty()) {
    OrderedJson& annotations = ObjectMember(ObjectMember(doc, "metadata"), "annotations");
    for (const auto& [k, v] : patch.annotations) annotations[k] = v;
  }
}

// Where the kind keeps it is a column of model's table of kinds (DispatchInfo::suspend).
void PatchSuspend(const model::KindInfo* info, const std::string& kind, bool suspend,
                  OrderedJson& doc) {
  const model::SuspendField field =
      info != nullptr ? info->dispatch.suspend : model::SuspendField::kNone;
  OrderedJson& spec = ObjectMember(doc, "spec");
  switch (field) {
    case model::SuspendField::kSpecSuspend:
      spec["suspend"] = suspend;
      return;
    case model::SuspendField::kRunPolicySuspend:
      ObjectMember(spec, "runPolicy")["suspend"] = suspend;
      return;
    case model::SuspendField::kNone:
      break;
  }
  // The dispatch module sets suspend only for kinds Kueue suspends.
  BERTH_CHECK(false,
              ("ManifestPatch.suspend for kind " + kind + ", which has no suspend field").c_str());
}

bool SameTemplatePatch(const TemplatePatch& a, const TemplatePatch& b) {
  return a.node_selector == b.node_selector && a.tolerations == b.tolerations &&
         a.annotations == b.annotations;
}

const TemplatePatch* FindPatch(const model::ManifestPatch& patch, const char* pod_set) {
  for (const TemplatePatch& t : patch.templates) {
    if (t.pod_set == pod_set) return &t;
  }
  return nullptr;
}

// A LeaderWorkerSet without a leaderTemplate makes its leaders from the workerTemplate. When
// the leader's patch differs from the workers' (and there are workers), the leader gets its
// own template, copied before any patch touches the workerTemplate.
void SplitLeaderTemplate(const model::ManifestPatch& patch, OrderedJson& doc) {
  const TemplatePatch* leader = FindPatch(patch, "leader");
  if (leader == nullptr) return;
  OrderedJson* spec = WorkJsonObjectAt(doc, "spec");
  OrderedJson* lwt = spec != nullptr ? WorkJsonObjectAt(*spec, "leaderWorkerTemplate") : nullptr;
  if (lwt == nullptr || WorkJsonObjectAt(*lwt, "leaderTemplate") != nullptr) return;
  OrderedJson* worker_template = WorkJsonObjectAt(*lwt, "workerTemplate");
  if (worker_template == nullptr) return;
  auto size = lwt->find("size");
  bool has_workers = size != lwt->end() && size->is_number() && size->get<double>() > 1;
  const TemplatePatch* worker = FindPatch(patch, "worker");
  if (worker == nullptr) worker = FindPatch(patch, "main");
  if (!has_workers || (worker != nullptr && SameTemplatePatch(*leader, *worker))) return;
  OrderedJson copy = *worker_template;
  (*lwt)["leaderTemplate"] = std::move(copy);
}

// `tmpl` is a PodTemplateSpec, or with `inline_spec` a PodSpec written inline beside its
// owner's fields (a KServe predictor), whose annotations sit beside them too.
void PatchTemplate(const TemplatePatch& patch, OrderedJson& tmpl, bool inline_spec) {
  OrderedJson& pod_spec = inline_spec ? tmpl : ObjectMember(tmpl, "spec");
  if (!patch.node_selector.empty()) {
    OrderedJson& selector = ObjectMember(pod_spec, "nodeSelector");
    for (const auto& [k, v] : patch.node_selector) selector[k] = v;
  }
  if (!patch.tolerations.empty()) {
    OrderedJson& tolerations = pod_spec["tolerations"];
    if (!tolerations.is_array()) tolerations = OrderedJson::array();
    for (const core::Toleration& t : patch.tolerations) {
      bool present = false;
      for (const OrderedJson& entry : tolerations) present = present || SameToleration(entry, t);
      if (!present) tolerations.push_back(TolerationJson(t));
    }
  }
  if (!patch.annotations.empty()) {
    OrderedJson& annotations =
        inline_spec ? ObjectMember(tmpl, "annotations")
                    : ObjectMember(ObjectMember(tmpl, "metadata"), "annotations");
    for (const auto& [k, v] : patch.annotations) annotations[k] = v;
  }
}

OrderedJson ManifestConfigJson(const model::ManifestConfig& config) {
  OrderedJson out = OrderedJson::object();
  // ResourceIdentifier's fields are not omitempty: "" for the core group or no namespace.
  OrderedJson id = OrderedJson::object();
  id["group"] = config.resource.group;
  id["resource"] = config.resource.resource;
  id["name"] = config.resource.name;
  id["namespace"] = config.resource.namespace_;
  out["resourceIdentifier"] = std::move(id);
  if (!config.feedback_rules.empty()) {
    OrderedJson rules = OrderedJson::array();
    for (const model::FeedbackRule& rule : config.feedback_rules) {
      OrderedJson r = OrderedJson::object();
      if (rule.type == model::FeedbackRuleType::kWellKnownStatus) {
        r["type"] = "WellKnownStatus";
      } else {
        r["type"] = "JSONPaths";
        OrderedJson paths = OrderedJson::array();
        for (const model::JsonPathRule& p : rule.json_paths) {
          paths.push_back(OrderedJson::object({{"name", p.name}, {"path", p.path}}));
        }
        r["jsonPaths"] = std::move(paths);
      }
      rules.push_back(std::move(r));
    }
    out["feedbackRules"] = std::move(rules);
  }
  if (!config.update_strategy.empty()) {
    out["updateStrategy"] = OrderedJson::object({{"type", config.update_strategy}});
  }
  return out;
}

// What only made sense on the hub: MultiKueue's spec.managedBy (the copy a worker gets is
// managed by its own controllers, as MultiKueue removes it), a Pod's spec.nodeName (a node
// of another cluster), and, for a worker without Kueue (queue label removed), Kueue's
// admission scheduling gate on a Pod, which nothing there would lift.
void StripHubFields(const std::string& kind, const model::ManifestPatch& patch, OrderedJson& doc) {
  auto spec = doc.find("spec");
  if (spec == doc.end() || !spec->is_object()) return;
  auto managed_by = spec->find("managedBy");
  if (managed_by != spec->end() && managed_by->is_string() &&
      managed_by->get<std::string>() == "kueue.x-k8s.io/multikueue") {
    spec->erase(managed_by);
  }
  if (kind != "Pod") return;
  spec->erase("nodeName");
  if (!patch.queue_name.has_value() || !patch.queue_name->empty()) return;
  auto gates = spec->find("schedulingGates");
  if (gates == spec->end() || !gates->is_array()) return;
  OrderedJson kept = OrderedJson::array();
  for (const OrderedJson& gate : *gates) {
    auto name = gate.is_object() ? gate.find("name") : gate.end();
    if (name != gate.end() && name->is_string() &&
        name->get<std::string>() == "kueue.x-k8s.io/admission") {
      continue;
    }
    kept.push_back(gate);
  }
  if (kept.empty()) {
    spec->erase(gates);
  } else {
    *gates = std::move(kept);
  }
}

}  // namespace

namespace {

// A DataLoad berth writes (dispatch/prefetch.h): only the fields Fluid needs.
OrderedJson RenderDataLoad(const model::ManifestPatch& patch, const model::DataLoad& load) {
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = patch.api_version;
  doc["kind"] = patch.kind;
  OrderedJson& meta = doc["metadata"] = OrderedJson::object();
  meta["name"] = load.meta.name;
  meta["namespace"] = load.meta.namespace_;
  if (!load.meta.labels.empty()) {
    OrderedJson& labels = meta["labels"] = OrderedJson::object();
    for (const auto& [k, v] : load.meta.labels) labels[k] = v;
  }
  OrderedJson& spec = doc["spec"] = OrderedJson::object();
  spec["dataset"] = OrderedJson::object();
  spec["dataset"]["name"] = load.dataset_name;
  spec["dataset"]["namespace"] =
      load.dataset_namespace.empty() ? load.meta.namespace_ : load.dataset_namespace;
  spec["loadMetadata"] = true;
  if (!load.paths.empty()) {
    OrderedJson& target = spec["target"] = OrderedJson::array();
    for (const std::string& path : load.paths) {
      OrderedJson t = OrderedJson::object();
      t["path"] = path;
      target.push_back(std::move(t));
    }
  }
  spec["policy"] = load.policy;
  return doc;
}

}  // namespace

OrderedJson RenderManifest(const model::ManifestPatch& patch, const DocumentStore& documents) {
  if (patch.data_load.has_value()) return RenderDataLoad(patch, *patch.data_load);
  OrderedJson doc = ParseDocument(documents, patch.source);
  // The engine builds patches for objects io read, and io stores every object it reads.
  BERTH_CHECK(!doc.is_null(), ("ManifestPatch for " + patch.kind + " " + patch.namespace_ + "/" +
                               patch.name + " has no document")
                                  .c_str());
  std::string kind = patch.kind;
  if (kind.empty()) kind = StringMember(doc, "kind");
  std::string api_version = patch.api_version;
  if (api_version.empty()) api_version = StringMember(doc, "apiVersion");
  // Any version: where a kind keeps its suspend field and templates does not change with it.
  const std::string_view group = model::ApiGroupOf(api_version);
  const model::KindInfo* info = model::FindKind(group, kind);
  const KindRow* row = info != nullptr ? RowOf(*info) : nullptr;
  StripServerFields(doc);
  StripHubFields(kind, patch, doc);
  PatchObjectMeta(patch, doc);
  if (patch.suspend.has_value()) PatchSuspend(info, kind, *patch.suspend, doc);
  if (group == "leaderworkerset.x-k8s.io" && kind == "LeaderWorkerSet") {
    SplitLeaderTemplate(patch, doc);
  }
  for (const TemplatePatch& t : patch.templates) {
    std::vector<OrderedJson*> templates;
    if (row != nullptr && row->pod_templates != nullptr) {
      row->pod_templates(t.pod_set, doc, &templates);
    }
    // Patches name pod sets the decoders made from this very document.
    BERTH_CHECK(!templates.empty(),
                ("ManifestPatch names pod set \"" + t.pod_set + "\", which " + kind + " " +
                 patch.namespace_ + "/" + patch.name + " does not have")
                    .c_str());
    for (OrderedJson* tmpl : templates) PatchTemplate(t, *tmpl, row->inline_pod_spec);
  }
  return doc;
}

OrderedJson ManifestWorkJson(const model::ManifestWork& work, const DocumentStore& documents) {
  if (work.spec_from.has_value()) {
    // A ManifestWorkReplicaSet's work: the template is the spec, as written.
    OrderedJson doc = work.created ? OrderedJson() : ParseDocument(documents, work.source);
    if (doc.is_null()) {
      doc = OrderedJson::object();
      doc["apiVersion"] = "work.open-cluster-management.io/v1";
      doc["kind"] = "ManifestWork";
      doc["metadata"] = OrderedJson::object({{"name", work.meta.name},
                                             {"namespace", work.meta.namespace_}});
    }
    if (!work.meta.labels.empty()) {
      OrderedJson& labels = ObjectMember(ObjectMember(doc, "metadata"), "labels");
      for (const auto& [k, v] : work.meta.labels) labels[k] = v;
    }
    doc["spec"] = WorkSpecJson(*work.spec_from, documents);
    return doc;
  }
  if (!work.created) {
    OrderedJson doc = ParseDocument(documents, work.source);
    if (!doc.is_null()) return doc;
  }
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = "work.open-cluster-management.io/v1";
  doc["kind"] = "ManifestWork";
  OrderedJson md = OrderedJson::object();
  md["name"] = work.meta.name;
  md["namespace"] = work.meta.namespace_;
  if (!work.meta.labels.empty()) md["labels"] = StringMapJson(work.meta.labels);
  if (!work.meta.annotations.empty()) md["annotations"] = StringMapJson(work.meta.annotations);
  doc["metadata"] = std::move(md);
  OrderedJson manifests = OrderedJson::array();
  for (const model::ManifestPatch& patch : work.manifests) {
    manifests.push_back(RenderManifest(patch, documents));
  }
  for (const model::GeneratedJob& job : work.generated_jobs) {
    manifests.push_back(GeneratedJobJson(job));
  }
  OrderedJson spec = OrderedJson::object();
  spec["workload"] = OrderedJson::object({{"manifests", std::move(manifests)}});
  if (!work.delete_propagation.empty()) {
    spec["deleteOption"] = OrderedJson::object({{"propagationPolicy", work.delete_propagation}});
  }
  if (!work.manifest_configs.empty()) {
    OrderedJson configs = OrderedJson::array();
    for (const model::ManifestConfig& c : work.manifest_configs) {
      configs.push_back(ManifestConfigJson(c));
    }
    spec["manifestConfigs"] = std::move(configs);
  }
  doc["spec"] = std::move(spec);
  return doc;
}

}  // namespace berth::io::internal
