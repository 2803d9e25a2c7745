// Why the job's terminal state is read from the ManifestWork's feedback: that is the only
// thing a hub learns of a member cluster's job (the agent reports it with the work's status,
// OCM's way), and the feedback rules dispatch writes for each kind (model/kind_info.cc) are
// chosen so a success and a failure are both visible. Kueue's own MultiKueue reads the
// remote Workload's Finished condition instead; the reasons written here are the ones the
// job integration would have put there (jobframework: Succeeded / Failed).
//
// Why "lost" is measured from the Available condition and not from a check's time: Kueue
// refreshes its check's lastTransitionTime while the remote reserves and counts the timeout
// from the last refresh, i.e. from the last moment the worker was seen; the hub's lease
// controller sets Available to Unknown at exactly that moment's lease expiry, and the
// condition keeps that time until the cluster comes back.
#include "engine/remote_status.h"

#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "engine/fleet_checks.h"
#include "queueing/workload_status.h"

namespace berth::engine {

namespace {

struct FinishRule {
  const char* kind;
  const char* value_name;
  const char* success;  // the value that means it succeeded ("" = none)
  const char* failure;  // the value that means it failed ("" = none)
};

// The feedback values dispatch asks for (model/kind_info.cc) and what they say at the end.
constexpr FinishRule kFinishRules[] = {
    {"Job", "JobComplete", "True", ""},
    {"Job", "JobFailed", "", "True"},
    {"JobSet", "Completed", "True", ""},
    {"JobSet", "Failed", "", "True"},
    {"JobSet", "TerminalState", "Completed", "Failed"},
    {"PyTorchJob", "Succeeded", "True", ""},
    {"PyTorchJob", "Failed", "", "True"},
    {"MPIJob", "Succeeded", "True", ""},
    {"MPIJob", "Failed", "", "True"},
    {"RayJob", "JobStatus", "SUCCEEDED", "FAILED"},
    {"TrainJob", "Complete", "True", ""},
    {"TrainJob", "Failed", "", "True"},
};

std::string WorkloadKey(const std::string& ns, const std::string& name) { return ns + "." + name; }

// A member cluster's own Workload for the job the hub delivered there: (cluster, namespace,
// job kind, job name), as the worker's Kueue names its owner.
std::string RemoteKey(const std::string& cluster, const std::string& ns, const std::string& kind,
                      const std::string& name) {
  return cluster + '\x1f' + ns + '\x1f' + kind + '\x1f' + name;
}

bool RemoteConditionTrue(const model::WorkloadCondition* c) { return c != nullptr && c->status == "True"; }

// The remote Workload of this dispatch: one the worker made after the hub reserved quota for
// the Workload now. An older one is the previous dispatch's copy, which the agent may report
// until the worker deletes it; reading it would requeue the new dispatch for the old one's
// eviction.
const model::Workload* CurrentRemote(
    const std::unordered_map<std::string, const model::Workload*>& remotes, const model::Workload& w,
    const std::string& kind, const std::string& name) {
  auto it = remotes.find(RemoteKey(w.cluster_name, w.meta.namespace_, kind, name));
  if (it == remotes.end()) return nullptr;
  const model::WorkloadCondition* reserved = w.FindCondition("QuotaReserved");
  if (reserved != nullptr && it->second->meta.creation_timestamp.unix_s != 0 &&
      it->second->meta.creation_timestamp.unix_s < reserved->last_transition_time.unix_s) {
    return nullptr;
  }
  return it->second;
}

// PodsReady as Kueue's job reconciler writes it, from the delivered job's feedback when the
// worker has no Kueue of its own: a Job's ready and succeeded pods against the pods the hub
// admitted. nullopt when the feedback does not say (another kind, no counts yet).
std::optional<bool> PodsReadyFromFeedback(const std::string& kind, const model::ManifestStatus& status,
                                          const model::Workload& w) {
  if (kind != "Job") return std::nullopt;
  const std::string* ready = status.Feedback("JobReady");
  const std::string* succeeded = status.Feedback("JobSucceeded");
  if (ready == nullptr && succeeded == nullptr) return std::nullopt;
  auto number = [](const std::string* v) -> int64_t {
    int64_t n = 0;  // absent: Kubernetes leaves zero counts out of status
    if (v != nullptr) std::from_chars(v->data(), v->data() + v->size(), n);
    return n;
  };
  int64_t pods = 0;
  for (const model::KueuePodSet& ps : w.pod_sets) pods += ps.count;
  return number(ready) + number(succeeded) >= pods;
}

void SetPodsReady(model::Workload& w, bool ready, core::Timestamp now) {
  if (ready) {
    queueing::SetWorkloadCondition(w, "PodsReady", "True", "PodsReady",
                                   "All pods reached readiness and the workload is running", now);
    return;
  }
  // Kueue's reasons: never ready yet (WaitForStart) or ready once, then not (WaitForRecovery).
  const model::WorkloadCondition* was = w.FindCondition("PodsReady");
  const bool recovering = was != nullptr && (was->status == "True" || was->reason == "WaitForRecovery");
  queueing::SetWorkloadCondition(w, "PodsReady", "False", recovering ? "WaitForRecovery" : "WaitForStart",
                                 "Not all pods are ready or succeeded", now);
}

bool IsAvailable(const model::ManagedCluster& cluster) {
  const model::Condition* c = cluster.FindCondition(model::kConditionClusterAvailable);
  return c != nullptr && c->status == model::ConditionStatus::kTrue;
}

// How long the cluster has been unavailable at `now`; nullopt when it is available or the
// condition carries no time (a hand-written fixture: never lost by this rule).
std::optional<int64_t> UnavailableFor(const model::ManagedCluster& cluster, core::Timestamp now) {
  if (IsAvailable(cluster)) return std::nullopt;
  const model::Condition* c = cluster.FindCondition(model::kConditionClusterAvailable);
  if (c == nullptr || !c->last_transition_time.has_value()) return std::nullopt;
  return now.unix_s - c->last_transition_time->unix_s;
}

// The kind and name of the job a hub Workload was made for.
bool JobOf(const model::Snapshot& snapshot, const model::Workload& w, std::string* kind,
           std::string* name) {
  if (w.owner.has_value()) {
    *kind = w.owner->kind;
    *name = w.owner->name;
    return true;
  }
  if (w.owner_workload.has_value()) {
    const model::WorkloadObject& job = snapshot.workloads[static_cast<size_t>(*w.owner_workload)];
    *kind = job.kind;
    *name = job.meta.name;
    return true;
  }
  return false;
}

}  // namespace

std::optional<RemoteFinish> FinishedFromFeedback(const std::string& kind,
                                                 const model::ManifestStatus& status,
                                                 const std::string& cluster) {
  std::optional<RemoteFinish> success;
  for (const FinishRule& rule : kFinishRules) {
    if (kind != rule.kind) continue;
    const std::string* value = status.Feedback(rule.value_name);
    if (value == nullptr) continue;
    // A failure wins over a success read in the same report (a Job cannot be both; a JobSet's
    // terminal state and its conditions agree): the worse outcome is the one to explain.
    if (*rule.failure != '\0' && *value == rule.failure) {
      return RemoteFinish{"Failed", kind + " failed on cluster \"" + cluster + "\""};
    }
    if (*rule.success != '\0' && *value == rule.success) {
      success = RemoteFinish{"Succeeded", kind + " finished successfully on cluster \"" + cluster + "\""};
    }
  }
  return success;
}

RemoteStatusCounts ReflectRemoteStatus(model::Snapshot& snapshot, core::Timestamp now) {
  RemoteStatusCounts counts;
  bool any = false;
  for (const model::Workload& w : snapshot.kueue_workloads) {
    if (!w.cluster_name.empty() && w.admission.has_value()) {
      any = true;
      break;
    }
  }
  if (!any) return counts;

  // The works that deliver hub workloads, by (cluster, "<ns>.<name>").
  std::unordered_map<std::string, const model::ManifestWork*> works;
  for (const model::ManifestWork& work : snapshot.manifest_works) {
    auto it = work.meta.labels.find(model::kWorkloadLabel);
    if (it == work.meta.labels.end()) continue;
    works.emplace(work.meta.namespace_ + '\x1f' + it->second, &work);
  }
  // The member clusters' own Workloads (their agents report them), by the job they own.
  std::unordered_map<std::string, const model::Workload*> remotes;
  for (const model::Workload& r : snapshot.kueue_workloads) {
    if (r.owner.has_value()) {
      remotes.emplace(RemoteKey(r.cluster, r.meta.namespace_, r.owner->kind, r.owner->name), &r);
    }
  }
  std::unordered_map<std::string, const model::ManagedCluster*> clusters;
  for (const model::ManagedCluster& c : snapshot.managed_clusters) clusters.emplace(c.meta.name, &c);
  const int64_t lost_after_s = snapshot.kueue_config.has_value()
                                   ? snapshot.kueue_config->multikueue_worker_lost_timeout_s
                                   : model::KueueConfig{}.multikueue_worker_lost_timeout_s;

  std::unordered_map<std::string, FleetChecks> checks_by_hub;
  for (model::Workload& w : snapshot.kueue_workloads) {
    if (w.cluster_name.empty() || !w.admission.has_value()) continue;
    const model::WorkloadCondition* finished = w.FindCondition("Finished");
    if (finished != nullptr && finished->status == "True") continue;
    const model::WorkloadCondition* evicted = w.FindCondition("Evicted");
    if (evicted != nullptr && evicted->status == "True") continue;

    // 1. The worker reported the job finished; else whether its pods are ready.
    std::string kind;
    std::string name;
    const model::Workload* remote = nullptr;
    if (JobOf(snapshot, w, &kind, &name)) {
      remote = CurrentRemote(remotes, w, kind, name);
      std::optional<bool> pods_ready;
      auto work = works.find(w.cluster_name + '\x1f' + WorkloadKey(w.meta.namespace_, w.meta.name));
      if (work != works.end()) {
        for (const model::ManifestStatus& status : work->second->manifest_statuses) {
          if (status.kind != kind || status.name != name) continue;
          if (auto done = FinishedFromFeedback(kind, status, w.cluster_name)) {
            queueing::SetWorkloadCondition(w, "Finished", "True", done->reason, done->message, now);
            ++counts.finished;
          }
          pods_ready = PodsReadyFromFeedback(kind, status, w);
          break;
        }
      }
      if (RemoteConditionTrue(w.FindCondition("Finished"))) continue;
      // MultiKueue syncs the remote Workload's status into the local one: its PodsReady
      // when the worker runs Kueue, else what the job's counts say.
      if (const model::WorkloadCondition* c = remote ? remote->FindCondition("PodsReady") : nullptr) {
        queueing::SetWorkloadCondition(w, "PodsReady", c->status, c->reason, c->message, now);
      } else if (pods_ready.has_value()) {
        SetPodsReady(w, *pods_ready, now);
      }
    }

    // 2. The worker's Kueue evicted its copy (preempted there, its PodsReady timeout, its
    //    queue stopped): the hub requeues the Workload so it is dispatched again, and the
    //    worker's copy goes with the stale work, as for a lost worker below.
    std::string why;
    if (remote != nullptr && !RemoteConditionTrue(remote->FindCondition("Finished"))) {
      if (const model::WorkloadCondition* ev = remote->FindCondition("Evicted"); RemoteConditionTrue(ev)) {
        why = "Evicted on worker cluster \"" + w.cluster_name + "\" (" + ev->reason + ")" +
              (ev->message.empty() ? "" : ": " + ev->message);
      }
    }

    // 3. The worker is lost.
    if (why.empty()) {
      auto cluster = clusters.find(w.cluster_name);
      if (cluster == clusters.end()) continue;
      std::optional<int64_t> down_s = UnavailableFor(*cluster->second, now);
      if (!down_s.has_value() || *down_s < lost_after_s) continue;
      why = "Reserving remote lost";
    }
    auto [it, fresh] = checks_by_hub.try_emplace(w.cluster);
    if (fresh) it->second = FindFleetChecks(snapshot, w.cluster);
    const FleetCheck* check = it->second.ForClusterQueue(w.admission->cluster_queue);
    queueing::MarkEvicted(w, "AdmissionCheck", "At least one admission check is false", now);
    queueing::FinishEviction(w, now);
    // Kueue resets the checks on eviction and the cluster with the reservation.
    for (model::AdmissionCheckStatus& s : w.admission_checks) {
      if (check != nullptr && s.name != check->name) continue;
      s.state = model::CheckState::kPending;
      s.message = "Reset to Pending after eviction. Previously: " + why;
    }
    w.cluster_name.clear();
    w.nominated_cluster_names.clear();
    if (why == "Reserving remote lost") {
      ++counts.requeued;
    } else {
      ++counts.evicted_remotely;
    }
  }
  return counts;
}

}  // namespace berth::engine
