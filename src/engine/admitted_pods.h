// AdmittedPods: the pods of an admitted Kueue Workload as its job creates them once Kueue
// unsuspends it: the first `count` pods of each pod set (partial admission runs fewer), each
// with the nodeLabels of its assigned flavors merged into spec.nodeSelector and the flavors'
// tolerations added (Kueue's podset info injection), and, under a topology assignment,
// pinned to its domain by a nodeSelector on every topology level (Kueue's TAS ungater).
// Pure; called by the engine's admission oracle and for workloads admitted in the input.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/labels.h"
#include "core/taint.h"
#include "model/kueue.h"
#include "model/snapshot.h"

namespace berth::engine {

struct AdmittedPod {
  model::PodIndex pod;  // index in the snapshot given
  model::Pod spec;      // the pod as it must be scheduled
  size_t pod_set = 0;   // index into the workload's pod_sets
  // What the admission adds to the pod (in `spec` already): nodeSelector entries (flavors'
  // nodeLabels, topology pins) and tolerations.
  core::Labels added_node_selector;
  std::vector<core::Toleration> added_tolerations;
};

// A workload admitted in the input keeps running: it has an admission, QuotaReserved is not
// False, and it is neither finished nor evicted. Its job's pods exist (or are being
// created) as the plan starts.
bool HoldsAdmission(const model::Workload& w);

// Merges an admission's nodeSelector entries into the pod's (replacing a key's value) and
// appends its tolerations the pod lacks, as Kueue's podset info injection does.
void AddAdmission(const core::Labels& node_selector,
                  const std::vector<core::Toleration>& tolerations, model::Pod* pod);

// Pods of `workload` (its `pods`, per pod set) under `admission`. Pod sets the admission
// does not name get no pods. Linear in the workload's pods.
std::vector<AdmittedPod> AdmittedPods(const model::Snapshot& snapshot,
                                      const model::Workload& workload,
                                      const model::Admission& admission);

// The pods a workload runs under `admission` as guests of another scheduler (fleet dispatch
// to a worker, berth simulate's replay): its expanded pods, or for a Workload without a job
// its pod set templates (named <workload>-<pod set>-<i>); the nodeLabels and tolerations of
// the admission's flavors in `flavor_cluster` injected; a topology assignment pinned by
// nodeSelector; `worker` as their cluster; no nodeName and no ResourceClaims. Linear in the
// pods.
std::vector<model::Pod> GuestPods(const model::Snapshot& whole, int32_t workload,
                                  const model::Admission& admission,
                                  const std::string& flavor_cluster, const std::string& worker);

}  // namespace berth::engine
