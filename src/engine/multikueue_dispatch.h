// MultiKueue dispatch modes: which worker clusters a hub workload is nominated to, in what
// rounds, and which of them runs it (docs/fleet.md "Dispatch modes"). berth's default,
// best-fit, tries the candidates one by one in preference order (the Placement's score, or
// the MultiKueueConfig's list) and the first that fits runs the workload. Kueue's own
// dispatchers, selected as Kueue selects them (Configuration multiKueue.dispatcherName),
// send copies instead: AllAtOnce to every connected worker at once, Incremental to
// `stepSize` more workers per round (a round lasts five minutes), an external dispatcher to
// whatever it wrote into status.nominatedClusterNames; the first worker whose Kueue admits
// the copy wins and the other copies are removed. FleetDispatcher (fleet_dispatcher.h)
// runs them; these are the pure parts. Stateless; internal to engine.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/snapshot.h"

namespace berth::engine {

inline constexpr std::string_view kAllAtOnceDispatcher =
    "kueue.x-k8s.io/multikueue-dispatcher-all-at-once";
inline constexpr std::string_view kIncrementalDispatcher =
    "kueue.x-k8s.io/multikueue-dispatcher-incremental";
// pkg/controller/workloaddispatcher/incrementaldispatcher.go: DefaultStepSize and
// incrementalDispatcherRoundTimeout.
inline constexpr int32_t kDefaultIncrementalStepSize = 3;
inline constexpr int64_t kIncrementalRoundTimeoutS = 300;
// Kueue feature gates (pkg/features/kube_features.go; both Beta, on by default since 0.19):
// without the first, stepSize is ignored (3); without the second, each round's clusters are
// taken in name order instead of the MultiKueueConfig's.
inline constexpr std::string_view kIncrementalConfigGate = "MultiKueueIncrementalDispatcherConfig";
inline constexpr std::string_view kIncrementalConfigOrderGate =
    "MultiKueueIncrementalDispatcherRespectConfigOrder";

enum class DispatchMode {
  kBestFit,      // berth: candidates one by one in preference order, first that fits
  kAllAtOnce,    // Kueue: every connected candidate nominated at once
  kIncremental,  // Kueue: stepSize more candidates nominated per round
  kExternal,     // another controller nominates (status.nominatedClusterNames as read)
};

struct DispatchPolicy {
  DispatchMode mode = DispatchMode::kBestFit;
  std::string dispatcher_name;  // as configured; empty for best-fit
  int32_t step_size = kDefaultIncrementalStepSize;
  bool respect_config_order = true;
};

// The policy `snapshot`'s Kueue Configuration selects: best-fit when it gives no
// multiKueue.dispatcherName (Kueue would then use all-at-once: berth keeps its own default
// unless asked), else the named dispatcher with its step size and feature gates.
DispatchPolicy ResolveDispatchPolicy(const model::Snapshot& snapshot);

// "BestFit", "AllAtOnce", "Incremental", "External": what explain prints.
std::string_view DispatchModeName(DispatchMode mode);

// The workers the incremental dispatcher nominates next (upstream getNextNominatedWorkers):
// of `remote_clusters` (the MultiKueueConfig's, in its order), those not in
// `already_nominated`, in that order, or in name order when `respect_config_order` is off,
// at most `step_size` of them. Empty when none remain (upstream's ErrNoMoreWorkers).
// `remote_clusters` is not reordered. O(n log n).
std::vector<std::string> NextNominatedWorkers(const std::vector<std::string>& remote_clusters,
                                              const std::vector<std::string>& already_nominated,
                                              int32_t step_size, bool respect_config_order);

// Every round the incremental dispatcher makes until no cluster remains: round k holds
// the clusters nominated when the k-th round starts (status.nominatedClusterNames grows by
// appending them). With step_size <= 0 one round holds them all.
std::vector<std::vector<std::string>> IncrementalRounds(
    const std::vector<std::string>& remote_clusters, int32_t step_size, bool respect_config_order);

}  // namespace berth::engine
