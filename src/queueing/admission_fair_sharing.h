// AdmissionFairSharing: Kueue's Admission Fair Sharing (AFS,
// pkg/util/admissionfairsharing/admission_fair_sharing.go; shared/reference/kueue.md §12):
// the usage of each LocalQueue, used by the ClusterQueues whose admissionScope is
// UsageBasedAdmissionFairSharing to order their pending workloads (lower usage first) and to
// pick preemption victims (higher usage first). Built by AdmissionScheduler once per run when
// kueue_config.admissionFairSharing is set; the scheduler adds an entry penalty for every
// admission it makes. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "model/kueue.h"
#include "model/snapshot.h"
#include "queueing/queue_setup.h"

namespace berth::queueing {

// Kueue's alpha rate: 1 − 0.5^(elapsed/half_life); 0 when half_life ≤ 0 (no decay, no
// penalty) or elapsed ≤ 0.
double AfsAlpha(double elapsed_s, double half_life_s);

// Kueue's CalculateDecayedConsumed for one resource: old × (1 − α) + current × α with
// α = AfsAlpha(elapsed, half_life).
double AfsDecayed(double old_value, double current, double elapsed_s, double half_life_s);

// `amount` (model units: cpu in milli, everything else whole) in the units Kueue's
// Quantity.AsApproximateFloat64 reads (cpu in cores), so weights mean what they mean upstream.
double AfsAmount(std::string_view resource, int64_t amount);

class AdmissionFairSharing {
 public:
  // Per LocalQueue of `cluster`: status consumedResources decayed from lastUpdate to `now`
  // towards the usage of its admitted workloads (Admitted=True, not Finished, not Evicted) in
  // the input, as the LocalQueue controller would if it reconciled at `now`. A LocalQueue
  // without lastUpdate keeps its consumedResources as they are. O(W + L·R).
  AdmissionFairSharing(const model::Snapshot& snapshot, const QueueSetup& setup,
                       const model::AdmissionFairSharingConfig& config, const std::string& cluster,
                       core::Timestamp now);

  // Whether ClusterQueue `cq` (QueueSetup index) orders by LocalQueue usage.
  bool Enabled(int32_t cq) const;
  // The LocalQueue (snapshot.local_queues index) workload `wl` names; -1 when it is missing.
  int32_t LocalQueueOf(int32_t wl) const { return lq_of_wl_[static_cast<size_t>(wl)]; }
  // Σ_resource weight × (decayed consumed + entry penalties) / LocalQueue weight, resources
  // in name order; +inf when the LocalQueue's weight is ≤ 0. O(1) (cached).
  double Usage(int32_t lq) const { return lqs_[static_cast<size_t>(lq)].usage; }
  // Usage of the workload's LocalQueue; 0 when it has none.
  double WorkloadUsage(int32_t wl) const;
  // Kueue's entry penalty: α(samplingInterval, halfLife) × the admission's resource usage
  // (summed over pod sets) is added to the workload's LocalQueue. Returns that LocalQueue,
  // whose Usage changed, or -1 when the workload has none. O(R log R).
  int32_t AddEntryPenalty(int32_t wl, const model::Admission& admission);

  // The LocalQueue's consumed value of `resource` after decay (base units, see AfsAmount) and
  // its accumulated penalty; 0 when absent.
  double ConsumedForTest(int32_t lq, const std::string& resource) const;
  double PenaltyForTest(int32_t lq, const std::string& resource) const;

 private:
  struct LocalQueueUsage {
    std::map<std::string, double> consumed;  // decayed, base units
    std::map<std::string, double> penalty;   // base units
    double weight = 1;                       // fairSharing.weight
    double usage = 0;
  };
  void Recompute(LocalQueueUsage& lq) const;

  const QueueSetup& setup_;
  const model::Snapshot& snapshot_;
  std::map<std::string, double> resource_weights_;
  double entry_alpha_ = 0;
  std::vector<LocalQueueUsage> lqs_;  // by snapshot.local_queues index
  std::vector<int32_t> lq_of_wl_;     // by snapshot.kueue_workloads index
};

}  // namespace berth::queueing
