// Observations are samples of a level, so a run is measured from its first violating sample
// to now rather than between samples: one sample of 0 replicas taken 10 minutes ago, with
// nothing since, has been 0 for 10 minutes as far as the hub knows. Samples that cannot be
// read end a run instead of being skipped, so missing data never adds up to a rollback.
#include "dispatch/health_rule.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <system_error>
#include <utility>

#include "core/time.h"

namespace berth::dispatch {
namespace {

std::optional<double> HealthValueNumber(const std::string& text) {
  if (text == "true") return 1.0;
  if (text == "false") return 0.0;
  if (text.empty()) return std::nullopt;
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

bool HealthCompares(double value, Comparison comparison, double threshold) {
  switch (comparison) {
    case Comparison::kLess:
      return value < threshold;
    case Comparison::kLessOrEqual:
      return value <= threshold;
    case Comparison::kGreater:
      return value > threshold;
    case Comparison::kGreaterOrEqual:
      return value >= threshold;
    case Comparison::kEqual:
      return value == threshold;
    case Comparison::kNotEqual:
      return value != threshold;
  }
  return false;
}

// Shortest text that reads back as the same double ("2", "0.5").
std::string HealthNumberText(double value) {
  std::array<char, 64> buffer{};
  const auto [ptr, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  return ec == std::errc() ? std::string(buffer.data(), ptr) : std::string("?");
}

}  // namespace

const char* ComparisonText(Comparison comparison) {
  switch (comparison) {
    case Comparison::kLess:
      return "<";
    case Comparison::kLessOrEqual:
      return "<=";
    case Comparison::kGreater:
      return ">";
    case Comparison::kGreaterOrEqual:
      return ">=";
    case Comparison::kEqual:
      return "==";
    case Comparison::kNotEqual:
      return "!=";
  }
  return "?";
}

core::Result<Comparison> ParseComparison(std::string_view text, std::string_view field) {
  for (Comparison c : {Comparison::kLess, Comparison::kLessOrEqual, Comparison::kGreater,
                       Comparison::kGreaterOrEqual, Comparison::kEqual, Comparison::kNotEqual}) {
    if (text == ComparisonText(c)) return c;
  }
  std::string message = "unknown comparison \"";
  message.append(text);
  message += "\": want <, <=, >, >=, == or !=";
  return core::InvalidArgument(std::move(message), core::Location{"", "", std::string(field)});
}

std::string HealthRule::Text() const {
  return feedback_name + " " + ComparisonText(comparison) + " " + HealthNumberText(threshold) +
         " for " + std::to_string(for_seconds) + "s";
}

std::string HealthViolation::Text() const {
  return rule + " (value " + value + " since " + core::Timestamp{since_s}.ToString() + ")";
}

std::vector<HealthViolation> EvaluateHealthRules(
    const std::vector<HealthRule>& rules, const std::vector<FeedbackObservation>& observations,
    const std::map<std::string, int64_t>& taken_at, int64_t now_s) {
  // cluster -> its observations in time order (stable: equal times keep the given order).
  std::map<std::string, std::vector<const FeedbackObservation*>> by_cluster;
  for (const FeedbackObservation& o : observations) {
    auto taken = taken_at.find(o.cluster);
    if (taken == taken_at.end() || o.at_s < taken->second || o.at_s > now_s) continue;
    by_cluster[o.cluster].push_back(&o);
  }
  std::vector<HealthViolation> out;
  for (auto& [cluster, list] : by_cluster) {
    std::stable_sort(list.begin(), list.end(),
                     [](const FeedbackObservation* a, const FeedbackObservation* b) {
                       return a->at_s < b->at_s;
                     });
    for (const HealthRule& rule : rules) {
      bool in_run = false;
      int64_t run_start = 0;
      const FeedbackObservation* latest = nullptr;
      for (const FeedbackObservation* o : list) {
        if (o->name != rule.feedback_name) continue;
        latest = o;
        std::optional<double> value = HealthValueNumber(o->value);
        if (value.has_value() && HealthCompares(*value, rule.comparison, rule.threshold)) {
          if (!in_run) run_start = o->at_s;
          in_run = true;
        } else {
          in_run = false;
        }
      }
      if (in_run && now_s - run_start >= rule.for_seconds) {
        out.push_back(HealthViolation{cluster, rule.Text(), latest->value, run_start});
      }
    }
  }
  return out;
}

}  // namespace berth::dispatch
