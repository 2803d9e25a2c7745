// Kueue's metrics, with Kueue's names and labels (pkg/metrics; ../shared/reference/serve.md
// §3), computed by the hub from its own state: gauges recomputed after every scheduling cycle
// from the planned snapshot (pending, reserving and admitted workloads per ClusterQueue and
// LocalQueue, quota reservation, usage and nominal quota per flavor and resource), and
// counters and wait-time histograms recorded when a cycle changes a Workload (quota reserved,
// admitted, evicted). Every series carries replica_role as Kueue's do. Amounts are in the
// units Kueue reports: cpu in cores, memory in bytes, others as counts.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "model/snapshot.h"
#include "server/metrics/metrics_registry.h"
#include "server/metrics/queue_counts.h"

namespace berth::server {

// Declares the families (help, type, Kueue's buckets) once per registry.
void DescribeKueueMetrics(MetricsRegistry& registry);

// Replaces the gauge families from `planned` (the state a cycle leaves) and its queues'
// `counts` (CountQueues of the same snapshot, which the caller also writes the queues'
// status from).
void UpdateKueueGauges(const model::Snapshot& planned, const FleetQueueCounts& counts,
                       const std::string& replica_role, MetricsRegistry& registry);

// Records what changed between a Workload as stored (`before`, null when the cycle created
// it) and as the cycle wrote it (`after`): quota reserved and admitted (counters, and the
// wait since creation in the histograms), evicted (counter by reason). `now_s` is the cycle's
// time.
void RecordWorkloadTransition(const nlohmann::ordered_json* before,
                              const nlohmann::ordered_json& after, int64_t now_s,
                              const std::string& replica_role, MetricsRegistry& registry);

}  // namespace berth::server
