// FlavorAssigner: Kueue's flavor assignment (pkg/scheduler/flavorassigner): for each pod set
// in order, for each resource group it requests, the flavors in preference order are checked
// against the pod template (taints, node selector/affinity on the flavor's own label keys)
// and the quota tree (fit / borrow / preempt / reclaim / no fit), and flavorFungibility
// decides when to stop. Usage given to earlier pod sets counts against later ones. Reads
// AdmissionState; asks the Preemptor as its preemption oracle. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "queueing/admission.h"
#include "queueing/admission_state.h"
#include "queueing/preemptor.h"

namespace berth::queueing {

// Internal (granular) modes, worst first; the order is the preference order.
enum class FitMode { kNoFit = 0, kNoCandidates = 1, kPreempt = 2, kReclaim = 3, kFit = 4 };

const char* FitModeName(FitMode mode, int32_t borrow_level);

struct PlannedPodSet {
  std::string name;
  int32_t count = 0;
  std::map<std::string, std::string> flavors;  // resource name -> flavor
  FrUsage usage;                               // this pod set's total
  std::map<std::string, int64_t> resource_usage;
};

struct Assignment {
  enum class Mode { kNoFit, kPreempt, kFit };
  Mode mode = Mode::kFit;
  std::vector<PlannedPodSet> pod_sets;
  FrUsage usage;                   // whole workload, per FR
  std::vector<int32_t> contested;  // FRs chosen in a preempt or reclaim mode
  int32_t borrow_level = 0;
  std::string reason;   // QuotaReserved=False reason when not Fit
  std::string message;  // "couldn't assign flavors to pod set main: ..."
  std::vector<FlavorAttempt> attempts;
};

class FlavorAssigner {
 public:
  FlavorAssigner(AdmissionState& state, Preemptor& preemptor)
      : state_(state), preemptor_(preemptor) {}

  // Assigns flavors for `counts` pods per pod set (parallel to wl.pod_sets; partial admission
  // passes reduced counts). `explain` fills Assignment::attempts.
  Assignment Assign(const WorkloadInfo& wl, const std::vector<int32_t>& counts, bool explain);

 private:
  AdmissionState& state_;
  Preemptor& preemptor_;
};

}  // namespace berth::queueing
