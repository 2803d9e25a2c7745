// Condition lists of a ManifestWork's status as OCM's work agent keeps them: metav1.Condition
// objects as JSON ({type, status, observedGeneration, lastTransitionTime, reason, message}),
// set the way apimachinery's meta.SetStatusCondition sets them (the transition time moves
// only when the status changes), per-manifest entries merged across applies (OCM
// pkg/work/helper MergeManifestConditions), and the work-level Applied and Available
// conditions aggregated from the manifests (manifestwork_reconciler.go allInCondition,
// spoke/conditions/helpers.go AggregateManifestConditions). Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/time.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

// A condition without a transition time (SetCondition stamps it). observed_generation 0 is
// left out of the JSON, as upstream's omitempty does.
Json MakeCondition(std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message, int64_t observed_generation = 0);

// The condition of `type` in the array `conditions`; nullptr when none (or not an array).
const Json* FindCondition(const Json& conditions, std::string_view type);
bool IsConditionTrue(const Json& conditions, std::string_view type);
void RemoveCondition(Json& conditions, std::string_view type);

// meta.SetStatusCondition: adds `condition` (stamped `now` unless it carries a
// lastTransitionTime), or updates the one of its type: reason, message and
// observedGeneration always, status and lastTransitionTime only when the status changed.
// `conditions` becomes an array if it was not one.
void SetCondition(Json& conditions, const Json& condition, core::Timestamp now);

// MergeStatusConditions: `conditions` with each of `updates` set; an existing condition whose
// observedGeneration differs from the update's is replaced whole (a new transition time).
Json MergeStatusConditions(const Json& conditions, const Json& updates, core::Timestamp now);

// MergeManifestConditions over status.resourceStatus.manifests[] arrays: the result has one
// entry per `updates` entry, in its order. An update is matched with an old entry by its
// whole resourceMeta, else by everything but the ordinal (when unique); a matched entry keeps
// its statusFeedback and merges conditions (MergeStatusConditions); an unmatched one is the
// update with every condition stamped `now`.
Json MergeManifestConditions(const Json& old_manifests, const Json& updates, core::Timestamp now);

// allInCondition: whether any manifest has a condition of `type` (exists), and whether none
// of those is False (in; false when none exists).
struct InCondition {
  bool in = false;
  bool exists = false;
};
InCondition AllInCondition(std::string_view type, const Json& manifests);

// Conditions written by condition rules carry a reason starting "ConditionRule".
bool IsRuleCondition(const Json& condition);

// AggregateManifestConditions: the work-level conditions from the manifests' Available
// conditions (always present: Unknown when no manifest reports one) and from every
// rule-generated condition type, sorted by type, each with `generation`.
Json AggregateManifestConditions(int64_t generation, const Json& manifests);

// Drops rule-generated conditions whose observedGeneration is not `generation` (their rule
// was removed: removing a rule bumps the work's generation).
void PruneRuleConditions(Json& conditions, int64_t generation);

}  // namespace berth::server::work
