// `berth why`: the chain of reasons a pod or workload waits, across the layers of
// DESIGN.md "Diagnostics output" (queue, quota, cluster, placement, node, device,
// topology), and the smallest changes that would let it run, each verified by planning a
// changed copy of the snapshot. Reads only the engine's explanations and the model; the
// cli prints the answer (text or JSON). Pure function of its inputs; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "engine/plan.h"
#include "model/snapshot.h"

namespace berth::diag {

// The layers in the order a workload meets them; a chain is sorted by this order.
// kData comes last: a model or dataset loads after the pod is bound.
enum class WhyLayer { kQueue, kQuota, kCluster, kPlacement, kNode, kDevice, kTopology, kData };
const char* WhyLayerName(WhyLayer layer);  // "queue", "quota", ..., "data"

enum class WhyState { kPending, kAdmitted, kRunning, kBound };
const char* WhyStateName(WhyState state);  // "pending", "admitted", "running", "bound"

struct WhyObject {
  std::string kind;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
};

// One reason in the chain. `blocking`: this layer keeps the target from running (the
// first entry of a pending target's chain always blocks); false for context (e.g. the
// queue that did admit it).
struct WhyReason {
  WhyLayer layer = WhyLayer::kNode;
  std::string reason;
  std::vector<WhyObject> objects;  // at most kMaxObjectsPerReason; the reason counts all
  bool blocking = true;
  std::string runbook;  // docs/runbooks/*.md for this reason's cause (why_runbook.h)
};

// A change that, applied to the input, makes the target bound or admitted: verified by
// planning the changed snapshot. `effect` names what else the change moves (workloads it
// preempts, pods it leaves pending), compared plan against plan.
struct WhyFix {
  std::string change;
  std::string effect;
};

enum class WhyTargetKind {
  kPod,       // pod/NS/NAME
  kWorkload,  // workload/NS/NAME: a Kueue Workload, or a job-like object of that name
  kJob,       // KIND/NS/NAME of a kind berth turns into a workload (Job, JobSet, ...)
};

struct WhyTarget {
  WhyTargetKind kind = WhyTargetKind::kPod;
  std::string job_kind;  // kJob: the object's kind as io names it ("Job", "PyTorchJob")
  std::string name;      // "NAME" or "NAMESPACE/NAME"
};

struct WhyOptions {
  engine::PlanOptions plan;
  // Upper bound on the plans run to verify fixes (each candidate costs one).
  int32_t max_fix_runs = 8;
};

struct WhyAnswer {
  std::string target;  // "Kind namespace/name" of what was explained
  WhyState state = WhyState::kPending;
  std::vector<WhyReason> chain;
  std::vector<WhyFix> fixes;  // only verified ones, smallest first
  // Candidates planned that did not make it run on their own (their `change` texts).
  std::vector<std::string> rejected_fixes;
  std::string runbook;   // "docs/runbooks/pending-pods.md"; empty when not pending
  int32_t fix_runs = 0;  // plans run to verify candidates
  int32_t fix_candidates = 0;
  core::Diagnostics diagnostics;  // the baseline plan's (Plan::diagnostics)
};

inline constexpr size_t kMaxObjectsPerReason = 5;

// Explains `target` in `snapshot`. Errors: NotFound when no object of that kind has the
// name (WhyTargetNames lists the ones that do, for a suggestion), InvalidArgument when a
// bare NAME is ambiguous. Cost: one plan, one pod explanation, then at most
// options.max_fix_runs plans of changed copies.
core::Result<WhyAnswer> AnswerWhy(const model::Snapshot& snapshot, const WhyTarget& target,
                                  const WhyOptions& options);

// "NAMESPACE/NAME" of every object `target` could name with its kind, in input order: what
// a "did you mean" is chosen from.
std::vector<std::string> WhyTargetNames(const model::Snapshot& snapshot, const WhyTarget& target);

}  // namespace berth::diag
