// Each document is re-parsed as nlohmann::ordered_json so that keys keep the order they
// were read in and every field berth does not own comes back unchanged; only spec.nodeName
// and the PodScheduled condition (pods), status.allocation and status.reservedFor (claims)
// are written here, the other kinds' fields in internal/*_json.cc. Allocation fields are
// written in the Go structs' field order, as the API server serializes them.
#include "io/writer.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "io/internal/json_patch.h"
#include "io/internal/json_pretty.h"
#include "io/internal/manifest_work_json.h"
#include "io/internal/placement_json.h"
#include "io/internal/workload_json.h"
#include "io/internal/yaml_emitter.h"
#include "io/table_writer.h"

namespace berth::io {

namespace {

using OrderedJson = nlohmann::ordered_json;
using internal::SetOrErase;
using internal::TolerationJson;

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
    if (type != c.end() && type->is_string() && *type == "PodScheduled") {
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

OrderedJson PatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                       const DocumentStore& documents) {
  const model::Pod& pod = planned.pod(d.pod);
  OrderedJson doc;
  if (pod.source.valid()) {
    doc = OrderedJson::parse(documents.Get(pod.source).json, nullptr,
                             /*allow_exceptions=*/false);
  }
  if (!doc.is_object()) {
    // A pod with no document (built by a test or a later stage): the minimal object.
    doc = OrderedJson::object();
    doc["apiVersion"] = "v1";
    doc["kind"] = "Pod";
    doc["metadata"] =
        OrderedJson::object({{"name", pod.meta.name}, {"namespace", pod.meta.namespace_}});
  }
  std::string node = pod.node_name;
  if (node.empty() && d.node.has_value()) node = planned.node(*d.node).meta.name;
  if (!node.empty()) {
    if (!doc["spec"].is_object()) doc["spec"] = OrderedJson::object();
    doc["spec"]["nodeName"] = node;
  }
  PatchScheduling(pod, doc);
  if (auto cond = ScheduledCondition(pod, d, !node.empty())) PatchCondition(doc, *cond);
  return doc;
}


OrderedJson RequirementsJson(const std::vector<core::SelectorRequirement>& reqs) {
  OrderedJson out = OrderedJson::array();
  for (const core::SelectorRequirement& r : reqs) {
    OrderedJson req = OrderedJson::object();
    req["key"] = r.key;
    req["operator"] = core::SelectorOpName(r.op);
    if (!r.values.empty()) req["values"] = r.values;
    out.push_back(std::move(req));
  }
  return out;
}

OrderedJson NodeSelectorJson(const core::NodeSelector& selector) {
  OrderedJson terms = OrderedJson::array();
  for (const core::NodeSelectorTerm& term : selector.terms) {
    OrderedJson t = OrderedJson::object();
    if (!term.match_expressions.empty()) {
      t["matchExpressions"] = RequirementsJson(term.match_expressions);
    }
    if (!term.match_fields.empty()) t["matchFields"] = RequirementsJson(term.match_fields);
    terms.push_back(std::move(t));
  }
  return OrderedJson::object({{"nodeSelectorTerms", std::move(terms)}});
}

OrderedJson OpaqueJson(const model::OpaqueDeviceConfig& opaque) {
  OrderedJson out = OrderedJson::object();
  out["driver"] = opaque.driver;
  // The parameters were read as JSON, so they parse; an empty object stands in otherwise.
  OrderedJson parameters =
      OrderedJson::parse(opaque.parameters_json, nullptr, /*allow_exceptions=*/false);
  out["parameters"] = parameters.is_discarded() ? OrderedJson::object() : std::move(parameters);
  return out;
}

OrderedJson AllocationJson(const model::AllocationResult& allocation) {
  OrderedJson results = OrderedJson::array();
  for (const model::DeviceRequestAllocationResult& r : allocation.results) {
    OrderedJson result = OrderedJson::object();
    result["request"] = r.request;
    result["driver"] = r.driver;
    result["pool"] = r.pool;
    result["device"] = r.device;
    if (r.admin_access) result["adminAccess"] = true;
    if (!r.tolerations.empty()) {
      OrderedJson tolerations = OrderedJson::array();
      for (const core::Toleration& t : r.tolerations) tolerations.push_back(TolerationJson(t));
      result["tolerations"] = std::move(tolerations);
    }
    if (!r.share_id.empty()) result["shareID"] = r.share_id;
    if (!r.consumed_capacity.empty()) {
      OrderedJson consumed = OrderedJson::object();
      for (const auto& [name, q] : r.consumed_capacity) consumed[name] = q.ToString();
      result["consumedCapacity"] = std::move(consumed);
    }
    results.push_back(std::move(result));
  }
  OrderedJson devices = OrderedJson::object();
  devices["results"] = std::move(results);
  if (!allocation.config.empty()) {
    OrderedJson config = OrderedJson::array();
    for (const model::DeviceAllocationConfiguration& c : allocation.config) {
      OrderedJson entry = OrderedJson::object();
      entry["source"] =
          c.source == model::AllocationConfigSource::kFromClass ? "FromClass" : "FromClaim";
      if (!c.requests.empty()) entry["requests"] = c.requests;
      entry["opaque"] = OpaqueJson(c.opaque);
      config.push_back(std::move(entry));
    }
    devices["config"] = std::move(config);
  }
  OrderedJson out = OrderedJson::object();
  out["devices"] = std::move(devices);
  if (allocation.node_selector.has_value()) {
    out["nodeSelector"] = NodeSelectorJson(*allocation.node_selector);
  }
  return out;
}

// "cluster\x1fnamespace\x1fname": the identity of a namespaced object in the fleet.
std::string ObjectKey(const std::string& cluster, const std::string& ns,
                        const std::string& name) {
  return cluster + '\x1f' + ns + '\x1f' + name;
}

// Pods by cluster, namespace and name, for the uid of reservedFor entries.
std::unordered_map<std::string, const model::Pod*> PodsByKey(const model::Snapshot& planned) {
  std::unordered_map<std::string, const model::Pod*> out;
  for (const model::Pod& pod : planned.pods) {
    out.emplace(ObjectKey(pod.cluster, pod.meta.namespace_, pod.meta.name), &pod);
  }
  return out;
}

// Placement uids by cluster, namespace and name, for PlacementDecisions' ownerReferences.
std::unordered_map<std::string, std::string> PlacementUids(const model::Snapshot& planned) {
  std::unordered_map<std::string, std::string> out;
  for (const model::Placement& p : planned.placements) {
    out.emplace(ObjectKey(p.cluster, p.meta.namespace_, p.meta.name), p.meta.uid);
  }
  return out;
}

OrderedJson PatchedClaim(const model::ResourceClaim& claim,
                         const std::unordered_map<std::string, const model::Pod*>& pods,
                         const DocumentStore& documents) {
  OrderedJson doc;
  if (claim.source.valid()) {
    doc = OrderedJson::parse(documents.Get(claim.source).json, nullptr,
                             /*allow_exceptions=*/false);
  }
  if (!doc.is_object()) {
    doc = OrderedJson::object();
    doc["apiVersion"] = "resource.k8s.io/v1";
    doc["kind"] = "ResourceClaim";
    doc["metadata"] =
        OrderedJson::object({{"name", claim.meta.name}, {"namespace", claim.meta.namespace_}});
  }
  OrderedJson old_status = OrderedJson::object();
  if (auto it = doc.find("status"); it != doc.end() && it->is_object()) old_status = *it;
  // A claim allocated before the plan keeps its allocation exactly as read.
  OrderedJson allocation;
  if (auto it = old_status.find("allocation"); it != old_status.end() && !it->is_null()) {
    allocation = *it;
  } else if (claim.allocation.has_value()) {
    allocation = AllocationJson(*claim.allocation);
  }
  OrderedJson reserved = OrderedJson::array();
  std::set<std::string> listed;
  if (auto it = old_status.find("reservedFor"); it != old_status.end() && it->is_array()) {
    reserved = *it;
    for (const OrderedJson& ref : reserved) {
      if (!ref.is_object()) continue;
      auto resource = ref.find("resource");
      auto name = ref.find("name");
      auto group = ref.find("apiGroup");
      bool pods_ref = resource != ref.end() && *resource == "pods" &&
                      (group == ref.end() || *group == "" || group->is_null());
      if (pods_ref && name != ref.end() && name->is_string()) {
        listed.insert(name->get<std::string>());
      }
    }
  }
  for (const std::string& name : claim.reserved_for) {
    if (!listed.insert(name).second) continue;
    OrderedJson ref = OrderedJson::object();
    ref["resource"] = "pods";
    ref["name"] = name;
    auto pod = pods.find(ObjectKey(claim.cluster, claim.meta.namespace_, name));
    if (pod != pods.end() && !pod->second->meta.uid.empty()) ref["uid"] = pod->second->meta.uid;
    reserved.push_back(std::move(ref));
  }
  // ResourceClaimStatus field order: allocation, reservedFor, then the rest as read.
  OrderedJson status = OrderedJson::object();
  if (!allocation.is_null()) status["allocation"] = std::move(allocation);
  if (!reserved.empty()) status["reservedFor"] = std::move(reserved);
  for (auto it = old_status.begin(); it != old_status.end(); ++it) {
    if (it.key() == "allocation" || it.key() == "reservedFor") continue;
    status[it.key()] = it.value();
  }
  doc["status"] = std::move(status);
  return doc;
}

// Calls `emit` with each item of the List, in print order. The items are made one at a time
// so that a writer can print each and let it go: a plan's List would otherwise hold every
// pod's document as a tree at once (a few times the input's size).
template <typename Emit>
void ForEachItem(const model::Snapshot& planned, const PlanItems& plan,
                 const DocumentStore& documents, bool pods, Emit&& emit) {
  if (pods && plan.pods != nullptr) {
    for (const model::PodDecision& d : *plan.pods) emit(PatchedPod(planned, d, documents));
  }
  if (!plan.claims.empty()) {
    const auto pods = PodsByKey(planned);
    for (int32_t c : plan.claims) {
      emit(PatchedClaim(planned.resource_claims[static_cast<size_t>(c)], pods, documents));
    }
  }
  for (int32_t w : plan.workloads) {
    emit(internal::PatchedWorkload(planned.kueue_workloads[static_cast<size_t>(w)], documents));
  }
  for (int32_t p : plan.placements) {
    emit(internal::PatchedPlacement(planned.placements[static_cast<size_t>(p)], documents));
  }
  if (!plan.placement_decisions.empty()) {
    const auto uids = PlacementUids(planned);
    for (int32_t d : plan.placement_decisions) {
      const model::PlacementDecision& pd = planned.placement_decisions[static_cast<size_t>(d)];
      auto uid = uids.find(ObjectKey(pd.cluster, pd.meta.namespace_, pd.placement));
      emit(internal::PatchedPlacementDecision(
          pd, uid == uids.end() ? std::string() : uid->second, documents));
    }
  }
  for (int32_t m : plan.manifest_works) {
    emit(internal::ManifestWorkJson(planned.manifest_works[static_cast<size_t>(m)], documents));
  }
}

// A pod of the List printed straight from its stored text (internal/json_pretty.h), as
// PatchedPod(...).dump(2) nested in the List would print it; false when that printer
// declines the document.
bool PrettyPatchedPod(const model::Snapshot& planned, const model::PodDecision& d,
                      const DocumentStore& documents, std::string* out) {
  const model::Pod& pod = planned.pod(d.pod);
  if (!pod.source.valid()) return false;
  internal::PodPatch patch;
  patch.node = pod.node_name;
  if (patch.node.empty() && d.node.has_value()) patch.node = planned.node(*d.node).meta.name;
  patch.condition = ScheduledCondition(pod, d, !patch.node.empty());
  patch.node_selector = &pod.node_selector;
  patch.tolerations = pod.tolerations.size();
  return internal::PrettyPod(documents.Get(pod.source).json, patch, /*indent=*/4, out);
}

// The List as `list.dump(2)` prints it, one item at a time: an item nested two levels deep
// is its own dump(2) with every line after the first indented by four more spaces (a dump
// has no raw newline inside a string: JSON escapes them), and the array's own brackets and
// commas around it. Pods print from their text when the pretty printer can.
void WriteJsonList(const model::Snapshot& planned, const PlanItems& plan,
                   const DocumentStore& documents, std::ostream& out) {
  out << "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [";
  bool first = true;
  std::string text;
  std::string indented;
  auto write_tree = [&](const OrderedJson& item) {
    text = item.dump(2, ' ', false, OrderedJson::error_handler_t::replace);
    indented.reserve(indented.size() + text.size() + text.size() / 8);
    size_t from = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
      indented.append(text, from, nl + 1 - from);
      indented += "    ";
      from = nl + 1;
    }
    indented.append(text, from, std::string::npos);
  };
  auto flush = [&] {
    out.write(indented.data(), static_cast<std::streamsize>(indented.size()));
    indented.clear();
  };
  if (plan.pods != nullptr) {
    for (const model::PodDecision& d : *plan.pods) {
      indented += first ? "\n    " : ",\n    ";
      first = false;
      if (!PrettyPatchedPod(planned, d, documents, &indented)) {
        write_tree(PatchedPod(planned, d, documents));
      }
      flush();
    }
  }
  ForEachItem(planned, plan, documents, /*pods=*/false, [&](const OrderedJson& item) {
    indented += first ? "\n    " : ",\n    ";
    first = false;
    write_tree(item);
    flush();
  });
  out << (first ? "]" : "\n  ]")
      << ",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n";
}

}  // namespace

