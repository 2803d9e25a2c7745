// work.open-cluster-management.io/v1: ManifestWork. Validation follows the CRD
// (api:work/v1/types.go: enums of deleteOption.propagationPolicy, feedbackRules[].type and
// updateStrategy.type; resourceIdentifier.resource and .name, jsonPaths[].name and .path
// required) and the hub's webhook (ocm:pkg/work/webhook: manifests must not be empty, and
// each must decode as an object with a kind and a metadata.name, generateName not allowed),
// since the hub would have refused a work that breaks them. Of each manifest only its
// identity is kept: the object itself stays in the document store, printed as read.
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "io/internal/canonical_hash.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Result<model::ManifestMeta> DecodeManifestIdentity(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::ManifestMeta meta;
  BERTH_RETURN_IF_ERROR(GetString(obj, "apiVersion", &meta.api_version));
  BERTH_RETURN_IF_ERROR(GetString(obj, "kind", &meta.kind));
  if (meta.kind.empty()) return FieldError("kind", "Required value");
  dom::object md;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "metadata", &md, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(md, "name", &meta.name), "metadata");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(md, "namespace", &meta.namespace_), "metadata");
  }
  if (meta.name.empty()) return FieldError("metadata.name", "Required value");
  return meta;
}

core::Result<model::JsonPathRule> DecodeJsonPath(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::JsonPathRule rule;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &rule.name, &found));
  if (!found) return FieldError("name", "Required value");
  BERTH_RETURN_IF_ERROR(GetString(obj, "path", &rule.path, &found));
  if (!found) return FieldError("path", "Required value");
  return rule;
}

core::Result<model::FeedbackRule> DecodeFeedbackRule(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::FeedbackRule rule;
  std::string type;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &type));
  if (type.empty()) return FieldError("type", "Required value");
  if (type == "WellKnownStatus") {
    rule.type = model::FeedbackRuleType::kWellKnownStatus;
  } else if (type == "JSONPaths") {
    rule.type = model::FeedbackRuleType::kJsonPaths;
  } else {
    return Unsupported("type", type, "\"WellKnownStatus\", \"JSONPaths\"");
  }
  BERTH_RETURN_IF_ERROR(DecodeList(obj, "jsonPaths", DecodeJsonPath, &rule.json_paths));
  // jsonPaths is a list map keyed by name.
  std::set<std::string> names;
  for (size_t i = 0; i < rule.json_paths.size(); ++i) {
    if (!names.insert(rule.json_paths[i].name).second) {
      return FieldError("jsonPaths" + IndexField(i),
                        "Duplicate value: {\"name\":" + core::Quote(rule.json_paths[i].name) + "}");
    }
  }
  return rule;
}

core::Result<model::ManifestConfig> DecodeManifestConfig(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::ManifestConfig config;
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "resourceIdentifier", &part, &found));
  if (!found) return FieldError("resourceIdentifier", "Required value");
  model::ResourceIdentifier& id = config.resource;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "group", &id.group), "resourceIdentifier");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "resource", &id.resource, &found),
                              "resourceIdentifier");
  if (!found) return FieldError("resourceIdentifier.resource", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "name", &id.name, &found), "resourceIdentifier");
  if (!found) return FieldError("resourceIdentifier.name", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "namespace", &id.namespace_), "resourceIdentifier");
  BERTH_RETURN_IF_ERROR(
      DecodeList(obj, "feedbackRules", DecodeFeedbackRule, &config.feedback_rules));
  BERTH_RETURN_IF_ERROR(GetObject(obj, "updateStrategy", &part, &found));
  if (found) {
    // The CRD requires type but defaults it to Update, so an absent one reads as "".
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "type", &config.update_strategy), "updateStrategy");
    const std::string& type = config.update_strategy;
    if (!type.empty() && type != "Update" && type != "CreateOnly" && type != "ServerSideApply" &&
        type != "ReadOnly") {
      return Unsupported("updateStrategy.type", type,
                         "\"Update\", \"CreateOnly\", \"ServerSideApply\", \"ReadOnly\"");
    }
  }
  return config;
}

