// Resolves the target of `berth why` in a snapshot: a pod, a Kueue Workload (given, or made
// for a queued job) or a job-like object whose pods are scheduled without Kueue. Called by
// why.cc only. Pure functions; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "diag/why.h"
#include "model/snapshot.h"

namespace berth::diag {

struct ResolvedTarget {
  enum class Kind {
    kPod,    // one pod scheduled by kube-scheduler: `pod`
    kKueue,  // a Kueue Workload: `workload`; `pods` are its job's pods
    kPods,   // a job-like object without Kueue: `job`, its pods in `pods`
  };
  Kind kind = Kind::kPod;
  int32_t pod = -1;       // index into snapshot.pods
  int32_t workload = -1;  // index into snapshot.kueue_workloads
  int32_t job = -1;       // index into snapshot.workloads
  std::vector<int32_t> pods;
  std::string display;  // "Pod ml/train-0", "Workload ml/job-train", "PyTorchJob ml/bert"
  WhyObject object;     // the same as a chain object
};

// NotFound / InvalidArgument as AnswerWhy documents them.
core::Result<ResolvedTarget> ResolveWhyTarget(const model::Snapshot& snapshot,
                                              const WhyTarget& target);

// The pods of job `job` (index into snapshot.workloads): pods it owns, and pods owned by the
// objects it owns (a Deployment's ReplicaSets, a JobSet's Jobs). Ascending.
std::vector<int32_t> PodsOfJob(const model::Snapshot& snapshot, int32_t job);

}  // namespace berth::diag
