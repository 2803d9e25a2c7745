#include "engine/cluster_cycle.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "engine/admitted_pods.h"
#include "engine/binding_oracle.h"
#include "engine/fleet_dispatcher.h"
#include "engine/pod_admission.h"
#include "engine/pod_groups.h"
#include "queueing/queue_setup.h"

namespace berth::engine {
namespace {

// Pod groups: every pending pod of one group is tried together when the first of them
// comes up in the queue.
class GroupScheduler {
 public:
  GroupScheduler(const ClusterPart& part, binding::Scheduler& scheduler,
                 const std::vector<model::PodIndex>& queue)
      : part_(part), scheduler_(scheduler) {
    const model::Snapshot& s = part.snapshot();
    for (model::PodIndex pod : queue) {
      if (auto ref = PodGroupOf(s, s.pod(pod))) {
        groups_[ref->key].pending.push_back(pod);
        groups_[ref->key].ref = *ref;
        group_of_[pod.v] = ref->key;
      }
    }
    for (const model::Pod& pod : s.pods) {
      if (!pod.IsBound() || pod.IsTerminal()) continue;
      if (auto ref = PodGroupOf(s, pod); ref && groups_.count(ref->key) != 0) {
        Group& g = groups_[ref->key];
        ++g.bound_in_input;
        if (!g.ref.min_task_member.empty()) ++g.bound_per_task[VolcanoTaskOf(pod)];
      }
    }
  }

  bool InGroup(model::PodIndex pod) const { return group_of_.count(pod.v) != 0; }

  // The pending members ScheduleGang places before `member` when the group of `pod` comes up
  // (it goes through them in this order, one ScheduleOne each), or nullopt when `member` is
  // not in that group or the group was decided already.
  std::optional<std::vector<model::PodIndex>> MembersBefore(model::PodIndex pod,
                                                            model::PodIndex member) const {
    auto g = group_of_.find(pod.v);
    auto m = group_of_.find(member.v);
    if (g == group_of_.end() || m == group_of_.end() || g->second != m->second) {
      return std::nullopt;
    }
    const Group& group = groups_.at(g->second);
    if (group.done) return std::nullopt;
    std::vector<model::PodIndex> before;
    for (model::PodIndex p : group.pending) {
      if (p == member) break;
      before.push_back(p);
    }
    return before;
  }

  // Decides the whole group of `pod` the first time one of its pods comes up; later pods
  // of the group were decided with it (empty result).
  std::vector<model::PodDecision> Schedule(model::PodIndex pod) {
    Group& g = groups_[group_of_.at(pod.v)];
    if (g.done) return {};
    g.done = true;
    if (!g.ref.found) {
      std::vector<model::PodDecision> out;
      for (model::PodIndex p : g.pending) {
        model::PodDecision d;
        d.pod = p;
        d.message = "pod group \"" + g.ref.key + "\" not found";
        d.rejections.push_back({"binding", "Coscheduling", "PodGroupNotFound", d.message,
                                part_.num_nodes()});
        out.push_back(std::move(d));
      }
      return out;
    }
    const int32_t need = std::max(0, g.ref.min_member - g.bound_in_input);
    // A failed gang's pods carry their own reasons, or Coscheduling's rejection when they
    // were undone or never tried.
    binding::GangOutcome outcome = scheduler_.ScheduleGang(g.pending, need);
    if (outcome.placed && !g.ref.min_task_member.empty()) RequireTaskMinimums(g, outcome);
    return std::move(outcome.decisions);
  }

 private:
  struct Group {
    PodGroupRef ref;
    std::vector<model::PodIndex> pending;
    int32_t bound_in_input = 0;
    std::map<std::string, int32_t> bound_per_task;  // of bound_in_input (Volcano tasks)
    bool done = false;
  };

