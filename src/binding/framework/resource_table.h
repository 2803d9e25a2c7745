// ResourceTable: how kube-scheduler treats each resource of a Snapshot's catalog. cpu,
// memory and ephemeral-storage are checked by NodeResourcesFit; "pods" is the pod-count
// limit; scalar resources (extended such as nvidia.com/gpu, hugepages-*, *kubernetes.io/*,
// attachable-volumes-*) are checked by name; anything else (an unprefixed unknown name) is
// ignored, as upstream's framework.Resource drops it. Immutable after construction.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/resources.h"

namespace berth::binding {

enum class ResourceKind : uint8_t { kCpu, kMemory, kEphemeralStorage, kPods, kScalar, kIgnored };

class ResourceTable {
 public:
  explicit ResourceTable(const model::ResourceCatalog& catalog);

  // Number of resource ids; dense per-node and per-pod arrays have this many slots.
  size_t size() const { return kinds_.size(); }
  ResourceKind kind(model::ResourceId id) const { return kinds_[id.v]; }
  const std::string& name(model::ResourceId id) const { return catalog_.Name(id); }
  // False when no object of the snapshot names the resource (then every amount is zero).
  bool Find(std::string_view name, model::ResourceId* id) const { return catalog_.Find(name, id); }
  // Ids NodeResourcesFit checks (every kind but kPods and kIgnored), ascending.
  const std::vector<model::ResourceId>& fit_checked() const { return fit_checked_; }

 private:
  const model::ResourceCatalog& catalog_;
  std::vector<ResourceKind> kinds_;
  std::vector<model::ResourceId> fit_checked_;
};

// Upstream schedutil.IsScalarResourceName.
bool IsScalarResourceName(std::string_view name);

}  // namespace berth::binding
