// BuildManifestWork: the OCM ManifestWork (work.open-cluster-management.io/v1) that runs one
// admitted hub Workload on the member cluster chosen for it (DESIGN.md "Fleet wiring";
// ocm.md §3; kueue.md §16 for what MultiKueue changes on the copy it sends). Called by the
// engine once per (workload, cluster) it dispatches; io renders the manifests from their
// source documents. Pure; thread-safe; linear in the workload's pods and the snapshot's
// flavors and admission checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "model/kueue.h"
#include "model/snapshot.h"
#include "model/work.h"

namespace berth::dispatch {

struct DispatchTarget {
  int32_t workload = -1;  // index into snapshot.kueue_workloads (the hub's Workload)
  std::string cluster;    // the chosen ManagedCluster: the ManifestWork's namespace
  // The cluster runs Kueue and this LocalQueue takes the workload: the objects get it as
  // queue label and stay suspended, so the worker's Kueue admits them again. nullopt: the
  // cluster runs no queues: the queue label is removed, the job unsuspended and the hub
  // admission's flavors and topology injected into the pod templates (flavor_injection.h).
  std::optional<std::string> worker_local_queue;
  // The hub's admission (flavors, topology); nullptr: the Workload's own, if any.
  const model::Admission* admission = nullptr;
};

// The ManifestWork for `target`:
// - metadata.name: ManifestWorkName (work_names.h), "<ns>.<name>" of the hub Workload;
//   namespace: target.cluster; labels berth.dev/workload = WorkloadLabelValue and, when the
//   Workload's checks (its statuses, else its ClusterQueue's) name an AdmissionCheck of
//   controller open-cluster-management.io/placement or kueue.x-k8s.io/multikueue,
//   berth.dev/placed-by = that check's name (bounded to 63 characters).
// - manifests: first the Fluid DataLoads that prefetch its datasets in target.cluster
//   (prefetch.h: Prefetches, rendered by io from ManifestPatch::data_load), then the Workload's job (Workload::owner_workload) or, for a Workload without
//   one, each pod of Workload::pods read from the input (a pod group), in pod set order.
//   Every manifest: queue label set to the worker LocalQueue or removed; suspend (only for
//   KindRules::suspendable kinds) true with a worker queue, else false; the berth.dev/cluster
//   annotation, when the object carries it, set to target.cluster. Without a worker queue,
//   one TemplatePatch per pod set the admission assigns (none when there is nothing to add):
//   InjectionFor's nodeSelector and tolerations, then SharedTopologySelector's levels on top
//   (a topology level wins over a flavor label, as the ungater writes it last). A Pod
//   manifest gets a TemplatePatch named after its pod set that io applies to the pod's own
//   spec, pinned to the pod's own domain (PodTopologySelector).
// - manifestConfigs: one per manifest whose kind has feedback rules (kind_rules.h).
// - deleteOption left unset (Foreground); created = true; cluster = the Workload's (hub's).
// Errors: InvalidArgument when target.workload is out of range or target.cluster is empty;
// FailedPrecondition when there is no admission and no worker queue, or the Workload has
// neither a job nor pods from the input to send.
core::Result<model::ManifestWork> BuildManifestWork(const model::Snapshot& snapshot,
                                                    const DispatchTarget& target);

}  // namespace berth::dispatch
