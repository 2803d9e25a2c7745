// Which status feedback values a ManifestWork's rules read from one of its manifests, as
// OCM's work agent chooses the rules (pkg/work/helper FindManifestConfiguration, the
// statusfeedback reader): the hub needs it to tell a value the agent could not find (a
// Kubernetes count omitted at zero) from one nobody asked for. Called by the engine's
// ManifestWorkReplicaSet stage for health rules. Pure; thread-safe.
#pragma once

#include <string_view>

#include "model/work.h"

namespace berth::dispatch {

// Whether `work`'s spec.manifestConfigs ask the agent for the value `name` of the manifest
// `status` reports on: the feedbackRules of the first manifestConfig that matches it (group
// and resource equal, namespace and name as '*' globs) and has rules; among them a JSONPaths
// path named `name`, or WellKnownStatus when the manifest's (group, version, kind) has a
// well-known value of that name (model::WellKnownStatusPaths). O(configs + rules).
bool FeedbackRulesRead(const model::ManifestWork& work, const model::ManifestStatus& status,
                       std::string_view name);

}  // namespace berth::dispatch
