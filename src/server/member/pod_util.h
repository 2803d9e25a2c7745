// Pod predicates the controllers share (upstream's controller.FilterActivePods,
// podutil.IsPodReady, IsPodAvailable, ...) and the pod a controller makes from a template
// (controller.GetPodFromTemplate). Pure functions over pod JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "server/member/member_objects.h"

namespace berth::server::member {

// status.phase; "Pending" when absent.
std::string PodPhase(const Json& pod);
// Succeeded or Failed.
bool PodIsTerminal(const Json& pod);
// Neither terminal nor being deleted (FilterActivePods).
bool PodIsActive(const Json& pod);
// Being deleted and not terminal (CountTerminatingPods).
bool PodIsTerminating(const Json& pod);
// The Ready condition is True.
bool PodIsReady(const Json& pod);
// Phase Running and Ready (the StatefulSet controller's isRunningAndReady).
bool PodIsRunningAndReady(const Json& pod);
// Ready for longer than `min_ready_s` at `now` (IsPodAvailable: the Ready condition's
// lastTransitionTime plus minReadySeconds is before now; any ready pod when it is 0).
bool PodIsAvailable(const Json& pod, int64_t min_ready_s, int64_t now);
// The sum of the containers' restartCount (and init containers').
int64_t PodRestartCount(const Json& pod);
// spec.restartPolicy; "Always" when absent (the API's default).
std::string PodRestartPolicy(const Json& pod);
// The nvidia.com/gpu the pod's containers ask for (limits when requests are absent, as
// extended resources are defaulted); 0 when none or unparsable.
int64_t PodGpuCount(const Json& pod);
// A terminal pod's finish time: the latest containerStatuses[].state.terminated.finishedAt,
// else the Ready condition's lastTransitionTime, else the pod's start.
std::optional<int64_t> PodFinishTime(const Json& pod);

// controller.ActivePods' order, the pods to delete first coming first: unscheduled before
// scheduled, Pending before Unknown before Running, not ready before ready, ready for less
// time before more, more restarts before fewer, newer before older; then by name.
bool PodDeletesBefore(const Json* a, const Json* b);

// The pod a controller creates from `pod_template` (a PodTemplateSpec): its labels,
// annotations, finalizers and spec, the name and namespace given, a controller
// ownerReference to `owner`, and status.phase Pending (what the API server fills in).
Json PodFromTemplate(const Json& pod_template, const Json& owner, Kind owner_kind,
                     const std::string& ns, const std::string& name);

}  // namespace berth::server::member
