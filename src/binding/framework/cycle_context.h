// CycleContext: what the plugins may read while one pod is evaluated (upstream's framework
// handle plus CycleState's inputs): the snapshot, the cluster state, the pod and its
// PodInfo, the profile, the cluster's ResourceClaims, the GPU-sharing plugins' cycle state. Built
// per evaluation by the evaluator; borrows everything.
#pragma once

#include "binding/framework/cluster_state.h"
#include "binding/framework/label_sig_table.h"
#include "binding/framework/namespace_table.h"
#include "binding/framework/pod_info.h"
#include "binding/framework/pod_info_store.h"
#include "binding/framework/reason_table.h"
#include "binding/framework/resolved_profile.h"
#include "binding/framework/resource_table.h"
#include "model/snapshot.h"

namespace berth::binding {

class ClaimTracker;
class GpuShareCycle;
class VolumeTracker;

struct CycleContext {
  const model::Snapshot& snapshot;
  const ResourceTable& resources;
  const ClusterState& state;
  const NamespaceTable& namespaces;
  const LabelSigTable& label_sigs;
  const PodInfoStore& pod_infos;  // for the terms of pods already placed
  const ResolvedProfile& profile;
  const model::Pod& pod;
  const PodInfo& info;
  ReasonTable& reasons;  // filters intern reason texts (taint keys, resource names) here
  // The cluster's ResourceClaims and device allocator (DynamicResources); null when the
  // snapshot has no DRA objects and no pod references a claim.
  const ClaimTracker* claims;
  // What the GPU-sharing score plugins share across pods (typical pods, per-node fragment
  // cache); null when no profile weighs one of them.
  const GpuShareCycle* gpu_share;
  // The cluster's claims, volumes, classes and CSINodes (the volume filters); null when no
  // pod has a persistentVolumeClaim volume.
  const VolumeTracker* volumes;
};

}  // namespace berth::binding
