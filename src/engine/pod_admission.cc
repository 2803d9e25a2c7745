// Why one step before the cycles: admission happens when the controller creates the pod,
// before any scheduler sees it, and its result (changed requests, or no pod at all) is what
// every later stage must read. Doing it once over the snapshot keeps binding, queueing and
// explain free of it; the only trace left is Pod::admission_refused.
#include "engine/pod_admission.h"

#include <map>
#include <utility>

#include "admission/limit_ranger.h"
#include "admission/quota_ledger.h"
#include "engine/admitted_pods.h"

namespace berth::engine {
namespace {

bool IsCreated(const model::Pod& pod) {
  return pod.created_from_template && pod.replaces.empty();
}

bool IsCreatedPending(const model::Pod& pod) {
  return IsCreated(pod) && !pod.IsBound() && !pod.IsTerminal();
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

bool NeedsPodAdmission(const model::Snapshot& snapshot) {
  if (snapshot.limit_ranges.empty() && snapshot.resource_quotas.empty()) return false;
  for (const model::Pod& pod : snapshot.pods) {
    if (IsCreatedPending(pod)) return true;
  }
  return false;
}

void AdmitCreatedPods(model::Snapshot& snapshot, core::Diagnostics& diags) {
  if (!NeedsPodAdmission(snapshot)) return;
  // Each namespace's LimitRanges, defaulted as the API server stores them, in input order.
  std::vector<model::LimitRange> defaulted;
  defaulted.reserve(snapshot.limit_ranges.size());
  std::map<std::string, std::vector<const model::LimitRange*>> ranges;
  for (const model::LimitRange& r : snapshot.limit_ranges) {
    defaulted.push_back(admission::DefaultedLimitRange(r));
  }
  for (const model::LimitRange& r : defaulted) {
    ranges[NamespaceKey(r.cluster, r.meta.namespace_)].push_back(&r);
  }
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
  std::vector<model::Pod> existing;
  for (const model::Pod& pod : snapshot.pods) {
    if (!IsCreated(pod)) existing.push_back(pod);
  }
  admission::QuotaLedger ledger(snapshot.resource_quotas, existing, snapshot.resources);
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    model::Pod& pod = snapshot.pods[i];
    if (!IsCreatedPending(pod)) continue;
    std::string refusal;
    auto it = ranges.find(NamespaceKey(pod.cluster, pod.meta.namespace_));
    if (it != ranges.end()) {
      const admission::LimitRangerResult r =
          admission::ApplyLimitRanges(it->second, snapshot.resources, &pod);
      if (!r.admitted()) refusal = r.Message();
      // What the plugin records on the pod it defaulted; io prints it with the defaults.
      if (!r.annotation.empty()) {
        pod.meta.annotations.insert_or_assign("kubernetes.io/limit-ranger", r.annotation);
      }
    }
    if (kueue[i]) continue;  // defaults only (see the header)
    if (refusal.empty()) refusal = ledger.Admit(pod, snapshot.resources);
    if (refusal.empty()) continue;
    pod.admission_refused = "pods \"" + pod.meta.name + "\" is forbidden: " + refusal;
    diags.Warn(core::FailedPrecondition("Error creating: " + pod.admission_refused,
                                        core::Location{.file = "", .object = OwnerObject(pod), .field = ""}));
  }
}

}  // namespace berth::engine
