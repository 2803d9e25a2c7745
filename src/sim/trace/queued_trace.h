// QueuedTrace: a trace whose jobs each carry the Kueue LocalQueue they are submitted to, as
// the simulator needs them to create Workloads (spec.queueName in the queue's namespace).
// Built by AssignQueues from a Trace and a TenantMapping; the CLI's --tenant-queues FILE and
// --tenant-queue flags. Plain value types; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "sim/trace/tenant_mapping.h"
#include "sim/trace/trace.h"

namespace berth::sim {

struct QueuedJob {
  TraceJob job;
  int32_t queue = 0;  // index into QueuedTrace::queues

  bool operator==(const QueuedJob&) const = default;
};

struct QueuedTrace {
  std::string name;
  std::string file;
  // The queues the jobs use, each once, sorted by (namespace, name): the LocalQueues the
  // simulated cluster must have.
  std::vector<QueueRef> queues;
  std::vector<QueuedJob> jobs;  // in the trace's order: (submit_s, line)
  int64_t skipped_rows = 0;     // the trace's, plus jobs dropped here

  bool operator==(const QueuedTrace&) const = default;
};

// Gives every job its tenant's queue (TenantMapping::Find: its own, else the default). A job
// whose tenant has neither is a bad row "FILE:LINE: column tenant: why", where FILE is
// trace.file; it stops the call, or with `skip_bad_rows` is warned to `diags`, dropped and
// counted. Cost: one hash lookup per distinct tenant, O(jobs) otherwise.
core::Result<QueuedTrace> AssignQueues(Trace trace, const TenantMapping& mapping,
                                       bool skip_bad_rows, core::Diagnostics& diags);

}  // namespace berth::sim
