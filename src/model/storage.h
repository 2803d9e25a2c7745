// Storage as berth doctor reads it: PersistentVolumeClaim, PersistentVolume (v1) and
// StorageClass (storage.k8s.io/v1). Plain data; the plan does not use them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/selector.h"
#include "model/object_meta.h"

namespace berth::model {

struct PersistentVolumeClaim {
  ObjectMeta meta;
  std::vector<std::string> access_modes;  // ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod
  std::optional<std::string> storage_class_name;  // nullopt: the default class
  std::string volume_name;                        // spec.volumeName, once bound
  std::string phase;                              // status.phase: Pending, Bound, Lost
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

}  // namespace berth::model
