#include "sim/replay/job_workloads.h"

#include <algorithm>
#include <cstdio>

namespace berth::sim {

PodSplit SplitJob(int32_t gpus, int32_t max_gpus_per_pod) {
  PodSplit split;
  if (gpus <= max_gpus_per_pod) {
    split.gpus_per_pod = gpus;
    return split;
  }
  split.count = (gpus + max_gpus_per_pod - 1) / max_gpus_per_pod;
  split.gpus_per_pod = (gpus + split.count - 1) / split.count;
  return split;
}

core::Result<int32_t> AddJobWorkloads(const QueuedTrace& trace, const JobShape& shape,
                                      model::Snapshot* world) {
  if (shape.max_gpus_per_pod < 1) {
    return core::InvalidArgument("max GPUs per pod must be at least 1, got " +
                                        std::to_string(shape.max_gpus_per_pod));
  }
  const model::ResourceId gpu = world->resources.Intern(shape.gpu_resource);
  const int32_t first = static_cast<int32_t>(world->kueue_workloads.size());
  world->kueue_workloads.reserve(world->kueue_workloads.size() + trace.jobs.size());
  char uid[32];
  for (size_t i = 0; i < trace.jobs.size(); ++i) {
    const QueuedJob& q = trace.jobs[i];
    const TraceJob& job = q.job;
    const QueueRef& queue = trace.queues[static_cast<size_t>(q.queue)];
    const PodSplit split = SplitJob(job.gpus, shape.max_gpus_per_pod);
    model::Workload w;
    w.meta.name = "job-" + std::to_string(i);
    w.meta.namespace_ = queue.namespace_name;
    std::snprintf(uid, sizeof uid, "sim-%010zu", i);
    w.meta.uid = uid;
    w.meta.labels["kueue.x-k8s.io/job-uid"] = uid;
    w.meta.creation_timestamp.unix_s = shape.start_unix_s + job.submit_s;
    w.queue_name = queue.local_queue;
    w.priority = job.priority;
    w.cluster = shape.cluster;
    w.created = true;
    model::KueuePodSet set;
    set.count = split.count;
    model::Container c;
    c.name = "main";
    // Equal pods: each takes its share, rounded up, so the gang asks for at least the job.
    c.requests.Set(model::kCpu, (job.cpu_milli + split.count - 1) / split.count);
    c.requests.Set(model::kMemory, (job.memory_bytes + split.count - 1) / split.count);
    if (split.gpus_per_pod > 0) c.requests.Set(gpu, split.gpus_per_pod);
    c.cpu_request_named = true;
    c.memory_request_named = true;
    set.pod_template.containers.push_back(std::move(c));
    set.pod_template.priority = job.priority;
    // A job that needs a GPU model asks for nodes labelled with it (the GPU operator's label);
    // Kueue then gives it only flavors whose nodeLabels agree.
    if (!job.gpu_model.empty()) set.pod_template.node_selector[shape.gpu_model_label] = job.gpu_model;
    set.pod_template.cluster = shape.cluster;
    w.pod_sets.push_back(std::move(set));
    world->kueue_workloads.push_back(std::move(w));
  }
  return first;
}

}  // namespace berth::sim
