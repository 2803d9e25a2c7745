#include "cli/workload_printer.h"

#include <string>
#include <vector>

#include "cli/explain_printer.h"
#include "cli/placement_printer.h"
#include "cli/text_table.h"
#include "engine/explain_types.h"

namespace berth::cli {
namespace {

// An amount in the resource's own unit ("500m", "16Gi", "8"); the resource is named.
std::string Amount(const model::ResourceCatalog& catalog, const std::string& resource,
                   int64_t amount) {
  model::ResourceId id;
  if (!catalog.Find(resource, &id)) return std::to_string(amount);
  return engine::FormatAmount(id, amount);
}

void PrintHeader(const engine::WorkloadExplanation& e, std::ostream& out) {
  const model::Snapshot& s = e.plan.planned;
  const model::Workload& w = s.kueue_workloads[static_cast<size_t>(e.workload)];
  out << "Workload " << w.meta.NamespacedName();
  if (w.owner_workload) {
    const model::WorkloadObject& job = s.workloads[static_cast<size_t>(*w.owner_workload)];
    out << " (for " << job.kind << " " << job.meta.NamespacedName() << ")";
  }
  out << "\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft});
  std::string queue = w.queue_name.empty() ? "none" : w.queue_name;
  if (e.cluster_queue) queue += " -> ClusterQueue " + e.cluster_queue->name;
  t.AddRow({"Queue:", queue});
  std::string priority = std::to_string(w.priority);
  if (!w.priority_class_name.empty()) priority += " (" + w.priority_class_name + ")";
  t.AddRow({"Priority:", priority});
  for (const auto& ps : w.pod_sets) {
    model::ResourceVector per_pod;
    for (const auto& c : ps.pod_template.containers) per_pod.Add(c.requests);
    std::string text = std::to_string(ps.count) + " x (" + FormatResources(s.resources, per_pod) + ")";
    if (ps.min_count) text += ", minCount " + std::to_string(*ps.min_count);
    t.AddRow({"Pod set " + ps.name + ":", text});
  }
  if (e.cluster != "default") t.AddRow({"Cluster:", e.cluster});
  std::string outcome = engine::WorkloadOutcomeName(e.decision.outcome);
  if (e.decision.cycle > 0) outcome += " (cycle " + std::to_string(e.decision.cycle) + ")";
  t.AddRow({"Outcome:", outcome});
  if (e.plan.cycles > 0) {
    // --cycles N: say when, within the N cycles, Kueue decided this.
    t.AddRow({"Cycles:", (e.decision.cycle > 0 ? "decided in cycle " + std::to_string(e.decision.cycle)
                                               : std::string("decided before cycle 1")) +
                             " of " + std::to_string(e.plan.cycles) + " (--cycles)"});
  }
  if (!e.decision.reason.empty() || !e.decision.message.empty()) {
    t.AddRow({"Reason:", e.decision.reason + (e.decision.message.empty() ? "" : ": " + e.decision.message)});
  }
  if (e.decision.admission) {
    for (const auto& a : e.decision.admission->pod_set_assignments) {
      std::string flavors;
      for (const auto& [resource, flavor] : a.flavors) {
        if (!flavors.empty()) flavors += ", ";
        flavors += resource + "=" + flavor;
      }
      t.AddRow({"Admitted " + a.name + ":", std::to_string(a.count) + " pods, " + flavors});
    }
  }
  if (e.decision.preempted_by) {
    const model::Workload& by = s.kueue_workloads[static_cast<size_t>(*e.decision.preempted_by)];
    t.AddRow({"Preempted by:", by.meta.NamespacedName() + " (" +
                                   e.decision.eviction.ValueOrEmpty().preemption_reason + ")"});
  }
  if (!e.decision.victims.empty()) {
    std::string victims;
    for (int32_t v : e.decision.victims) {
      if (!victims.empty()) victims += ", ";
      victims += s.kueue_workloads[static_cast<size_t>(v)].meta.NamespacedName();
    }
    t.AddRow({"Preempted:", victims});
  }
  t.Print(out, "  ");
}

void PrintAttempts(const engine::WorkloadExplanation& e, std::ostream& out) {
  if (e.decision.attempts.empty()) return;
  const model::ResourceCatalog& catalog = e.plan.planned.resources;
  out << "\nFlavor assignment (flavors in the ClusterQueue's order)\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kLeft,
               TextTable::Align::kLeft, TextTable::Align::kRight, TextTable::Align::kRight,
               TextTable::Align::kRight, TextTable::Align::kRight, TextTable::Align::kRight,
               TextTable::Align::kLeft});
  t.AddRow({"POD SET", "FLAVOR", "MODE", "RESOURCE", "REQUESTED", "NOMINAL", "USED", "AVAILABLE",
            "BORROW LIMIT", "VERDICT"});
  for (const auto& a : e.decision.attempts) {
    if (a.resources.empty()) {
      t.AddRow({a.pod_set, a.flavor, a.mode, "-", "", "", "", "", "", a.reason});
      continue;
    }
    bool first = true;
    for (const auto& r : a.resources) {
      t.AddRow({first ? a.pod_set : "", first ? a.flavor : "", first ? a.mode : "", r.resource,
                Amount(catalog, r.resource, r.requested), Amount(catalog, r.resource, r.nominal),
                Amount(catalog, r.resource, r.used), Amount(catalog, r.resource, r.available),
                r.borrowing_limit < 0 ? "-" : Amount(catalog, r.resource, r.borrowing_limit),
                r.verdict});
      first = false;
    }
    if (!a.reason.empty()) t.AddRow({"", "", "", "", "", "", "", "", "", a.reason});
  }
  t.Print(out, "  ");
}

