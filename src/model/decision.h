// Decisions and rejections: what a stage decided, as data (STYLE.md, errors of the second
// kind). plan, explain, why and the dashboard all read these.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/node.h"
#include "model/pod.h"

namespace berth::model {

// One reason a stage said no. `reason` is the machine-readable form (e.g.
// "Insufficient nvidia.com/gpu"), `message` the sentence a user reads.
struct Rejection {
  std::string stage;   // "binding", "queueing", "placement"
  std::string plugin;  // "NodeResourcesFit", "TaintToleration", ...
  std::string reason;
  std::string message;
  int32_t count = 1;  // nodes (or clusters) that gave this reason

  bool operator==(const Rejection&) const = default;
};

struct PodDecision {
  PodIndex pod;
  std::optional<NodeIndex> node;  // set when bound
  // Aggregated per-reason rejections when unbound, in kube-scheduler's order (by reason).
  std::vector<Rejection> rejections;
  // kube-scheduler's message: "0/12 nodes are available: 8 Insufficient nvidia.com/gpu, ..."
  std::string message;
  bool skipped = false;  // not for this scheduler (schedulerName matches no profile)
  // DefaultPreemption chose a node and victims for the pod (it did not fit as things stood):
  // the node it is nominated to (status.nominatedNodeName) and the pods preempted for it.
  // In a settled plan the victims are deleted and `node` is then set too.
  std::optional<NodeIndex> nominated_node;
  std::vector<PodIndex> victims;
};

// What kube-scheduler's DefaultPreemption did for one pod: the node it chose and why, and the
// pods it preempted there (most important first).
struct PodPreemption {
  PodIndex preemptor;
  NodeIndex node;
  std::vector<PodIndex> victims;
  int32_t pdb_violations = 0;
  int32_t candidates = 0;   // candidate nodes compared
  std::string criterion;    // the rule that chose the node among them
  bool completed = false;   // victims deleted and the preemptor bound (a settled plan)
};

// A pod the cycle deletes (its workload was preempted): not printed as an object; tables
// and explain list it with the reason.
struct PodDeletion {
  PodIndex pod;
  std::string reason;  // "workload team-b/job-b-running was preempted (InCohortReclamation)"
};

// An object of the input the cycle deletes (a stale PlacementDecision, a ManifestWork for a
// cluster no longer chosen): not printed as an object; tables and explain list it.
struct ObjectDeletion {
  std::string api_version;  // "work.open-cluster-management.io/v1"
  std::string kind;         // "ManifestWork"
  std::string namespace_;
  std::string name;
  std::string reason;  // "workload team-a/job-train now runs on us-2"
};

}  // namespace berth::model
