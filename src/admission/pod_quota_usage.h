// PodQuotaUsage: what one pod counts against a v1 ResourceQuota (upstream
// pkg/quota/v1/evaluator/core/pods.go: PodUsageFunc, Constraints, the pod scopes), by quota
// resource name ("requests.cpu", "limits.memory", "requests.nvidia.com/gpu", "pods",
// "count/pods"), in milli-units. Used by QuotaLedger. Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/pod.h"
#include "model/resources.h"
#include "model/tenancy.h"

namespace berth::admission {

struct QuotaAmount {
  std::string name;    // quota resource name
  int64_t milli = 0;   // milli-units, saturated
};

// The pod's usage sorted by name. A terminal pod counts only count/pods (upstream
// QuotaV1Pod). Requests (overhead included) count under the bare name and requests.<name>
// for cpu, memory and ephemeral-storage, limits under limits.<name>, hugepages-* under both
// names, and extended resources only as requests.<name>; each only when some container
// names it. O(containers x resources).
std::vector<QuotaAmount> PodQuotaUsage(const model::Pod& pod, const model::ResourceCatalog& catalog);

// Whether a quota resource name is one the pod evaluator counts (upstream
// podEvaluator.MatchingResources).
bool IsPodQuotaResource(std::string_view name);

// Whether the pod is in every scope of `quota` (spec.scopes, each as Exists, and
// spec.scopeSelector's expressions; upstream podMatchesScopeFunc): Terminating
// (activeDeadlineSeconds >= 0), NotTerminating, BestEffort (no cpu or memory request or
// limit), NotBestEffort, PriorityClass (In/NotIn on priorityClassName; Exists: one is set).
bool PodMatchesScopes(const model::NamespaceQuota& quota, const model::Pod& pod);

// Upstream's Constraints: with cpu or memory under quota (cpu, requests.cpu, limits.cpu and
// the memory ones), every container must name the matching request or limit. Returns ""
// or "must specify limits.cpu for: main; requests.memory for: main,side".
std::string PodQuotaConstraints(const std::vector<std::string>& hard_names,
                                const model::Pod& pod);

}  // namespace berth::admission
