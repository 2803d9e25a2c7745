// PlacementOracle: how queueing asks whether an admitted workload's pods can actually be
// placed (gangs, topology) without knowing the binding stage. The engine implements it
// with binding; RunAdmission calls it once a workload's quota fits. Implementations are
// used from one thread, in the order RunAdmission makes its decisions.
#pragma once

#include <cstdint>
#include <string>

#include "model/kueue.h"

namespace berth::queueing {

class PlacementOracle {
 public:
  virtual ~PlacementOracle() = default;
  // Called once quota fits: place every pod of snapshot.kueue_workloads[workload] with the
  // flavors (and topology assignments) of `admission`, all or nothing. true: placed and
  // kept, later calls see it. false: nothing changed; *why says why in one line (e.g.
  // "only 2 of 4 pods fit: 2 Insufficient nvidia.com/gpu").
  virtual bool TryPlace(int32_t workload, const model::Admission& admission, std::string* why) = 0;
  // Undo a placement (the workload was preempted, or was admitted in the input and is now
  // evicted).
  virtual void Release(int32_t workload) = 0;
};

}  // namespace berth::queueing
