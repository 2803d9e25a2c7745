// What Reader::Finish does once every file is read: pod priorities from PriorityClasses
// (the Priority admission plugin's rules) and workloads expanded into Pods named per
// DESIGN.md, each kind's pods named and labelled by the pod-identity function of its row in
// the table of kinds (internal/kind_table.h). Internal to io; works on the snapshot and
// document store it is given.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/labels.h"
#include "core/result.h"
#include "io/document_store.h"
#include "io/internal/decoders.h"
#include "io/internal/ownership.h"
#include "model/pod.h"
#include "model/priority_class.h"
#include "model/snapshot.h"
#include "model/workload_object.h"

namespace berth::io::internal {

class PriorityResolver {
 public:
  // Indexes the classes read, plus the two built-in system classes when not given.
  explicit PriorityResolver(const std::vector<model::PriorityClass>& classes);

  // Sets pod->priority unless spec.priority was given (`has_priority`): the named class's
  // value, else the global default class's (its name is written to the pod, as the
  // admission plugin does), else 0. NotFound with field "spec.priorityClassName" when the
  // named class does not exist.
  // Also sets pod->preemption_policy, when the pod does not set it, to its class's (the
  // Priority admission plugin's rule), else PreemptLowerPriority.
  core::Status Resolve(model::Pod* pod, bool has_priority) const;

 private:
  void ResolvePreemptionPolicy(model::Pod* pod) const;
  core::Status ResolvePriority(model::Pod* pod, bool has_priority) const;

  std::unordered_map<std::string, int32_t> values_;
  std::unordered_map<std::string, std::string> policies_;  // preemptionPolicy by class name
  const model::PriorityClass* global_default_ = nullptr;
};

// The name, labels and annotations a workload's controller gives one of its pods.
struct PodIdentity {
  std::string name;
  core::Labels labels;
  core::Labels annotations;
};

// Pod `index_in_set` of pod set `set` of `workload`; `index` counts pods across the
// workload's pod sets in order. One function per workload kind, named in its row of the
// table of kinds:
//   ReplicaPodIdentity          `<workload>-<index>`, no labels (Deployment; any kind
//                               without a row)
//   JobPodIdentity              `<job>-<index>`, job-name and controller-uid labels,
//                               completion index when Indexed
//   StatefulSetPodIdentity      `<sts>-<index>`, pod-name and pod-index labels
//   JobSetPodIdentity           `<jobset>-<replicatedJob>-<job>-<pod>`, jobset labels
//   PyTorchJobPodIdentity       `<job>-<index>`, training.kubeflow.org labels
//   LeaderWorkerSetPodIdentity  `<lws>-<index>`, group and worker index labels
//   MPIJobPodIdentity           `<job>-launcher`, `<job>-worker-<i>`, training.kubeflow.org
//                               labels as mpi-operator sets them
//   RayPodIdentity              `<cluster>-head`, `<cluster>-<group>-worker-<i>` (KubeRay
//                               adds a random suffix instead of <i>), ray.io labels; a
//                               RayJob's submitter `<rayjob>-submitter`, job-name labels
//   VolcanoJobPodIdentity       `<job>-<task>-<i>`, volcano.sh labels and the
//                               scheduling.k8s.io/group-name annotation
using PodIdentityFn = PodIdentity (*)(const model::WorkloadObject& workload,
                                      const model::PodSetTemplate& set,
                                      const PodSetSource& source, int32_t index_in_set,
                                      int32_t index);
PodIdentity ReplicaPodIdentity(const model::WorkloadObject& workload,
                               const model::PodSetTemplate& set, const PodSetSource& source,
                               int32_t index_in_set, int32_t index);
PodIdentity JobPodIdentity(const model::WorkloadObject& workload, const model::PodSetTemplate& set,
                           const PodSetSource& source, int32_t index_in_set, int32_t index);
PodIdentity StatefulSetPodIdentity(const model::WorkloadObject& workload,
                                   const model::PodSetTemplate& set, const PodSetSource& source,
                                   int32_t index_in_set, int32_t index);
PodIdentity JobSetPodIdentity(const model::WorkloadObject& workload,
                              const model::PodSetTemplate& set, const PodSetSource& source,
                              int32_t index_in_set, int32_t index);
PodIdentity PyTorchJobPodIdentity(const model::WorkloadObject& workload,
                                  const model::PodSetTemplate& set, const PodSetSource& source,
                                  int32_t index_in_set, int32_t index);
PodIdentity LeaderWorkerSetPodIdentity(const model::WorkloadObject& workload,
                                       const model::PodSetTemplate& set,
                                       const PodSetSource& source, int32_t index_in_set,
                                       int32_t index);

PodIdentity MPIJobPodIdentity(const model::WorkloadObject& workload,
                              const model::PodSetTemplate& set, const PodSetSource& source,
                              int32_t index_in_set, int32_t index);
PodIdentity RayPodIdentity(const model::WorkloadObject& workload, const model::PodSetTemplate& set,
                           const PodSetSource& source, int32_t index_in_set, int32_t index);
PodIdentity VolcanoJobPodIdentity(const model::WorkloadObject& workload,
                                  const model::PodSetTemplate& set, const PodSetSource& source,
                                  int32_t index_in_set, int32_t index);

// The PodGroup Volcano makes for a Volcano Job: `<job>-<uid>` (`<job>` when the object has
// no uid, as hand-written ones may not).
std::string VolcanoPodGroupName(const model::WorkloadObject& workload);

// "cluster\x1fnamespace\x1fname", the identity of a pod when checking for existing ones.
std::string PodKey(const model::Pod& pod);

// Appends the pods of every pod set of `workload` to snapshot->pods, each with a synthetic
// v1 Pod document built from its template, named `<workload>-<index>` (index across pod
// sets in order) or, for a JobSet, `<jobset>-<replicatedJob>-<job>-<pod>` (the kind's
// PodIdentityFn, found in the table of kinds by the workload's group and kind). Pods whose key is
// already in `existing` (PodKey -> index into snapshot->pods) are skipped; added pods are
// inserted. When `pod_indices` is given it receives, per pod set, the index of every pod
// of that set, added or already there (what a Kueue Workload's `pods` holds).
// When `owned` is given (the pods the workload already has, internal/ownership.h), only
// its missing slots are expanded, and its live pods lead each set's `pod_indices`; a pod
// keeps the index `<offset of its set> + <slot>` in its name.
void ExpandWorkload(const model::WorkloadObject& workload, const std::vector<PodSetSource>& sources,
                    const std::string& file, std::unordered_map<std::string, int32_t>* existing,
                    model::Snapshot* snapshot, DocumentStore* documents,
                    std::vector<std::vector<int32_t>>* pod_indices = nullptr,
                    const ExistingPods* owned = nullptr);

}  // namespace berth::io::internal
