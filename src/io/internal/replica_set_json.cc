// Fields are written in the Go structs' order (api: work/v1alpha1 ManifestWorkReplicaSetStatus
// conditions, summary, placementSummary; apps/v1 ControllerRevision metadata, data,
// revision), and the summaries' counts are not omitempty upstream, so zeros are written too.
#include "io/internal/replica_set_json.h"

#include <utility>

#include "io/internal/created_json.h"
#include "io/internal/json_patch.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr const char* kMwrsApiVersion = "work.open-cluster-management.io/v1alpha1";

OrderedJson MwrsSummaryJson(const model::MwrsSummary& s) {
  OrderedJson out = OrderedJson::object();
  out["total"] = s.total;
  out["progressing"] = s.progressing;
  out["available"] = s.available;
  out["degraded"] = s.degraded;
  out["applied"] = s.applied;
  out["desiredTotal"] = s.desired_total;
  out["updated"] = s.updated;
  return out;
}

// Sets annotations[key] to `value`, or removes it when `value` is empty (and the map when it
// is left empty).
void SetAnnotation(OrderedJson& doc, const char* key, const std::string& value) {
  if (value.empty()) {
    auto md = doc.find("metadata");
    if (md == doc.end() || !md->is_object()) return;
    auto annotations = md->find("annotations");
    if (annotations == md->end() || !annotations->is_object()) return;
    annotations->erase(key);
    if (annotations->empty()) md->erase(annotations);
    return;
  }
  ObjectMember(ObjectMember(doc, "metadata"), "annotations")[key] = value;
}

}  // namespace

std::string RollbackAnnotationText(const model::MwrsRollback& rollback) {
  OrderedJson j = OrderedJson::object();
  j["revision"] = rollback.revision;
  j["templateHash"] = rollback.template_hash;
  j["toRevision"] = rollback.to_revision;
  j["toTemplateHash"] = rollback.to_template_hash;
  if (!rollback.reason.empty()) j["reason"] = rollback.reason;
  if (rollback.at.unix_s != 0) j["at"] = rollback.at.ToString();
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string RevisionClustersText(const std::vector<model::RevisionClusterRecord>& clusters) {
  OrderedJson out = OrderedJson::array();
  for (const model::RevisionClusterRecord& c : clusters) {
    OrderedJson entry = OrderedJson::object();
    entry["cluster"] = c.cluster;
    entry["takenAt"] = c.taken_at.ToString();
    entry["outcome"] = c.outcome;
    entry["outcomeAt"] = c.outcome_at.ToString();
    if (!c.detail.empty()) entry["detail"] = c.detail;
    if (!c.feedback.empty()) {
      OrderedJson feedback = OrderedJson::array();
      for (const model::FeedbackRecord& f : c.feedback) {
        feedback.push_back(
            OrderedJson::object({{"name", f.name}, {"value", f.value}, {"at", f.at.ToString()}}));
      }
      entry["feedback"] = std::move(feedback);
    }
    out.push_back(std::move(entry));
  }
  return out.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

OrderedJson WorkSpecJson(const model::WorkSpecSource& source, const DocumentStore& documents) {
  OrderedJson doc = ParseDocument(documents, source.document);
  const OrderedJson* at = &doc;
  for (const std::string& key : source.path) {
    if (!at->is_object()) return OrderedJson();
    auto it = at->find(key);
    if (it == at->end()) return OrderedJson();
    at = &*it;
  }
  return *at;
}

OrderedJson PatchedManifestWorkReplicaSet(const model::ManifestWorkReplicaSet& mwrs,
                                          const DocumentStore& documents) {
  OrderedJson doc = DocumentOrMinimal(documents, mwrs.source, kMwrsApiVersion,
                                      "ManifestWorkReplicaSet", mwrs.meta);
  if (!mwrs.stepped) return doc;
  SetAnnotation(doc, model::kRolloutRolledBackAnnotation,
                mwrs.rolled_back ? RollbackAnnotationText(*mwrs.rolled_back) : "");
  OrderedJson old_status = OrderedJson::object();
  if (auto it = doc.find("status"); it != doc.end() && it->is_object()) old_status = *it;
  OrderedJson status = OrderedJson::object();
  OrderedJson conditions = OrderedJson::array();
  if (auto it = old_status.find("conditions"); it != old_status.end() && it->is_array()) {
    conditions = *it;
  }
  PatchMetaConditions(conditions, mwrs.status.conditions);
  status["conditions"] = std::move(conditions);
  status["summary"] = MwrsSummaryJson(mwrs.status.summary);
  OrderedJson placements = OrderedJson::array();
  for (const model::MwrsPlacementSummary& p : mwrs.status.placement_summary) {
    OrderedJson entry = OrderedJson::object();
    entry["name"] = p.name;
    entry["availableDecisionGroups"] = p.available_decision_groups;
    entry["summary"] = MwrsSummaryJson(p.summary);
    placements.push_back(std::move(entry));
  }
  status["placementSummary"] = std::move(placements);
  for (auto it = old_status.begin(); it != old_status.end(); ++it) {
    if (!status.contains(it.key())) status[it.key()] = it.value();
  }
  doc["status"] = std::move(status);
  return doc;
}

OrderedJson ControllerRevisionJson(const model::ControllerRevision& revision,
                                   const DocumentStore& documents) {
  const std::string clusters =
      revision.clusters.empty() ? std::string() : RevisionClustersText(revision.clusters);
  if (!revision.created) {
    OrderedJson doc = DocumentOrMinimal(documents, revision.source, "apps/v1", "ControllerRevision",
                                        revision.meta);
    SetAnnotation(doc, model::kRevisionClustersAnnotation, clusters);
    SetAnnotation(doc, model::kRevisionRolledBackAnnotation, revision.rolled_back_reason);
    doc["revision"] = revision.revision;
    return doc;
  }
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = "apps/v1";
  doc["kind"] = "ControllerRevision";
  model::ObjectMeta meta = revision.meta;
  if (!clusters.empty()) meta.annotations[model::kRevisionClustersAnnotation] = clusters;
  if (!revision.rolled_back_reason.empty()) {
    meta.annotations[model::kRevisionRolledBackAnnotation] = revision.rolled_back_reason;
  }
  OrderedJson md = CreatedMetadataJson(meta);
  if (!revision.owner_name.empty()) {
    md["ownerReferences"] = OrderedJson::array(
        {OwnerRefJson(kMwrsApiVersion, revision.owner_kind, revision.owner_name, revision.owner_uid,
                      /*controller=*/true)});
  }
  doc["metadata"] = std::move(md);
  OrderedJson tmpl = OrderedJson::object();
  if (revision.template_from.has_value()) tmpl = WorkSpecJson(*revision.template_from, documents);
  doc["data"] = OrderedJson::object(
      {{"spec", OrderedJson::object({{"manifestWorkTemplate", std::move(tmpl)}})}});
  doc["revision"] = revision.revision;
  return doc;
}

}  // namespace berth::io::internal
