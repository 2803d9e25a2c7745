// What the lead's loop does with a round's changes, on a MemberView instead of a store: the
// reference semantics of Change (change.h), for tests and for driving a simulated cluster
// without an API server. Pure functions.
#pragma once

#include <cstdint>
#include <vector>

#include "server/member/change.h"
#include "server/member/member_objects.h"

namespace berth::server::member {

// `view` with `changes` applied in order: creates added; kUpdate replaces the object;
// kUpdateStatus replaces its status; kDelete removes the object, except a pod, which keeps
// the deletionTimestamp and grace period the change carries until FinishDeletions.
MemberView ApplyChanges(const MemberView& view, const std::vector<Change>& changes);

// `view` without the pods whose deletionTimestamp is at or before `now_unix_s` and that have
// no finalizers (graceful deletion completing).
MemberView FinishDeletions(const MemberView& view, int64_t now_unix_s);

}  // namespace berth::server::member
