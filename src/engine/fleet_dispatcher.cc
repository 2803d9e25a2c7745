#include "engine/fleet_dispatcher.h"

#include <algorithm>
#include <unordered_map>

#include "core/check.h"
#include "engine/admitted_pods.h"
#include "queueing/amount_text.h"

namespace berth::engine {
namespace {

// The admission's total usage as a ResourceVector (resources the catalog lacks: nothing in
// the fleet offers them, so no cluster's free capacity can be checked for them).
model::ResourceVector Requests(const model::Snapshot& whole, const model::Admission& admission) {
  model::ResourceVector out;
  for (const model::PodSetAssignment& a : admission.pod_set_assignments) {
    for (const auto& [name, amount] : a.resource_usage) {
      model::ResourceId id;
      if (!whole.resources.Find(name, &id)) continue;
      out.Set(id, out.Get(id) + amount);
    }
  }
  return out;
}

// The first resource the cluster has too little of, as a reason; empty when all fit.
std::string ShortOf(const model::Snapshot& whole, const model::ResourceVector& requests,
                    const model::ResourceVector& free) {
  for (size_t id = 0; id < requests.size(); ++id) {
    const model::ResourceId r{static_cast<uint16_t>(id)};
    const int64_t need = requests.Get(r);
    if (need <= 0 || free.Get(r) >= need) continue;
    return "insufficient " + whole.resources.Name(r) + ": needs " +
           queueing::FormatAmount(r, need) + ", " +
           queueing::FormatAmount(r, std::max<int64_t>(0, free.Get(r))) + " free in the cluster";
  }
  return "";
}

// What decides whether a workload fits a cluster, as a key: its queue, per pod set the
// admitted count, flavors and usage, and the pod template's node selector and tolerations.
// Empty (never cached) when a template has affinity, anti-affinity or spread constraints,
// whose outcome depends on which pods are where, not only on how much room is left.
std::string ShapeKey(const model::Workload& w, const model::Admission& admission) {
  std::string key = w.meta.namespace_;
  key += '/';
  key += w.queue_name;
  for (const model::KueuePodSet& ps : w.pod_sets) {
    const model::Pod& t = ps.pod_template;
    if (t.node_affinity.required || !t.node_affinity.preferred.empty() ||
        !t.pod_affinity.required.empty() || !t.pod_affinity.preferred.empty() ||
        !t.pod_anti_affinity.required.empty() || !t.pod_anti_affinity.preferred.empty() ||
        !t.topology_spread_constraints.empty()) {
      return "";
    }
    key += '|';
    key += ps.name;
    for (const auto& [k, v] : t.node_selector) key += ";" + k + "=" + v;
    for (const core::Toleration& tol : t.tolerations) {
      key += ";~" + tol.key + "=" + tol.value + ":" +
             std::to_string(static_cast<int>(tol.op)) + ":" +
             std::to_string(tol.effect ? static_cast<int>(*tol.effect) : -1);
    }
  }
  for (const model::PodSetAssignment& a : admission.pod_set_assignments) {
    key += '|';
    key += a.name;
    key += '*';
    key += std::to_string(a.count);
    if (a.topology_assignment) return "";
    for (const auto& [res, flavor] : a.flavors) key += ";" + res + "@" + flavor;
    for (const auto& [res, amount] : a.resource_usage) key += ";" + res + "=" + std::to_string(amount);
  }
  return key;
}

// How many runs of failed attempts a dispatcher keeps for sharing: one per workload shape
// in flight is enough; comparing against each costs O(attempts) string compares.
constexpr size_t kRecentFailureRuns = 8;

bool FitsFree(const model::ResourceVector& requests, const model::ResourceVector& free) {
  const std::vector<int64_t>& need = requests.amounts();
  for (size_t id = 0; id < need.size(); ++id) {
    if (need[id] > 0 && free.Get(model::ResourceId{static_cast<uint16_t>(id)}) < need[id]) return false;
  }
  return true;
}

}  // namespace

void AttemptList::ShareFailed(
    std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>>& recent, size_t keep) {
  if (own_.empty()) return;
  auto same = [](const ClusterAttempt& a, const ClusterAttempt& b) {
    return a.cluster == b.cluster && a.score == b.score && a.round == b.round && a.fits == b.fits &&
           a.reason == b.reason && a.pods.empty() && b.pods.empty() &&
           !a.worker_admission && !b.worker_admission;
  };
  // Newest first: consecutive workloads of one shape fail the same way.
  for (auto it = recent.rbegin(); it != recent.rend(); ++it) {
    const std::vector<ClusterAttempt>& run = **it;
    if (run.size() != own_.size() ||
        !std::equal(run.begin(), run.end(), own_.begin(), same)) {
      continue;
    }
    shared_ = *it;
    own_.clear();
    own_.shrink_to_fit();
    return;
  }
  // Copied out at its exact size (own_ grew by doubling).
  shared_ = std::make_shared<const std::vector<ClusterAttempt>>(
      std::make_move_iterator(own_.begin()), std::make_move_iterator(own_.end()));
  own_.clear();
  own_.shrink_to_fit();
  if (recent.size() >= keep) recent.erase(recent.begin());
  recent.push_back(shared_);
}

FleetDispatcher::FleetDispatcher(const model::Snapshot& whole, const FleetChecks& checks,
                                 const std::vector<PlacementRun>& placements,
                                 FleetWorkers& workers)
    : whole_(whole),
      checks_(checks),
      policy_(ResolveDispatchPolicy(whole)),
      placements_(placements),
      workers_(workers) {}

void FleetDispatcher::NominationOrder(CandidateList& list) const {
  std::unordered_map<std::string, int32_t> index;
  for (size_t i = 0; i < list.clusters.size(); ++i) {
    index.emplace(list.clusters[i].cluster, static_cast<int32_t>(i));
  }
  auto rounds = std::make_shared<std::vector<std::vector<std::string>>>();
  switch (policy_.mode) {
    case DispatchMode::kBestFit:
    case DispatchMode::kExternal:  // per workload, from its nominations (Attempt)
      return;
    case DispatchMode::kAllAtOnce: {
      // Every worker MultiKueue holds a connection to, in name order, as the workload
      // controller writes status.nominatedClusterNames (workload.go sorts them).
      std::vector<std::string> all;
      for (const Candidate& c : list.clusters) {
        if (c.connected) all.push_back(c.cluster);
      }
      std::sort(all.begin(), all.end());
      all.erase(std::unique(all.begin(), all.end()), all.end());
      if (!all.empty()) rounds->push_back(std::move(all));
      break;
    }
    case DispatchMode::kIncremental:
      // Every cluster of the configuration is nominated in its turn, connected or not
      // (GetRemoteClusters returns spec.clusters as listed).
      *rounds = IncrementalRounds(*list.names, policy_.step_size, policy_.respect_config_order);
      break;
  }
  // Within a round the copies race; berth lets the first by name win (docs/fleet.md).
  for (size_t r = 0; r < rounds->size(); ++r) {
    std::vector<std::string> race = (*rounds)[r];
    std::sort(race.begin(), race.end());
    for (const std::string& name : race) {
      list.order.push_back({index.at(name), static_cast<int32_t>(r + 1)});
    }
  }
  list.rounds = std::move(rounds);
}

const FleetDispatcher::CandidateList& FleetDispatcher::Candidates(const FleetCheck& check) {
  auto cached = candidates_.find(&check);
  if (cached != candidates_.end()) return cached->second;
  CandidateList& out = candidates_[&check];
  if (check.placement) {
    for (const PlacementRun& run : placements_) {
      if (run.placement != *check.placement) continue;
      std::unordered_map<std::string, int64_t> totals;
      for (const placement::ClusterVerdict& v : run.outcome.clusters) totals[v.cluster_name] = v.total;
      // selected is ordered by total, then name: the best-scored cluster is tried first.
      for (const std::string& c : run.outcome.selected) out.clusters.push_back({c, totals[c], nullptr, ""});
    }
  } else if (check.multikueue_config) {
    const model::MultiKueueConfig& config =
        whole_.multikueue_configs[static_cast<size_t>(*check.multikueue_config)];
    for (const std::string& c : config.clusters) out.clusters.push_back({c, 0, nullptr, ""});
  }
  std::unordered_map<std::string, const model::MultiKueueCluster*> multikueue;
  for (const model::MultiKueueCluster& mk : whole_.multikueue_clusters) multikueue[mk.meta.name] = &mk;
  auto names = std::make_shared<std::vector<std::string>>();
  for (Candidate& c : out.clusters) {
    names->push_back(c.cluster);
    auto worker = workers_.find(c.cluster);
    if (worker != workers_.end()) c.worker = &worker->second;
    auto mk = multikueue.find(c.cluster);
    if (mk != multikueue.end() && mk->second->active &&
        mk->second->active->status == model::ConditionStatus::kFalse) {
      c.unusable = "MultiKueueCluster " + c.cluster + " is not active";
      c.connected = false;
      if (!mk->second->active->message.empty()) c.unusable += ": " + mk->second->active->message;
    } else if (c.worker == nullptr) {
      c.unusable = "no ManagedCluster " + c.cluster;
    } else if (!c.worker->has_capacity_data) {
      c.unusable = "no capacity data: give the cluster's Nodes with --cluster " + c.cluster +
                   "=PATH or its ManagedCluster status.allocatable";
    }
  }
  out.names = std::move(names);
  NominationOrder(out);
  return out;
}

ClusterAttempt FleetDispatcher::TryCluster(int32_t workload, const model::Admission& hub_admission,
                                           const model::ResourceVector& requests,
                                           const std::string& shape, const Candidate& candidate,
                                           bool detail,
                                           std::optional<std::string>* worker_queue) {
  const model::Workload& w = whole_.kueue_workloads[static_cast<size_t>(workload)];
  ClusterAttempt attempt;
  attempt.cluster = candidate.cluster;
  attempt.score = candidate.score;
  if (!candidate.unusable.empty()) {
    if (detail) attempt.reason = candidate.unusable;
    return attempt;
  }
  FleetWorker& worker = *candidate.worker;
  // Without queues of its own, a full cluster is passed over in O(resources) first.
  const bool quick = worker.probe == nullptr;
  if (quick && !FitsFree(requests, worker.free)) {
    if (detail) attempt.reason = ShortOf(whole_, requests, worker.free);
    return attempt;
  }
  // A shape that failed here since the last release fails again.
  if (!shape.empty()) {
    auto failed = worker.failed_shapes.find(shape);
    if (failed != worker.failed_shapes.end() && failed->second.releases == worker.releases) {
      if (detail) attempt.reason = failed->second.reason;
      return attempt;
    }
  }
  auto remember = [&]() {
    if (!shape.empty()) worker.failed_shapes[shape] = {worker.releases, attempt.reason};
  };
  // (1) The worker's own Kueue, which answers first in MultiKueue: the Workload is created in
  // the same namespace and LocalQueue there, and the worker's quota must admit it.
  std::optional<queueing::ProbeResult> quota;
  if (worker.probe != nullptr) {
    if (!worker.probe->HasLocalQueue(w.meta.namespace_, w.queue_name)) {
      attempt.reason = "LocalQueue " + w.meta.namespace_ + "/" + w.queue_name +
                       " doesn't exist in the cluster";
      return attempt;
    }
    quota = worker.probe->Try(workload);
    if (!quota->fits) {
      attempt.reason = quota->message.empty() ? quota->reason : quota->message;
      remember();
      return attempt;
    }
  }
  // (2) The cluster's free capacity as a whole: a necessary condition.
  if (!quick && !FitsFree(requests, worker.free)) {
    if (detail) attempt.reason = ShortOf(whole_, requests, worker.free);
    return attempt;
  }
  // (3) Its nodes: every pod at once.
  if (worker.guest_slots) {
    const model::Admission& admission = quota ? quota->admission : hub_admission;
    const std::string& flavor_cluster = quota ? worker.name : w.cluster;
    const std::vector<model::Pod> pods =
        GuestPods(whole_, workload, admission, flavor_cluster, worker.name);
    std::vector<model::PodIndex> guests;
    const GangVerdict gang = worker.guest_slots->Bind(pods, &guests);
    if (!gang.placed) {
      const std::string_view message = gang.FirstMessage();
      attempt.reason = message.empty() ? "pods don't fit the nodes" : std::string(message);
      remember();
      return attempt;
    }
    for (size_t i = 0; i < gang.decisions.size(); ++i) {
      attempt.pods.push_back(
          {pods[i].meta.name, worker.part->node(*gang.decisions[i].node).meta.name});
    }
    worker.guests[workload] = std::move(guests);
  }
  if (quota) {
    worker.probe->Commit(workload, *quota);
    attempt.worker_admission = quota->admission;
    *worker_queue = w.queue_name;
  }
  worker.free.Subtract(requests);
  attempt.fits = true;
  return attempt;
}

Dispatch FleetDispatcher::Attempt(int32_t workload, const model::Admission& admission,
                                  const FleetCheck& check) {
  Dispatch d;
  d.workload = workload;
  d.check = check.name;
  if (!check.error.empty()) {
    d.message = check.error;
    return d;
  }
  const CandidateList& candidates = Candidates(check);
  d.candidates = candidates.names;
  if (candidates.clusters.empty()) {
    d.message = check.placement
                    ? "Placement " + whole_.placements[static_cast<size_t>(*check.placement)].meta.name +
                          " selects no cluster"
                    : "MultiKueueConfig names no cluster";
    return d;
  }
  const model::ResourceVector requests = Requests(whole_, admission);
  const std::string shape = ShapeKey(whole_.kueue_workloads[static_cast<size_t>(workload)], admission);
  // The message names the first few clusters' reasons; explain has up to
  // kMaxDetailedAttempts of them.
  constexpr size_t kReasonsInMessage = 5;
  std::string reasons;
  // Tries one candidate; true when it takes the workload (`d` then says so).
  auto try_one = [&](const Candidate& c, int32_t round) {
    const bool detail = d.attempts.size() < kMaxDetailedAttempts;
    std::optional<std::string> worker_queue;
    ClusterAttempt attempt = TryCluster(workload, admission, requests, shape, c, detail, &worker_queue);
    attempt.round = round;
    ++d.tried;
    if (attempt.fits) {
      d.attempts.ShareFailed(recent_failures_, kRecentFailureRuns);
      d.cluster = c.cluster;
      d.worker_local_queue = worker_queue;
      d.message = "The workload got reservation on \"" + c.cluster + "\"";
      taken_[workload] = requests;
      d.attempts.push_back(std::move(attempt));
      return true;
    }
    if (d.attempts.size() < kReasonsInMessage) {
      if (!reasons.empty()) reasons += "; ";
      reasons += c.cluster + ": " + attempt.reason;
    }
    if (detail) d.attempts.push_back(std::move(attempt));
    return false;
  };
  d.mode = policy_.mode;
  if (policy_.mode == DispatchMode::kIncremental) d.step_size = policy_.step_size;
  if (policy_.mode == DispatchMode::kBestFit) {
    for (const Candidate& c : candidates.clusters) {
      if (try_one(c, 0)) return d;
    }
  } else {
    const std::vector<Try>* order = &candidates.order;
    d.rounds = candidates.rounds;
    std::vector<Try> external;
    if (policy_.mode == DispatchMode::kExternal) {
      if (!ExternalOrder(workload, candidates, &external, &d)) return d;
      order = &external;
    }
    for (const Try& t : *order) {
      if (try_one(candidates.clusters[static_cast<size_t>(t.candidate)], t.round)) {
        d.rounds_run = t.round;
        return d;
      }
    }
    d.rounds_run = d.rounds ? static_cast<int32_t>(d.rounds->size()) : 0;
    if (d.tried == 0) {
      d.message = "no cluster is nominated: every MultiKueueCluster is inactive";
      return d;
    }
  }
  d.attempts.ShareFailed(recent_failures_, kRecentFailureRuns);
  d.message = "no cluster fits: " + reasons;
  if (static_cast<size_t>(d.tried) > kReasonsInMessage) {
    d.message += "; and " + std::to_string(static_cast<size_t>(d.tried) - kReasonsInMessage) +
                 " more cluster(s)";
  }
  return d;
}

bool FleetDispatcher::ExternalOrder(int32_t workload, const CandidateList& candidates,
                                    std::vector<Try>* order, Dispatch* d) const {
  // MultiKueue syncs copies to the clusters the external dispatcher nominated that the
  // configuration lists (the others have no remote client); they race like one round.
  const model::Workload& w = whole_.kueue_workloads[static_cast<size_t>(workload)];
  std::unordered_map<std::string, int32_t> index;
  for (size_t i = 0; i < candidates.clusters.size(); ++i) {
    index.emplace(candidates.clusters[i].cluster, static_cast<int32_t>(i));
  }
  std::vector<std::string> nominated;
  for (const std::string& name : w.nominated_cluster_names) {
    if (index.count(name) != 0 &&
        std::find(nominated.begin(), nominated.end(), name) == nominated.end()) {
      nominated.push_back(name);
    }
  }
  if (nominated.empty()) {
    d->message = "waiting for MultiKueue dispatcher \"" + policy_.dispatcher_name +
                 "\" to nominate worker clusters in status.nominatedClusterNames";
    return false;
  }
  d->rounds = std::make_shared<const std::vector<std::vector<std::string>>>(
      std::vector<std::vector<std::string>>{nominated});
  std::sort(nominated.begin(), nominated.end());
  for (const std::string& name : nominated) order->push_back({index.at(name), 1});
  return true;
}

void FleetDispatcher::DispatchHolder(int32_t workload, const model::Admission& admission) {
  const FleetCheck* check = CheckFor(admission.cluster_queue);
  BERTH_CHECK(check != nullptr, "DispatchHolder of a workload without a fleet check");
  dispatches_[workload] = Attempt(workload, admission, *check);
}

bool FleetDispatcher::TryPlace(int32_t workload, const model::Admission& admission,
                               std::string* why) {
  const FleetCheck* check = CheckFor(admission.cluster_queue);
  if (check == nullptr) return inner_ == nullptr || inner_->TryPlace(workload, admission, why);
  // The hub reserves the quota whether or not a worker takes it now (MultiKueue).
  dispatches_[workload] = Attempt(workload, admission, *check);
  return true;
}

void FleetDispatcher::Release(int32_t workload) {
  auto it = dispatches_.find(workload);
  if (it == dispatches_.end()) {
    if (inner_ != nullptr) inner_->Release(workload);
    return;
  }
  if (it->second.cluster) {
    FleetWorker& worker = workers_.at(*it->second.cluster);
    auto guests = worker.guests.find(workload);
    if (guests != worker.guests.end()) {
      worker.guest_slots->Release(guests->second);
      worker.guests.erase(guests);
    }
    if (worker.probe != nullptr) worker.probe->Release(workload);
    worker.free.Add(taken_[workload]);
    ++worker.releases;
    taken_.erase(workload);
  }
  dispatches_.erase(it);
}

}  // namespace berth::engine
