// What the tenancy, operations and storage rules share: which namespaces belong to tenants,
// whether the input describes a cluster's tenancy objects at all (so a folder of job
// manifests is not asked for the quotas it never meant to carry), GPU resource names written
// as text (quota and LimitRange keys), and whether a pod spec can run on a given node. Pure
// functions of the snapshot and the context; called once per rule, not per pod.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "diag/doctor_context.h"
#include "model/snapshot.h"

namespace berth::diag::rules {

// "cluster\0namespace" (an empty namespace reads "default") or "cluster\0name" for
// cluster-scoped objects: the key the rules' per-rule maps use.
std::string ScopeKey(std::string_view cluster, std::string_view ns_or_name);
// The cluster and the second part of a ScopeKey.
std::string ScopeKeyCluster(const std::string& key);
std::string ScopeKeyName(const std::string& key);

// Every node by ScopeKey(cluster, name). O(nodes); build once per rule.
std::unordered_map<std::string, model::NodeIndex> NodesByName(const model::Snapshot& snapshot);

// A namespace tenants' workloads run in: not kube-system, kube-public, kube-node-lease,
// gpu-operator, nvidia-* or *-system (the platform's own daemons are privileged by design).
// The empty namespace reads as "default", a tenant namespace.
bool IsTenantNamespace(std::string_view ns);

// The clusters for which the input holds at least one ResourceQuota, LimitRange,
// NetworkPolicy, ServiceAccount, Role(Binding) or ClusterRole(Binding): a dump of the
// cluster's tenancy, where a missing quota or policy is a finding. O(those objects).
std::set<std::string, std::less<>> ClustersWithTenancyObjects(const model::Snapshot& snapshot);

// A GPU resource named as text ("nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "amd.com/gpu"):
// the context's classification when the catalog knows the name, else the same naming rule.
bool IsGpuResourceName(const DoctorContext& ctx, std::string_view name);

// The GPUs of a resource amount written in a quota or LimitRange (milli-units), rounded down.
inline int64_t QuotaUnits(int64_t milli) { return milli / 1000; }

// Why `pod` cannot run on `node` ("" when it can): the node's labels against its
// nodeSelector and required node affinity, its hard taints against the pod's tolerations,
// and, for a pod requesting GPUs, whether the node has any. O(labels + taints).
std::string NodeRefusesPod(const DoctorContext& ctx, const model::Pod& pod, model::NodeIndex node);

}  // namespace berth::diag::rules
