// FeedbackJsonPath: the part of Kubernetes' JSONPath (k8s.io/client-go/util/jsonpath) that
// OCM's status feedback rules and SSA ignoreFields use, evaluated as OCM evaluates it (the
// template wrapped in braces, missing keys allowed): field steps (".a", "['a.b']", ".*"),
// array index ("[0]", "[-1]"), "[*]", and filters "[?(@.a.b == 'x')]" comparing a relative
// path with a literal (string, number, true/false) or another relative path by ==, !=, <, >,
// <=, >=, or testing "[?(@.a)]" for existence. Anything else (slices, unions, recursive
// descent, regex) is a parse error naming the position. Immutable once parsed;
// thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

class FeedbackJsonPath {
 public:
  // `path` as a rule writes it (".status.conditions[?(@.type==\"Complete\")].status"),
  // surrounding spaces allowed, optionally in braces. InvalidArgument when it is not of the
  // subset above.
  static core::Result<FeedbackJsonPath> Parse(std::string_view path);

  // The values selected in `object`, in document order, pointing into `object`. A missing
  // key selects nothing (no error); indexing or filtering something that is not an array,
  // an index out of bounds, and comparing values of different types are InvalidArgument,
  // worded as client-go words them.
  core::Result<std::vector<const Json*>> Find(const Json& object) const;
  // The same selection as mutable pointers (SSA's ignoreFields remove what they select).
  core::Result<std::vector<Json*>> FindIn(Json& object) const;

  // One step of a path; public so the parser's helpers can build them.
  struct Step {
    enum class Kind { kField, kWildcard, kIndex, kFilter };
    Kind kind = Kind::kField;
    std::string field;  // kField
    int64_t index = 0;  // kIndex; negative counts from the end
    // kFilter: `left` (relative to the element) compared by `op` ("" = exists) with
    // `right_path` when `right_is_path`, else with `literal`.
    std::vector<Step> left;
    std::string op;
    bool right_is_path = false;
    std::vector<Step> right_path;
    Json literal;
  };

 private:
  explicit FeedbackJsonPath(std::vector<Step> steps) : steps_(std::move(steps)) {}
  std::vector<Step> steps_;
};

}  // namespace berth::server::work
