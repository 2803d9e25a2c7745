// People state what health looks like ("AvailableReplicas >= 2"), while the evaluator
// (health_rule.h) measures how long a violation lasts, so the parser negates the comparison:
// the annotation stays readable and the evaluator keeps one meaning.
#include "dispatch/health_rule_text.h"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "dispatch/rollout_text.h"

namespace berth::dispatch {
namespace {

constexpr size_t kMaxHealthRules = 32;

bool IsRuleSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

std::string_view TrimRule(std::string_view s) {
  while (!s.empty() && IsRuleSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsRuleSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The next token of `rest`: a run of name characters, a run of operator characters, or one
// other character; removed from `rest`.
std::string_view NextToken(std::string_view* rest) {
  *rest = TrimRule(*rest);
  if (rest->empty()) return {};
  auto is_op = [](char c) { return c == '<' || c == '>' || c == '=' || c == '!'; };
  size_t n = 1;
  if (IsNameChar((*rest)[0])) {
    while (n < rest->size() && IsNameChar((*rest)[n])) ++n;
  } else if (is_op((*rest)[0])) {
    while (n < rest->size() && is_op((*rest)[n])) ++n;
  }
  std::string_view token = rest->substr(0, n);
  rest->remove_prefix(n);
  return token;
}

core::Result<HealthRule> ParseOneRule(std::string_view text, std::string_view field) {
  auto fail = [&](const std::string& problem) {
    return core::InvalidArgument(problem, core::Location{"", "", std::string(field)});
  };
  HealthRule rule;
  std::string_view rest = text;
  std::string_view name = NextToken(&rest);
  if (name.empty() || !IsNameChar(name[0])) return fail("expected a status feedback name");
  rule.feedback_name = std::string(name);
  std::string_view op = NextToken(&rest);
  auto comparison = ParseComparison(op, field);
  if (!comparison.has_value()) {
    return fail("expected <, <=, >, >=, == or != after " + rule.feedback_name);
  }
  std::string_view value = NextToken(&rest);
  if (value == "-") {  // a negative number: the sign is a token of its own
    std::string_view digits = NextToken(&rest);
    value = std::string_view(value.data(),
                             static_cast<size_t>(digits.data() + digits.size() - value.data()));
  }
  double threshold = 0;
  if (value == "true") {
    threshold = 1;
  } else if (value == "false") {
    threshold = 0;
  } else {
    const char* end = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), end, threshold);
    if (value.empty() || ec != std::errc() || ptr != end || !std::isfinite(threshold)) {
      return fail("expected a number, true or false after " + std::string(op));
    }
  }
  rule.threshold = threshold;
  rule.comparison = NegatedComparison(*comparison);
  std::string_view word = NextToken(&rest);
  if (!word.empty()) {
    if (word != "for") return fail("expected \"for DURATION\" or the end of the rule");
    std::string_view duration = TrimRule(rest);
    auto seconds = ParseGoDurationSeconds(duration, field);
    if (!seconds.has_value()) {
      return fail("bad duration " + std::string(duration) + ": " + seconds.error().message());
    }
    if (*seconds < 0) return fail("the duration must not be negative");
    rule.for_seconds = *seconds;
  }
  return rule;
}

}  // namespace

Comparison NegatedComparison(Comparison comparison) {
  switch (comparison) {
    case Comparison::kLess:
      return Comparison::kGreaterOrEqual;
    case Comparison::kLessOrEqual:
      return Comparison::kGreater;
    case Comparison::kGreater:
      return Comparison::kLessOrEqual;
    case Comparison::kGreaterOrEqual:
      return Comparison::kLess;
    case Comparison::kEqual:
      return Comparison::kNotEqual;
    case Comparison::kNotEqual:
      return Comparison::kEqual;
  }
  return comparison;
}

core::Result<std::vector<HealthRule>> ParseHealthRules(std::string_view text,
                                                       std::string_view field) {
  std::vector<HealthRule> rules;
  size_t position = 0;
  while (true) {
    const size_t cut = text.find_first_of(";\n");
    std::string_view part = TrimRule(text.substr(0, cut));
    if (!part.empty()) {
      ++position;
      if (position > kMaxHealthRules) {
        return core::InvalidArgument("at most " + std::to_string(kMaxHealthRules) + " health rules",
                                     core::Location{"", "", std::string(field)});
      }
      auto rule = ParseOneRule(part, field);
      if (!rule.has_value()) {
        core::Error e = std::move(rule).error();
        return core::InvalidArgument("rule " + std::to_string(position) + " \"" +
                                         std::string(part.substr(0, 200)) + "\": " + e.message(),
                                     e.location());
      }
      rules.push_back(std::move(*rule));
    }
    if (cut == std::string_view::npos) break;
    text.remove_prefix(cut + 1);
  }
  return rules;
}

}  // namespace berth::dispatch
