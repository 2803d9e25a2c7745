// WorkloadObject: a Job, Deployment, StatefulSet, JobSet, PyTorchJob or LeaderWorkerSet as
// read, reduced to its pod sets (one per role: a JobSet's replicatedJob, a PyTorchJob's
// Master/Worker, an LWS's leader/worker). io expands each pod set into Pods named per
// DESIGN.md; later stages (queueing) read the pod sets as Kueue PodSets.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/object_meta.h"
#include "model/pod.h"

namespace berth::model {

struct PodSetTemplate {
  std::string name;    // "main" for single-role workloads, else the role name
  int32_t count = 1;   // pods this role creates
  Pod pod_template;    // meta.name empty; labels and spec from the template
};

struct WorkloadObject {
  std::string api_version;
  std::string kind;
  ObjectMeta meta;
  std::vector<PodSetTemplate> pod_sets;
  bool suspended = false;
  // Kubeflow's spec.runPolicy.schedulingPolicy.priorityClass (PyTorchJob, MPIJob): the
  // job's priority for Kueue and gang schedulers, ahead of its templates' classes; the pods
  // keep their own.
  std::string scheduling_priority_class;
  // metadata.ownerReferences' controller: a JobSet's child Jobs, a Deployment's ReplicaSets.
  std::optional<OwnerRef> owner;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
