// The objects that fence tenants in a cluster, as berth doctor reads them: ResourceQuota and
// LimitRange (v1), NetworkPolicy (networking.k8s.io/v1), ServiceAccount (v1) and the RBAC
// kinds (rbac.authorization.k8s.io/v1). Plain data; the plan reads ResourceQuota and
// LimitRange in its admission step (src/admission), doctor reads them all.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/selector.h"
#include "model/object_meta.h"
#include "model/resources.h"

namespace berth::model {

// One entry of a quota's spec.hard, kept by its full name ("requests.nvidia.com/gpu",
// "limits.cpu", "pods", "count/jobs.batch") because the prefix is what rules check.
struct QuotaEntry {
  std::string name;
  std::string amount;  // as written ("4", "100Gi")
  int64_t milli = 0;   // the amount in milli-units, saturated
};

// One spec.scopeSelector.matchExpressions[] item of a ResourceQuota.
struct ScopeSelectorRequirement {
  std::string scope_name;             // e.g. "PriorityClass"
  std::string op;                     // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;
};

// v1 ResourceQuota (named so: model/kueue.h's ResourceQuota is a ClusterQueue's quota).
// The plan's admission step (src/admission) evaluates created pods against it.
struct NamespaceQuota {
  ObjectMeta meta;
  std::vector<QuotaEntry> hard;
  std::vector<std::string> scopes;
  // spec.scopeSelector.matchExpressions' scopeNames (e.g. "PriorityClass").
  std::vector<std::string> scope_selector_scopes;
  // The same expressions whole, for admission.
  std::vector<ScopeSelectorRequirement> scope_selector;
  // status.used, when the object carries a status (has_used): the quota controller's
  // usage, which admission starts from instead of summing the namespace's pods.
  std::vector<QuotaEntry> used;
  bool has_used = false;
  std::string cluster = "default";
  SourceRef source;
};

// One spec.limits[] item of a LimitRange; amounts by resource name, as written.
struct LimitRangeItem {
  std::string type;  // Container, Pod, PersistentVolumeClaim
  std::vector<QuotaEntry> default_limits;    // default
  std::vector<QuotaEntry> default_requests;  // defaultRequest
  std::vector<QuotaEntry> max;
  std::vector<QuotaEntry> min;
  std::vector<QuotaEntry> max_limit_request_ratio;  // maxLimitRequestRatio
};

struct LimitRange {
  ObjectMeta meta;
  std::vector<LimitRangeItem> limits;
  std::string cluster = "default";
  SourceRef source;
};

struct NetworkPolicy {
  ObjectMeta meta;
  core::LabelSelector pod_selector;  // {} selects every pod of the namespace
  bool ingress_type = false;         // policyTypes holds Ingress (or defaults to it)
  bool egress_type = false;          // policyTypes holds Egress
  size_t ingress_rules = 0;          // spec.ingress items: 0 with ingress_type denies all
  size_t egress_rules = 0;
  std::string cluster = "default";
  SourceRef source;
};

struct ServiceAccount {
  ObjectMeta meta;
  std::string cluster = "default";
  SourceRef source;
};

struct RbacSubject {
  std::string kind;  // User, Group, ServiceAccount
  std::string name;
  std::string namespace_;
};

// A Role or ClusterRole: only whether it grants everything (verbs and resources "*") matters
// to the rules that read it.
struct RbacRole {
  ObjectMeta meta;
  bool cluster_scoped = false;
  bool grants_all = false;  // a rule with verbs ["*"] over apiGroups ["*"] and resources ["*"]
  std::string cluster = "default";
  SourceRef source;
};

struct RbacBinding {
  ObjectMeta meta;
  bool cluster_scoped = false;  // ClusterRoleBinding
  std::string role_kind;        // roleRef.kind: Role or ClusterRole
  std::string role_name;        // roleRef.name
  std::vector<RbacSubject> subjects;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