void PrintCandidates(const engine::WorkloadExplanation& e, std::ostream& out) {
  if (e.decision.candidates.empty()) return;
  const model::Snapshot& s = e.plan.planned;
  out << "\nPreemption candidates (in Kueue's order)\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kRight,
               TextTable::Align::kLeft, TextTable::Align::kLeft});
  t.AddRow({"WORKLOAD", "CLUSTERQUEUE", "PRIORITY", "CHOSEN", "REASON"});
  for (const auto& c : e.decision.candidates) {
    const model::Workload& w = s.kueue_workloads[static_cast<size_t>(c.workload)];
    t.AddRow({w.meta.NamespacedName(), c.cluster_queue, std::to_string(w.priority),
              c.chosen ? "yes" : "no", c.reason});
  }
  t.Print(out, "  ");
}

void PrintClusterQueue(const engine::WorkloadExplanation& e, std::ostream& out) {
  if (!e.cluster_queue) return;
  const auto& cq = *e.cluster_queue;
  const model::ResourceCatalog& catalog = e.plan.planned.resources;
  out << "\nClusterQueue " << cq.name << ": " << (cq.active ? "active" : "inactive");
  if (!cq.active && !cq.reason.empty()) out << " (" << cq.reason << ": " << cq.message << ")";
  out << "; after the plan " << cq.pending << " pending, " << cq.reserving << " reserving, "
      << cq.admitted << " admitted\n";
  if (cq.usage.empty()) return;
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft, TextTable::Align::kRight,
               TextTable::Align::kRight});
  t.AddRow({"FLAVOR", "RESOURCE", "USED", "BORROWED"});
  for (const auto& u : cq.usage) {
    t.AddRow({u.flavor, u.resource, Amount(catalog, u.resource, u.total),
              Amount(catalog, u.resource, u.borrowed)});
  }
  t.Print(out, "  ");
}

void PrintPods(const engine::WorkloadExplanation& e, std::ostream& out) {
  const model::Snapshot& s = e.plan.planned;
  // Pods the API server refused to create once the job ran (ResourceQuota, LimitRange).
  std::vector<const model::Pod*> refused;
  if (e.workload >= 0 && static_cast<size_t>(e.workload) < s.kueue_workloads.size()) {
    for (const auto& set : s.kueue_workloads[static_cast<size_t>(e.workload)].pods) {
      for (int32_t p : set) {
        const model::Pod& pod = s.pod(model::PodIndex{p});
        if (!pod.admission_refused.empty()) refused.push_back(&pod);
      }
    }
  }
  if (e.pods.empty() && refused.empty()) return;
  out << "\nPods (" << e.pods.size() + refused.size() << ")\n";
  TextTable t({TextTable::Align::kLeft, TextTable::Align::kLeft});
  for (const auto& d : e.pods) {
    const model::Pod& pod = s.pod(d.pod);
    std::string state = d.node ? "bound to " + s.node(*d.node).meta.name : "unschedulable: " + d.message;
    // --cycles N: a pod of a workload evicted in the last cycle is still there, terminating.
    if (d.node && pod.deletion_timestamp) state += ", terminating: " + d.message;
    t.AddRow({pod.meta.name, state});
  }
  for (const model::Pod* pod : refused) {
    t.AddRow({pod->meta.name, "not created: Error creating: " + pod->admission_refused});
  }
  t.Print(out, "  ");
}

}  // namespace

void PrintWorkloadExplanation(const engine::WorkloadExplanation& explanation, std::ostream& out) {
  PrintHeader(explanation, out);
  PrintAttempts(explanation, out);
  PrintCandidates(explanation, out);
  PrintClusterQueue(explanation, out);
  PrintDispatch(explanation.plan, explanation.workload, out);
  PrintPods(explanation, out);
}

}  // namespace berth::cli
