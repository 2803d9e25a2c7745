// The footer reads what the plan's own tables print (io::WorkloadStatusName for Workloads, a
// pod's planned spec.nodeName and deletionTimestamp), so its counts agree with the rows above
// it; the queues' numbers come from server::CountQueues, the one count the hub's ClusterQueue
// status and Kueue gauges read.
#include "cli/plan_summary.h"

#include <algorithm>
#include <set>
#include <vector>

#include "cli/text_table.h"
#include "io/table_writer.h"
#include "server/metrics/queue_counts.h"

namespace berth::cli {

namespace {

std::string CountOf(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

PlanCounts CountPlan(const engine::Plan& plan) {
  PlanCounts counts;
  for (const model::PodDecision& d : plan.pod_decisions) {
    const model::Pod& pod = plan.planned.pod(d.pod);
    const bool bound = !pod.node_name.empty() || d.node.has_value();
    if (bound && pod.deletion_timestamp) {
      ++counts.preempted;  // evicted in the last of N cycles: terminating, still bound
    } else if (bound) {
      ++counts.bound;
    } else {
      ++counts.pending;
    }
  }
  counts.preempted += static_cast<int64_t>(plan.deleted_pods.size());
  for (int32_t index : plan.workloads) {
    const std::string_view status =
        io::WorkloadStatusName(plan.planned.kueue_workloads[static_cast<size_t>(index)]);
    if (status == "Admitted") {
      ++counts.workloads_admitted;
    } else if (status != "Finished") {
      ++counts.workloads_pending;
    }
  }
  return counts;
}

std::string PlanSummaryLine(const engine::Plan& plan) {
  const PlanCounts c = CountPlan(plan);
  std::string out = "Summary: " + CountOf(c.bound, "pod bound", "pods bound") + ", " +
                    std::to_string(c.pending) + " pending, " + std::to_string(c.preempted) +
                    " preempted";
  if (!plan.workloads.empty()) {
    out += "; " + CountOf(c.workloads_admitted, "workload admitted", "workloads admitted") +
           ", " + std::to_string(c.workloads_pending) + " pending";
  }
  return out;
}

void PrintClusterQueueTable(const engine::Plan& plan, std::ostream& out) {
  const model::Snapshot& planned = plan.planned;
  if (planned.cluster_queues.empty()) return;
  const server::FleetQueueCounts counts = server::CountQueues(planned);
  std::set<std::string> clusters;
  for (const model::ClusterQueue& cq : planned.cluster_queues) clusters.insert(cq.cluster);
  const bool by_cluster = clusters.size() > 1;
  using Align = TextTable::Align;
  std::vector<Align> aligns = {Align::kLeft,  Align::kLeft,  Align::kLeft, Align::kRight,
                               Align::kRight, Align::kRight, Align::kRight};
  if (by_cluster) aligns.insert(aligns.begin(), Align::kLeft);
  TextTable table(aligns);
  auto row = [&](const std::string& cluster, std::vector<std::string> cells) {
    if (by_cluster) cells.insert(cells.begin(), cluster);
    table.AddRow(std::move(cells));
  };
  row("CLUSTER", {"NAME", "COHORT", "FLAVOR/RESOURCE", "NOMINAL", "USED", "BORROWED", "PENDING"});
  for (const model::ClusterQueue& cq : planned.cluster_queues) {
    auto found = counts.cluster_queues.find(cq.meta.name);
    const server::QueueCounts none;
    const server::QueueCounts& q = found == counts.cluster_queues.end() ? none : found->second;
    const std::string cohort = cq.cohort.empty() ? "<none>" : cq.cohort;
    const std::string pending = std::to_string(q.pending());
    bool first = true;
    for (const model::ResourceGroup& group : cq.resource_groups) {
      for (const model::FlavorQuotas& flavor : group.flavors) {
        for (const model::ResourceQuota& quota : flavor.resources) {
          const std::string& name = planned.resources.Name(quota.resource);
          auto used_it = q.reservation.find({flavor.flavor, name});
          const int64_t used = used_it == q.reservation.end() ? 0 : used_it->second;
          const int64_t borrowed = std::max<int64_t>(0, used - quota.nominal);
          auto amount = [&](int64_t v) { return model::AmountQuantity(name, v).ToString(); };
          row(first ? cq.cluster : "",
              {first ? cq.meta.name : "", first ? cohort : "", flavor.flavor + "/" + name,
               amount(quota.nominal), amount(used), amount(borrowed), first ? pending : ""});
          first = false;
        }
      }
    }
    // A queue without quota still shows its pending Workloads.
    if (first) row(cq.cluster, {cq.meta.name, cohort, "<none>", "", "", "", pending});
  }
  out << "\nCLUSTERQUEUES\n";
  table.Print(out, "", "   ");
}

void PrintPlanTableFooter(const engine::Plan& plan, std::ostream& out) {
  PrintClusterQueueTable(plan, out);
  out << '\n' << PlanSummaryLine(plan) << '\n';
}

}  // namespace berth::cli
