// FleetDispatcher: MultiKueue-style dispatch with berth's choice of cluster (DESIGN.md
// "Fleet wiring"). For a hub Workload whose ClusterQueue carries a fleet admission check
// (fleet_checks.h), once the hub reserves its quota, the candidates are the check's clusters
// (the Placement's selected clusters by score, or the MultiKueueConfig's clusters in order);
// each is asked whether the workload fits there now (the worker's own Kueue quota through
// queueing::QuotaProbe when it runs queues, its free capacity, and its nodes: every pod
// bound at once as guests of the worker's binding::Scheduler, GuestSlots in
// gang_binding.h), and the first that fits runs it. A workload that fits nowhere keeps its
// hub reservation with the check Pending and the reason per cluster, as MultiKueue's
// manager keeps it while it waits for a worker. That is berth's best-fit mode; Kueue's
// dispatchers (AllAtOnce, Incremental, an external one: multikueue_dispatch.h), selected by
// the Kueue Configuration, nominate candidates in rounds instead, and within a round the
// first cluster by name that admits the workload wins the race of the copies.
//
// Implements queueing::PlacementOracle for the hub's admission run; workloads without a
// fleet check go to the inner oracle (the hub's own binding, or none). Borrows everything;
// used from one thread.
#pragma once

#include <cstdint>
#include <cstddef>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "binding/scheduler.h"
#include "engine/cluster_part.h"
#include "engine/fleet_checks.h"
#include "engine/gang_binding.h"
#include "engine/multikueue_dispatch.h"
#include "engine/placement_stage.h"
#include "model/resources.h"
#include "model/snapshot.h"
#include "queueing/admission.h"
#include "queueing/placement_oracle.h"
#include "queueing/quota_probe.h"

namespace berth::engine {

// One member cluster as dispatch sees it.
struct FleetWorker {
  std::string name;
  // Its binding state after its own cycle, where hub workloads' pods bind as guests;
  // nullopt when the input has no Nodes for it (then only ManagedCluster
  // status.allocatable is known, and only totals are checked).
  std::optional<GuestSlots> guest_slots;
  const ClusterPart* part = nullptr;  // the one the scheduler was built on
  // Its Kueue quota after its own admission run; null when it runs no Kueue queues.
  std::unique_ptr<queueing::QuotaProbe> probe;
  bool has_capacity_data = false;
  model::ResourceVector free;  // cluster-wide free capacity, in ResourceVector units
  // Workload -> the guest pods bound here for it.
  std::map<int32_t, std::vector<model::PodIndex>> guests;
  // Shapes of workloads (queue, per-pod requests and scheduling constraints) that did not
  // fit here, with the release count when they failed: the cluster only loses room until
  // something is released, so an equal shape fails again without being tried.
  struct Failure {
    int64_t releases = 0;
    std::string reason;
  };
  std::map<std::string, Failure, std::less<>> failed_shapes;
  int64_t releases = 0;
};

using FleetWorkers = std::map<std::string, FleetWorker, std::less<>>;

// What one candidate answered.
struct ClusterAttempt {
  std::string cluster;
  int64_t score = 0;  // the Placement's total for it (0 for MultiKueue)
  int32_t round = 0;  // the nomination round it was tried in (1-based; 0: best-fit)
  bool fits = false;
  std::string reason;  // when !fits
  // When it fits and the worker runs Kueue: the worker's admission (its flavors).
  std::optional<model::Admission> worker_admission;
  std::vector<std::pair<std::string, std::string>> pods;  // pod -> node, when it fits
};

// The attempts a Dispatch keeps, read like a vector: a run of failed attempts that may be
// shared with other dispatches that failed the same way (in a large fleet every workload
// passes over the same full clusters with the same reasons: 100,000 workloads would
// otherwise hold two million equal attempts), then its own.
class AttemptList {
 public:
  class const_iterator {
   public:
    using value_type = ClusterAttempt;
    using difference_type = std::ptrdiff_t;
    using reference = const ClusterAttempt&;
    using pointer = const ClusterAttempt*;
    using iterator_category = std::forward_iterator_tag;
    const_iterator() = default;
    const_iterator(const AttemptList* list, size_t at) : list_(list), at_(at) {}
    reference operator*() const { return (*list_)[at_]; }
    pointer operator->() const { return &(*list_)[at_]; }
    const_iterator& operator++() {
      ++at_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const const_iterator& o) const { return at_ == o.at_; }

   private:
    const AttemptList* list_ = nullptr;
    size_t at_ = 0;
  };

  size_t size() const { return shared_size() + own_.size(); }
  bool empty() const { return size() == 0; }
  const ClusterAttempt& operator[](size_t i) const {
    return i < shared_size() ? (*shared_)[i] : own_[i - shared_size()];
  }
  const ClusterAttempt& back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  void push_back(ClusterAttempt attempt) { own_.push_back(std::move(attempt)); }

  // Turns the own attempts (all failed) into a shared run: an equal run of `recent` when
  // there is one, else a new one, which is added to `recent` (the last `keep` kept).
  void ShareFailed(std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>>& recent,
                   size_t keep);

 private:
  size_t shared_size() const { return shared_ ? shared_->size() : 0; }

