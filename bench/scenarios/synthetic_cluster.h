// Seeded generator of synthetic clusters for benchmarks and scale runs: a mix of CPU nodes
// and 8-GPU nodes (A100/H100, some tainted, some in several zones and racks) and pods of
// mixed shapes (CPU services, 1/2/4/8-GPU training pods, inference pods with tolerations
// and node selectors). Same seed, same cluster. Used by bench/binding_bench.cc (as a model
// Snapshot) and bench/io_bench.cc (rendered as a `kubectl get -A -o json` dump).
#pragma once

#include <cstdint>
#include <string>

#include "model/snapshot.h"

namespace berth::bench {

struct SyntheticClusterSpec {
  int32_t nodes = 10000;
  int32_t pods = 100000;
  uint64_t seed = 42;
  double gpu_node_fraction = 0.4;   // the rest are CPU nodes
  double bound_pod_fraction = 0.0;  // pods generated with spec.nodeName already set
  // RenderKubectlJson only: every object carries metadata.managedFields as the API server
  // records them (kubectl printed them before 1.21, and `--show-managed-fields` still
  // does), the bulk of a real dump's bytes that no stage reads.
  bool managed_fields = false;
  // RenderKubectlJson only: one item per line without indentation (as `kubectl get -o json |
  // jq -c '.items[]'` prints them, wrapped in the List) instead of kubectl's 4-space layout.
  bool compact = false;
  // RenderKubectlJson only: objects with the fields a scheduler reads and little else (no
  // managedFields, annotations, images, volumes, container statuses), about 340 bytes each:
  // the size of issue 12's dump (37 MB for 10,000 nodes and 100,000 pods).
  bool minimal = false;
};

// Builds the cluster directly as a model Snapshot (no parsing).
model::Snapshot MakeSyntheticCluster(const SyntheticClusterSpec& spec);

// Renders the same cluster as the JSON `kubectl get nodes,pods -A -o json` would print:
// one v1 List with full Node and Pod objects (metadata, spec, status).
std::string RenderKubectlJson(const SyntheticClusterSpec& spec);

}  // namespace berth::bench
