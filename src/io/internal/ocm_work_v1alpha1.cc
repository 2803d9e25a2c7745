// work.open-cluster-management.io/v1alpha1: ManifestWorkReplicaSet. Validation follows its
// CRD (open-cluster-management-io/api work/v1alpha1 types_manifestworkreplicaset.go and
// cluster/v1alpha1 types_rolloutstrategy.go, as generated into the CRD manifest):
// placementRefs required with at least one entry, each name at least one character;
// cascadeDeletionPolicy Background (default) or Foreground; rolloutStrategy.type All,
// Progressive or ProgressivePerGroup (default All); in each of the all / progressive /
// progressivePerGroup sub-objects present, progressDeadline matching its pattern and
// maxFailures / maxConcurrency as integers or strings matching theirs. The template is a
// ManifestWorkSpec decoded as a ManifestWork's spec is, with the work webhook's rule that
// it holds manifests (ocm pkg/work/webhook/v1alpha1 validatePlaceManifests). minSuccessTime
// is a plain string to the CRD; the engine parses it when it rolls out (as the controller
// does when it decodes the object), so a bad one is reported there.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "io/internal/canonical_hash.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

constexpr const char* kMwrsThresholdPattern = "^((100|[0-9]{1,2})%|[0-9]+)$";
constexpr const char* kMwrsDeadlinePattern = "^(([0-9])+[h|m|s])|None$";

bool MwrsIsDigit(char c) { return c >= '0' && c <= '9'; }

// ^((100|[0-9]{1,2})%|[0-9]+)$
bool MatchesThresholdPattern(std::string_view s) {
  if (s.empty()) return false;
  if (s.back() == '%') {
    std::string_view n = s.substr(0, s.size() - 1);
    if (n == "100") return true;
    return (n.size() == 1 || n.size() == 2) && MwrsIsDigit(n[0]) && MwrsIsDigit(n.back());
  }
  for (char c : s) {
    if (!MwrsIsDigit(c)) return false;
  }
  return true;
}

// Go's regexp reads ^(([0-9])+[h|m|s])|None$ as "digits then h, m, s or '|' at the start"
// or "None at the end" (the alternation is not anchored as a whole).
bool MatchesDeadlinePattern(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && MwrsIsDigit(s[i])) ++i;
  if (i > 0 && i < s.size() && (s[i] == 'h' || s[i] == 'm' || s[i] == 's' || s[i] == '|')) {
    return true;
  }
  return s.ends_with("None");
}

// An IntOrString threshold (maxFailures, maxConcurrency): an int32, or a string matching the
// CRD's pattern.
core::Status DecodeMwrsThreshold(dom::object obj, std::string_view key, model::IntOrPercent* out) {
  BERTH_RETURN_IF_ERROR(DecodeIntOrPercent(obj, key, out));
  if (out->is_string && !MatchesThresholdPattern(out->text)) {
    return InvalidValue(std::string(key), out->text,
                        std::string("should match '") + kMwrsThresholdPattern + "'");
  }
  return core::OkStatus();
}

core::Result<model::MwrsMandatoryGroup> DecodeMandatoryGroup(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::MwrsMandatoryGroup group;
  BERTH_RETURN_IF_ERROR(GetString(obj, "groupName", &group.group_name));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "groupIndex", &group.group_index));
  return group;
}

// One of all / progressive / progressivePerGroup: RolloutConfig, plus the mandatory groups
// (both progressive kinds) and maxConcurrency (progressive). Fields the kind does not have
// are pruned by the API server, so they are not read.
core::Status DecodeRolloutConfig(dom::object obj, bool groups, bool concurrency,
                                 model::MwrsRolloutStrategy* out) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "minSuccessTime", &out->min_success_time));
  BERTH_RETURN_IF_ERROR(GetString(obj, "progressDeadline", &out->progress_deadline, &found));
  if (found && !MatchesDeadlinePattern(out->progress_deadline)) {
    return InvalidValue("progressDeadline", out->progress_deadline,
                        std::string("should match '") + kMwrsDeadlinePattern + "'");
  }
  BERTH_RETURN_IF_ERROR(DecodeMwrsThreshold(obj, "maxFailures", &out->max_failures));
  if (groups) {
    BERTH_RETURN_IF_ERROR(DecodeList(obj, "mandatoryDecisionGroups", DecodeMandatoryGroup,
                                     &out->mandatory_decision_groups));
  }
  if (concurrency) {
    BERTH_RETURN_IF_ERROR(DecodeMwrsThreshold(obj, "maxConcurrency", &out->max_concurrency));
  }
  return core::OkStatus();
}

