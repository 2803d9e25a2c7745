// Label and node selectors with the upstream matching rules:
//  - LabelSelector (metav1.LabelSelector): matchLabels AND matchExpressions with
//    In/NotIn/Exists/DoesNotExist. An empty selector matches everything; a missing
//    (std::nullopt at the call site) selector matches nothing, as upstream's
//    LabelSelectorAsSelector(nil) does.
//  - NodeSelector (v1.NodeSelector): OR of terms; each term ANDs its matchExpressions
//    (In/NotIn/Exists/DoesNotExist/Gt/Lt) and matchFields (metadata.name In/NotIn only).
//    A term with no requirements matches nothing; a selector with no terms matches nothing.
// Validate* report malformed selectors (In with no values, Gt with a non-integer, ...).
// Plain value types; matching is const and thread-safe.
#pragma once

#include <string>
#include <vector>

#include "core/labels.h"
#include "core/result.h"

namespace berth::core {

enum class SelectorOp { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

// Parses "In", "NotIn", ...; InvalidArgument otherwise. Gt/Lt are accepted only when
// allow_gt_lt (node selectors).
Result<SelectorOp> ParseSelectorOp(const std::string& text, bool allow_gt_lt);
const char* SelectorOpName(SelectorOp op);

struct SelectorRequirement {
  std::string key;
  SelectorOp op = SelectorOp::kIn;
  std::vector<std::string> values;

  bool operator==(const SelectorRequirement&) const = default;
  // Matches one requirement against labels. Gt/Lt parse both sides as int64; a label value
  // that is not an integer does not match.
  bool Matches(const Labels& labels) const;
};

struct LabelSelector {
  Labels match_labels;
  std::vector<SelectorRequirement> match_expressions;

  bool operator==(const LabelSelector&) const = default;
  bool Empty() const { return match_labels.empty() && match_expressions.empty(); }
  bool Matches(const Labels& labels) const;
  // Upstream validation: In/NotIn need values, Exists/DoesNotExist need none, Gt/Lt are not
  // allowed. Errors name the field ("matchExpressions[1].values").
  Status Validate() const;
};

struct NodeSelectorTerm {
  std::vector<SelectorRequirement> match_expressions;
  std::vector<SelectorRequirement> match_fields;  // key "metadata.name", op In/NotIn

  bool operator==(const NodeSelectorTerm&) const = default;
  bool Matches(const Labels& node_labels, const std::string& node_name) const;
  // Gt/Lt need exactly one integer value; matchFields only supports metadata.name.
  Status Validate() const;
};

struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;

  bool operator==(const NodeSelector&) const = default;
  bool Matches(const Labels& node_labels, const std::string& node_name) const;
  Status Validate() const;
};

}  // namespace berth::core
