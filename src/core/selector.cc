#include "core/selector.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace berth::core {

namespace {

constexpr std::string_view kNodeNameField = "metadata.name";

// strconv.ParseInt(s, 10, 64): optional sign, decimal digits, nothing else.
bool ParseInt64(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  size_t start = 0;
  if (s[0] == '+') {
    start = 1;  // from_chars rejects '+', ParseInt accepts it
    if (s.size() == 1) return false;
  }
  const char* first = s.data() + start;
  const char* last = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(first, last, *out);
  return ec == std::errc() && ptr == last;
}

bool Contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

Error FieldError(std::string field, std::string message) {
  return InvalidArgument(std::move(message), Location{"", "", std::move(field)});
}

std::string Indexed(std::string_view list, size_t i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

// Structural checks shared by matching and validation: the value counts an operator
// needs, and integer values for Gt/Lt. Returns the offending field ("values") and a message,
// or an empty field when the requirement is well formed.
struct RequirementProblem {
  std::string field;
  std::string message;
};

RequirementProblem CheckRequirementShape(const SelectorRequirement& r) {
  switch (r.op) {
    case SelectorOp::kIn:
    case SelectorOp::kNotIn:
      if (r.values.empty()) {
        return {"values", "must be specified when `operator` is 'In' or 'NotIn'"};
      }
      break;
    case SelectorOp::kExists:
    case SelectorOp::kDoesNotExist:
      if (!r.values.empty()) {
        return {"values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"};
      }
      break;
    case SelectorOp::kGt:
    case SelectorOp::kLt: {
      if (r.values.size() != 1) {
        return {"values", "must be specified single value when `operator` is 'Lt' or 'Gt'"};
      }
      int64_t unused = 0;
      if (!ParseInt64(r.values[0], &unused)) {
        return {"values[0]", "must be an integer when `operator` is 'Lt' or 'Gt'"};
      }
      break;
    }
  }
  return {};
}

bool WellFormed(const SelectorRequirement& r) { return CheckRequirementShape(r).field.empty(); }

// Validates one label-style requirement at `path` ("matchExpressions[1]").
Status ValidateRequirement(const SelectorRequirement& r, const std::string& path,
                           bool allow_gt_lt) {
  if (!allow_gt_lt && (r.op == SelectorOp::kGt || r.op == SelectorOp::kLt)) {
    return FieldError(path + ".operator",
                      std::string("not a valid label selector operator: ") + SelectorOpName(r.op));
  }
  if (!IsQualifiedName(r.key)) {
    return FieldError(path + ".key", "invalid label key \"" + r.key +
                                         "\": must be a qualified name ([prefix/]name)");
  }
  RequirementProblem problem = CheckRequirementShape(r);
  if (!problem.field.empty()) return FieldError(path + "." + problem.field, problem.message);
  return OkStatus();
}

// Matches a matchFields requirement against a node's field set, which holds only
// metadata.name (kube-scheduler's nodeFields). Upstream builds a field selector and needs
// exactly one value for In and NotIn.
bool FieldMatches(const SelectorRequirement& r, const std::string& node_name) {
  if (r.values.size() != 1) return false;
  // Other keys read as absent, i.e. the empty string, as fields.Set.Get returns.
  std::string_view field = r.key == kNodeNameField ? std::string_view(node_name) : "";
  switch (r.op) {
    case SelectorOp::kIn:
      return field == r.values[0];
    case SelectorOp::kNotIn:
      return field != r.values[0];
    default:
      return false;
  }
}

}  // namespace

Result<SelectorOp> ParseSelectorOp(const std::string& text, bool allow_gt_lt) {
  if (text == "In") return SelectorOp::kIn;
  if (text == "NotIn") return SelectorOp::kNotIn;
  if (text == "Exists") return SelectorOp::kExists;
  if (text == "DoesNotExist") return SelectorOp::kDoesNotExist;
  if (allow_gt_lt) {
    if (text == "Gt") return SelectorOp::kGt;
    if (text == "Lt") return SelectorOp::kLt;
  }
  return InvalidArgument("unsupported operator \"" + text + R"(": supported values: "In", )" +
                         R"("NotIn", "Exists", "DoesNotExist")" +
                         (allow_gt_lt ? R"(, "Gt", "Lt")" : ""));
}

const char* SelectorOpName(SelectorOp op) {
  switch (op) {
    case SelectorOp::kIn:
      return "In";
    case SelectorOp::kNotIn:
      return "NotIn";
    case SelectorOp::kExists:
      return "Exists";
    case SelectorOp::kDoesNotExist:
      return "DoesNotExist";
    case SelectorOp::kGt:
      return "Gt";
    case SelectorOp::kLt:
      return "Lt";
  }
  return "Unknown";
}

