// Which runbook (docs/runbooks/*.md) `berth why` links for a cause: a pending pod's node
// filters, devices lost by the device plugin, NotReady nodes, a failed MIG
// reconfiguration, a broken GPU operator, or a Kueue workload that waits. Pure functions of
// the input; thread-safe.
#pragma once

#include <string>

#include "diag/why_context.h"
#include "model/snapshot.h"

namespace berth::diag {

inline constexpr const char* kRunbookPendingPods = "docs/runbooks/pending-pods.md";
inline constexpr const char* kRunbookLostDevices = "docs/runbooks/lost-devices.md";
inline constexpr const char* kRunbookNotReadyNodes = "docs/runbooks/notready-nodes.md";
inline constexpr const char* kRunbookMigFailed = "docs/runbooks/mig-reconfiguration-failed.md";
inline constexpr const char* kRunbookBrokenOperator = "docs/runbooks/broken-gpu-operator.md";
inline constexpr const char* kRunbookKueuePending = "docs/runbooks/kueue-workload-pending.md";

// The runbook for nodes that rejected a pod together: NotReady or unreachable taints ->
// notready-nodes; an accelerator shortage on nodes whose MIG manager reports
// mig.config.state=failed -> mig-reconfiguration-failed; on GPU-labelled nodes that
// advertise no GPU at all -> broken-gpu-operator when no GPU node of the cluster advertises
// any, else lost-devices; anything else -> pending-pods.
std::string RunbookForNodes(const model::Snapshot& input, const NodeGroup& group);

}  // namespace berth::diag
