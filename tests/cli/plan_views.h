// The three printed forms of one plan (-o json, -o table, explain) read back into the same
// small facts per Kueue Workload and per pod, and the places where they disagree. Used by
// plan_consistency_test.cc over every golden `plan` case, and tested on broken views.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace berth::cli::testing {

// What a view says about one Kueue Workload. Empty fields: the view does not say.
struct WorkloadFacts {
  // admitted, reserved, evicted, waiting or finished (table STATUS, JSON conditions and
  // explain's Outcome mapped onto the same classes).
  std::string state;
  std::string cluster_queue;  // of status.admission; "<none>" when there is none
  std::string flavors;        // "ps:resource=flavor,...;ps2:..." sorted; "<none>" when none
};

// What a view says about one pod: "bound:NODE", "pending", "deleted", "not-created" (refused
// by admission: no item, NotCreated in the table), or, from explain of
// a pod bound in the input, "input-bound:NODE" (bound before the plan: kept or deleted).
using PodFacts = std::string;

struct PlanView {
  std::map<std::string, WorkloadFacts> workloads;  // key "namespace/name"
  std::map<std::string, PodFacts> pods;            // key "namespace/name"
};

// `berth plan -o json` output: Workload and Pod items. Pods absent from items are not
// listed (the table lists them as deleted).
PlanView ParseJsonPlan(const std::string& text);

// `berth plan -o table` output: the pod table and the Workload table.
PlanView ParseTablePlan(const std::string& text);

// `berth explain workload/NS/NAME` output for that workload (key), with its Pods section.
PlanView ParseWorkloadExplain(const std::string& key, const std::string& text);

// `berth explain pod/NS/NAME` output and error text for that pod (key).
PlanView ParsePodExplain(const std::string& key, const std::string& out, const std::string& err);

// Every disagreement between `json` (the reference: every object it or the table names) and
// `table`, and between each explained object and both. Messages name the object, the fact
// and the views.
std::vector<std::string> Disagreements(const PlanView& json, const PlanView& table,
                                       const std::vector<PlanView>& explains);

}  // namespace berth::cli::testing