core::Result<model::MwrsRolloutStrategy> DecodeRolloutStrategy(dom::object obj) {
  model::MwrsRolloutStrategy strategy;
  std::string type;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &type));
  if (type.empty() || type == "All") {
    strategy.type = model::MwrsRolloutType::kAll;
  } else if (type == "Progressive") {
    strategy.type = model::MwrsRolloutType::kProgressive;
  } else if (type == "ProgressivePerGroup") {
    strategy.type = model::MwrsRolloutType::kProgressivePerGroup;
  } else {
    return Unsupported("type", type, {"All", "Progressive", "ProgressivePerGroup"});
  }
  // Every sub-object given is validated; the one the type names is kept.
  struct Part {
    const char* key;
    model::MwrsRolloutType type;
    bool groups;
    bool concurrency;
  };
  for (const Part& part :
       {Part{"all", model::MwrsRolloutType::kAll, false, false},
        Part{"progressive", model::MwrsRolloutType::kProgressive, true, true},
        Part{"progressivePerGroup", model::MwrsRolloutType::kProgressivePerGroup, true, false}}) {
    dom::object sub;
    bool found = false;
    BERTH_RETURN_IF_ERROR(GetObject(obj, part.key, &sub, &found));
    if (!found) continue;
    model::MwrsRolloutStrategy decoded;
    decoded.type = part.type;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeRolloutConfig(sub, part.groups, part.concurrency, &decoded),
                                part.key);
    if (part.type == strategy.type) strategy = std::move(decoded);
  }
  return strategy;
}

core::Result<model::MwrsPlacementRef> DecodeMwrsPlacementRef(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::MwrsPlacementRef ref;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &ref.name, &found));
  if (!found) return FieldError("name", "Required value");
  if (ref.name.empty()) return FieldError("name", "should be at least 1 chars long");
  dom::object strategy;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "rolloutStrategy", &strategy, &found));
  if (found) {
    auto decoded = DecodeRolloutStrategy(strategy);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "rolloutStrategy");
    ref.rollout_strategy = std::move(*decoded);
  }
  return ref;
}

core::Status DecodeMwrsSummary(dom::object obj, model::MwrsSummary* out) {
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "total", &out->total));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "progressing", &out->progressing));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "available", &out->available));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "degraded", &out->degraded));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "applied", &out->applied));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "desiredTotal", &out->desired_total));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "updated", &out->updated));
  return core::OkStatus();
}

core::Result<model::MwrsPlacementSummary> DecodeMwrsPlacementSummary(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::MwrsPlacementSummary summary;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &summary.name));
  BERTH_RETURN_IF_ERROR(
      GetString(obj, "availableDecisionGroups", &summary.available_decision_groups));
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "summary", &part, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeMwrsSummary(part, &summary.summary), "summary");
  return summary;
}

// "true" or "false" (anything else is a typo that would otherwise be ignored).
core::Status DecodeAnnotationBool(const core::Labels& annotations, const char* key, bool* out) {
  auto it = annotations.find(key);
  if (it == annotations.end()) return core::OkStatus();
  if (it->second == "true") {
    *out = true;
  } else if (it->second == "false") {
    *out = false;
  } else {
    return Unsupported(KeyField("metadata.annotations", key), it->second, {"true", "false"});
  }
  return core::OkStatus();
}

