// RunControllers: one round of a simulated member cluster (`berth cluster --simulate`): the
// node faults, the kubelet, the garbage collector and the workload controllers (JobSet,
// PyTorchJob, LeaderWorkerSet, Deployment, ReplicaSet, StatefulSet, Job) over the cluster's
// objects at one instant. Each controller sees what the ones before it wrote, and the round
// runs them again until nothing changes (every controller is level-triggered), so a round
// goes as far as the cluster can without time passing or the scheduler binding pods, and a
// second round on its result changes nothing. The lead's loop calls it with the store's
// objects, writes the changes (in order, in one transaction) and binds pending pods in
// between. Pure: no clock, no randomness beyond options.seed; thread-compatible.
#pragma once

#include <vector>

#include "server/member/change.h"
#include "server/member/controller_options.h"
#include "server/member/member_objects.h"

namespace berth::server::member {

struct ControllerRound {
  std::vector<Change> changes;
  std::vector<Diagnostic> diagnostics;
  int passes = 0;       // how many times the controllers ran
  bool settled = true;  // false when options.max_passes ran out first (a bug: reported)
};

ControllerRound RunControllers(const MemberView& view, const ControllerOptions& options);

}  // namespace berth::server::member
