// Event: what can happen in a simulated run, as a tagged value (std::variant of small payload
// structs) that the EventQueue orders and the simulator dispatches on with std::visit or
// KindOf(). Payloads refer to jobs, nodes, clusters and node pools by index into the
// simulator's own tables, never by pointer or name, so an event is 24 bytes and trivially
// copyable. Plain data; thread-compatible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>

namespace berth::sim {

// Indices into the simulator's tables (jobs of the trace, nodes, member clusters, node pools
// of the scenario). -1 means "none".
struct JobIndex {
  int32_t v = -1;
  auto operator<=>(const JobIndex&) const = default;
};
struct NodeIndex {
  int32_t v = -1;
  auto operator<=>(const NodeIndex&) const = default;
};
struct ClusterIndex {
  int32_t v = -1;
  auto operator<=>(const ClusterIndex&) const = default;
};
struct PoolIndex {
  int32_t v = -1;
  auto operator<=>(const PoolIndex&) const = default;
};

// A job of the trace is submitted.
struct ArrivalEvent {
  JobIndex job;
};
// A running job ends. `attempt` counts the job's starts, so a completion scheduled for an
// attempt that was preempted or failed meanwhile can be told apart (when it was not cancelled).
struct CompletionEvent {
  JobIndex job;
  int32_t attempt = 0;
};
// The user deletes a job (pending or running).
struct CancellationEvent {
  JobIndex job;
};
// A node goes down: its pods fail and are requeued per their restart policy.
struct NodeFailureEvent {
  NodeIndex node;
};
struct NodeRecoveryEvent {
  NodeIndex node;
};
// One GPU of a node is lost (XID error, fallen off the bus); the pods on it fail.
struct GpuFailureEvent {
  NodeIndex node;
  int32_t gpu = -1;
};
struct GpuRecoveryEvent {
  NodeIndex node;
  int32_t gpu = -1;
};
// A member cluster becomes unreachable; its workloads are re-dispatched once the toleration
// expires (ClusterTolerationExpiredEvent), unless it recovers first.
struct ClusterLossEvent {
  ClusterIndex cluster;
};
struct ClusterTolerationExpiredEvent {
  ClusterIndex cluster;
};
struct ClusterRecoveryEvent {
  ClusterIndex cluster;
};
// A planned drain of a node pool (respecting PodDisruptionBudgets), and its end.
struct DrainEvent {
  PoolIndex pool;
};
struct UncordonEvent {
  PoolIndex pool;
};
// A MIG layout change on a pool: the pool is drained, re-partitioned to `layout` (an index
// into the scenario's layouts) and returned at MigReprofileEndEvent.
struct MigReprofileStartEvent {
  PoolIndex pool;
  int32_t layout = -1;
};
struct MigReprofileEndEvent {
  PoolIndex pool;
  int32_t layout = -1;
};
// A node pool is asked to grow (delta_nodes > 0) or shrink (< 0). New nodes become usable
// cold_start_ms later, at the CapacityReadyEvent the simulator schedules on handling this one.
struct CapacityChangeEvent {
  PoolIndex pool;
  int32_t delta_nodes = 0;
  int64_t cold_start_ms = 0;
};
struct CapacityReadyEvent {
  PoolIndex pool;
  int32_t delta_nodes = 0;
};
// Periodic: run the engine's cycle at a configured interval and/or sample metrics.
struct MetricsTickEvent {};

// The order of the alternatives is the order of EventKind below (checked at compile time).
using Event = std::variant<ArrivalEvent, CompletionEvent, CancellationEvent, NodeFailureEvent,
                           NodeRecoveryEvent, GpuFailureEvent, GpuRecoveryEvent, ClusterLossEvent,
                           ClusterTolerationExpiredEvent, ClusterRecoveryEvent, DrainEvent,
                           UncordonEvent, MigReprofileStartEvent, MigReprofileEndEvent,
                           CapacityChangeEvent, CapacityReadyEvent, MetricsTickEvent>;

enum class EventKind : uint8_t {
  kArrival,
  kCompletion,
  kCancellation,
  kNodeFailure,
  kNodeRecovery,
  kGpuFailure,
  kGpuRecovery,
  kClusterLoss,
  kClusterTolerationExpired,
  kClusterRecovery,
  kDrain,
  kUncordon,
  kMigReprofileStart,
  kMigReprofileEnd,
  kCapacityChange,
  kCapacityReady,
  kMetricsTick,
};
inline constexpr int kEventKindCount = static_cast<int>(EventKind::kMetricsTick) + 1;
static_assert(std::variant_size_v<Event> == kEventKindCount, "Event and EventKind disagree");
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<size_t>(EventKind::kGpuFailure), Event>,
                   GpuFailureEvent>,
    "Event and EventKind disagree");
static_assert(std::is_same_v<
                  std::variant_alternative_t<static_cast<size_t>(EventKind::kCapacityReady), Event>,
                  CapacityReadyEvent>,
              "Event and EventKind disagree");
static_assert(std::is_trivially_copyable_v<Event>, "events are copied through the heap");

inline EventKind KindOf(const Event& event) { return static_cast<EventKind>(event.index()); }

// Stable snake_case name ("arrival", "gpu_failure", ...) used in logs, traces and reports.
const char* EventKindName(EventKind kind);

}  // namespace berth::sim
