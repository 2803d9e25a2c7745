// Which objects a workload already has: the pods (and child objects) it owns in the input,
// so that Reader::Finish expands only the pods its controller would still create, and a
// running Job does not also plan as a pending copy of itself. Internal to io; built once
// per Finish over the given pods and workloads; read-only afterwards.
//
// Ownership, as the controllers and the garbage collector see it:
// - a pod belongs to the workload its controller ownerReference names (by uid; by kind and
//   name when the reference has no uid), or, without one, to the Job its
//   batch.kubernetes.io/controller-uid / controller-uid (else batch.kubernetes.io/job-name /
//   job-name) label names; without either, to the MPIJob, RayCluster or Volcano Job its
//   controller's labels name (training.kubeflow.org/job-name with operator-name
//   mpi-operator, ray.io/cluster, volcano.sh/job-name);
// - a workload whose controller is another workload read is nested in it: a Deployment's
//   ReplicaSets, a JobSet's child Jobs, a LeaderWorkerSet's StatefulSets (also by its
//   leaderworkerset.sigs.k8s.io/name label, since worker StatefulSets are owned by the
//   leader pod), an MPIJob's launcher Job, a RayJob's RayCluster and submitter Job. A nested
//   workload is neither expanded nor given a Kueue Workload; its pods
//   belong to the outermost workload.
// Each kind's rule for turning owned pods into filled and missing slots is a column of its
// row in the table of kinds (internal/kind_table.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/internal/decoders.h"
#include "model/snapshot.h"
#include "model/workload_object.h"

namespace berth::io::internal {

// What one workload already has, per pod set (parallel to its pod_sets).
struct ExistingPods {
  // Live pods it owns (not Succeeded or Failed), as indices into Snapshot::pods.
  std::vector<std::vector<int32_t>> live;
  // The slots (the index_in_set a PodIdentityFn takes) its controller would still create,
  // ascending. A Job's completion index may lie beyond the set's count.
  std::vector<std::vector<int32_t>> missing;
};

// A kind's ownership rule: from `owned` (indices into snapshot.pods of every pod the
// workload owns, any phase, in input order) fills `out` (sized to the pod sets).
//   ReplicaOwnership          ReplicaSet: replicas minus live pods
//   DeploymentOwnership       replicas minus live pods; during a rollout (an older
//                             ReplicaSet, by deployment.kubernetes.io/revision, still has
//                             live pods) the Deployment controller's NewRSNewReplicas: the
//                             newest ReplicaSet grows to at most replicas + maxSurge over
//                             all ReplicaSets' spec.replicas (Recreate: not while old pods
//                             run), and only its missing pods are expanded; old pods stay
//   JobOwnership              Job: parallelism and completions less succeeded and active
//                             pods; Indexed: the completion indexes neither done nor running
//   StatefulSetOwnership      ordinals not held by a live pod (from the pod name)
//   JobSetOwnership           per child Job and completion index (jobset and job labels)
//   PyTorchJobOwnership       per replica type and index (training.kubeflow.org labels)
//   LeaderWorkerSetOwnership  per group and worker index (leaderworkerset labels)
//   MPIJobOwnership           launcher and worker index (job-role label; worker index from
//                             the pod name `<job>-worker-<i>`, else replica-index)
//   RayOwnership              head, worker groups (ray.io/node-type and ray.io/group; workers
//                             are interchangeable) and a RayJob's submitter
//   VolcanoJobOwnership       per task and index (volcano.sh/task-spec and task-index)
using OwnershipFn = void (*)(const model::WorkloadObject& workload,
                             const std::vector<PodSetSource>& sources,
                             std::span<const int32_t> owned, const model::Snapshot& snapshot,
                             ExistingPods* out);
void ReplicaOwnership(const model::WorkloadObject& workload,
                      const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                      const model::Snapshot& snapshot, ExistingPods* out);
void DeploymentOwnership(const model::WorkloadObject& workload,
                         const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                         const model::Snapshot& snapshot, ExistingPods* out);
void JobOwnership(const model::WorkloadObject& workload, const std::vector<PodSetSource>& sources,
                  std::span<const int32_t> owned, const model::Snapshot& snapshot,
                  ExistingPods* out);
void StatefulSetOwnership(const model::WorkloadObject& workload,
                          const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                          const model::Snapshot& snapshot, ExistingPods* out);
void JobSetOwnership(const model::WorkloadObject& workload,
                     const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                     const model::Snapshot& snapshot, ExistingPods* out);
void PyTorchJobOwnership(const model::WorkloadObject& workload,
                         const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                         const model::Snapshot& snapshot, ExistingPods* out);
void LeaderWorkerSetOwnership(const model::WorkloadObject& workload,
                              const std::vector<PodSetSource>& sources,
                              std::span<const int32_t> owned, const model::Snapshot& snapshot,
                              ExistingPods* out);

void MPIJobOwnership(const model::WorkloadObject& workload,
                     const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                     const model::Snapshot& snapshot, ExistingPods* out);
void RayOwnership(const model::WorkloadObject& workload, const std::vector<PodSetSource>& sources,
                  std::span<const int32_t> owned, const model::Snapshot& snapshot,
                  ExistingPods* out);
void VolcanoJobOwnership(const model::WorkloadObject& workload,
                         const std::vector<PodSetSource>& sources, std::span<const int32_t> owned,
                         const model::Snapshot& snapshot, ExistingPods* out);

// The completion index of a Job's pod (the batch.kubernetes.io/job-completion-index
// annotation, else label); -1 when it has none or it is not a number.
int32_t CompletionIndexOf(const model::Pod& pod);

// The ownership of every given pod and workload of a snapshot. Built in one pass over pods
// and workloads with hash maps keyed by uid and by name (never a scan of the pods per
// workload); holds indices only, so the snapshot may grow and its workloads move afterwards.
class Ownership {
 public:
  explicit Ownership(const model::Snapshot& snapshot);

  // Whether snapshot.workloads[w] belongs to another workload read.
  bool Nested(size_t w) const { return parent_[w] >= 0; }

  // Indices into snapshot.pods of the pods snapshot.workloads[w] owns (directly or through
  // its nested workloads), in input order.
  std::span<const int32_t> Owned(size_t w) const { return owned_[w]; }

  // What `workload` (snapshot.workloads[w] as read) already has, by its kind's rule; false
  // (and `out` untouched) when it owns no pod, so expansion creates every pod as before.
  bool Existing(size_t w, const model::WorkloadObject& workload,
                const std::vector<PodSetSource>& sources, const model::Snapshot& snapshot,
                ExistingPods* out) const;

 private:
  std::vector<int32_t> parent_;              // per workload: the outermost owner, or -1
  std::vector<std::vector<int32_t>> owned_;  // per workload: owned pods
};

}  // namespace berth::io::internal