// statusFeedback.values[]: {name, fieldValue {type, integer|string|boolean|jsonRaw}}; the
// value is kept as text (api:work/v1/types.go FieldValue).
core::Result<std::pair<std::string, std::string>> DecodeFeedbackValue(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  std::pair<std::string, std::string> value;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &value.first, &found));
  if (!found) return FieldError("name", "Required value");
  dom::object field;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "fieldValue", &field, &found));
  if (!found) return FieldError("fieldValue", "Required value");
  std::string type;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(field, "type", &type), "fieldValue");
  if (type == "Integer") {
    int64_t n = 0;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(field, "integer", &n), "fieldValue");
    value.second = std::to_string(n);
  } else if (type == "String") {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(field, "string", &value.second), "fieldValue");
  } else if (type == "Boolean") {
    bool b = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(field, "boolean", &b), "fieldValue");
    value.second = b ? "true" : "false";
  } else if (type == "JsonRaw") {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(field, "jsonRaw", &value.second), "fieldValue");
  } else {
    return Unsupported("fieldValue.type", type, "\"Integer\", \"String\", \"Boolean\", \"JsonRaw\"");
  }
  return value;
}

core::Result<model::ManifestStatus> DecodeManifestStatus(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::ManifestStatus status;
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "resourceMeta", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "group", &status.group), "resourceMeta");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "version", &status.version), "resourceMeta");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "kind", &status.kind), "resourceMeta");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "resource", &status.resource), "resourceMeta");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "name", &status.name), "resourceMeta");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "namespace", &status.namespace_), "resourceMeta");
  }
  BERTH_RETURN_IF_ERROR(DecodeList(obj, "conditions", DecodeMetaCondition, &status.conditions));
  BERTH_RETURN_IF_ERROR(GetObject(obj, "statusFeedback", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(part, "values", DecodeFeedbackValue, &status.feedback),
                                "statusFeedback");
  }
  return status;
}

}  // namespace

core::Status DecodeManifestWorkSpec(dom::object spec, model::ManifestWork* work) {
  dom::object workload;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "workload", &workload, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(workload, "manifests", DecodeManifestIdentity, &work->read_manifests),
        "workload");
  }
  if (work->read_manifests.empty()) {
    return FieldError("workload.manifests", "Required value: manifests should not be empty");
  }
  BERTH_RETURN_IF_ERROR(
      DecodeList(spec, "manifestConfigs", DecodeManifestConfig, &work->manifest_configs));
  dom::object option;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "deleteOption", &option, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(option, "propagationPolicy", &work->delete_propagation),
                                "deleteOption");
    const std::string& policy = work->delete_propagation;
    if (!policy.empty() && policy != "Foreground" && policy != "Orphan" &&
        policy != "SelectivelyOrphan") {
      return Unsupported("deleteOption.propagationPolicy", policy,
                         "\"Foreground\", \"Orphan\", \"SelectivelyOrphan\"");
    }
  }
  return core::OkStatus();
}

core::Status DecodeGenerationAndDeletion(dom::object obj, int64_t* generation,
                                         std::optional<core::Timestamp>* deletion) {
  dom::object md;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "metadata", &md, &found));
  if (!found) return core::OkStatus();
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(md, "generation", generation), "metadata");
  if (*generation < 0) {
    return FieldError("metadata.generation", "must be greater than or equal to 0");
  }
  std::string text;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(md, "deletionTimestamp", &text, &found), "metadata");
  if (found) {
    auto t = core::Timestamp::Parse(text);
    if (!t.has_value()) return FieldError("metadata.deletionTimestamp", t.error().message());
    *deletion = *t;
  }
  return core::OkStatus();
}

core::Result<model::ManifestWork> DecodeManifestWork(dom::object obj) {
  model::ManifestWork work;
  BERTH_ASSIGN_OR_RETURN(work.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                     /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(
      DecodeGenerationAndDeletion(obj, &work.generation, &work.deletion_timestamp));
  dom::element spec_value;
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  // No spec reads as an empty one, which has no manifests: refused below.
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeManifestWorkSpec(spec, &work), "spec");
  if (Find(obj, "spec", &spec_value)) work.spec_hash = CanonicalJsonHash(spec_value);
  // What the work agent reported. The status is the agent's to write, so a malformed entry
  // is refused with its field like any other.
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(status, "conditions", DecodeMetaCondition, &work.conditions), "status");
    dom::object resource_status;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "resourceStatus", &resource_status, &found),
                                "status");
    if (found) {
      BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(resource_status, "manifests", DecodeManifestStatus,
                                             &work.manifest_statuses),
                                  "status.resourceStatus");
    }
  }
  return work;
}

}  // namespace berth::io::internal
