// apps/v1 ControllerRevision, validated as the API server validates it (kubernetes
// pkg/apis/apps/validation ValidateControllerRevision: object metadata, `data` required,
// `revision` not negative). Any controller's revisions are read (a StatefulSet's, from a
// member cluster's dump); only those holding a ManifestWorkReplicaSet template
// (data.spec.manifestWorkTemplate) get a template hash, and only berth's annotations on
// them are parsed: the record of the clusters that took the revision and the reason it was
// rolled back.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "io/internal/canonical_hash.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

using Json = nlohmann::json;

core::Status RevisionJsonString(const Json& obj, const std::string& field, const char* key,
                                bool required, std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end()) {
    return required ? FieldError(field + "." + key, "Required value") : core::OkStatus();
  }
  if (!it->is_string()) return FieldError(field + "." + key, "must be a string");
  *out = it->get<std::string>();
  return core::OkStatus();
}

core::Status RevisionJsonTime(const Json& obj, const std::string& field, const char* key,
                              core::Timestamp* out) {
  std::string text;
  BERTH_RETURN_IF_ERROR(RevisionJsonString(obj, field, key, false, &text));
  if (text.empty()) return core::OkStatus();
  auto t = core::Timestamp::Parse(text);
  if (!t.has_value()) return FieldError(field + "." + key, t.error().message());
  *out = *t;
  return core::OkStatus();
}

// kRevisionClustersAnnotation: the JSON array berth writes (replica_set_json.cc).
core::Result<std::vector<model::RevisionClusterRecord>> DecodeRevisionClusters(
    const std::string& text) {
  const std::string field = KeyField("metadata.annotations", model::kRevisionClustersAnnotation);
  const Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return FieldError(field, "must be a JSON array, as berth writes it");
  std::vector<model::RevisionClusterRecord> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const std::string at = field + IndexField(i);
    const Json& entry = j[i];
    if (!entry.is_object()) return FieldError(at, "must be an object");
    model::RevisionClusterRecord record;
    BERTH_RETURN_IF_ERROR(RevisionJsonString(entry, at, "cluster", true, &record.cluster));
    BERTH_RETURN_IF_ERROR(RevisionJsonTime(entry, at, "takenAt", &record.taken_at));
    BERTH_RETURN_IF_ERROR(RevisionJsonString(entry, at, "outcome", false, &record.outcome));
    if (record.outcome.empty()) record.outcome = "Progressing";
    if (record.outcome != "Progressing" && record.outcome != "Succeeded" &&
        record.outcome != "Failed" && record.outcome != "TimeOut") {
      return FieldError(at + ".outcome", "unsupported value " + core::Quote(record.outcome) +
                                             ": supported values: \"Progressing\", "
                                             "\"Succeeded\", \"Failed\", \"TimeOut\"");
    }
    BERTH_RETURN_IF_ERROR(RevisionJsonTime(entry, at, "outcomeAt", &record.outcome_at));
    BERTH_RETURN_IF_ERROR(RevisionJsonString(entry, at, "detail", false, &record.detail));
    if (auto fb = entry.find("feedback"); fb != entry.end()) {
      if (!fb->is_array()) return FieldError(at + ".feedback", "must be an array");
      for (size_t k = 0; k < fb->size(); ++k) {
        const std::string fat = at + ".feedback" + IndexField(k);
        const Json& value = (*fb)[k];
        if (!value.is_object()) return FieldError(fat, "must be an object");
        model::FeedbackRecord r;
        BERTH_RETURN_IF_ERROR(RevisionJsonString(value, fat, "name", true, &r.name));
        BERTH_RETURN_IF_ERROR(RevisionJsonString(value, fat, "value", false, &r.value));
        BERTH_RETURN_IF_ERROR(RevisionJsonTime(value, fat, "at", &r.at));
        record.feedback.push_back(std::move(r));
      }
    }
    out.push_back(std::move(record));
  }
  return out;
}

}  // namespace

core::Result<model::ControllerRevision> DecodeControllerRevision(dom::object obj) {
  model::ControllerRevision rev;
  BERTH_ASSIGN_OR_RETURN(rev.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                    /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "revision", &rev.revision));
  if (rev.revision < 0) return FieldError("revision", "must be greater than or equal to 0");
  dom::element data;
  if (!Find(obj, "data", &data)) return FieldError("data", "Required value: data is mandatory");
  dom::object data_obj;
  dom::object spec;
  dom::element tmpl;
  if (data.get_object().get(data_obj) == simdjson::SUCCESS &&
      data_obj["spec"].get_object().get(spec) == simdjson::SUCCESS &&
      Find(spec, "manifestWorkTemplate", &tmpl) && tmpl.is_object()) {
    rev.template_hash = CanonicalJsonHash(tmpl);
    // The template's manifests, for tables; a template berth cannot read (written by hand)
    // still names its revision, it only lists no manifests.
    model::ManifestWork work;
    if (DecodeManifestWorkSpec(dom::object(tmpl), &work).has_value()) {
      rev.template_manifests = std::move(work.read_manifests);
    }
  }
  std::optional<model::OwnerRef> owner;
  BERTH_RETURN_IF_ERROR(DecodeControllerRef(obj, &owner));
  if (owner.has_value()) {
    rev.owner_kind = owner->kind;
    rev.owner_name = owner->name;
    rev.owner_uid = owner->uid;
  }
  if (auto it = rev.meta.annotations.find(model::kRevisionClustersAnnotation);
      it != rev.meta.annotations.end()) {
    BERTH_ASSIGN_OR_RETURN(rev.clusters, DecodeRevisionClusters(it->second));
  }
  if (auto it = rev.meta.annotations.find(model::kRevisionRolledBackAnnotation);
      it != rev.meta.annotations.end()) {
    rev.rolled_back_reason = it->second;
  }
  return rev;
}

}  // namespace berth::io::internal
