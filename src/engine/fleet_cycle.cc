#include "engine/fleet_cycle.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "binding/scheduler.h"
#include "core/check.h"
#include "dispatch/manifest_work_builder.h"
#include "dispatch/stale_works.h"
#include "engine/cluster_cycle.h"
#include "engine/cycle_writes.h"
#include "engine/federated_learning.h"
#include "engine/fleet_checks.h"
#include "engine/fleet_dispatcher.h"
#include "engine/fleet_measure.h"
#include "engine/placement_stage.h"
#include "engine/replica_sets.h"
#include "placement/cluster_set_references.h"

namespace berth::engine {
namespace {

bool HasQueues(const model::Snapshot& snapshot, const std::string& cluster) {
  for (const model::ClusterQueue& cq : snapshot.cluster_queues) {
    if (cq.cluster == cluster) return true;
  }
  return false;
}

// ManagedCluster status.allocatable in ResourceVector units (cpu in milli-cores).
model::ResourceVector Allocatable(const model::Snapshot& snapshot, const model::ManagedCluster& mc) {
  model::ResourceVector out;
  for (const auto& [name, quantity] : mc.allocatable) {
    model::ResourceId id;
    if (!snapshot.resources.Find(name, &id)) continue;
    core::Result<int64_t> v = id == model::kCpu ? quantity.MilliValue() : quantity.Value();
    if (v.has_value()) out.Set(id, *v);
  }
  return out;
}

// The hub's ClusterQueues by name, built once per plan (SettleOutcomes asks per decision).
std::unordered_map<std::string, const model::ClusterQueue*> HubClusterQueues(
    const model::Snapshot& snapshot) {
  std::unordered_map<std::string, const model::ClusterQueue*> out;
  for (const model::ClusterQueue& cq : snapshot.cluster_queues) {
    if (cq.cluster == kHubCluster) out.emplace(cq.meta.name, &cq);
  }
  return out;
}

// Whether every admission check of the workload's ClusterQueue except `fleet_check` is
// Ready in the workload's status.
bool OtherChecksReady(const std::unordered_map<std::string, const model::ClusterQueue*>& hub_cqs,
                      const model::Workload& w, const std::string& cluster_queue,
                      const std::string& fleet_check) {
  auto found = hub_cqs.find(cluster_queue);
  if (found == hub_cqs.end()) return true;
  const model::ClusterQueue* cq = found->second;
  for (const model::AdmissionCheckRule& rule : cq->admission_checks) {
    if (rule.name == fleet_check) continue;
    bool ready = false;
    for (const model::AdmissionCheckStatus& s : w.admission_checks) {
      if (s.name == rule.name) ready = s.state == model::CheckState::kReady;
    }
    if (!ready) return false;
  }
  return true;
}

// A dispatched workload is Admitted once its cluster took it and every other check is
// Ready; until then it only holds the hub's quota.
void SettleOutcomes(const model::Snapshot& snapshot, const FleetDispatcher& dispatcher,
                    queueing::AdmissionResult& result) {
  const auto hub_cqs = HubClusterQueues(snapshot);
  std::unordered_map<std::string, queueing::ClusterQueueState*> states;
  for (queueing::ClusterQueueState& cq : result.cluster_queues) states.emplace(cq.name, &cq);
  for (queueing::WorkloadDecision& d : result.decisions) {
    auto it = dispatcher.dispatches().find(d.workload);
    if (it == dispatcher.dispatches().end() || !d.admission) continue;
    if (d.outcome != queueing::WorkloadOutcome::kAdmitted &&
        d.outcome != queueing::WorkloadOutcome::kQuotaReserved) {
      continue;
    }
    const model::Workload& w = snapshot.kueue_workloads[static_cast<size_t>(d.workload)];
    const bool admitted = it->second.cluster.has_value() &&
                          OtherChecksReady(hub_cqs, w, d.admission->cluster_queue, it->second.check);
    const bool was_admitted = d.outcome == queueing::WorkloadOutcome::kAdmitted;
    d.outcome = admitted ? queueing::WorkloadOutcome::kAdmitted
                         : queueing::WorkloadOutcome::kQuotaReserved;
    // The ClusterQueue's status counts follow (reserving counts both).
    if (admitted != was_admitted) {
      auto state = states.find(d.admission->cluster_queue);
      if (state != states.end()) state->second->admitted += admitted ? 1 : -1;
    }
  }
}

// status.admissionChecks[check], status.clusterName and nominatedClusterNames, as
// MultiKueue's manager writes them.
void WriteDispatches(const FleetDispatcher& dispatcher, model::Snapshot& planned) {
  for (const auto& [index, d] : dispatcher.dispatches()) {
    model::Workload& w = planned.kueue_workloads[static_cast<size_t>(index)];
    model::AdmissionCheckStatus status{d.check,
                                       d.cluster ? model::CheckState::kReady : model::CheckState::kPending,
                                       d.message};
    bool replaced = false;
    for (model::AdmissionCheckStatus& s : w.admission_checks) {
      if (s.name == d.check) {
        s = status;
        replaced = true;
      }
    }
    if (!replaced) w.admission_checks.push_back(std::move(status));
    w.cluster_name = d.cluster.value_or("");
    // An external dispatcher's nominations are its own: Kueue leaves them as they are.
    if (d.mode == DispatchMode::kExternal && !d.cluster) continue;
    w.nominated_cluster_names.clear();
    if (d.mode != DispatchMode::kBestFit) {
      // Kueue's dispatchers: every round's nominations, appended round after round, until
      // a worker admits it (then clusterName replaces them).
      if (d.cluster || !d.rounds) continue;
      for (int32_t r = 0; r < d.rounds_run && static_cast<size_t>(r) < d.rounds->size(); ++r) {
        for (const std::string& c : (*d.rounds)[static_cast<size_t>(r)]) {
          if (w.nominated_cluster_names.size() < kMaxNominatedClusters) {
            w.nominated_cluster_names.push_back(c);
          }
        }
      }
      continue;
    }
    // MultiKueue nominates the workers it sent copies to (at most kMaxNominatedClusters).
    if (!d.cluster && d.candidates) {
      const size_t n = std::min(d.candidates->size(), kMaxNominatedClusters);
      w.nominated_cluster_names.assign(d.candidates->begin(), d.candidates->begin() + static_cast<std::ptrdiff_t>(n));
    }
  }
}

// One ManifestWork per dispatched workload (replacing a given one of the same name), and
// the given ones no dispatch needs any more.
void PlanManifestWorks(const model::Snapshot& snapshot, const FleetDispatcher& dispatcher,
                       const queueing::AdmissionResult& result, Plan& plan) {
  std::map<int32_t, const model::Admission*> admissions;
  for (const queueing::WorkloadDecision& d : result.decisions) {
    if (d.admission) admissions[d.workload] = &*d.admission;
  }
  std::vector<model::ManifestWork> planned_works;
  std::map<int32_t, std::string> placed;
  for (const auto& [index, d] : dispatcher.dispatches()) {
    if (!d.cluster) continue;
    placed[index] = *d.cluster;
    auto admission = admissions.find(index);
    if (admission == admissions.end()) continue;
    dispatch::DispatchTarget target;
    target.workload = index;
    target.cluster = *d.cluster;
    target.worker_local_queue = d.worker_local_queue;
    target.admission = admission->second;
    core::Result<model::ManifestWork> work = dispatch::BuildManifestWork(snapshot, target);
    if (!work.has_value()) {
      plan.diagnostics.Report(std::move(work).error());
      continue;
    }
    planned_works.push_back(std::move(*work));
  }
  // Workloads running on a member cluster since before this plan keep their works.
  for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
    const model::Workload& w = snapshot.kueue_workloads[i];
    if (!w.cluster_name.empty() && placed.count(static_cast<int32_t>(i)) == 0) {
      placed[static_cast<int32_t>(i)] = w.cluster_name;
    }
  }
  for (model::ObjectDeletion& d : dispatch::StaleManifestWorks(snapshot, planned_works, placed)) {
    plan.deleted_objects.push_back(std::move(d));
  }
  std::vector<model::ManifestWork>& works = plan.planned.manifest_works;
  // Given works by (namespace, name), the last of a name winning as the scan did.
  std::map<std::pair<std::string, std::string>, int32_t> given;
  for (size_t i = 0; i < works.size(); ++i) {
    given[{works[i].meta.namespace_, works[i].meta.name}] = static_cast<int32_t>(i);
  }
  for (model::ManifestWork& work : planned_works) {
    auto found = given.find({work.meta.namespace_, work.meta.name});
    int32_t at = found == given.end() ? -1 : found->second;
    if (at >= 0) {
      work.source = works[static_cast<size_t>(at)].source;
      works[static_cast<size_t>(at)] = std::move(work);
    } else {
      at = static_cast<int32_t>(works.size());
      given[{work.meta.namespace_, work.meta.name}] = at;
      works.push_back(std::move(work));
    }
    plan.manifest_work_items.push_back(at);
  }
}

// A misconfigured Placement is decided as upstream decides it (nothing selected,
// PlacementMisconfigured=True), and reported as an error naming the object and the field
// its plugin reads, so that `berth plan` exits 1 while every other Placement is decided.
void ReportMisconfigured(const model::Snapshot& snapshot, const std::vector<PlacementRun>& runs,
                         core::Diagnostics& diags) {
  for (const PlacementRun& run : runs) {
    if (run.outcome.skipped || run.outcome.misconfigured.status != model::ConditionStatus::kTrue) {
      continue;
    }
    const model::Placement& p = snapshot.placements[static_cast<size_t>(run.placement)];
    const std::string& message = run.outcome.misconfigured.message;
    std::string field = "spec.prioritizerPolicy.configurations";
    if (message.rfind("Predicate:", 0) == 0) field = "spec.predicates";
    if (message.rfind("TaintToleration:", 0) == 0) field = "spec.tolerations";
    diags.Report(core::FailedPrecondition(
        "PlacementMisconfigured: " + message + "; the Placement selects no cluster",
        {"", "Placement/" + p.meta.namespace_ + "/" + p.meta.name, field}));
  }
}

// A member cluster berth knows no capacity of (no Nodes given, no status.allocatable) is
// never given a workload: say so once per cluster a fleet check could choose.
void WarnNoCapacity(const model::Snapshot& snapshot, const FleetWorkers& workers,
                    const FleetChecks& checks, const std::vector<PlacementRun>& runs,
                    core::Diagnostics& diags) {
  if (checks.checks.empty()) return;
  std::set<std::string> candidates;
  for (const FleetCheck& check : checks.checks) {
    if (check.placement) {
      for (const PlacementRun& run : runs) {
        if (run.placement != *check.placement) continue;
        candidates.insert(run.outcome.selected.begin(), run.outcome.selected.end());
      }
    } else if (check.multikueue_config) {
      const auto& clusters = snapshot.multikueue_configs[static_cast<size_t>(*check.multikueue_config)].clusters;
      candidates.insert(clusters.begin(), clusters.end());
    }
  }
  for (const std::string& name : candidates) {
    auto it = workers.find(name);
    if (it == workers.end() || it->second.has_capacity_data) continue;
    diags.Warn(core::FailedPrecondition(
        "no capacity data: give the cluster's objects with --cluster " + name +
            "=PATH, or status.allocatable; no workload is dispatched to it",
        {"", "ManagedCluster/" + name, "status.allocatable"}));
  }
}

}  // namespace

