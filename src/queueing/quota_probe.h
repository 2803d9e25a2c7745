// QuotaProbe: does a workload fit a worker cluster's Kueue quota right now? MultiKueue-style
// dispatch (shared/reference/kueue.md §16) asks it for each hub workload and each candidate
// worker: the engine builds one probe per worker from that worker's RunAdmission result,
// Try()s hub workloads against it and Commit()s the dispatches it makes, so later questions see
// the quota they took. It runs the admission run's own QueueSetup, QuotaTree and
// FlavorAssigner (no second quota model) and never preempts on the worker.
// Thread-safety: one probe is not thread-safe, Try included (it edits the tree and lazily built
// TAS caches and restores them); distinct probes are independent. The snapshot must outlive
// the probe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/time.h"
#include "model/kueue.h"
#include "model/snapshot.h"
#include "queueing/admission.h"

namespace berth::queueing {

struct ProbeResult {
  bool fits = false;
  // When fits: the worker's ClusterQueue and the podSetAssignments (flavors, resourceUsage,
  // count, topologyAssignment), as status.admission on the worker would read.
  model::Admission admission;
  // When !fits: Kueue's QuotaReserved=False reason and message, e.g. WaitingForQuota /
  // "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in
  // flavor a100, 2 more needed", Misconfigured / "LocalQueue q doesn't exist", Suspended /
  // "ClusterQueue cq is inactive".
  std::string reason, message;
  // The flavor attempts of the assignment (as WorkloadDecision::attempts), for explain.
  std::vector<FlavorAttempt> attempts;
};

class QuotaProbe {
 public:
  // The quota state of `cluster`'s ClusterQueues and Cohorts in `snapshot` after `result`
  // (that cluster's RunAdmission result): every workload holding quota after it (admitted in
  // the input and kept, or admitted by it) counts; evicted and preempted ones do not, nor do
  // holders whose ClusterQueue is gone (Kueue accounts them nowhere). Invalid queues are
  // inactive, as in RunAdmission (their diagnostics were reported there). Cost O(queue objects
  // of the snapshot + holders of the result · pod sets); O(LocalQueues) and nothing else when
  // the cluster has no LocalQueue. `now` stamps the reservations Commit makes.
  static QuotaProbe Build(const model::Snapshot& snapshot, const std::string& cluster,
                          const AdmissionResult& result, core::Timestamp now);

  QuotaProbe(QuotaProbe&&) noexcept;
  QuotaProbe& operator=(QuotaProbe&&) noexcept;
  ~QuotaProbe();

  const std::string& cluster() const { return cluster_; }

  // Whether this cluster has a LocalQueue `namespace_name`/`name`. O(1) expected.
  bool HasLocalQueue(const std::string& namespace_name, const std::string& name) const;

  // Whether snapshot.kueue_workloads[workload] (any cluster's, usually the hub's) fits now in
  // the ClusterQueue that this cluster's LocalQueue <workload namespace>/<queue_name> feeds:
  // the LocalQueue exists and is not stopped, the ClusterQueue exists, is active and selects
  // the namespace, and Kueue's flavor assignment finds a Fit or Borrow (within cohort,
  // borrowing and lending limits) for every pod set, with partial admission when pod sets have
  // minCount. A flavor that would need preemption does not fit. Only the worker side is
  // checked: the workload's own state (active, finished, held elsewhere) is the caller's, and
  // a workload this probe already holds is asked about as one more copy. Logically const (the
  // state is the same afterwards). Cost O(pod sets × flavors × resources × cohort depth), times
  // O(log Σ(count − minCount)) with partial admission, plus the TAS placement for TAS flavors.
  ProbeResult Try(int32_t workload) const;

  // Takes the quota of `result`, a fitting result of this probe's Try for `workload`; later
  // Try calls see it. It is not re-checked: commit a result before taking any other. The
  // workload must hold no quota in this probe (BERTH_CHECK).
  void Commit(int32_t workload, const ProbeResult& result);
  // Gives back what `workload` holds in this probe (committed, or held after the cluster's
  // own admission); a no-op when it holds nothing.
  void Release(int32_t workload);

 private:
  struct State;
  QuotaProbe(const model::Snapshot& snapshot, std::string cluster, std::unique_ptr<State> state);

  const model::Snapshot* snapshot_;
  std::string cluster_;
  // Null when the cluster has no LocalQueue: nothing can be queued there.
  std::unique_ptr<State> state_;
};

}  // namespace berth::queueing