  // Volcano's gang is ready only when each task has its minTaskMember bound too
  // (CheckTaskReady): a placement short of one task's minimum is undone, newest first, and
  // every pending pod of the group waits with the reason.
  void RequireTaskMinimums(const Group& g, binding::GangOutcome& outcome) {
    std::map<std::string, int32_t> bound = g.bound_per_task;
    for (const model::PodDecision& d : outcome.decisions) {
      if (d.node) ++bound[VolcanoTaskOf(part_.snapshot().pod(d.pod))];
    }
    const auto short_task = TaskShortOfMinimum(g.ref, bound);
    if (!short_task) return;
    for (auto it = outcome.decisions.rbegin(); it != outcome.decisions.rend(); ++it) {
      if (it->node) scheduler_.Unbind(it->pod);
    }
    const int32_t have = bound[short_task->first];
    std::string message(binding::kReasonGangRejected);
    message += ": task \"" + short_task->first + "\" of pod group \"" + g.ref.key + "\" needs " +
               std::to_string(short_task->second) + " bound pods; " + std::to_string(have) +
               " could be bound";
    const model::Rejection rejection{"binding", std::string(binding::kCoscheduling),
                                     std::string(binding::kReasonGangRejected), message, 0};
    for (model::PodDecision& d : outcome.decisions) {
      // A pod that could not bind keeps its own reasons; the others carry the gang's.
      if (!d.node && !d.rejections.empty()) continue;
      model::PodDecision rejected;
      rejected.pod = d.pod;
      rejected.message = message;
      rejected.rejections.push_back(rejection);
      d = std::move(rejected);
    }
    outcome.placed = false;
  }
  const ClusterPart& part_;
  binding::Scheduler& scheduler_;
  std::map<std::string, Group> groups_;
  std::map<int32_t, std::string> group_of_;
};

// The pods (local indices) of the workloads Kueue evicted in cycle `cycle`: their deletion
// started in that cycle, so after it they are still there, terminating (the Job controller
// or Kueue's pod integration deletes them; the kubelet has not finished).
std::set<int32_t> EvictedInCycle(const model::Snapshot& whole, const ClusterPart& part,
                                 const queueing::AdmissionResult& admission, int32_t cycle) {
  std::set<int32_t> pods;
  for (const queueing::WorkloadDecision& d : admission.decisions) {
    if (d.outcome != queueing::WorkloadOutcome::kPreempted || d.cycle != cycle) continue;
    for (const auto& set : whole.kueue_workloads[static_cast<size_t>(d.workload)].pods) {
      for (int32_t p : set) {
        if (auto local = part.ToLocal(model::PodIndex{p})) pods.insert(local->v);
      }
    }
  }
  return pods;
}

// kube-scheduler's cycle for one pending pod with DefaultPreemption: a pod nominated to a
// node (status.nominatedNodeName) tries it first; a pod that fits nowhere runs the
// PostFilter. With a node chosen, a settled plan (cycles != 1) deletes the victims and binds
// the pod there as the next cycle would; one cycle leaves it nominated and the victims
// terminating. Otherwise the PostFilter's "preemption: ..." is appended to the message.
// The part's nodes by name (local indices), built at the first lookup: pods name the node
// they are nominated to.
class NodeNames {
 public:
  explicit NodeNames(const ClusterPart& part) : part_(part) {}

  std::optional<model::NodeIndex> Find(const std::string& name) {
    if (name.empty()) return std::nullopt;
    if (by_name_.empty()) {
      for (int32_t n = 0; n < part_.num_nodes(); ++n) {
        by_name_.emplace(part_.node(model::NodeIndex{n}).meta.name, model::NodeIndex{n});
      }
    }
    auto it = by_name_.find(name);
    return it == by_name_.end() ? std::nullopt : std::optional<model::NodeIndex>(it->second);
  }

