// Simulated node faults, injected through the API: a Node's berth.dev/simulated-fault
// annotation, a comma-separated list of
//   node-down      the node stops reporting: its conditions become Unknown (reason
//                  NodeStatusUnknown) and it gets the node.kubernetes.io/unreachable NoSchedule
//                  and NoExecute taints, as the node lifecycle controller does; its pods fail
//                  (phase Failed, reason NodeLost);
//   gpu-failed=N   N of the node's nvidia.com/gpu devices fail: allocatable drops by N
//                  (capacity stays) and the pods holding the lost devices fail (reason
//                  DeviceFailed). Devices are held in order of the pods' start, so the choice
//                  is deterministic: the last N devices are the lost ones.
// Removing the annotation heals the node (taints removed, allocatable restored; the kubelet
// reports Ready again). Failed pods stay failed: their controllers replace them. README.md
// has the exact semantics. Pure functions over a MemberState.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

struct NodeFault {
  bool down = false;
  int64_t gpus_failed = 0;
  std::vector<std::string> problems;  // parts of the annotation that were not understood
};

// The faults a Node's annotation asks for; an absent annotation is no fault.
NodeFault ParseNodeFault(const Json& node);

// Applies every Node's faults (and heals nodes without any) in `state`: node conditions and
// taints of down nodes, GPU allocatable, and the failure of the pods on lost nodes and
// devices. Unparsable annotations are reported (InvalidSimulatedFault) and ignored.
void RunNodeFaults(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
