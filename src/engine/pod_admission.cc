// Why one step before the cycles: admission happens when the controller creates the pod,
// before any scheduler sees it, and its result (changed requests, or no pod at all) is what
// every later stage must read. Doing it once over the snapshot keeps binding, queueing and
// explain free of it; the only trace left is Pod::admission_refused. Pods Kueue creates
// inside a cycle are the exception: the step leaves the quotas' usage in the snapshot, so
// the cycle's own CreatedPodAdmission continues from it.
#include "engine/pod_admission.h"

#include <algorithm>
#include <utility>

#include "admission/limit_ranger.h"
#include "engine/admitted_pods.h"

namespace berth::engine {
namespace {

bool IsCreatedPending(const model::Pod& pod) {
  return IsCreatedPod(pod) && !pod.IsBound() && !pod.IsTerminal();
}

std::string NamespaceKey(const std::string& cluster, const std::string& ns) {
  return cluster + "/" + (ns.empty() ? "default" : ns);
}

std::string OwnerObject(const model::Pod& pod) {
  const std::string ns = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
  if (!pod.owner) return "Pod/" + ns + "/" + pod.meta.name;
  return pod.owner->kind + "/" + ns + "/" + pod.owner->name;
}

}  // namespace

bool IsCreatedPod(const model::Pod& pod) { return pod.created_from_template && pod.replaces.empty(); }

bool NeedsPodAdmission(const model::Snapshot& snapshot) {
  if (snapshot.limit_ranges.empty() && snapshot.resource_quotas.empty()) return false;
  for (const model::Pod& pod : snapshot.pods) {
    if (IsCreatedPending(pod)) return true;
  }
  return false;
}

CreatedPodAdmission::CreatedPodAdmission(const model::Snapshot& snapshot)
    : catalog_(snapshot.resources) {
  defaulted_.reserve(snapshot.limit_ranges.size());
  for (const model::LimitRange& r : snapshot.limit_ranges) {
    defaulted_.push_back(admission::DefaultedLimitRange(r));
  }
  for (const model::LimitRange& r : defaulted_) {
    ranges_[NamespaceKey(r.cluster, r.meta.namespace_)].push_back(&r);
  }
  // The pods that exist count only for quotas read without status.used; once
  // AdmitCreatedPods wrote it into every quota, a later admission (BindingOracle's) copies none.
  const bool counts_pods = std::any_of(snapshot.resource_quotas.begin(),
                                       snapshot.resource_quotas.end(),
                                       [](const model::NamespaceQuota& q) { return !q.has_used; });
  std::vector<model::Pod> existing;
  for (size_t i = 0; i < snapshot.pods.size() && counts_pods; ++i) {
    if (!IsCreatedPod(snapshot.pods[i])) existing.push_back(snapshot.pods[i]);
  }
  ledger_.emplace(snapshot.resource_quotas, existing, snapshot.resources);
}

std::string CreatedPodAdmission::Create(model::Pod* pod, bool defaults_only) {
  std::string refusal;
  auto it = ranges_.find(NamespaceKey(pod->cluster, pod->meta.namespace_));
  if (it != ranges_.end()) {
    const admission::LimitRangerResult r = admission::ApplyLimitRanges(it->second, catalog_, pod);
    if (!r.admitted()) refusal = r.Message();
    // What the plugin records on the pod it defaulted; io prints it with the defaults.
    if (!r.annotation.empty()) {
      pod->meta.annotations.insert_or_assign("kubernetes.io/limit-ranger", r.annotation);
    }
  }
  if (defaults_only) return "";
  if (refusal.empty()) refusal = ledger_->Admit(*pod, catalog_);
  if (refusal.empty()) return "";
  return "pods \"" + pod->meta.name + "\" is forbidden: " + refusal;
}

void CreatedPodAdmission::WriteUsage(std::vector<model::NamespaceQuota>* quotas) const {
  for (model::NamespaceQuota& q : *quotas) {
    q.used.clear();
    for (const model::QuotaEntry& hard : q.hard) {
      const int64_t used =
          ledger_->UsedMilli(q.cluster, q.meta.namespace_, q.meta.name, hard.name);
      if (used < 0) continue;
      model::QuotaEntry entry;
      entry.name = hard.name;
      entry.milli = used;
      q.used.push_back(std::move(entry));
    }
    q.has_used = true;
  }
}

void WarnFailedCreate(const model::Pod& pod, const std::string& refusal, core::Diagnostics& diags) {
  diags.Warn(core::FailedPrecondition("Error creating: " + refusal,
                                      core::Location{.file = "", .object = OwnerObject(pod), .field = ""}));
}

void AdmitCreatedPods(model::Snapshot& snapshot, core::Diagnostics& diags) {
  if (!NeedsPodAdmission(snapshot)) return;
  // Pods of Kueue workloads not yet admitted: created at the admission, inside the cycle.
  // A workload admitted in the input has its job unsuspended, so the job controller is
  // creating its pods now, through the same admission as any other pod.
  std::vector<bool> kueue(snapshot.pods.size(), false);
  for (const model::Workload& w : snapshot.kueue_workloads) {
    if (HoldsAdmission(w)) continue;
    for (const auto& set : w.pods) {
      for (int32_t p : set) kueue[static_cast<size_t>(p)] = true;
    }
  }
  CreatedPodAdmission creation(snapshot);
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    model::Pod& pod = snapshot.pods[i];
    if (!IsCreatedPending(pod)) continue;
    const std::string refusal = creation.Create(&pod, /*defaults_only=*/kueue[i]);
    if (refusal.empty()) continue;
    pod.admission_refused = refusal;
    WarnFailedCreate(pod, refusal, diags);
  }
  creation.WriteUsage(&snapshot.resource_quotas);
  snapshot.resources = creation.catalog();
}

}  // namespace berth::engine
