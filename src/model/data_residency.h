// Data residency and compliance: the rules that say where a dataset or model may be stored
// and processed, read from berth's annotations (berth.dev/data-regions,
// berth.dev/data-compliance) and a member cluster's compliance.berth.dev claim. One home
// for the rules placement's DataResidency filter and the federated-learning stage apply.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "model/ocm.h"

namespace berth::model {

// The ClusterClaim a member cluster states its compliance in (comma separated values, as
// examples/fleet's eu-1 claims "gdpr").
inline constexpr const char* kComplianceClaim = "compliance.berth.dev";

// A comma-separated list of region names, as berth.dev/data-regions holds
// ("eu-west-1, eu-central-1"). Items are trimmed of blanks. InvalidArgument (message only:
// the caller knows the object and field) for an empty item ("eu-west-1,,eu-central-1", a
// trailing comma), a name with characters other than letters, digits, '-', '_' and '.', or
// no region at all. O(length).
core::Result<std::vector<std::string>> ParseRegionList(std::string_view text);

// "" when the cluster's compliance.berth.dev claim lists every one of `required` (always
// when `required` is empty); else why not, led by `subject`: "the data requires compliance
// gdpr,hipaa; cluster us-1 has no compliance.berth.dev claim" (or "... claims
// compliance.berth.dev=hipaa"); with `name_cluster` false "the cluster" instead of its name
// (so that clusters with one claim value share the message). Allocates only for the answer.
std::string ComplianceProblem(std::string_view subject, const std::vector<std::string>& required,
                              const ManagedCluster& cluster, bool name_cluster = true);

}  // namespace berth::model
