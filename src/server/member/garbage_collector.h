// The garbage collector of a simulated member cluster: an object whose ownerReferences all
// name objects of the member kinds (member_objects.h) none of which exists any more (by uid)
// is deleted, as upstream's garbage collector does with background propagation (the pods of
// a deleted Job, the Jobs of a deleted JobSet, the ReplicaSets of a deleted Deployment).
// Owners of other kinds are not judged: the view need not hold them. Also the pod garbage
// collector's orphan rule: a pod bound to a Node that no longer exists is marked Failed
// (DisruptionTarget, DeletionByPodGC) and deleted (upstream waits 40 s first; this does not).
// Pure function over a MemberState.
#pragma once

#include "server/member/controller_options.h"
#include "server/member/member_state.h"

namespace berth::server::member {

void RunGarbageCollector(MemberState& state, const ControllerOptions& options);

}  // namespace berth::server::member
