// The text form of berth's health rules, as people write them in a ManifestWorkReplicaSet's
// `rollout.berth.dev/health` annotation (model/work_replica_set.h): what a healthy cluster
// reports through the works' status feedback, read into the violations health_rule.h
// evaluates. Called by the engine's replica-set stage; pure; thread-safe.
//
// Grammar (whitespace around tokens is free):
//   rules    := rule ( (";" | newline) rule )*      empty rules are skipped
//   rule     := NAME OP VALUE [ "for" DURATION ]
//   NAME     := a status feedback value name: letters, digits, '_', '-', '.'
//   OP       := "<" | "<=" | ">" | ">=" | "==" | "!="
//   VALUE    := a decimal number ("2", "0.5", "-1"), "true" (1) or "false" (0)
//   DURATION := a Go duration ("60s", "5m", "1h30m"); absent: 0s
// "AvailableReplicas >= 2 for 60s" reads: healthy while AvailableReplicas >= 2; a cluster
// whose AvailableReplicas has been below 2 for 60 seconds without a break is unhealthy
// (HealthRule{AvailableReplicas, <, 2, 60}: the comparison is negated).
#pragma once

#include <string_view>
#include <vector>

#include "core/result.h"
#include "dispatch/health_rule.h"

namespace berth::dispatch {

// The violation rules of `text`, in order. InvalidArgument at `field` naming the rule (its
// 1-based position and text) and what is wrong: a missing or bad name, operator, value or
// duration, or words after the duration. At most 32 rules.
core::Result<std::vector<HealthRule>> ParseHealthRules(std::string_view text,
                                                       std::string_view field);

// The comparison that holds exactly when `comparison` does not ("<" <-> ">=", "<=" <-> ">",
// "==" <-> "!=").
Comparison NegatedComparison(Comparison comparison);

}  // namespace berth::dispatch