 private:
  const ClusterPart& part_;
  std::unordered_map<std::string_view, model::NodeIndex> by_name_;  // first of a name wins
};

model::PodDecision ScheduleWithPreemption(const ClusterPart& part, binding::Scheduler& scheduler,
                                          NodeNames& nodes, model::PodIndex pod, int32_t cycles,
                                          BindingOracle* oracle, ClusterCycleResult* result) {
  const std::optional<model::NodeIndex> nominated =
      nodes.Find(part.snapshot().pod(pod).nominated_node_name);
  model::PodDecision decision =
      nominated ? scheduler.ScheduleOnNominated(pod, *nominated) : scheduler.ScheduleOne(pod);
  if (decision.node || decision.skipped || decision.rejections.empty()) return decision;
  binding::PreemptionOutcome outcome = scheduler.Preempt(pod);
  if (!outcome.node) {
    if (!outcome.message.empty()) {
      decision.message += " ";
      decision.message += outcome.message;
    }
    return decision;
  }
  model::PodPreemption preemption;
  preemption.preemptor = part.ToWhole(pod);
  preemption.node = part.ToWhole(*outcome.node);
  preemption.pdb_violations = outcome.pdb_violations;
  preemption.candidates = outcome.candidates;
  preemption.criterion = outcome.criterion;
  for (model::PodIndex v : outcome.victims) preemption.victims.push_back(part.ToWhole(v));
  if (cycles != 1) {
    for (model::PodIndex v : outcome.victims) {
      scheduler.Unbind(v);
      oracle->NoteUnbound(v);  // a Kueue workload's pod: its release must not unbind it again
    }
    model::PodDecision bound = scheduler.ScheduleOnNominated(pod, *outcome.node);
    preemption.completed = true;
    if (bound.node) decision = std::move(bound);
  } else {
    scheduler.Nominate(pod, *outcome.node);
  }
  decision.nominated_node = outcome.node;
  decision.victims = outcome.victims;
  result->preemptions.push_back(std::move(preemption));
  return decision;
}

}  // namespace

namespace {

// Pods nominated in the input (status.nominatedNodeName, from an earlier cycle): kube-
// scheduler's nominator counts each on its node for every pod of at most its priority
// (RunFilterPluginsWithNominatedPods). The queue runs most important first, so a nominee
// starts holding its node when the queue reaches its priority, before the equal-priority
// pods queued ahead of it; its own turn releases the hold (ScheduleOnNominated).
class InputNominations {
 public:
  // `kueue`: the whole snapshot's pods the queue loop leaves to Kueue (KueuePodMask).
  InputNominations(const ClusterPart& part, const std::vector<model::PodIndex>& queue,
                   const std::vector<bool>& kueue, NodeNames& nodes) {
    for (model::PodIndex pod : queue) {
      if (!IsInputNominee(part, pod, kueue)) continue;
      const model::Pod& p = part.snapshot().pod(pod);
      if (auto node = nodes.Find(p.nominated_node_name)) pending_.push_back({p.priority, pod, *node});
    }
    // QueueOrder is by priority already; stable keeps the queue's order among equals.
    std::stable_sort(pending_.begin(), pending_.end(),
                     [](const Entry& a, const Entry& b) { return a.priority > b.priority; });
  }

  // Before a pod of `priority` is tried: every nominee of at least that priority holds its
  // node from now on (until its own turn).
  void HoldFor(int32_t priority, binding::Scheduler& scheduler) {
    while (next_ < pending_.size() && pending_[next_].priority >= priority) {
      scheduler.Nominate(pending_[next_].pod, pending_[next_].node);
      ++next_;
    }
  }

