// ClusterScorer: one prioritizer of a Placement (upstream's plugins.Prioritizer), and
// ScorerRegistry, the explicit table of BuiltIn prioritizers by name. SchedulePlacement
// builds one scorer per active score coordinate and sums weight × score per cluster.
// berth's extensions (ResourceAllocatableGPU, Cost, Latency, DataLocality,
// berth_scorers.h) register in ScorerRegistry::Berth(). Scorers are immutable after
// construction; Score is const and thread-compatible.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "model/ocm.h"
#include "model/snapshot.h"
#include "placement/addon_score_index.h"
#include "placement/fleet_capacity.h"
#include "placement/load_time_model.h"
#include "placement/placement_artifacts.h"

namespace berth::placement {

// Score bounds of upstream's prioritizers (ocm pkg/placement/plugins/interface.go).
inline constexpr int64_t kMaxClusterScore = 100;
inline constexpr int64_t kMinClusterScore = -100;

// What a scorer may read: the whole snapshot, the placement and the planning time, plus
// the names of the clusters this placement already selected (its own PlacementDecisions),
// the fleet's measured capacity and the AddOnPlacementScores by (namespace, name).
struct ScoreContext {
  const model::Snapshot& snapshot;
  const model::Placement& placement;
  core::Timestamp now;
  const std::vector<std::string>& existing_decisions;  // sorted, unique
  // Free GPUs and cached artifacts per cluster; nullptr or a missing entry: unknown.
  const FleetCapacity* capacity = nullptr;
  // snapshot.addon_placement_scores indexed; nullptr: scorers scan the snapshot.
  const AddOnScoreIndex* addon_scores = nullptr;
  // How long a node takes to load an artifact (DataLocality); nullptr: DataLocality falls
  // back to the share of bytes cached.
  const LoadTimeModel* load_time = nullptr;
  // The placement's artifacts, resolved once by SchedulePlacement (which reports their
  // warnings); nullptr: DataLocality resolves them itself and reports the warnings.
  const PlacementArtifacts* artifacts = nullptr;
};

struct ScoreOutput {
  // Parallel to the clusters scored; nullopt: no entry (the cluster gains nothing).
  std::vector<std::optional<int64_t>> scores;
  std::vector<std::string> warnings;  // e.g. "AddOnPlacementScores c1/usage expired"
  // Explain detail per cluster, e.g. DataLocality's estimated load time: an index into
  // `notes` parallel to `scores` (−1: none), or empty for no notes at all. Clusters that
  // share a note share its index, so a scorer builds each distinct text once.
  std::vector<int32_t> note_of;
  std::vector<std::string> notes;
};

class ClusterScorer {
 public:
  virtual ~ClusterScorer() = default;
  // The stable name used in explain output: "Balance", "AddOn/<resource>/<score>".
  virtual const std::string& Name() const = 0;
  // Scores the feasible clusters (in any order; each appears once).
  virtual ScoreOutput Score(const ScoreContext& context,
                            const std::vector<const model::ManagedCluster*>& clusters) const = 0;
};

// BuiltIn prioritizers by name. Lookup is exact and case-sensitive, as upstream's.
class ScorerRegistry {
 public:
  using Factory = std::function<std::unique_ptr<ClusterScorer>()>;

  // Adds or replaces the factory for `built_in_name`.
  void Register(std::string built_in_name, Factory factory);
  // The scorer for `built_in_name`, or nullptr when no factory is registered.
  std::unique_ptr<ClusterScorer> Make(std::string_view built_in_name) const;
  bool Contains(std::string_view built_in_name) const;

  // upstream's four: Balance, Steady, ResourceAllocatableCPU, ResourceAllocatableMemory.
  static ScorerRegistry Upstream();
  // Upstream's four plus berth's: ResourceAllocatableGPU, Cost, Latency, DataLocality.
  // SchedulePlacement's default.
  static ScorerRegistry Berth();

 private:
  std::map<std::string, Factory, std::less<>> factories_;
};

}  // namespace berth::placement
