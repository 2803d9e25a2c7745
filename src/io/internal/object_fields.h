// Fields several decoders read the same way: the error for an unsupported enum value, a list
// entry's required name; and for the
// workload decoders (apps_v1.cc, batch_v1.cc, jobset_v1alpha2.cc, kubeflow_v1.cc,
// leaderworkerset_v1.cc) a replica count, a required pod template, and the pod set decoded
// from that template. Internal to io; errors carry the field path relative to the object, as
// every decoder's do.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

// `field` + "." + `key`, or `key` alone at the object's top (field "").
inline std::string ChildField(const std::string& field, std::string_view key) {
  return field.empty() ? std::string(key) : field + "." + std::string(key);
}

// "unsupported value \"Foo\": supported values: ALLOWED" at `field`, as apimachinery words
// it; `allowed` is the quoted, comma-separated list ("\"A\", \"B\"").
inline core::Error Unsupported(std::string field, const std::string& value, const char* allowed) {
  return FieldError(std::move(field),
                    "unsupported value " + core::Quote(value) + ": supported values: " + allowed);
}

// The same, with the supported values given one by one.
inline core::Error Unsupported(std::string field, const std::string& value,
                               std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (!list.empty()) list += ", ";
    list += '"';
    list += a;
    list += '"';
  }
  return Unsupported(std::move(field), value, list.c_str());
}

// A list entry `e` as an object whose `name` is set, the name into *name ("required value"
// at name when it is empty or absent).
inline core::Result<dom::object> GetNamedObject(dom::element e, std::string* name) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", name));
  if (name->empty()) return FieldError("name", "required value");
  return obj;
}

// obj.replicas into *out (left as it is when absent: the caller's default); an error when
// negative. `field` is the path of obj.
inline core::Status GetReplicas(dom::object obj, const std::string& field, int32_t* out) {
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(obj, "replicas", out), field);
  if (*out < 0) {
    return core::InvalidArgument("must be greater than or equal to 0",
                                 core::Location{"", "", ChildField(field, "replicas")});
  }
  return core::OkStatus();
}

// obj[key], which must be there ("required value" at field.key otherwise). `field` is the
// path of obj.
inline core::Result<dom::object> GetRequiredObject(dom::object obj, const std::string& field,
                                                   std::string_view key) {
  dom::object out;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(obj, key, &out, &found), field);
  if (!found) {
    return core::InvalidArgument("required value", core::Location{"", "", ChildField(field, key)});
  }
  return out;
}

// Decodes the pod template `tmpl`, which sits at `field`, into `pod_set` (name and count
// already set by the caller) and appends it with its `source` to `out`.
inline core::Status AppendPodSet(dom::object tmpl, const std::string& field,
                                 model::PodSetTemplate pod_set, PodSetSource source,
                                 model::ResourceCatalog& catalog, DecodedWorkload* out) {
  source.template_field = field;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodTemplate(tmpl, out->workload, catalog, &pod_set, &source),
                              field);
  out->workload.pod_sets.push_back(std::move(pod_set));
  out->sources.push_back(std::move(source));
  return core::OkStatus();
}

}  // namespace berth::io::internal
