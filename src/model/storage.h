// Storage: PersistentVolumeClaim, PersistentVolume (v1), StorageClass and CSINode
// (storage.k8s.io/v1). Plain data, read by io; binding's volume filters (VolumeBinding,
// VolumeRestrictions, VolumeZone, NodeVolumeLimits) plan with them and berth doctor's
// storage rules check them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "model/object_meta.h"

namespace berth::model {

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::vector<std::string> access_modes;  // ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod
  std::optional<std::string> storage_class_name;  // nullopt: the default class
  std::string volume_name;                        // spec.volumeName, once bound
  std::string phase;                              // status.phase: Pending, Bound, Lost
  core::Quantity storage_request;                 // spec.resources.requests.storage
  std::optional<core::LabelSelector> selector;    // spec.selector: which volumes may bind
  std::string volume_mode = "Filesystem";         // spec.volumeMode: Filesystem or Block
  // Set by the plan when a bind bound the claim (volume_name, phase Bound) or left it to
  // its provisioner on a node (selected_node): the plan prints the claim.
  bool planned = false;
  // The node the scheduler picked for a WaitForFirstConsumer claim
  // (annotation volume.kubernetes.io/selected-node).
  std::string selected_node;
  std::string cluster = "default";
  SourceRef source;
};

struct PersistentVolume {
  ObjectMeta meta;
  std::vector<std::string> access_modes;
  std::string storage_class_name;
  std::string claim_namespace;  // spec.claimRef
  std::string claim_name;
  std::string claim_uid;                   // spec.claimRef.uid, when given
  core::Quantity capacity;                 // spec.capacity.storage
  std::string phase;                       // status.phase: Available, Bound, Released, ...
  std::string volume_mode = "Filesystem";  // spec.volumeMode
  std::string csi_driver;                  // spec.csi.driver; empty for other sources
  std::string csi_volume_handle;           // spec.csi.volumeHandle
  // Set by the plan when a bind gave the volume to a claim (claimRef, phase Bound): the
  // plan prints the volume.
  bool planned = false;
  // spec.nodeAffinity.required: the nodes that can reach the volume (local volumes).
  std::optional<core::NodeSelector> node_affinity;
  std::string cluster = "default";
  SourceRef source;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  std::string volume_binding_mode = "Immediate";  // or WaitForFirstConsumer
  bool is_default = false;  // annotation storageclass.kubernetes.io/is-default-class: "true"
  // allowedTopologies' label expressions, as node selector terms.
  std::optional<core::NodeSelector> allowed_topologies;
  std::string cluster = "default";
  SourceRef source;
};

// storage.k8s.io/v1 CSINode: the CSI drivers a node runs and how many of each driver's
// volumes it can attach (spec.drivers[].allocatable.count), for NodeVolumeLimits.
struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<int32_t> allocatable_count;  // nullopt: no limit
};

struct CSINode {
  ObjectMeta meta;  // named as its node
  std::vector<CSINodeDriver> drivers;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
