// QuotaLedger: the ResourceQuota admission plugin over a whole plan (upstream
// plugin/pkg/admission/resourcequota/controller.go): each namespace's quotas with their
// usage, kept incrementally as berth creates pods, so admitting a pod costs its namespace's
// quotas and the pod's own resources, never a rescan of the namespace. Built once per plan
// by engine's admission step; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "admission/pod_quota_usage.h"
#include "model/pod.h"
#include "model/resources.h"
#include "model/tenancy.h"

namespace berth::admission {

class QuotaLedger {
 public:
  // `quotas` are every v1 ResourceQuota read (any cluster and namespace); `existing` the pods
  // that exist already (given in the input). A quota with status.used starts from it (the
  // quota controller's count); one without starts from the existing pods of its cluster and
  // namespace that match its scopes. O(quotas + existing pods x their namespace's quotas).
  QuotaLedger(const std::vector<model::NamespaceQuota>& quotas,
              const std::vector<model::Pod>& existing, const model::ResourceCatalog& catalog);

  // Admits `pod` (its cluster and namespace) against its namespace's quotas in name order:
  // "" when every matching quota has room, and its usage is added to each of them; else
  // the Forbidden cause of the first quota that refuses, worded as the API server's
  // ("failed quota: NAME: must specify ...", "exceeded quota: NAME, requested: r=v, used:
  // r=v, limited: r=v"), and no usage changes. O(quotas of the namespace x their entries).
  std::string Admit(const model::Pod& pod, const model::ResourceCatalog& catalog);

  // A quota's usage of `resource` now, in milli-units (tests and the bench check it);
  // -1 when the ledger has no such quota or resource.
  int64_t UsedMilli(const std::string& cluster, const std::string& namespace_,
                    const std::string& quota, const std::string& resource) const;

 private:
  struct Entry {
    std::string name;
    int64_t hard_milli = 0;
    int64_t used_milli = 0;
  };
  struct Quota {
    const model::NamespaceQuota* object = nullptr;
    std::vector<Entry> entries;           // spec.hard, sorted by name
    std::vector<std::string> hard_names;  // the same names, for Constraints
    bool counts_pods = false;             // some hard name is one the pod evaluator counts
  };
  static std::string Key(const std::string& cluster, const std::string& namespace_);
  // Quotas by "cluster/namespace", each namespace's in name order.
  std::unordered_map<std::string, std::vector<Quota>> by_namespace_;
};

}  // namespace berth::admission