 private:
  struct Entry {
    int32_t priority;
    model::PodIndex pod;
    model::NodeIndex node;
  };
  std::vector<Entry> pending_;
  size_t next_ = 0;
};

}  // namespace

bool IsInputNominee(const ClusterPart& part, model::PodIndex local, const std::vector<bool>& kueue) {
  const model::Pod& pod = part.snapshot().pod(local);
  return !pod.nominated_node_name.empty() && !pod.IsBound() && !pod.IsTerminal() &&
         pod.admission_refused.empty() && !kueue[static_cast<size_t>(part.ToWhole(local).v)];
}

std::vector<bool> KueuePodMask(const model::Snapshot& whole, const ClusterPart& part) {
  std::vector<bool> mask(whole.pods.size(), false);
  for (int32_t index : part.kueue_workloads) {
    const model::Workload& w = whole.kueue_workloads[static_cast<size_t>(index)];
    for (const auto& pods : w.pods) {
      for (int32_t p : pods) mask[static_cast<size_t>(p)] = true;
    }
  }
  return mask;
}

ClusterCycleResult RunClusterCycle(const model::Snapshot& whole, const ClusterPart& part,
                                   binding::Scheduler& scheduler, core::Timestamp now,
                                   core::Diagnostics& diags,
                                   std::optional<model::PodIndex> stop_before, bool* reached,
                                   FleetDispatcher* fleet, int32_t cycles) {
  ClusterCycleResult result;
  if (reached != nullptr) *reached = false;
  BindingOracle oracle(whole, part, scheduler, now);
  NodeNames nodes(part);
  bool has_workloads = false;
  // The pods of workloads admitted in the input (local pod -> workload), scheduled at their
  // turn in the queue below.
  std::map<int32_t, int32_t> admitted_pods;
  const BindingOracle::ScheduleFn schedule = [&](model::PodIndex pod) {
    return ScheduleWithPreemption(part, scheduler, nodes, pod, cycles, &oracle, &result);
  };
  for (int32_t index : part.kueue_workloads) {
    const auto i = static_cast<size_t>(index);
    const model::Workload& w = whole.kueue_workloads[i];
    has_workloads = true;
    if (!HoldsAdmission(w)) continue;
    const FleetCheck* check = fleet != nullptr ? fleet->CheckFor(w.admission->cluster_queue) : nullptr;
    if (check == nullptr) {
      // (1) Workloads admitted in the input run their pods: kube-scheduler takes them in
      // its queue with every other pod, and may preempt for them as for any pod.
      for (model::PodIndex pod : oracle.PrepareAdmitted(index, *w.admission)) {
        admitted_pods.emplace(pod.v, index);
      }
    } else if (w.cluster_name.empty()) {
      // Holds hub quota but runs nowhere yet: MultiKueue keeps looking for a worker.
      fleet->DispatchHolder(static_cast<int32_t>(i), *w.admission);
    }
  }

  // (2) Every pending pod not waiting for Kueue, in queue order.
  const std::vector<bool> kueue_pods = KueuePodMask(whole, part);
  const std::vector<model::PodIndex> queue = scheduler.QueueOrder();
  GroupScheduler groups(part, scheduler, queue);
  InputNominations nominations(part, queue, kueue_pods, nodes);
  std::vector<model::PodDecision> plain;
  for (model::PodIndex pod : queue) {
    nominations.HoldFor(part.snapshot().pod(pod).priority, scheduler);
    if (kueue_pods[static_cast<size_t>(part.ToWhole(pod).v)]) {
      auto it = admitted_pods.find(pod.v);
      if (it == admitted_pods.end()) continue;  // waits for Kueue's admission, step (3)
      if (stop_before && *stop_before == pod) {
        if (reached != nullptr) *reached = true;
        break;
      }
      oracle.ScheduleAdmitted(it->second, pod, schedule);
      admitted_pods.erase(it);
      continue;
    }
    // Refused by the API server (pod_admission.h): never created, so never scheduled.
    if (!part.snapshot().pod(pod).admission_refused.empty()) continue;
    if (stop_before && *stop_before == pod) {
      // Explained as its turn would try it: without its own nomination's hold.
      scheduler.ReleaseNomination(pod);
      if (reached != nullptr) *reached = true;
      break;
    }
    if (groups.InGroup(pod)) {
      if (stop_before) {
        // Explaining a later member of this gang: the gang is placed all at once here, so
        // the member meets the nodes with the members placed before it in the gang (and
        // neither itself nor the later ones), as ScheduleGang's own attempt sees them.
        if (auto before = groups.MembersBefore(pod, *stop_before)) {
          for (model::PodIndex p : *before) (void)scheduler.ScheduleOne(p);
          if (reached != nullptr) *reached = true;
          break;
        }
      }
      for (model::PodDecision& d : groups.Schedule(pod)) plain.push_back(ToWhole(part, std::move(d)));
      continue;
    }
    plain.push_back(ToWhole(part, ScheduleWithPreemption(part, scheduler, nodes, pod, cycles, &oracle, &result)));
  }

  // Admitted pods the queue does not hold (no profile serves them): tried all the same, so
  // their decision says why they wait.
  if (!(reached != nullptr && *reached)) {
    for (const auto& [pod, workload] : admitted_pods) {
      oracle.ScheduleAdmitted(workload, model::PodIndex{pod}, schedule);
    }
  }

  // (3) Kueue admission, its placements checked by binding when the cluster has nodes
  // (queues given without nodes are planned on quota alone, as Kueue does).
  if (has_workloads && !(reached != nullptr && *reached)) {
    queueing::AdmissionOptions options;
    options.now = now;
    options.cluster = part.name;
    // Exactly `cycles` Kueue cycles (0: RunAdmission's bound, which the settled state ends
    // first). Each admission binds its pods at once (BindingOracle): the job controller
    // unsuspends the job and kube-scheduler binds its pods in the same cycle.
    options.max_cycles = cycles;
    const bool check_placement = part.num_nodes() > 0;
    queueing::PlacementOracle* used = check_placement ? &oracle : nullptr;
    if (fleet != nullptr) {
      fleet->SetInner(used);
      used = fleet;
    }
    result.admission = queueing::RunAdmission(whole, options, used, diags);
  } else if (!has_workloads && stop_before == std::nullopt) {
    // Queues no workload uses are checked all the same: a missing flavor is an error either way.
    queueing::CheckQueueSetup(whole, part.name, diags);
  }

  // Pods of workloads admitted in the input first (they were running), then the queue,
  // then the pods of new admissions.
  for (const BindingOracle::Entry& e : oracle.Decisions()) {
    if (e.from_input) result.pod_decisions.push_back(e.decision);
  }
  result.pod_decisions.insert(result.pod_decisions.end(), plain.begin(), plain.end());
  for (const BindingOracle::Entry& e : oracle.Decisions()) {
    if (e.created) {
      // Made with its injection already; ApplyCycle appends it to the plan.
      result.created_pods.push_back({e.workload, *e.created, e.decision});
    } else if (!e.from_input) {
      result.pod_decisions.push_back(e.decision);
    }
  }
  for (const BindingOracle::Entry& e : oracle.Decisions()) {
    if (!e.created) result.injections.push_back({e.decision.pod, e.node_selector, e.tolerations});
  }
  const std::set<int32_t> terminating =
      cycles > 0 && result.admission ? EvictedInCycle(whole, part, *result.admission, cycles)
                                     : std::set<int32_t>{};
  if (cycles > 0 && result.admission) {
    for (queueing::WorkloadDecision& d : result.admission->decisions) {
      d.eviction_in_flight =
          d.outcome == queueing::WorkloadOutcome::kPreempted && d.cycle == cycles;
    }
  }
  for (const BindingOracle::Refusal& r : oracle.refusals()) {
    WarnFailedCreate(whole.pod(r.pod), r.message, diags);
    result.refused_pods.emplace_back(r.pod, r.message);
  }
  for (int32_t p : oracle.unbound_input_pods()) {
    (terminating.count(p) != 0 ? result.terminating_pods : result.deleted_pods)
        .push_back(model::PodIndex{p});
  }
  return result;
}

}  // namespace berth::engine
