// Each document is re-parsed as nlohmann::ordered_json so that keys keep the order they
// were read in and every field berth does not own comes back unchanged; only spec.nodeName,
// the PodScheduled condition and Kueue's injected nodeSelector and tolerations are written
// (and, for a pod a plan of N cycles leaves terminating, its deletionTimestamp and
// TerminationTarget condition; after one cycle's preemption, status.nominatedNodeName and the
// victims' DisruptionTarget condition).
#include "io/internal/pod_json.h"

#include <optional>
#include <string>
#include <vector>
#include <utility>

#include "io/internal/json_patch.h"
#include "io/internal/json_pretty.h"

namespace berth::io::internal {

using OrderedJson = nlohmann::ordered_json;

namespace {

// The PodScheduled condition to write: the engine's, else one derived from the decision;
// nullopt leaves the document's conditions alone (a pod skipped as not ours).
std::optional<model::PodCondition> ScheduledCondition(const model::Pod& pod,
                                                      const model::PodDecision& d, bool bound) {
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "PodScheduled") return c;
  }
  if (d.skipped) return std::nullopt;
  model::PodCondition c;
  c.type = "PodScheduled";
  if (bound) {
    c.status = "True";
  } else {
    c.status = "False";
    c.reason = "Unschedulable";
    c.message = d.message;
  }
  return c;
}

void PatchCondition(OrderedJson& doc, const model::PodCondition& cond) {
  if (!doc["status"].is_object()) doc["status"] = OrderedJson::object();
  OrderedJson& status = doc["status"];
  if (!status["conditions"].is_array()) status["conditions"] = OrderedJson::array();
  OrderedJson& conditions = status["conditions"];
  for (OrderedJson& c : conditions) {
    auto type = c.is_object() ? c.find("type") : c.end();
    if (type != c.end() && type->is_string() && *type == cond.type) {
      c["status"] = cond.status;
      SetOrErase(c, "reason", cond.reason);
      SetOrErase(c, "message", cond.message);
      return;
    }
  }
  OrderedJson c = OrderedJson::object();
  c["type"] = cond.type;
  c["status"] = cond.status;
  if (!cond.reason.empty()) c["reason"] = cond.reason;
  if (!cond.message.empty()) c["message"] = cond.message;
  conditions.push_back(std::move(c));
}

// The planned nodeSelector and tolerations where they differ from the document (Kueue
// injects its flavors' into admitted pods): nodeSelector keys added or replaced; tolerations
// the planned pod has beyond the document's (they are appended, never reordered).
void PatchScheduling(const model::Pod& pod, OrderedJson& doc) {
  if (pod.node_selector.empty() && pod.tolerations.empty()) return;
  if (!doc["spec"].is_object()) doc["spec"] = OrderedJson::object();
  OrderedJson& spec = doc["spec"];
  for (const auto& [key, value] : pod.node_selector) {
    if (!spec["nodeSelector"].is_object()) spec["nodeSelector"] = OrderedJson::object();
    OrderedJson& selector = spec["nodeSelector"];
    if (!selector.contains(key) || selector[key] != value) selector[key] = value;
  }
  const size_t have = spec.contains("tolerations") && spec["tolerations"].is_array()
                          ? spec["tolerations"].size()
                          : 0;
  if (pod.tolerations.size() > have) {
    if (!spec["tolerations"].is_array()) spec["tolerations"] = OrderedJson::array();
    for (size_t i = have; i < pod.tolerations.size(); ++i) {
      spec["tolerations"].push_back(TolerationJson(pod.tolerations[i]));
    }
  }
}

// A pod a plan of N cycles leaves terminating (engine/terminating_pods.h):
// metadata.deletionTimestamp, and the conditions written besides PodScheduled
// (TerminationTarget for a pod Kueue stops itself).
void PatchTerminating(const model::Pod& pod, OrderedJson& doc) {
  if (!pod.deletion_timestamp) return;
  if (!doc["metadata"].is_object()) doc["metadata"] = OrderedJson::object();
  doc["metadata"]["deletionTimestamp"] = pod.deletion_timestamp->ToString();
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "TerminationTarget") PatchCondition(doc, c);
  }
}

// A pod the plan creates in place of a deleted one (model::Pod::replaces): its document is
// the deleted pod's, which becomes the pod as the job controller creates it: the new name and
// creation time; no uid, resourceVersion, managedFields, deletion or nodeName; the pod's
// nodeSelector and tolerations exactly (the template's, restored on eviction, with the new
// admission's, where the deleted pod carried the old one's); status only the phase Pending.
void RewriteReplacement(const model::Pod& pod, OrderedJson& doc) {
  if (pod.replaces.empty()) return;
  OrderedJson& md = ObjectMember(doc, "metadata");
  md["name"] = pod.meta.name;
  for (const char* key : {"uid", "resourceVersion", "generation", "managedFields", "selfLink",
                          "deletionTimestamp", "deletionGracePeriodSeconds"}) {
    md.erase(key);
  }
  if (pod.meta.creation_timestamp.unix_s != 0) {
    md["creationTimestamp"] = pod.meta.creation_timestamp.ToString();
  }
  OrderedJson& spec = ObjectMember(doc, "spec");
  spec.erase("nodeName");
  if (pod.node_selector.empty()) {
    spec.erase("nodeSelector");
  } else {
    OrderedJson selector = OrderedJson::object();
    for (const auto& [key, value] : pod.node_selector) selector[key] = value;
    spec["nodeSelector"] = std::move(selector);
  }
  if (pod.tolerations.empty()) {
    spec.erase("tolerations");
  } else {
    OrderedJson tolerations = OrderedJson::array();
    for (const core::Toleration& t : pod.tolerations) tolerations.push_back(TolerationJson(t));
    spec["tolerations"] = std::move(tolerations);
  }
  doc["status"] = OrderedJson::object({{"phase", "Pending"}});
}

