// Allocation fields are written in the Go structs' field order, as the API server
// serializes them; a claim allocated before the plan keeps its allocation exactly as read.
#include "io/internal/claim_json.h"

#include <set>
#include <utility>
#include <vector>

#include "io/internal/json_patch.h"

namespace berth::io::internal {

using OrderedJson = nlohmann::ordered_json;

namespace {

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

}  // namespace

PodsByKey IndexPods(const model::Snapshot& planned) {
  PodsByKey out;
  for (const model::Pod& pod : planned.pods) {
    out.emplace(ObjectKey(pod.cluster, pod.meta.namespace_, pod.meta.name), &pod);
  }
  return out;
}

OrderedJson PatchedClaim(const model::ResourceClaim& claim, const PodsByKey& pods,
                         const DocumentStore& documents) {
  OrderedJson doc =
      DocumentOrMinimal(documents, claim.source, "resource.k8s.io/v1", "ResourceClaim", claim.meta);
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

}  // namespace berth::io::internal