bool SelectorRequirement::Matches(const Labels& labels) const {
  // A requirement upstream would refuse to build (In without values, ...) matches nothing.
  if (!WellFormed(*this)) return false;
  auto it = labels.find(key);
  const bool has = it != labels.end();
  switch (op) {
    case SelectorOp::kIn:
      return has && Contains(values, it->second);
    case SelectorOp::kNotIn:
      return !has || !Contains(values, it->second);
    case SelectorOp::kExists:
      return has;
    case SelectorOp::kDoesNotExist:
      return !has;
    case SelectorOp::kGt:
    case SelectorOp::kLt: {
      int64_t label_value = 0;
      int64_t bound = 0;
      if (!has || !ParseInt64(it->second, &label_value) || !ParseInt64(values[0], &bound)) {
        return false;
      }
      return op == SelectorOp::kGt ? label_value > bound : label_value < bound;
    }
  }
  return false;
}

bool LabelSelector::Matches(const Labels& labels) const {
  for (const auto& [key, value] : match_labels) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const auto& r : match_expressions) {
    // metav1 selectors have no Gt/Lt; upstream fails to convert such a selector.
    if (r.op == SelectorOp::kGt || r.op == SelectorOp::kLt) return false;
    if (!r.Matches(labels)) return false;
  }
  return true;
}

Status LabelSelector::Validate() const {
  for (const auto& [key, value] : match_labels) {
    if (!IsQualifiedName(key)) {
      return FieldError("matchLabels", "invalid label key \"" + key +
                                           "\": must be a qualified name ([prefix/]name)");
    }
    if (!IsValidLabelValue(value)) {
      return FieldError("matchLabels", "invalid label value \"" + value + "\" for key \"" + key +
                                           "\": at most 63 alphanumerics, '-', '_' or '.', "
                                           "starting and ending with an alphanumeric");
    }
  }
  for (size_t i = 0; i < match_expressions.size(); ++i) {
    BERTH_RETURN_IF_ERROR(
        ValidateRequirement(match_expressions[i], Indexed("matchExpressions", i), false));
  }
  return OkStatus();
}

bool NodeSelectorTerm::Matches(const Labels& node_labels, const std::string& node_name) const {
  // An empty term matches no objects (component-helpers nodeSelectorTerm).
  if (match_expressions.empty() && match_fields.empty()) return false;
  for (const auto& r : match_expressions) {
    if (!r.Matches(node_labels)) return false;
  }
  for (const auto& r : match_fields) {
    if (!FieldMatches(r, node_name)) return false;
  }
  return true;
}

Status NodeSelectorTerm::Validate() const {
  for (size_t i = 0; i < match_expressions.size(); ++i) {
    BERTH_RETURN_IF_ERROR(
        ValidateRequirement(match_expressions[i], Indexed("matchExpressions", i), true));
  }
  for (size_t i = 0; i < match_fields.size(); ++i) {
    const SelectorRequirement& r = match_fields[i];
    std::string path = Indexed("matchFields", i);
    if (r.key != kNodeNameField) {
      return FieldError(path + ".key",
                        "unsupported value \"" + r.key + R"(": supported values: "metadata.name")");
    }
    if (r.op != SelectorOp::kIn && r.op != SelectorOp::kNotIn) {
      return FieldError(path + ".operator", std::string("unsupported value \"") +
                                                SelectorOpName(r.op) +
                                                R"(": supported values: "In", "NotIn")");
    }
    if (r.values.size() != 1) {
      return FieldError(path + ".values",
                        "must be only one value when `operator` is 'In' or 'NotIn' for node "
                        "field selector");
    }
  }
  return OkStatus();
}

bool NodeSelector::Matches(const Labels& node_labels, const std::string& node_name) const {
  return std::any_of(terms.begin(), terms.end(),
                     [&](const NodeSelectorTerm& t) { return t.Matches(node_labels, node_name); });
}

Status NodeSelector::Validate() const {
  if (terms.empty()) {
    return FieldError("nodeSelectorTerms", "must have at least one node selector term");
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    Status status = terms[i].Validate();
    if (!status.ok()) {
      Error error = std::move(status).error();
      error.WithFieldPrefix(Indexed("nodeSelectorTerms", i));
      return error;
    }
  }
  return OkStatus();
}

}  // namespace berth::core
