// Typed access to the members of a simdjson DOM object, for the decoders. Absent and null
// members read as "not set" (Kubernetes treats an explicit null as unset); a member of the
// wrong type is an InvalidArgument error whose field is the member's key, so callers only
// prefix the path above it. Internal to io; stateless and thread-compatible.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/excerpt.h"
#include "core/labels.h"
#include "core/quantity.h"
#include "core/result.h"

namespace berth::io::internal {

namespace dom = simdjson::dom;

// The member `key` of `obj` when present and not null.
bool Find(dom::object obj, std::string_view key, dom::element* out);

// Each Get* leaves `*out` unchanged when the member is absent or null (GetObject and
// GetArray set it to an empty object or array instead, so iterating it is always safe) and
// sets `*found` (when given) to whether it was present. A member of another type is an
// error; the caller decides whether an absent one is ("required value").
core::Status GetString(dom::object obj, std::string_view key, std::string* out,
                       bool* found = nullptr);
core::Status GetBool(dom::object obj, std::string_view key, bool* out, bool* found = nullptr);
core::Status GetInt32(dom::object obj, std::string_view key, int32_t* out, bool* found = nullptr);
core::Status GetInt64(dom::object obj, std::string_view key, int64_t* out, bool* found = nullptr);
core::Status GetObject(dom::object obj, std::string_view key, dom::object* out,
                       bool* found = nullptr);
core::Status GetArray(dom::object obj, std::string_view key, dom::array* out,
                      bool* found = nullptr);
// An array of strings (e.g. a selector requirement's values).
core::Status GetStringList(dom::object obj, std::string_view key, std::vector<std::string>* out);
// A map of string to string (labels, annotations, nodeSelector).
core::Status GetStringMap(dom::object obj, std::string_view key, core::Labels* out);

// The element as an object; InvalidArgument ("must be an object") otherwise.
core::Result<dom::object> AsObject(dom::element e);

// A resource quantity written as a string ("500m") or a number (2, 0.5). Numbers are
// printed in their shortest round-trip form first so 0.1 stays 100m.
core::Result<core::Quantity> ParseQuantityElement(dom::element e);

// "[3]" and, for map keys, ".key" or "[key]" when the key holds '.' or '/' (as upstream's
// field paths print resource names such as requests[nvidia.com/gpu]).
std::string IndexField(size_t index);
std::string KeyField(std::string_view prefix, std::string_view key);

// An InvalidArgument error about `field` (a path relative to the object being decoded).
core::Error FieldError(std::string field, std::string message);

// `Invalid value: "VALUE": PROBLEM` at `field`, as apimachinery's field.Invalid prints it,
// the value quoted through core::Quote (bounded, escaped).
core::Error InvalidValue(std::string field, std::string_view value, const std::string& problem);

// "Kind/namespace/name", "Kind/name" for cluster-scoped objects, "Kind" when unnamed. A
// part no valid object has (longer than a DNS subdomain, or with a control byte) is printed
// as core::Quote prints it, so a hostile name never makes a huge or garbled error line.
std::string ObjectLabel(std::string_view kind, std::string_view ns, std::string_view name);

}  // namespace berth::io::internal

// Returns the error of a Status or Result expression from the enclosing function with
// `prefix` prepended to its field path ("spec" + "containers[0]..." -> "spec.containers[0]...").
#define BERTH_IO_RETURN_IF_ERROR_AT(expr, prefix)                                 \
  do {                                                                            \
    auto berth_io_status_ = (expr);                                               \
    if (!berth_io_status_.has_value()) {                                          \
      ::berth::core::Error berth_io_error_ = std::move(berth_io_status_).error(); \
      berth_io_error_.WithFieldPrefix(prefix);                                    \
      return berth_io_error_;                                                     \
    }                                                                             \
  } while (false)

namespace berth::io::internal {

// Decodes each element of obj[key] with `decode` into `out`, naming errors key[i]; more than
// `max_items` elements (a CRD's MaxItems) is an error on key.
template <typename T, typename Decode>
core::Status DecodeList(dom::object obj, std::string_view key, Decode decode, std::vector<T>* out,
                        size_t max_items = SIZE_MAX) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, key, &array, &found));
  if (!found) return core::OkStatus();
  if (array.size() > max_items) {
    return FieldError(std::string(key), "must have at most " + std::to_string(max_items) + " items");
  }
  out->reserve(out->size() + array.size());
  size_t i = 0;
  for (dom::element item : array) {
    auto value = decode(item);
    // The prefix is evaluated only on error, so the index advances outside the macro.
    BERTH_IO_RETURN_IF_ERROR_AT(value, std::string(key) + IndexField(i));
    out->push_back(std::move(*value));
    ++i;
  }
  return core::OkStatus();
}

}  // namespace berth::io::internal