// LimitRanger's defaults (engine/pod_admission.h writes its kubernetes.io/limit-ranger
// annotation on the model pod): the annotation, and each container's requests and limits
// the document does not name, as the API server stores the admitted pod.
constexpr const char* kLimitRangerAnnotation = "kubernetes.io/limit-ranger";

void PatchResourceList(const model::ResourceVector& amounts,
                       const model::ResourceCatalog& catalog, OrderedJson& list) {
  for (size_t i = 0; i < amounts.size() && i < catalog.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    const int64_t amount = amounts.Get(id);
    const std::string& name = catalog.Name(id);
    if (amount == 0 || list.contains(name)) continue;
    list[name] = model::AmountQuantity(name, amount).ToString();
  }
}

void PatchContainers(const std::vector<model::Container>& containers,
                     const model::ResourceCatalog& catalog, OrderedJson& spec, const char* key) {
  if (!spec.contains(key) || !spec[key].is_array()) return;
  for (OrderedJson& c : spec[key]) {
    if (!c.is_object() || !c.contains("name") || !c["name"].is_string()) continue;
    const std::string name = c["name"].get<std::string>();
    for (const model::Container& mc : containers) {
      if (mc.name != name) continue;
      OrderedJson& resources = ObjectMember(c, "resources");
      if (!mc.requests.IsZero()) {
        PatchResourceList(mc.requests, catalog, ObjectMember(resources, "requests"));
      }
      if (!mc.limits.IsZero()) {
        PatchResourceList(mc.limits, catalog, ObjectMember(resources, "limits"));
      }
    }
  }
}

void PatchLimitRanger(const model::Pod& pod, const model::ResourceCatalog& catalog,
                      OrderedJson& doc) {
  auto it = pod.meta.annotations.find(kLimitRangerAnnotation);
  if (it == pod.meta.annotations.end()) return;
  ObjectMember(ObjectMember(doc, "metadata"), "annotations")[kLimitRangerAnnotation] = it->second;
  OrderedJson& spec = ObjectMember(doc, "spec");
  PatchContainers(pod.containers, catalog, spec, "containers");
  PatchContainers(pod.init_containers, catalog, spec, "initContainers");
}

// The RuntimeClass admission's spec.overhead (runtime_class_admission.h sets it on the model
// pod): written when the document lacks it, as the API server stores the admitted pod.
bool NeedsOverhead(const model::Pod& pod) {
  return pod.overhead_given && !pod.overhead.IsZero() && !pod.runtime_class_name.empty();
}

void PatchOverhead(const model::Pod& pod, const model::ResourceCatalog& catalog,
                   OrderedJson& doc) {
  if (!NeedsOverhead(pod)) return;
  OrderedJson& spec = ObjectMember(doc, "spec");
  if (spec.contains("overhead")) return;
  PatchResourceList(pod.overhead, catalog, ObjectMember(spec, "overhead"));
}

// What DefaultPreemption writes after one cycle: the preemptor's status.nominatedNodeName
// and each victim's DisruptionTarget condition (PreemptionByScheduler).
void PatchPreemption(const model::Pod& pod, OrderedJson& doc) {
  if (!pod.nominated_node_name.empty()) {
    if (!doc["status"].is_object()) doc["status"] = OrderedJson::object();
    doc["status"]["nominatedNodeName"] = pod.nominated_node_name;
  }
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "DisruptionTarget") PatchCondition(doc, c);
  }
}

bool HasPreemptionStatus(const model::Pod& pod) {
  if (!pod.nominated_node_name.empty()) return true;
  for (const model::PodCondition& c : pod.conditions) {
    if (c.type == "DisruptionTarget") return true;
  }
  return false;
}

}  // namespace

OrderedJson PatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                       const DocumentStore& documents) {
  const model::Pod& pod = planned.pod(d.pod);
  OrderedJson doc = DocumentOrMinimal(documents, pod.source, "v1", "Pod", pod.meta);
  RewriteReplacement(pod, doc);
  std::string node = pod.node_name;
  if (node.empty() && d.node.has_value()) node = planned.node(*d.node).meta.name;
  if (!node.empty()) {
    if (!doc["spec"].is_object()) doc["spec"] = OrderedJson::object();
    doc["spec"]["nodeName"] = node;
  }
  PatchScheduling(pod, doc);
  if (auto cond = ScheduledCondition(pod, d, !node.empty())) PatchCondition(doc, *cond);
  PatchTerminating(pod, doc);
  PatchLimitRanger(pod, planned.resources, doc);
  PatchOverhead(pod, planned.resources, doc);
  PatchPreemption(pod, doc);
  return doc;
}

bool PrettyPatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                      const DocumentStore& documents, int indent, std::string* out) {
  const model::Pod& pod = planned.pod(d.pod);
  // Terminating pods (plans of N cycles) and pods created in place of deleted ones are few:
  // the tree path patches them.
  if (!pod.source.valid() || pod.deletion_timestamp || !pod.replaces.empty() ||
      pod.meta.annotations.count(kLimitRangerAnnotation) != 0 || HasPreemptionStatus(pod) ||
      NeedsOverhead(pod)) {
    return false;
  }
  PodPatch patch;
  patch.node = pod.node_name;
  if (patch.node.empty() && d.node.has_value()) patch.node = planned.node(*d.node).meta.name;
  patch.condition = ScheduledCondition(pod, d, !patch.node.empty());
  patch.node_selector = &pod.node_selector;
  patch.tolerations = pod.tolerations.size();
  return PrettyPod(documents.Get(pod.source).json, patch, indent, out);
}

}  // namespace berth::io::internal
