// meta/v1: ObjectMeta, metav1.Condition and the apiVersion/kind/metadata header workloads
// share.
#include <string>
#include <utility>

#include "core/labels.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

// apimachinery's ValidateAnnotations: keys are qualified names once lowercased, and keys and
// values together hold at most 256 KiB.
// metadata.finalizers as apimachinery's ValidateFinalizerName checks them: a list of
// qualified names, one without a domain only if it is a standard finalizer (the hub's
// deletes wait for them, server/rest/rest_writes.cc).
core::Status ValidateFinalizers(dom::object md) {
  std::vector<std::string> finalizers;
  BERTH_RETURN_IF_ERROR(GetStringList(md, "finalizers", &finalizers));
  for (size_t i = 0; i < finalizers.size(); ++i) {
    const std::string& f = finalizers[i];
    const std::string field = "finalizers" + IndexField(i);
    if (std::string problem = core::QualifiedNameProblem(f); !problem.empty()) {
      return InvalidValue(field, f, problem);
    }
    if (f.find('/') == std::string::npos && f != "kubernetes" && f != "orphan" &&
        f != "foregroundDeletion") {
      return InvalidValue(field, f, "name is neither a standard finalizer name nor is it fully qualified");
    }
  }
  return core::OkStatus();
}

core::Status ValidateAnnotations(const core::Labels& annotations) {
  size_t total = 0;
  for (const auto& [key, value] : annotations) {
    std::string lower = key;
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (std::string problem = core::QualifiedNameProblem(lower); !problem.empty()) {
      return InvalidValue("annotations", key, problem);
    }
    total += key.size() + value.size();
  }
  if (total > core::kMaxAnnotationsBytes) {
    return FieldError("annotations", "Too long: may not be more than " +
                                         std::to_string(core::kMaxAnnotationsBytes) + " bytes");
  }
  return core::OkStatus();
}

core::Status DecodeMetadataFields(dom::object md, model::ObjectMeta* meta) {
  BERTH_RETURN_IF_ERROR(GetString(md, "name", &meta->name));
  BERTH_RETURN_IF_ERROR(GetString(md, "namespace", &meta->namespace_));
  if (std::string problem = core::Dns1123LabelProblem(meta->namespace_);
      !meta->namespace_.empty() && !problem.empty()) {
    return InvalidValue("namespace", meta->namespace_, problem);
  }
  BERTH_RETURN_IF_ERROR(GetString(md, "uid", &meta->uid));
  BERTH_RETURN_IF_ERROR(GetStringMap(md, "labels", &meta->labels));
  BERTH_RETURN_IF_ERROR(ValidateLabelMap(meta->labels, "labels"));
  BERTH_RETURN_IF_ERROR(GetStringMap(md, "annotations", &meta->annotations));
  BERTH_RETURN_IF_ERROR(ValidateAnnotations(meta->annotations));
  BERTH_RETURN_IF_ERROR(ValidateFinalizers(md));
  std::string created;
  BERTH_RETURN_IF_ERROR(GetString(md, "creationTimestamp", &created));
  if (!created.empty()) {
    auto ts = core::Timestamp::Parse(created);
    BERTH_IO_RETURN_IF_ERROR_AT(ts, "creationTimestamp");
    meta->creation_timestamp = *ts;
  }
  return core::OkStatus();
}

}  // namespace

core::Status DecodeControllerRef(dom::object obj, std::optional<model::OwnerRef>* out) {
  dom::object md;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "metadata", &md, &found));
  if (!found) return core::OkStatus();
  dom::array refs;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(md, "ownerReferences", &refs, &found), "metadata");
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : refs) {
    const size_t index = i++;
    auto field = [&] { return std::string("metadata.ownerReferences") + IndexField(index); };
    auto ref = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(ref, field());
    bool controller = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(*ref, "controller", &controller), field());
    if (!controller) continue;
    model::OwnerRef owner;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "apiVersion", &owner.api_version), field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "kind", &owner.kind), field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "name", &owner.name), field());
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "uid", &owner.uid), field());
    *out = std::move(owner);
    break;
  }
  return core::OkStatus();
}

core::Status ValidateLabelMap(const core::Labels& labels, const std::string& field) {
  for (const auto& [key, value] : labels) {
    if (std::string problem = core::QualifiedNameProblem(key); !problem.empty()) {
      return InvalidValue(field, key, problem);
    }
    if (std::string problem = core::LabelValueProblem(value); !problem.empty()) {
      return InvalidValue(field, value, problem);
    }
  }
  return core::OkStatus();
}

core::Result<model::ObjectMeta> DecodeObjectMeta(dom::object obj, bool namespaced,
                                                 bool name_required, NameRule name_rule) {
  model::ObjectMeta meta;
  dom::object md;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "metadata", &md, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeMetadataFields(md, &meta), "metadata");
  if (name_required && meta.name.empty()) {
    return core::InvalidArgument("required value", core::Location{"", "", "metadata.name"});
  }
  if (name_required) {
    const std::string problem = name_rule == NameRule::kDnsLabel
                                    ? core::Dns1123LabelProblem(meta.name)
                                    : core::Dns1123SubdomainProblem(meta.name);
    if (!problem.empty()) return InvalidValue("metadata.name", meta.name, problem);
  }
  if (!namespaced) {
    meta.namespace_.clear();
  } else if (meta.namespace_.empty()) {
    meta.namespace_ = "default";
  }
  return meta;
}

core::Result<model::WorkloadObject> DecodeWorkloadHeader(dom::object obj) {
  model::WorkloadObject w;
  BERTH_RETURN_IF_ERROR(GetString(obj, "apiVersion", &w.api_version));
  BERTH_RETURN_IF_ERROR(GetString(obj, "kind", &w.kind));
  BERTH_ASSIGN_OR_RETURN(w.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                  /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(DecodeControllerRef(obj, &w.owner));
  return w;
}

core::Result<model::Condition> DecodeMetaCondition(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::Condition c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &c.type));
  if (c.type.empty()) return FieldError("type", "Required value");
  std::string status;
  BERTH_RETURN_IF_ERROR(GetString(obj, "status", &status));
  if (status == "True") {
    c.status = model::ConditionStatus::kTrue;
  } else if (status == "False") {
    c.status = model::ConditionStatus::kFalse;
  } else if (status == "Unknown" || status.empty()) {
    c.status = model::ConditionStatus::kUnknown;
  } else {
    return FieldError("status", "unsupported value " + core::Quote(status) + ": supported values: \"True\", \"False\", \"Unknown\"");
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "reason", &c.reason));
  BERTH_RETURN_IF_ERROR(GetString(obj, "message", &c.message));
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "observedGeneration", &c.observed_generation));
  if (c.observed_generation < 0) {
    return FieldError("observedGeneration", "must be greater than or equal to 0");
  }
  std::string time;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "lastTransitionTime", &time, &found));
  if (found) {
    auto t = core::Timestamp::Parse(time);
    if (!t.has_value()) return FieldError("lastTransitionTime", t.error().message());
    c.last_transition_time = *t;
  }
  return c;
}

}  // namespace berth::io::internal