  std::shared_ptr<const std::vector<ClusterAttempt>> shared_;
  std::vector<ClusterAttempt> own_;
};

// Kueue's limit on status.nominatedClusterNames, and how many attempts a Dispatch keeps
// with their reasons (a workload that fits nowhere in a fleet of thousands would otherwise
// carry thousands).
inline constexpr size_t kMaxNominatedClusters = 20;
inline constexpr size_t kMaxDetailedAttempts = 20;

struct Dispatch {
  int32_t workload = -1;
  std::string check;  // the AdmissionCheck
  // Every candidate, in the order tried (shared by every dispatch through the check).
  std::shared_ptr<const std::vector<std::string>> candidates;
  // The first kMaxDetailedAttempts candidates tried, and the one that fits.
  AttemptList attempts;
  int32_t tried = 0;  // candidates tried in all
  std::optional<std::string> cluster;    // the cluster that runs it
  // The worker's LocalQueue the objects go to (worker runs Kueue); nullopt: none.
  std::optional<std::string> worker_local_queue;
  std::string message;  // the admission check's message
  // Kueue's dispatchers: the nominations round by round (AllAtOnce and External: one
  // round; shared by the dispatches through a check) and how many rounds ran (through the
  // winner's, or all of them). Best-fit: null and 0.
  DispatchMode mode = DispatchMode::kBestFit;
  int32_t step_size = 0;  // Incremental: clusters added per round
  int32_t rounds_run = 0;
  std::shared_ptr<const std::vector<std::vector<std::string>>> rounds;
};

class FleetDispatcher : public queueing::PlacementOracle {
 public:
  // The dispatch mode is the one `whole`'s Kueue Configuration selects
  // (ResolveDispatchPolicy); SetPolicy replaces it before the first dispatch.
  FleetDispatcher(const model::Snapshot& whole, const FleetChecks& checks,
                  const std::vector<PlacementRun>& placements, FleetWorkers& workers);

  const DispatchPolicy& policy() const { return policy_; }
  void SetPolicy(DispatchPolicy policy) { policy_ = std::move(policy); }

  // The oracle for hub workloads without a fleet check (nullptr: quota only).
  void SetInner(queueing::PlacementOracle* inner) { inner_ = inner; }

  // The fleet check of the ClusterQueue `cluster_queue` gates, or nullptr.
  const FleetCheck* CheckFor(const std::string& cluster_queue) const {
    return checks_.ForClusterQueue(cluster_queue);
  }

  // Dispatches a hub workload that already holds quota (given with status.admission) whose
  // fleet check is not Ready yet: MultiKueue keeps trying to place it.
  void DispatchHolder(int32_t workload, const model::Admission& admission);

  bool TryPlace(int32_t workload, const model::Admission& admission, std::string* why) override;
  void Release(int32_t workload) override;

  // By hub workload index; workloads released since are gone.
  const std::map<int32_t, Dispatch>& dispatches() const { return dispatches_; }
  // Hands them over once dispatch is done (the plan keeps them; no copy).
  std::map<int32_t, Dispatch> TakeDispatches() && { return std::move(dispatches_); }

 private:
  struct Candidate {
    std::string cluster;
    int64_t score = 0;
    FleetWorker* worker = nullptr;  // null: no ManagedCluster of that name
    std::string unusable;           // non-empty: why nothing can go there (inactive, ...)
    bool connected = true;          // false: its MultiKueueCluster is not Active
  };
  // One candidate to try, and the nomination round it is tried in.
  struct Try {
    int32_t candidate = 0;
    int32_t round = 0;
  };
  struct CandidateList {
    std::vector<Candidate> clusters;
    std::shared_ptr<const std::vector<std::string>> names;
    // Kueue's dispatchers but External: the order the candidates are tried in (round by
    // round, each round's clusters by name) and the rounds' nominations.
    std::vector<Try> order;
    std::shared_ptr<const std::vector<std::vector<std::string>>> rounds;
  };
  // Fills `list.order` and `list.rounds` for the policy's mode.
  void NominationOrder(CandidateList& list) const;
  // External dispatcher: the order to try the workload's nominated clusters in, and its
  // one round in `d`; false (with `d`'s message) when it nominated none of the candidates.
  bool ExternalOrder(int32_t workload, const CandidateList& candidates, std::vector<Try>* order,
                     Dispatch* d) const;
  const CandidateList& Candidates(const FleetCheck& check);
  Dispatch Attempt(int32_t workload, const model::Admission& admission, const FleetCheck& check);
  // Whether `candidate` takes the workload now; when it does, its quota, capacity and nodes
  // are taken. Reasons are written only when `detail` (they cost allocations).
  // `shape`: the workload's ShapeKey (empty: never cached).
  ClusterAttempt TryCluster(int32_t workload, const model::Admission& hub_admission,
                            const model::ResourceVector& requests, const std::string& shape,
                            const Candidate& candidate, bool detail,
                            std::optional<std::string>* worker_queue);

  const model::Snapshot& whole_;
  const FleetChecks& checks_;
  DispatchPolicy policy_;
  const std::vector<PlacementRun>& placements_;
  FleetWorkers& workers_;
  queueing::PlacementOracle* inner_ = nullptr;
  std::map<const FleetCheck*, CandidateList> candidates_;
  std::map<int32_t, Dispatch> dispatches_;
  std::map<int32_t, model::ResourceVector> taken_;  // workload -> requests held on its cluster
  // Runs of failed attempts recently kept, for the next dispatches to share.
  std::vector<std::shared_ptr<const std::vector<ClusterAttempt>>> recent_failures_;
};

}  // namespace berth::engine
