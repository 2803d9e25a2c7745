// ManagedClusterValue: the `managedCluster` variable of celSelector expressions, the
// ManagedCluster as the unstructured object OCM converts it to (apiVersion, kind,
// metadata {name, labels, annotations}, spec {hubAcceptsClient, taints}, status
// {clusterClaims, capacity, allocatable (quantities as strings), conditions, version}),
// answered lazily from the model object: nothing is copied or built until an expression
// reads it. ClusterFilter keeps one per check loop and points it at each cluster in turn,
// so evaluating CEL against thousands of clusters allocates nothing per cluster (reading a
// quantity or a taint's timeAdded formats one string).
// Not thread-safe (one per thread); the value it hands out borrows it and the cluster.
#pragma once

#include <memory>

#include "cel/value.h"
#include "model/ocm.h"

namespace berth::placement {

class ManagedClusterValue {
 public:
  ManagedClusterValue();
  ManagedClusterValue(const ManagedClusterValue&) = delete;  // handed-out values point here
  ManagedClusterValue& operator=(const ManagedClusterValue&) = delete;
  ~ManagedClusterValue();

  // Points the value at `cluster`, which must outlive every use of value() until the next
  // Reset. Reuses the buffers of earlier clusters: allocates only when this cluster has
  // more claims, taints or conditions than any before.
  void Reset(const model::ManagedCluster& cluster);

  // The map to bind to `managedCluster`. Precondition: Reset was called.
  cel::Value value() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace berth::placement