void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const DocumentStore& documents, OutputFormat format, std::ostream& out) {
  WritePlanList(planned, decisions, {}, documents, format, out);
}

void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const std::vector<int32_t>& claims, const DocumentStore& documents,
                   OutputFormat format, std::ostream& out) {
  PlanItems items;
  items.pods = &decisions;
  items.claims = claims;
  WritePlan(planned, items, documents, format, out);
}

void WritePlan(const model::Snapshot& planned, const PlanItems& plan,
               const DocumentStore& documents, OutputFormat format, std::ostream& out) {
  if (format == OutputFormat::kTable) {
    WritePlanTable(planned, plan, out);
    return;
  }
  if (format == OutputFormat::kJson) {
    WriteJsonList(planned, plan, documents, out);
    return;
  }
  OrderedJson list = OrderedJson::object();
  list["apiVersion"] = "v1";
  list["kind"] = "List";
  list["items"] = OrderedJson::array();
  OrderedJson& items = list["items"];
  ForEachItem(planned, plan, documents, /*pods=*/true,
              [&](OrderedJson item) { items.push_back(std::move(item)); });
  list["metadata"] = OrderedJson::object({{"resourceVersion", ""}});
  std::string text;
  internal::EmitYaml(list, &text);
  out << text;
}

}  // namespace berth::io
