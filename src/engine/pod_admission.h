// PodAdmission: the API server's admission of the pods berth creates from workloads, as one
// engine step before any cluster's cycle (RunPlan, ExplainPod): LimitRanger fills in and
// bounds their resources, ResourceQuota refuses the ones past a quota. Pods given in the
// input exist already and pass untouched. Pods Kueue's admission creates inside a cycle
// pass the same admission there (CreatedPodAdmission, from BindingOracle).
// docs/admission.md. Internal to engine.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "admission/quota_ledger.h"
#include "core/diagnostics.h"
#include "model/snapshot.h"

namespace berth::engine {

// Whether the snapshot has a LimitRange or ResourceQuota and a pod berth created (expanded
// from a workload's template: Pod::created_from_template), so that AdmitCreatedPods has work.
bool NeedsPodAdmission(const model::Snapshot& snapshot);

// A pod berth created from a workload's template (not a replacement of a deleted pod).
bool IsCreatedPod(const model::Pod& pod);

// The admission chain for created pods of one snapshot: its LimitRanges (defaulted as the
// API server stores them) per cluster and namespace, and a QuotaLedger over its quotas and
// the pods that exist. Borrows the snapshot's quotas; built in O(limit ranges + quotas +
// existing pods x their namespace's quotas).
class CreatedPodAdmission {
 public:
  explicit CreatedPodAdmission(const model::Snapshot& snapshot);

  // Creates `pod`: LimitRanger defaults its requests and limits in place (and writes the
  // kubernetes.io/limit-ranger annotation); unless `defaults_only`, the pod is then
  // validated against the LimitRanges and admitted by the quotas, whose usage it adds to.
  // Returns "" when created, else the refusal as the API server words it (`pods "NAME" is
  // forbidden: ...`). O(the namespace's limit ranges and quotas).
  std::string Create(model::Pod* pod, bool defaults_only);

  // Writes every quota's usage now into `quotas` (the snapshot this was built on) as
  // status.used, as the API server does when it admits a pod: a ledger built later from
  // them starts where this one is.
  void WriteUsage(std::vector<model::NamespaceQuota>* quotas) const;

  // The snapshot's resource names and those a LimitRange default added (a pod defaulted
  // here names its resources by these ids).
  const model::ResourceCatalog& catalog() const { return catalog_; }

 private:
  model::ResourceCatalog catalog_;
  std::vector<model::LimitRange> defaulted_;
  std::map<std::string, std::vector<const model::LimitRange*>> ranges_;
  std::optional<admission::QuotaLedger> ledger_;
};

// The Job controller's FailedCreate event for a refused pod, as a warning on its workload
// (`Error creating: pods "NAME" is forbidden: ...`).
void WarnFailedCreate(const model::Pod& pod, const std::string& refusal, core::Diagnostics& diags);

// Admits every pending pod berth created, in snapshot order (the order the controllers
// create them), against its namespace's LimitRanges and ResourceQuotas (src/admission):
// requests and limits are defaulted in place; a pod either refuses is marked
// (Pod::admission_refused = `pods "NAME" is forbidden: ...`), is never created (the cycle
// neither binds nor prints it), and adds no quota usage; each refusal is reported once as a
// warning on its workload (WarnFailedCreate). Pods of Kueue Workloads admitted in the input
// are admitted like the rest (their job runs); those of workloads still waiting get
// LimitRange defaults only: Kueue creates them at an admission inside the cycle, where
// BindingOracle admits them. The quotas' usage is written back as their status.used.
// Quota usage is kept per quota incrementally: O(created pods x their namespace's quotas).
void AdmitCreatedPods(model::Snapshot& snapshot, core::Diagnostics& diags);

}  // namespace berth::engine
