// Status fields are written in the Go structs' order (api:cluster/v1beta1: PlacementStatus
// numberOfSelectedClusters, decisionGroups, conditions; DecisionGroupStatus
// decisionGroupIndex, decisionGroupName, decisions, clusterCount; ClusterDecision
// clusterName, reason), and none of them is omitempty upstream, so empty lists and reasons
// are written too: that is what the API server returns for the controller's objects.
#include "io/internal/placement_json.h"

#include <utility>

#include "io/internal/created_json.h"
#include "io/internal/json_patch.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr const char* kApiVersion = "cluster.open-cluster-management.io/v1beta1";

OrderedJson MinimalDocument(const char* kind, const model::ObjectMeta& meta) {
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = kApiVersion;
  doc["kind"] = kind;
  doc["metadata"] = OrderedJson::object({{"name", meta.name}, {"namespace", meta.namespace_}});
  return doc;
}

OrderedJson DecisionsJson(const std::vector<model::ClusterDecision>& decisions) {
  OrderedJson out = OrderedJson::array();
  for (const model::ClusterDecision& d : decisions) {
    OrderedJson entry = OrderedJson::object();
    entry["clusterName"] = d.cluster_name;
    entry["reason"] = d.reason;
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace

OrderedJson PatchedPlacement(const model::Placement& placement, const DocumentStore& documents) {
  OrderedJson doc = ParseDocument(documents, placement.source);
  if (doc.is_null()) doc = MinimalDocument("Placement", placement.meta);
  if (!placement.status.has_value()) return doc;
  const model::PlacementStatus& planned = *placement.status;
  OrderedJson old_status = OrderedJson::object();
  if (auto it = doc.find("status"); it != doc.end() && it->is_object()) old_status = *it;

  OrderedJson status = OrderedJson::object();
  status["numberOfSelectedClusters"] = planned.number_of_selected_clusters;
  OrderedJson groups = OrderedJson::array();
  for (const model::PlacementDecisionGroupStatus& g : planned.decision_groups) {
    OrderedJson group = OrderedJson::object();
    group["decisionGroupIndex"] = g.index;
    group["decisionGroupName"] = g.name;
    group["decisions"] = g.decisions;
    group["clusterCount"] = g.cluster_count;
    groups.push_back(std::move(group));
  }
  status["decisionGroups"] = std::move(groups);
  OrderedJson conditions = OrderedJson::array();
  if (auto it = old_status.find("conditions"); it != old_status.end() && it->is_array()) {
    conditions = *it;
  }
  PatchMetaConditions(conditions, planned.conditions);
  status["conditions"] = std::move(conditions);
  for (auto it = old_status.begin(); it != old_status.end(); ++it) {
    if (status.contains(it.key())) continue;
    status[it.key()] = it.value();
  }
  doc["status"] = std::move(status);
  return doc;
}

OrderedJson PatchedPlacementDecision(const model::PlacementDecision& pd,
                                     const std::string& placement_uid,
                                     const DocumentStore& documents) {
  OrderedJson doc = pd.created ? OrderedJson() : ParseDocument(documents, pd.source);
  if (!doc.is_null()) {
    if (!pd.meta.labels.empty()) {
      OrderedJson& labels = ObjectMember(ObjectMember(doc, "metadata"), "labels");
      for (const auto& [k, v] : pd.meta.labels) labels[k] = v;
    }
    OrderedJson& status = ObjectMember(doc, "status");
    status["decisions"] = DecisionsJson(pd.decisions);
    return doc;
  }
  doc = MinimalDocument("PlacementDecision", pd.meta);
  OrderedJson& md = doc["metadata"];
  core::Labels labels = pd.meta.labels;
  if (!pd.placement.empty()) labels.emplace(model::kPlacementLabel, pd.placement);
  if (!labels.empty()) md["labels"] = StringMapJson(labels);
  if (!pd.meta.annotations.empty()) md["annotations"] = StringMapJson(pd.meta.annotations);
  if (!pd.placement.empty()) {
    // The placement controller makes the Placement the controller owner of its decisions,
    // so deleting the Placement garbage-collects them.
    md["ownerReferences"] = OrderedJson::array(
        {OwnerRefJson(kApiVersion, "Placement", pd.placement, placement_uid, /*controller=*/true)});
  }
  doc["status"] = OrderedJson::object({{"decisions", DecisionsJson(pd.decisions)}});
  return doc;
}

}  // namespace berth::io::internal
