// ParseLabelSelectorText: a label selector in its text form ("app=web,tier!=db,env in
// (a,b),!legacy,gpu"), as apimachinery's labels.Parse reads the `labelSelector` query
// parameter and kubectl's -l flag: requirements ANDed, with =, ==, !=, in, notin, exists
// (bare key), !key, and the integer comparisons > and <. Keys must be qualified names and
// values label values. Called by server (list options) and usable by the CLI. Pure.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/selector.h"

namespace berth::core {

// The requirements, sorted by key (as labels.Parse sorts them). "" parses to no
// requirement (everything matches). `key!=v` and `key notin (...)` match an object without
// the key, as upstream's do. Errors (InvalidArgument) name the offending token:
// "unable to parse requirement: ...", "found ',', expected: identifier", ...
// O(length of text).
Result<std::vector<SelectorRequirement>> ParseLabelSelectorText(std::string_view text);

// Whether every requirement matches `labels`.
bool MatchesAll(const std::vector<SelectorRequirement>& requirements, const Labels& labels);

}  // namespace berth::core