bool IsFleet(const model::Snapshot& snapshot) {
  return !snapshot.managed_clusters.empty() || !snapshot.placements.empty() ||
         !snapshot.federated_learnings.empty() || !snapshot.manifest_work_replica_sets.empty();
}

void RunFleet(const model::Snapshot& snapshot, std::vector<ClusterPart>& parts,
              const model::SchedulerConfig& config, core::Timestamp now, Plan& plan,
              std::set<int32_t>& changed, int32_t cycles) {
  BERTH_CHECK(plan.planned.nodes.empty() && plan.planned.kueue_workloads.empty(),
              "RunFleet's planned snapshot arrives without nodes and Kueue Workloads");
  // (1) Member clusters, each on its own; their schedulers stay for dispatch. Their Kueue
  // decisions are written once dispatch is done (below), with the hub's.
  std::map<std::string, std::unique_ptr<binding::Scheduler>, std::less<>> schedulers;
  std::map<std::string, ClusterPart*, std::less<>> part_of;
  std::map<std::string, queueing::AdmissionResult, std::less<>> worker_admissions;
  std::vector<std::pair<std::string, queueing::AdmissionResult>> member_admissions;
  ClusterPart* hub = nullptr;
  for (ClusterPart& part : parts) {
    if (part.name == kHubCluster) {
      hub = &part;
      continue;
    }
    core::Diagnostics diags;
    auto scheduler = std::make_unique<binding::Scheduler>(part.snapshot(), config, PartOptions(part, &diags));
    ClusterCycleResult cycle = RunClusterCycle(snapshot, part, *scheduler, now, diags,
                                               std::nullopt, nullptr, nullptr, cycles);
    if (cycle.admission) worker_admissions[part.name] = *cycle.admission;
    ApplyCycle(snapshot, part, *scheduler, cycle, now, diags, plan, changed,
               /*write_admission=*/false);
    if (cycle.admission) member_admissions.emplace_back(part.name, std::move(*cycle.admission));
    part_of[part.name] = &part;
    schedulers[part.name] = std::move(scheduler);
  }

  // (2) Capacity, as each member's scheduler holds it after its cycle, then every Placement.
  std::vector<MemberBinding> members;
  for (const auto& [name, scheduler] : schedulers) {
    members.push_back({part_of.at(name), scheduler.get()});
  }
  auto measures = MeasureClusters(snapshot, plan.planned, members);
  placement::FleetCapacity capacity;
  for (const auto& [name, m] : measures) {
    if (name != kHubCluster) capacity[name] = m.capacity;
  }
  plan.placements = RunPlacements(snapshot, now, capacity);
  PlacementWrites writes = WritePlacements(plan.placements, plan.planned);
  plan.placement_items = std::move(writes.placements);
  plan.placement_decision_items = std::move(writes.decisions);
  plan.deleted_objects = std::move(writes.deleted);

  // Federated learning: clients where the data is, a server, the rounds' progress
  // (federated_learning.h).
  PlanFederatedLearning(snapshot, now, capacity, plan);

  // (3) The hub's Kueue, dispatching through fleet checks.
  FleetWorkers workers;
  for (const model::ManagedCluster& mc : snapshot.managed_clusters) {
    FleetWorker worker;
    worker.name = mc.meta.name;
    if (auto m = measures.find(mc.meta.name); m != measures.end()) {
      worker.free = m->second.free;
      worker.has_capacity_data = true;
      if (auto s = schedulers.find(mc.meta.name); s != schedulers.end()) {
        worker.guest_slots.emplace(*s->second);
        worker.part = part_of.at(mc.meta.name);
      }
    } else if (!mc.allocatable.empty()) {
      worker.free = Allocatable(snapshot, mc);
      worker.has_capacity_data = true;
    }
    if (HasQueues(snapshot, mc.meta.name)) {
      auto admitted = worker_admissions.find(mc.meta.name);
      worker.probe = std::make_unique<queueing::QuotaProbe>(queueing::QuotaProbe::Build(
          snapshot, mc.meta.name,
          admitted != worker_admissions.end() ? admitted->second : queueing::AdmissionResult{},
          now));
    }
    workers.emplace(mc.meta.name, std::move(worker));
  }
  const FleetChecks checks = FindFleetChecks(snapshot, kHubCluster);
  ReportMisconfigured(snapshot, plan.placements, plan.diagnostics);
  placement::ReportMissingClusterSets(snapshot, plan.diagnostics);
  WarnNoCapacity(snapshot, workers, checks, plan.placements, plan.diagnostics);
  FleetDispatcher dispatcher(snapshot, checks, plan.placements, workers);
  // (4) Kueue's decisions are written into the planned Workloads, copied only now that
  // dispatch is done and the member clusters' schedulers, the hub workloads' pods bound
  // there as guests and the parts' nodes are gone: in a large fleet the Workloads and the
  // guests are the largest things a plan holds, and need not be held at once.
  auto write_workloads = [&]() {
    workers.clear();
    schedulers.clear();
    for (auto& [name, part] : part_of) part->owned.reset();
    plan.planned.kueue_workloads = snapshot.kueue_workloads;
    for (auto& [name, result] : member_admissions) {
      ApplyAdmission(name, std::move(result), now, plan);
    }
  };
  if (hub != nullptr) {
    core::Diagnostics diags;
    binding::Scheduler scheduler(hub->snapshot(), config, PartOptions(*hub, &diags));
    ClusterCycleResult cycle =
        RunClusterCycle(snapshot, *hub, scheduler, now, diags, std::nullopt, nullptr, &dispatcher,
                        cycles);
    const bool hub_admission = cycle.admission.has_value();
    if (hub_admission) SettleOutcomes(snapshot, dispatcher, *cycle.admission);
    write_workloads();
    // ApplyCycle moves the hub's admission result into plan.admissions (not copied here).
    ApplyCycle(snapshot, *hub, scheduler, cycle, now, diags, plan, changed);
    // (4) Where each dispatched workload runs, and what delivers it there.
    WriteDispatches(dispatcher, plan.planned);
    if (hub_admission) {
      BERTH_CHECK(!plan.admissions.empty() && plan.admissions.back().cluster == hub->name,
                  "the hub's admission result is the last one the plan holds");
      PlanManifestWorks(snapshot, dispatcher, plan.admissions.back().result, plan);
    }
  } else {
    write_workloads();
  }
  plan.dispatches = std::move(dispatcher).TakeDispatches();
  // (5) ManifestWorkReplicaSets, over the Placements as decided above (replica_sets.h).
  RunReplicaSets(now, plan);
}

}  // namespace berth::engine
