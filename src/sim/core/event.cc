#include "sim/core/event.h"

#include <array>
#include <cstddef>

namespace berth::sim {
namespace {

// Indexed by EventKind; the size check below keeps the table in step with the enum.
constexpr std::array<const char*, kEventKindCount> kNames = {
    "arrival",
    "completion",
    "cancellation",
    "node_failure",
    "node_recovery",
    "gpu_failure",
    "gpu_recovery",
    "cluster_loss",
    "cluster_toleration_expired",
    "cluster_recovery",
    "drain",
    "uncordon",
    "mig_reprofile_start",
    "mig_reprofile_end",
    "capacity_change",
    "capacity_ready",
    "metrics_tick",
};

}  // namespace

const char* EventKindName(EventKind kind) {
  const auto i = static_cast<size_t>(kind);
  return i < kNames.size() ? kNames[i] : "unknown";
}

}  // namespace berth::sim
