// Builders for the volume filters' tests: claims, volumes, classes and CSINodes as plain
// model values, the way upstream's volumebinding test builds them (makePVC, makePV), and a
// pod using claims by name.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/quantity.h"
#include "model/snapshot.h"

namespace berth::binding::volume_testing {

inline core::Quantity Gi(int64_t n) {
  return core::Quantity::FromUnits(n * 1024 * 1024 * 1024, core::Quantity::Format::kBinarySI);
}

struct ClaimB {
  model::PersistentVolumeClaim c;
  ClaimB(std::string name, std::optional<std::string> class_name) {
    c.meta.name = std::move(name);
    c.meta.namespace_ = "default";
    c.storage_class_name = std::move(class_name);
    c.access_modes = {"ReadWriteOnce"};
    c.storage_request = Gi(1);
  }
  ClaimB& BoundTo(std::string volume) {
    c.volume_name = std::move(volume);
    c.phase = "Bound";
    c.meta.annotations["pv.kubernetes.io/bind-completed"] = "yes";
    return *this;
  }
  ClaimB& Phase(std::string phase) {
    c.phase = std::move(phase);
    return *this;
  }
  ClaimB& Request(core::Quantity q) {
    c.storage_request = q;
    return *this;
  }
  ClaimB& Modes(std::vector<std::string> modes) {
    c.access_modes = std::move(modes);
    return *this;
  }
  ClaimB& SelectedNode(std::string node) {
    c.selected_node = std::move(node);
    return *this;
  }
  operator model::PersistentVolumeClaim() const { return c; }  // NOLINT: builder
};

struct VolumeB {
  model::PersistentVolume v;
  VolumeB(std::string name, std::string class_name) {
    v.meta.name = std::move(name);
    v.storage_class_name = std::move(class_name);
    v.access_modes = {"ReadWriteOnce"};
    v.capacity = Gi(1);
    v.phase = "Available";
  }
  VolumeB& Capacity(core::Quantity q) {
    v.capacity = q;
    return *this;
  }
  // One node selector term requiring each key to be one of its values.
  VolumeB& NodeAffinity(const std::map<std::string, std::vector<std::string>>& keys) {
    core::NodeSelectorTerm term;
    for (const auto& [key, values] : keys) {
      core::SelectorRequirement r;
      r.key = key;
      r.op = core::SelectorOp::kIn;
      r.values = values;
      term.match_expressions.push_back(std::move(r));
    }
    core::NodeSelector selector;
    selector.terms.push_back(std::move(term));
    v.node_affinity = std::move(selector);
    return *this;
  }
  VolumeB& Label(std::string key, std::string value) {
    v.meta.labels[std::move(key)] = std::move(value);
    return *this;
  }
  VolumeB& ClaimRef(std::string name) {
    v.claim_namespace = "default";
    v.claim_name = std::move(name);
    v.phase = "Bound";
    return *this;
  }
  VolumeB& Csi(std::string driver, std::string handle) {
    v.csi_driver = std::move(driver);
    v.csi_volume_handle = std::move(handle);
    return *this;
  }
  operator model::PersistentVolume() const { return v; }  // NOLINT: builder
};

inline model::StorageClass Class(std::string name, std::string mode,
                                 std::string provisioner = "csi.example.com") {
  model::StorageClass sc;
  sc.meta.name = std::move(name);
  sc.volume_binding_mode = std::move(mode);
  sc.provisioner = std::move(provisioner);
  return sc;
}

inline void UseClaims(model::Pod& pod, const std::vector<std::string>& claims) {
  for (const std::string& claim : claims) {
    model::PodVolume v;
    v.name = claim;
    v.claim_name = claim;
    pod.volumes.push_back(std::move(v));
  }
}

inline model::CSINode CsiNode(std::string node, std::string driver, int32_t count) {
  model::CSINode n;
  n.meta.name = std::move(node);
  model::CSINodeDriver d;
  d.name = std::move(driver);
  d.node_id = n.meta.name;
  d.allocatable_count = count;
  n.drivers.push_back(std::move(d));
  return n;
}

}  // namespace berth::binding::volume_testing
