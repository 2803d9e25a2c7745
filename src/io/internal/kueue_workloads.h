// The Kueue Workloads that Kueue's job integrations would create, made by Reader::Finish
// for every Job, JobSet, PyTorchJob, LeaderWorkerSet, Deployment, StatefulSet and bare Pod
// that carries the kueue.x-k8s.io/queue-name label (DESIGN.md: `<kind lowercased>-<name>`,
// pod groups `pod-group-<name>`). A Workload of that name given in the input is used
// instead and only linked to its job and pods. Internal to io; works on the snapshot and
// document store it is given; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "io/document_store.h"
#include "io/internal/decoders.h"
#include "io/internal/expand.h"
#include "model/snapshot.h"

namespace berth::io::internal {

inline constexpr const char* kQueueNameLabel = "kueue.x-k8s.io/queue-name";
inline constexpr const char* kPriorityClassLabel = "kueue.x-k8s.io/priority-class";
inline constexpr const char* kJobMinParallelismAnnotation = "kueue.x-k8s.io/job-min-parallelism";
inline constexpr const char* kPodGroupNameLabel = "kueue.x-k8s.io/pod-group-name";
inline constexpr const char* kPodGroupTotalCountAnnotation = "kueue.x-k8s.io/pod-group-total-count";

// True when `labels` name a queue (a non-empty kueue.x-k8s.io/queue-name).
bool IsQueued(const core::Labels& labels);

class WorkloadCreator {
 public:
  // Indexes the Workloads already in snapshot->kueue_workloads (the given ones).
  WorkloadCreator(model::Snapshot* snapshot, DocumentStore* documents,
                  const PriorityResolver& priorities);

  // The Workload Kueue creates for a queued job, not yet added: name, namespace, queue,
  // priority (kueue.md §7: the kueue.x-k8s.io/priority-class label's WorkloadPriorityClass,
  // else the first pod template's PriorityClass, else the global default, else 0), one
  // PodSet per pod set with count, minCount (Jobs: the job-min-parallelism annotation) and
  // the topology request from the template's annotations (`sources` parallel to the pod
  // sets, for field paths). Errors name the job's field.
  core::Result<model::Workload> ForJob(const model::WorkloadObject& job,
                                       const std::vector<PodSetSource>& sources) const;

  // Adds `workload` for snapshot->workloads[owner], whose pods per pod set are `pods`, with
  // a v1beta2 Workload document whose pod templates are the job's as read (`sources`); or,
  // when a Workload owned by the job (or one of that name) was given, links that one to
  // the job and pods instead.
  void AddForJob(model::Workload workload, int32_t owner, std::vector<std::vector<int32_t>> pods,
                 const std::vector<PodSetSource>& sources, const std::string& file);

  // Workloads for the given pods without an owner that carry the queue-name label: one per
  // pod (`pod-<name>`), or one per kueue.x-k8s.io/pod-group-name (`pod-group-<name>`, count
  // from the pod-group-total-count annotation, else the pods found). Bad labels or
  // annotations are reported to `diags` and that pod or group gets no Workload.
  void AddForPods(core::Diagnostics& diags);

 private:
  core::Status ResolvePriority(const core::Labels& owner_labels, const std::string& cluster,
                               const model::Pod& first_template, model::Workload* wl) const;
  // The given Workload of this identity, or nullptr.
  model::Workload* FindGiven(const model::Workload& wl);
  void Append(model::Workload wl, std::string document_json, const std::string& file);

  model::Snapshot& snap_;
  DocumentStore& documents_;
  const PriorityResolver& priorities_;
  std::unordered_map<std::string, size_t> given_;  // cluster/namespace/name -> index
  // cluster/uid of the job a given Workload belongs to (its controller ownerReference, else
  // the kueue.x-k8s.io/job-uid label) -> index: Kueue's jobframework finds a job's
  // Workload by owner, whatever its name.
  std::unordered_map<std::string, size_t> given_by_job_;
};

}  // namespace berth::io::internal
