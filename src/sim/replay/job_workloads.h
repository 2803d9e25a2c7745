// Job workloads: the Kueue Workload each trace job becomes when berth simulate replays a
// queued trace against the engine: one pod set "main" of ceil(GPUs / max_gpus_per_pod) pods,
// each asking for an equal share of the job's GPUs, CPU and memory (a multi-node job is a
// gang: Kueue admits all its pods or none), submitted to the job's LocalQueue at its arrival
// time; a job's gpu_model becomes a nodeSelector on the GPU product label. Called once per run by the replay (queue_replay.h) before the scheduler starts.
// Pure; linear in the jobs.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "gpu/gpu_inventory.h"
#include "model/snapshot.h"
#include "sim/trace/queued_trace.h"

namespace berth::sim {

struct JobShape {
  // The extended resource the GPUs are asked as.
  std::string gpu_resource = std::string(gpu::kResourceGpu);
  // A job with more GPUs runs as several pods of at most this many (a common node size).
  int32_t max_gpus_per_pod = 8;
  // The cluster of the fleet snapshot the workloads belong to.
  std::string cluster = "default";
  // The node label a job's gpu_model must match (nodeSelector).
  std::string gpu_model_label = std::string(gpu::kLabelGpuProduct);
  // Trace time 0 in Unix seconds (creationTimestamp = start + submit_s).
  int64_t start_unix_s = 1'704'067'200;  // 2024-01-01T00:00:00Z
};

// How a job of `gpus` GPUs is split into pods: count × gpus_per_pod >= gpus, equal pods.
struct PodSplit {
  int32_t count = 1;
  int32_t gpus_per_pod = 0;
};
PodSplit SplitJob(int32_t gpus, int32_t max_gpus_per_pod);

// Appends one Workload per job of `trace` to world->kueue_workloads, in job order; returns the
// index of the first. Names are "job-<i>" (i: the job's index in the trace), UIDs zero-padded
// so that equal creation times order by arrival. InvalidArgument when max_gpus_per_pod < 1.
core::Result<int32_t> AddJobWorkloads(const QueuedTrace& trace, const JobShape& shape,
                                      model::Snapshot* world);

}  // namespace berth::sim
