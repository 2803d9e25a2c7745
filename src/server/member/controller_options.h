// ControllerOptions: what one round of a simulated member cluster's controllers and kubelet
// is run with (controller_round.h): the round's time, the seed of every simulated duration,
// the cluster's default pod duration and the knobs upstream has as controller flags. Plain
// value.
#pragma once

#include <cstdint>

#include "server/member/durations.h"

namespace berth::server::member {

// Annotations users set to drive the simulation (README.md).
inline constexpr char kSimulatedDurationAnnotation[] = "berth.dev/simulated-duration";
inline constexpr char kSimulatedExitCodeAnnotation[] = "berth.dev/simulated-exit-code";
inline constexpr char kSimulatedFailureAnnotation[] = "berth.dev/simulated-failure";
inline constexpr char kSimulatedFaultAnnotation[] = "berth.dev/simulated-fault";

struct ControllerOptions {
  int64_t now_unix_s = 0;
  // Seeds every sampled duration (with the pod's uid), so two runs of a cluster with the same
  // seed agree; print it with the cluster's other settings.
  uint64_t seed = 0;
  // How long a pod without the simulated-duration annotation runs (restartPolicy Never or
  // OnFailure pods only: Always pods run until deleted unless annotated).
  DurationDistribution default_duration;
  // The Job controller's back-off before replacing failed pods: base * 2^(failures-1), at
  // most max (upstream's DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff); base 0
  // replaces at once.
  int64_t job_pod_failure_backoff_s = 10;
  int64_t job_pod_failure_backoff_max_s = 600;
  // Delete dependents whose owners are gone (the garbage collector).
  bool collect_garbage = true;
  // A round runs the controllers until nothing changes, at most this many times.
  int max_passes = 16;
};

}  // namespace berth::server::member
