// Why "no pod left" and not "no pod running": Kueue's job reconciler finishes an eviction
// when the job is no longer active, and a terminating pod still holds its node's capacity;
// releasing the quota before the pods are gone would admit the preemptor onto nodes its
// pods cannot fit yet. A pod that is not bound holds nothing and is deleted by the job
// controller as soon as Kueue suspends the job, so only bound (or terminating) pods count;
// that also leaves out the pods io expands for a queued job (what the job would create).
#include "engine/eviction_completion.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "queueing/workload_status.h"

namespace berth::engine {

namespace {

std::string JobKey(const std::string& cluster, const std::string& ns, const std::string& kind,
                   const std::string& name) {
  return cluster + '\x1f' + ns + '\x1f' + kind + '\x1f' + name;
}

bool EvictedHoldingQuota(const model::Workload& w) {
  if (!w.admission.has_value() || !w.cluster_name.empty()) return false;
  const model::WorkloadCondition* evicted = w.FindCondition("Evicted");
  return evicted != nullptr && evicted->status == "True";
}

}  // namespace

bool HasEvictionsToComplete(const model::Snapshot& snapshot) {
  for (const model::Workload& w : snapshot.kueue_workloads) {
    if (EvictedHoldingQuota(w)) return true;
  }
  return false;
}

size_t CompleteEvictions(model::Snapshot& snapshot, core::Timestamp now) {
  if (!HasEvictionsToComplete(snapshot)) return 0;
  // A pod counts for its owner and the owner's owners (a JobSet's pods belong to its child
  // Jobs, a Deployment's to its ReplicaSets): the Workload names the top of the chain.
  std::unordered_map<std::string, const model::OwnerRef*> owner_of;
  for (const model::WorkloadObject& o : snapshot.workloads) {
    if (o.owner.has_value()) {
      owner_of.emplace(JobKey(o.cluster, o.meta.namespace_, o.kind, o.meta.name), &*o.owner);
    }
  }
  std::unordered_set<std::string> jobs_with_pods;
  for (const model::Pod& pod : snapshot.pods) {
    if (pod.IsTerminal() || !pod.owner.has_value()) continue;
    if (!pod.IsBound() && !pod.deletion_timestamp.has_value()) continue;
    const model::OwnerRef* owner = &*pod.owner;
    for (int depth = 0; owner != nullptr && depth < 8; ++depth) {  // bounded: cycles in input
      std::string key = JobKey(pod.cluster, pod.meta.namespace_, owner->kind, owner->name);
      auto up = owner_of.find(key);
      owner = up == owner_of.end() ? nullptr : up->second;
      if (!jobs_with_pods.insert(std::move(key)).second) break;
    }
  }
  size_t finished = 0;
  for (model::Workload& w : snapshot.kueue_workloads) {
    if (!EvictedHoldingQuota(w)) continue;
    std::string kind;
    std::string name;
    if (w.owner.has_value()) {
      kind = w.owner->kind;
      name = w.owner->name;
    } else if (w.owner_workload.has_value()) {
      const model::WorkloadObject& job = snapshot.workloads[static_cast<size_t>(*w.owner_workload)];
      kind = job.kind;
      name = job.meta.name;
    }
    if (kind.empty() || kind == "Pod") continue;
    if (jobs_with_pods.contains(JobKey(w.cluster, w.meta.namespace_, kind, name))) continue;
    queueing::FinishEviction(w, now);
    ++finished;
  }
  return finished;
}

}  // namespace berth::engine
