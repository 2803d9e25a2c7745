#include "server/member/controller_round.h"

#include <string>

#include "server/member/deployment_controller.h"
#include "server/member/garbage_collector.h"
#include "server/member/job_controller.h"
#include "server/member/jobset_controller.h"
#include "server/member/kubelet.h"
#include "server/member/lws_controller.h"
#include "server/member/member_state.h"
#include "server/member/node_faults.h"
#include "server/member/pytorchjob_controller.h"
#include "server/member/replicaset_controller.h"
#include "server/member/statefulset_controller.h"

namespace berth::server::member {

ControllerRound RunControllers(const MemberView& view, const ControllerOptions& options) {
  MemberState state(view, options.now_unix_s);
  ControllerRound round;
  // Nodes before pods (a lost node fails its pods before the kubelet would run them), the
  // kubelet before the controllers (they count what ran), owners before what they own (a
  // JobSet's Jobs are synced in the pass that made them).
  using Step = void (*)(MemberState&, const ControllerOptions&);
  static constexpr Step kSteps[] = {
      RunNodeFaults,
      RunKubelet,
      RunGarbageCollector,
      RunJobSetController,
      RunPyTorchJobController,
      RunLeaderWorkerSetController,
      RunDeploymentController,
      RunReplicaSetController,
      RunStatefulSetController,
      RunJobController,
  };
  round.settled = false;
  while (round.passes < options.max_passes) {
    const uint64_t before = state.mutations();
    for (Step step : kSteps) step(state, options);
    ++round.passes;
    if (state.mutations() == before) {
      round.settled = true;
      break;
    }
  }
  round.changes = state.Changes();
  round.diagnostics = state.diagnostics();
  if (!round.settled) {
    round.diagnostics.push_back(Diagnostic{
        "", "ControllersDidNotSettle",
        "the controllers still changed objects after " + std::to_string(options.max_passes) +
            " passes; the round's changes are written as they stand"});
  }
  return round;
}

}  // namespace berth::server::member
