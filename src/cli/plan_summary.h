// PlanSummary: what `berth plan -o table` and `berth demo` print after the plan's tables: the
// CLUSTERQUEUES table (quota per flavor and resource: nominal, used, borrowed, and the
// pending Workloads) when the plan has ClusterQueues, and one summary line counting the
// pods bound, pending and preempted and the Workloads admitted and pending. Read from the
// plan alone (server/metrics/queue_counts.h counts the queues, as the hub's queue status
// does). Pure; thread-compatible.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "engine/plan.h"

namespace berth::cli {

struct PlanCounts {
  int64_t bound = 0;       // pods the plan bound
  int64_t pending = 0;     // pods left unschedulable (or served by no profile)
  int64_t preempted = 0;   // pods deleted or left terminating because their workload was evicted
  int64_t workloads_admitted = 0;
  int64_t workloads_pending = 0;  // every printed Workload not admitted nor finished
};

PlanCounts CountPlan(const engine::Plan& plan);

// "Summary: 5 pods bound, 1 pending, 3 preempted; 4 workloads admitted, 2 pending" (the
// workloads part only when the plan prints Workloads).
std::string PlanSummaryLine(const engine::Plan& plan);

// The CLUSTERQUEUES table: NAME, COHORT, FLAVOR/RESOURCE, NOMINAL, USED (quota reserved),
// BORROWED (used beyond nominal), PENDING (Workloads waiting), one row per flavor and
// resource of the queue's resource groups, the queue's columns on its first row; a CLUSTER
// column first when the queues belong to several clusters. Prints nothing without
// ClusterQueues; else a blank line first.
void PrintClusterQueueTable(const engine::Plan& plan, std::ostream& out);

// The table and then the summary line (after a blank line).
void PrintPlanTableFooter(const engine::Plan& plan, std::ostream& out);

}  // namespace berth::cli