// kRolloutRolledBackAnnotation: the JSON berth writes (replica_set_json.cc).
core::Result<model::MwrsRollback> DecodeRollbackAnnotation(const std::string& text) {
  const std::string field = KeyField("metadata.annotations", model::kRolloutRolledBackAnnotation);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return FieldError(field, "must be a JSON object, as berth writes it");
  model::MwrsRollback out;
  auto integer = [&](const char* key, int64_t* value) -> core::Status {
    auto it = j.find(key);
    if (it == j.end()) return core::OkStatus();
    if (!it->is_number_integer()) return FieldError(field + "." + key, "must be an integer");
    *value = it->get<int64_t>();
    return core::OkStatus();
  };
  auto string = [&](const char* key, std::string* value, bool required) -> core::Status {
    auto it = j.find(key);
    if (it == j.end()) {
      return required ? FieldError(field + "." + key, "Required value") : core::OkStatus();
    }
    if (!it->is_string()) return FieldError(field + "." + key, "must be a string");
    *value = it->get<std::string>();
    return core::OkStatus();
  };
  BERTH_RETURN_IF_ERROR(integer("revision", &out.revision));
  BERTH_RETURN_IF_ERROR(string("templateHash", &out.template_hash, true));
  BERTH_RETURN_IF_ERROR(integer("toRevision", &out.to_revision));
  BERTH_RETURN_IF_ERROR(string("toTemplateHash", &out.to_template_hash, true));
  BERTH_RETURN_IF_ERROR(string("reason", &out.reason, false));
  std::string at;
  BERTH_RETURN_IF_ERROR(string("at", &at, false));
  if (!at.empty()) {
    auto t = core::Timestamp::Parse(at);
    if (!t.has_value()) return FieldError(field + ".at", t.error().message());
    out.at = *t;
  }
  return out;
}

}  // namespace

core::Result<model::ManifestWorkReplicaSet> DecodeManifestWorkReplicaSet(dom::object obj) {
  model::ManifestWorkReplicaSet mwrs;
  BERTH_ASSIGN_OR_RETURN(mwrs.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                     /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(
      DecodeGenerationAndDeletion(obj, &mwrs.generation, &mwrs.deletion_timestamp));
  BERTH_RETURN_IF_ERROR(
      DecodeAnnotationBool(mwrs.meta.annotations, model::kRolloutPausedAnnotation, &mwrs.paused));
  BERTH_RETURN_IF_ERROR(DecodeAnnotationBool(
      mwrs.meta.annotations, model::kRolloutAutoRollbackAnnotation, &mwrs.auto_rollback));
  if (auto it = mwrs.meta.annotations.find(model::kRolloutHealthAnnotation);
      it != mwrs.meta.annotations.end()) {
    mwrs.health = it->second;
  }
  if (auto it = mwrs.meta.annotations.find(model::kRolloutRolledBackAnnotation);
      it != mwrs.meta.annotations.end()) {
    BERTH_ASSIGN_OR_RETURN(mwrs.rolled_back, DecodeRollbackAnnotation(it->second));
  }

  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  // The template first: an MWRS without one (or without a spec) has no manifests, which the
  // work webhook refuses before the CRD's required fields are looked at.
  dom::object tmpl;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "manifestWorkTemplate", &tmpl, &found), "spec");
  model::ManifestWork work;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeManifestWorkSpec(tmpl, &work), "spec.manifestWorkTemplate");
  mwrs.template_manifests = std::move(work.read_manifests);
  dom::element tmpl_value;
  if (Find(spec, "manifestWorkTemplate", &tmpl_value)) {
    mwrs.template_hash = CanonicalJsonHash(tmpl_value);
  }

  dom::array refs;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "placementRefs", &refs, &found), "spec");
  if (!found) return FieldError("spec.placementRefs", "Required value");
  if (refs.size() == 0) return FieldError("spec.placementRefs", "should have at least 1 items");
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(spec, "placementRefs", DecodeMwrsPlacementRef, &mwrs.placement_refs), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(
      GetString(spec, "cascadeDeletionPolicy", &mwrs.cascade_deletion_policy), "spec");
  if (mwrs.cascade_deletion_policy.empty()) mwrs.cascade_deletion_policy = "Background";
  if (mwrs.cascade_deletion_policy != "Background" &&
      mwrs.cascade_deletion_policy != "Foreground") {
    return Unsupported("spec.cascadeDeletionPolicy", mwrs.cascade_deletion_policy,
                       {"Background", "Foreground"});
  }

  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(status, "conditions", DecodeMetaCondition, &mwrs.status.conditions), "status");
    dom::object summary;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "summary", &summary, &found), "status");
    if (found) {
      BERTH_IO_RETURN_IF_ERROR_AT(DecodeMwrsSummary(summary, &mwrs.status.summary),
                                  "status.summary");
    }
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(status, "placementSummary", DecodeMwrsPlacementSummary,
                                           &mwrs.status.placement_summary),
                                "status");
  }
  return mwrs;
}

}  // namespace berth::io::internal
