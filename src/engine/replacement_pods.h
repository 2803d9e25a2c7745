// ReplacementPods: the pods a re-admitted workload's job creates anew. Kueue's eviction
// suspends the job and restores its pod template (the flavor's nodeSelector and tolerations
// taken out); the job controller deletes the pods; re-admission unsuspends the job with the
// new flavor's injected and the controller creates new pods, which kube-scheduler binds.
// berth names such a pod after the pod it replaces (rule below) and builds it from that pod
// (labels, owner, containers) with the pod set template's scheduling constraints. Pure;
// called by the engine's admission oracle (binding_oracle.h).
#pragma once

#include <set>
#include <string>

#include "core/time.h"
#include "model/kueue.h"
#include "model/pod.h"

namespace berth::engine {

// The name of the pod created in place of `deleted`: `<base>-r<k>`, where <base> is the
// deleted pod's name with a trailing `-r<n>` taken off (a pod an earlier plan created) and
// k the smallest number (above n when it was taken off, else from 1) such that no name in
// `taken` (the "namespace/name" of every pod of the cluster, in the input or created by the
// plan) is the new one. So a replacement never has the name of the pod it replaces, of any
// deleted pod, or of any other pod: berth's expanded pods are `<workload>-<index>` (io's
// expansion), and their replacements `<workload>-<index>-r1`, then `-r2` if that is taken.
// Linear in the name times the tries.
std::string ReplacementPodName(const std::string& pod_namespace, const std::string& deleted,
                               const std::set<std::string>& taken);

// The pod created in place of `deleted` (of the pod set `set`): `deleted` with name `name`,
// no uid, created at `now`, pending and unbound with no conditions, the template's
// nodeSelector and tolerations (Kueue restored the template when it evicted the workload;
// the caller adds the new admission's), and `replaces` naming the deleted pod.
model::Pod ReplacementPod(const model::Pod& deleted, const model::KueuePodSet& set,
                          const std::string& name, core::Timestamp now);

}  // namespace berth::engine
