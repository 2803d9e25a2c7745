#include "engine/explain_workload.h"

#include <algorithm>
#include <set>
#include <utility>

namespace berth::engine {

core::Result<int32_t> FindWorkload(const model::Snapshot& snapshot, const std::string& name) {
  const bool qualified = name.find('/') != std::string::npos;
  auto find = [&](auto&& matches_fn) {
    std::vector<int32_t> out;
    for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
      if (matches_fn(snapshot.kueue_workloads[i])) out.push_back(static_cast<int32_t>(i));
    }
    return out;
  };
  std::vector<int32_t> matches = find([&](const model::Workload& w) {
    return qualified ? w.meta.NamespacedName() == name : w.meta.name == name;
  });
  if (matches.empty()) {
    // The job's own name: a Workload created for it is `<kind>-<name>`.
    matches = find([&](const model::Workload& w) {
      if (!w.owner_workload) return false;
      const model::WorkloadObject& job =
          snapshot.workloads[static_cast<size_t>(*w.owner_workload)];
      const std::string key = job.meta.NamespacedName();
      return qualified ? key == name : job.meta.name == name;
    });
  }
  if (matches.empty()) {
    return core::NotFound("workload \"" + name + "\" not found in the input (neither a Workload "
                          "nor a job with the kueue.x-k8s.io/queue-name label)");
  }
  if (matches.size() > 1) {
    std::string candidates;
    for (int32_t i : matches) {
      if (!candidates.empty()) candidates += ", ";
      candidates += snapshot.kueue_workloads[static_cast<size_t>(i)].meta.NamespacedName();
    }
    return core::InvalidArgument("workload name \"" + name + "\" is ambiguous: " + candidates +
                                 "; name it as namespace/name");
  }
  return matches.front();
}

core::Result<WorkloadExplanation> ExplainWorkload(model::Snapshot&& snapshot,
                                                  const std::string& name,
                                                  const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(int32_t index, FindWorkload(snapshot, name));
  WorkloadExplanation out;
  out.workload = index;
  out.plan = RunPlan(std::move(snapshot), options);
  // What is read below (the Workload's cluster, queue and pods, the LocalQueues) is input
  // the plan never writes, so the planned snapshot serves as the input here.
  const model::Snapshot& planned = out.plan.planned;
  const model::Workload& w = planned.kueue_workloads[static_cast<size_t>(index)];
  out.cluster = w.cluster;
  for (const auto& admission : out.plan.admissions) {
    if (admission.cluster != w.cluster) continue;
    for (const auto& d : admission.result.decisions) {
      if (d.workload == index) out.decision = d;
    }
    std::string cq_name = out.decision.admission ? out.decision.admission->cluster_queue : "";
    if (cq_name.empty()) {
      for (const auto& lq : planned.local_queues) {
        if (lq.meta.name == w.queue_name && lq.meta.namespace_ == w.meta.namespace_ &&
            lq.cluster == w.cluster) {
          cq_name = lq.cluster_queue;
        }
      }
    }
    for (const auto& cq : admission.result.cluster_queues) {
      if (cq.name == cq_name) out.cluster_queue = cq;
    }
  }
  std::set<int32_t> mine;
  for (const auto& pods : w.pods) mine.insert(pods.begin(), pods.end());
  for (const Plan::CreatedPod& c : out.plan.created_pods) {
    if (c.workload == index) mine.insert(c.pod);
  }
  for (const auto& d : out.plan.pod_decisions) {
    if (mine.count(d.pod.v) != 0) out.pods.push_back(d);
  }
  return out;
}

}  // namespace berth::engine
