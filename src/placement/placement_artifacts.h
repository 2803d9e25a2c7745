// PlacementArtifacts: the models and datasets a Placement names (annotations
// berth.dev/models, berth.dev/datasets: "name[=size],..."), resolved once per Placement
// against the snapshot: size (the annotation, else a Fluid Dataset's status.ufsTotal or an
// InferenceService's berth.dev/model-size), origin region, Fluid cache fractions per member
// cluster, and the residency rules (berth.dev/data-regions on the Dataset, InferenceService
// or Placement; berth.dev/data-compliance on the Dataset). Read by DataLocality
// (berth_scorers.h) and the DataResidency filter (data_residency.h). Plain data;
// ResolveArtifacts is pure and thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/ocm.h"
#include "model/snapshot.h"

namespace berth::placement {

struct PlacementArtifact {
  bool is_model = true;
  std::string name;           // as cache claims list it: "llama-3-70b", "team-a/corpus"
  std::string capacity_name;  // as FleetCapacity lists it: "model/<name>", "dataset/<ns>/<name>"
  int64_t size_bytes = 1;     // unknown: 1 byte (counts next to nothing beside sized ones)
  bool size_known = false;
  std::string origin_region;  // "" = unknown
  // Fraction cached in a member cluster's Fluid cache (the Dataset's, else its runtime's
  // status.cacheStates.cachedPercentage), by cluster name.
  std::vector<std::pair<std::string, double>> cluster_cached_fraction;

  const char* Kind() const { return is_model ? "model" : "dataset"; }
  // "dataset team-a/corpus", "model llama-3-70b".
  std::string Subject() const { return std::string(Kind()) + " " + name; }
};

// One residency rule: where the data may be, and what compliance a cluster must claim.
struct ResidencyRule {
  std::string subject;  // "dataset team-a/patients", "the data of placement ns/p"
  std::string source;   // the object that carries it: "Dataset team-a/patients"
  std::vector<std::string> allowed_regions;  // empty: any region
  std::vector<std::string> compliance;       // empty: none required
  // Set when berth.dev/data-regions did not parse: no cluster qualifies (residency fails
  // closed) and this says why.
  std::string invalid;
};

struct PlacementArtifacts {
  std::vector<PlacementArtifact> artifacts;
  std::vector<ResidencyRule> rules;
  // Bad input, each naming the object and field ("DataLocality: Placement ns/p:
  // berth.dev/models item "x=" needs a name and a positive size").
  std::vector<std::string> warnings;
};

// Resolves `placement`'s artifacts and rules. O(artifacts × (datasets + runtimes +
// inference services) + annotations).
PlacementArtifacts ResolveArtifacts(const model::Snapshot& snapshot,
                                    const model::Placement& placement);

// The cluster's region: claim, else label region.open-cluster-management.io, else label
// topology.kubernetes.io/region; nullptr when it has none. Allocates nothing.
const std::string* ClusterRegion(const model::ManagedCluster& cluster);

}  // namespace berth::placement
