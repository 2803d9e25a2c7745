// FlavorAssigner: Kueue's flavor assignment (pkg/scheduler/flavorassigner): for each pod set
// in order, for each resource group it requests, the flavors in preference order are checked
// against the pod template (taints, node selector/affinity on the flavor's own label keys)
// and the quota tree (fit / borrow / preempt / reclaim / no fit), and flavorFungibility
// decides when to stop. Usage given to earlier pod sets counts against later ones. Reads
// AdmissionState; asks a PreemptionOracle whether preemption would help: the Preemptor's
// target search (RunAdmission), none (QuotaProbe: every flavor that would need preemption has
// no candidates), or a stub (upstream's tables). Pod sets sharing a podSetGroupName are
// assigned together.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "queueing/admission.h"
#include "queueing/admission_state.h"
#include "queueing/preemptor.h"
#include "queueing/topology_fitter.h"

namespace berth::queueing {

// Internal (granular) modes, worst first; the order is the preference order.
enum class FitMode { kNoFit = 0, kNoCandidates = 1, kPreempt = 2, kReclaim = 3, kFit = 4 };

const char* FitModeName(FitMode mode, int32_t borrow_level);

// Kueue's isPreferred: whether a flavor whose resources came out as (a_mode, a_borrow) beats
// one at (b_mode, b_borrow). NoFit never wins; NoCandidates beats only NoFit; otherwise the
// preference orders preemption mode and borrowing level.
bool IsPreferredFlavor(FitMode a_mode, int32_t a_borrow, FitMode b_mode, int32_t b_borrow,
                       model::FungibilityPreference preference);

struct PlannedPodSet {
  std::string name;
  int32_t count = 0;
  // Kueue's PodSetAssignment.Status reasons when the pod set does not fit as is: the reasons
  // of the resource groups whose chosen flavor needs preemption (every flavor tried in that
  // group), or, when a group found no flavor, that group's reasons only. Empty when it fits.
  std::vector<std::string> reasons;
  std::map<std::string, std::string> flavors;  // resource name -> flavor
  FrUsage usage;                               // this pod set's total
  std::map<std::string, int64_t> resource_usage;
  // Where the pods go when the pod set got a TAS flavor (set once the placement fits).
  std::optional<model::TopologyAssignment> topology_assignment;
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

// The status.admission of an assignment in ClusterQueue `cluster_queue`: one
// PodSetAssignment per planned pod set (flavors, resourceUsage, count, topologyAssignment).
model::Admission ToAdmission(const std::string& cluster_queue, const Assignment& a);

// Kueue's preemptionOracle (flavorassigner.go): asked when a flavor is short of quota but
// preemption could help, whether it would find victims for `amount` of FR `fr`, and the
// borrowing level after preempting them.
struct OracleVerdict {
  FitMode mode = FitMode::kNoCandidates;  // kPreempt, kReclaim or kNoCandidates
  int32_t borrow = 0;
};
class PreemptionOracle {
 public:
  virtual ~PreemptionOracle() = default;
  // Kueue's enableFairSharing, as the flavor assigner reads it (canPreemptWhileBorrowing).
  virtual bool FairSharing() const = 0;
  // `height`: the borrowing level the request needs without preempting anything.
  virtual OracleVerdict SimulatePreemption(const WorkloadInfo& wl, int32_t fr, int64_t amount,
                                           int32_t height) = 0;
};

// The oracle of an admission run: a real target search by the Preemptor, limited to the one
// FR. Without a preemptor, or when the ClusterQueue preempts nothing, no candidates.
class PreemptorOracle : public PreemptionOracle {
 public:
  PreemptorOracle(AdmissionState& state, Preemptor* preemptor)
      : state_(state), preemptor_(preemptor) {}
  bool FairSharing() const override { return preemptor_ != nullptr && preemptor_->fair_sharing(); }
  OracleVerdict SimulatePreemption(const WorkloadInfo& wl, int32_t fr, int64_t amount,
                                   int32_t height) override;

 private:
  AdmissionState& state_;
  Preemptor* preemptor_;
};

class FlavorAssigner {
 public:
  // `preemptor` null: no preemption oracle; a flavor short of quota is NoFit or NoCandidates,
  // never Preempt or Reclaim, so flavorFungibility moves on to the next flavor.
  FlavorAssigner(AdmissionState& state, Preemptor* preemptor)
      : state_(state), own_oracle_(state, preemptor), oracle_(&own_oracle_), fitter_(state) {}
  // With another oracle (upstream's tables use a stub); `oracle` must outlive this object.
  FlavorAssigner(AdmissionState& state, PreemptionOracle& oracle)
      : state_(state), own_oracle_(state, nullptr), oracle_(&oracle), fitter_(state) {}
  // oracle_ may point at own_oracle_.
  FlavorAssigner(const FlavorAssigner&) = delete;
  FlavorAssigner& operator=(const FlavorAssigner&) = delete;

  // Assigns flavors for `counts` pods per pod set (parallel to wl.pod_sets; partial admission
  // passes reduced counts). `explain` fills Assignment::attempts. TAS (docs/topology.md): a
  // pod set skips flavors that do not match its topology request; when quota fits, the TAS
  // pod sets are placed (PlannedPodSet::topology_assignment), and a placement that fails
  // makes the mode Preempt on that pod set's flavors, with Kueue's message.
  Assignment Assign(const WorkloadInfo& wl, const std::vector<int32_t>& counts, bool explain);

  // Kueue's TAS step after the preemption targets of a Preempt assignment are known
  // (TopologyFitter::CompleteTargets): more same-queue victims for the placement, or NoFit
  // with reason TopologyPlacementFailed when no set of candidates would make it fit.
  void CompleteTopologyTargets(const WorkloadInfo& wl, Assignment& a,
                               PreemptionResult& preemption) {
    fitter_.CompleteTargets(wl, a, preemption);
  }
  // Places the TAS pod sets of a Fit assignment again on the current usage (what this cycle
  // admitted before it); false when they no longer fit. True when nothing needs TAS.
  bool PlaceTopology(const WorkloadInfo& wl, Assignment& a) {
    return !fitter_.Place(wl, a).has_value();
  }

 private:
  AdmissionState& state_;
  PreemptorOracle own_oracle_;
  PreemptionOracle* oracle_;
  TopologyFitter fitter_;
};

}  // namespace berth::queueing
