// Fields several decoders read the same way: the error for an unsupported enum value, a list
// entry's required name, an IntOrString (OCM's thresholds and counts); and for the
// workload decoders (apps_v1.cc, batch_v1.cc, jobset_v1alpha2.cc, kubeflow_v1.cc,
// leaderworkerset_v1.cc) a replica count, a required pod template, and the pod set decoded
// from that template. Internal to io; errors carry the field path relative to the object, as
// every decoder's do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "model/ocm.h"

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

// An IntOrString at `key` (absent: `out` unchanged): a JSON integer that fits in 32 bits, or
// a string kept as written; the caller judges the string (a Placement's percent is judged by
// the scheduler, which reports a bad one as Misconfigured; an MWRS's threshold by its CRD's
// pattern).
inline core::Status DecodeIntOrPercent(dom::object obj, std::string_view key, model::IntOrPercent* out) {
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  int64_t number = 0;
  std::string_view text;
  if (e.get_int64().get(number) == simdjson::SUCCESS) {
    if (number < INT32_MIN || number > INT32_MAX) {
      return FieldError(std::string(key), "must fit in 32 bits");
    }
    *out = model::IntOrPercent{false, static_cast<int32_t>(number), ""};
    return core::OkStatus();
  }
  if (e.get_string().get(text) != simdjson::SUCCESS) {
    return FieldError(std::string(key), "must be an integer or a string");
  }
  *out = model::IntOrPercent{true, 0, std::string(text)};
  return core::OkStatus();
}

// A map of name -> quantity at `key` (absent: nothing added): DRA's capacity.requests and
// consumedCapacity, a FederatedLearning's resources. `non_negative`: a negative quantity is
// refused, as a container's requests and limits are.
inline core::Status DecodeQuantityMap(dom::object obj, std::string_view key,
                                      std::map<std::string, core::Quantity>* out,
                                      bool non_negative = false) {
  dom::object map;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &map, &found));
  if (!found) return core::OkStatus();
  for (auto [name, value] : map) {
    const std::string field = KeyField(key, name);
    auto q = ParseQuantityElement(value);
    BERTH_IO_RETURN_IF_ERROR_AT(q, field);
    if (non_negative && q->IsNegative()) return FieldError(field, "must be greater than or equal to 0");
    out->insert_or_assign(std::string(name), *q);
  }
  return core::OkStatus();
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
