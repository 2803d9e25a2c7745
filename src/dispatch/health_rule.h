// HealthRule: berth's test of a rolled-out workload's health on a cluster, read from the
// status feedback values the work agent reports (ManifestWork status feedback, e.g. a
// Deployment's AvailableReplicas): "AvailableReplicas < 2 for 300s" is violated when every
// observation for the last 300 seconds compared so. Evaluated from time-stamped
// observations by the hub and `berth plan` for the rollback policy (rollback_policy.h).
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::dispatch {

enum class Comparison { kLess, kLessOrEqual, kGreater, kGreaterOrEqual, kEqual, kNotEqual };

// "<", "<=", ">", ">=", "==", "!=".
const char* ComparisonText(Comparison comparison);
// The text above; InvalidArgument naming `field` otherwise.
core::Result<Comparison> ParseComparison(std::string_view text, std::string_view field);

// Violated while the feedback value `feedback_name` compares to `threshold` as `comparison`
// says, for at least `for_seconds` without a break.
struct HealthRule {
  std::string feedback_name;
  Comparison comparison = Comparison::kLess;
  double threshold = 0;
  int64_t for_seconds = 0;

  // "AvailableReplicas < 2 for 300s".
  std::string Text() const;
};

// One feedback value as the agent reported it at `at_s`: an integer or a number, "true" /
// "false" (read as 1 / 0), or other text (a JSON value), which compares to nothing.
struct FeedbackObservation {
  std::string cluster;
  std::string name;
  std::string value;
  int64_t at_s = 0;
};

struct HealthViolation {
  std::string cluster;
  std::string rule;     // HealthRule::Text()
  std::string value;    // the latest observation's
  int64_t since_s = 0;  // the first observation of the unbroken violating run

  // "AvailableReplicas < 2 for 300s (value 0 since 2026-01-01T00:00:00Z)".
  std::string Text() const;
};

// The violations at `now_s` of `rules` on the clusters of `taken_at` (cluster -> when it
// took the revision under watch). Per cluster and rule, the observations of the rule's value
// made from taken_at to now_s are read in time order, each standing until the next: the run
// of violating ones that reaches the latest observation counts once it has lasted
// for_seconds (now_s - its first >= for_seconds). An observation that does not violate, or
// whose value is not a number, ends a run: berth does not roll back on data it cannot read.
// Observations from before the cluster took the revision are the previous revision's and
// are ignored. Ordered by cluster, then rule. O(o log o) in the observations.
std::vector<HealthViolation> EvaluateHealthRules(
    const std::vector<HealthRule>& rules, const std::vector<FeedbackObservation>& observations,
    const std::map<std::string, int64_t>& taken_at, int64_t now_s);

}  // namespace berth::dispatch
