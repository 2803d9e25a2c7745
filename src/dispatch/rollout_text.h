// The text forms of OCM's rollout fields (cluster.open-cluster-management.io/v1alpha1
// RolloutStrategy): Go durations ("90s", "1h30m", minSuccessTime), progressDeadline ("None"
// or a duration) and int-or-percent thresholds ("3", "25%": maxConcurrency, maxFailures).
// Called by io when it reads a ManifestWorkReplicaSet and by rollout_strategy.cc. Pure
// functions; thread-safe. Errors are InvalidArgument located at the field named by the caller.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "model/ocm.h"

namespace berth::dispatch {

// Go's time.ParseDuration (metav1.Duration's JSON form): an optional sign, then one or more
// decimal numbers with a unit each (ns, us, µs, ms, s, m, h), or "0". Returned in whole
// seconds, a fraction rounded up (toward +inf), so a non-zero positive duration stays
// non-zero: "1500ms" is 2, "-1500ms" is -1. Errors name `field`: empty text, a missing or
// unknown unit, a bad number, or a value beyond int64 nanoseconds (about 292 years).
core::Result<int64_t> ParseGoDurationSeconds(std::string_view text, std::string_view field);

// progressDeadline as sdk-go's parseTimeout reads it
// (open-cluster-management-io/sdk-go pkg/apis/cluster/v1alpha1/rollout.go): "" and "None"
// give nullopt (wait forever); otherwise the text must match upstream's unanchored pattern
// `^(([0-9])+[h|m|s])|None$` (digits then h, m, s or '|' at the start, or "None" at the end)
// and parse as a Go duration ("90s", "5m", "1h30m"); "0", "2d", "10g" and "90" are errors.
core::Result<std::optional<int64_t>> ParseProgressDeadline(std::string_view text,
                                                           std::string_view field);

// An IntOrString written as text: all digits -> an int; anything ending in '%' -> a string
// (checked when used, as upstream does); else InvalidArgument naming `field`. For configs
// written as text (flags, tests); io keeps JSON ints and strings apart itself.
core::Result<model::IntOrPercent> ParseIntOrPercent(std::string_view text, std::string_view field);

// The threshold as the API prints it: the int, or the string as written.
std::string IntOrPercentText(const model::IntOrPercent& value);

}  // namespace berth::dispatch
