#include "cli/explain_printer.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "cli/explain_groups.h"
#include "cli/human_amount.h"
#include "cli/text_table.h"
#include "engine/explain_types.h"
#include "core/quantity.h"
#include "model/pod_requests.h"

namespace berth::cli {

namespace {

using Align = TextTable::Align;

// What NodeResourcesFit charges the pod (containers, sidecars, init phases, overhead): the
// one rule binding uses too, over every resource of the snapshot.
model::ResourceVector PodRequests(const model::Snapshot& snapshot, const model::Pod& pod) {
  std::vector<int64_t> requests(snapshot.resources.size(), 0);
  model::PodRequestsInto(pod, {}, requests);
  model::ResourceVector out;
  for (size_t i = requests.size(); i-- > 0;) {
    out.Set(model::ResourceId{static_cast<uint16_t>(i)}, requests[i]);
  }
  return out;
}

std::string FormatToleration(const core::Toleration& t) {
  std::string out = t.key;
  if (!t.value.empty()) out += "=" + t.value;
  if (t.effect) out += std::string(":") + core::TaintEffectName(*t.effect);
  if (t.op == core::TolerationOp::kExists) out += out.empty() ? "op=Exists" : " op=Exists";
  if (t.toleration_seconds) out += " for " + std::to_string(*t.toleration_seconds) + "s";
  return out;
}

std::string FormatRequirement(const core::SelectorRequirement& r) {
  std::string out = r.key + " " + core::SelectorOpName(r.op);
  if (!r.values.empty()) {
    out += " [";
    for (size_t i = 0; i < r.values.size(); ++i) out += (i ? ", " : "") + r.values[i];
    out += "]";
  }
  return out;
}

std::string FormatNodeSelector(const core::NodeSelector& selector) {
  std::string out;
  for (const auto& term : selector.terms) {
    if (!out.empty()) out += " or ";
    std::string t;
    auto add = [&t](const core::SelectorRequirement& r) {
      t += (t.empty() ? "" : " and ") + FormatRequirement(r);
    };
    for (const auto& r : term.match_expressions) add(r);
    for (const auto& r : term.match_fields) add(r);
    out += selector.terms.size() > 1 ? "(" + t + ")" : t;
  }
  return out;
}

std::string Plural(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The first filter that said no: the reason kube-scheduler counts for the node.
const engine::NodeFilterVerdict* FirstFailure(const engine::NodeVerdict& verdict) {
  for (const auto& filter : verdict.filters) {
    if (!filter.passed) return &filter;
  }
  return nullptr;
}

std::vector<const engine::NodeVerdict*> ByNodeName(const model::Snapshot& snapshot,
                                                    const engine::PodExplanation& pod) {
  std::vector<const engine::NodeVerdict*> nodes;
  for (const auto& verdict : pod.nodes) nodes.push_back(&verdict);
  std::stable_sort(nodes.begin(), nodes.end(), [&](const auto* a, const auto* b) {
    return snapshot.node(a->node).meta.name < snapshot.node(b->node).meta.name;
  });
  return nodes;
}

void PrintPodHeader(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                    std::ostream& out) {
  const model::Pod& pod = snapshot.pod(explanation.pod.pod);
  TextTable table({Align::kLeft, Align::kLeft});
  std::string priority = std::to_string(pod.priority);
  if (!pod.priority_class_name.empty()) priority += " (" + pod.priority_class_name + ")";
  table.AddRow({"Priority:", priority});
  table.AddRow({"Requests:", FormatResources(snapshot.resources, PodRequests(snapshot, pod))});
  if (!pod.node_selector.empty()) {
    std::string selector;
    for (const auto& [key, value] : pod.node_selector) {
      selector += (selector.empty() ? "" : ", ") + key + "=" + value;
    }
    table.AddRow({"Node selector:", selector});
  }
  if (pod.node_affinity.required) {
    table.AddRow({"Node affinity:", FormatNodeSelector(*pod.node_affinity.required)});
  }
  if (!pod.resource_claims.empty()) {
    std::string claims;
    for (const auto& ref : pod.resource_claims) {
      claims += (claims.empty() ? "" : ", ") + ref.name + " -> ResourceClaim " + ref.claim_name;
      if (!ref.template_name.empty()) claims += " (from template " + ref.template_name + ")";
    }
    table.AddRow({"Resource claims:", claims});
  }
  // Always shown: a missing toleration is the most common reason a GPU pod waits.
  std::string tolerations;
  for (const auto& t : pod.tolerations) {
    tolerations += (tolerations.empty() ? "" : ", ") + FormatToleration(t);
  }
  table.AddRow({"Tolerations:", tolerations.empty() ? "none" : tolerations});
  const int32_t ahead = explanation.queue_position - 1;
  std::string queue = std::to_string(explanation.queue_position) + " of " +
                      Plural(explanation.queue_length, "pending pod", "pending pods");
  if (ahead > 0) {
    queue += " (" + Plural(ahead, "pod", "pods") + " ahead of it " + (ahead == 1 ? "was" : "were") +
             " scheduled first)";
  }
  table.AddRow({"Queue:", queue});
  out << "Pod " << engine::PodKey(pod) << '\n';
  table.Print(out, "  ");
}

void PrintDecision(const model::Snapshot& snapshot, const engine::PodExplanation& pod,
                   std::string_view indent, std::ostream& out) {
  const model::PodDecision& decision = pod.decision;
  out << indent << "Decision: ";
  if (decision.skipped) {
    out << "not scheduled: schedulerName \"" << snapshot.pod(pod.pod).scheduler_name
        << "\" is served by no scheduler profile\n";
    return;
  }
  if (!decision.node) {
    out << "unschedulable: " << decision.message << '\n';
    return;
  }
  if (!decision.victims.empty()) {
    out << "bound to node " << snapshot.node(*decision.node).meta.name
        << ": after DefaultPreemption deletes its victims\n";
    return;
  }
  if (decision.nominated_node && *decision.nominated_node == *decision.node) {
    out << "bound to node " << snapshot.node(*decision.node).meta.name
        << ": its nominated node (status.nominatedNodeName), tried first\n";
    return;
  }
  int64_t chosen_total = 0;
  for (const auto& verdict : pod.nodes) {
    if (verdict.node == *decision.node) chosen_total = verdict.total_score;
  }
  int64_t tied = 0;
  for (const auto& verdict : pod.nodes) {
    if (verdict.feasible && verdict.node != *decision.node && verdict.total_score == chosen_total) {
      ++tied;
    }
  }
  out << "bound to node " << snapshot.node(*decision.node).meta.name << ": highest total score "
      << chosen_total;
  if (tied > 0) {
    out << " (tied with " << Plural(tied, "other node", "other nodes")
        << "; ties broken by node name)";
  }
  out << '\n';
}

// kube-scheduler's DefaultPreemption for a pod that fits no node: the node it is nominated
// to, why that node, and the pods preempted there; nothing when preemption found no node
// (the decision's message ends with the reason).
void PrintPreemption(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                     std::string_view indent, std::ostream& out) {
  if (!explanation.preemption) return;
  const model::PodPreemption& p = *explanation.preemption;
  out << indent << "Preemption: " << (p.completed ? "preempts " : "nominated to node ")
      << (p.completed ? Plural(static_cast<int64_t>(p.victims.size()), "pod", "pods") +
                            " on node " + snapshot.node(p.node).meta.name
                      : snapshot.node(p.node).meta.name + ", preempting " +
                            Plural(static_cast<int64_t>(p.victims.size()), "pod", "pods"))
      << " (DefaultPreemption: chosen among "
      << Plural(p.candidates, "candidate node", "candidate nodes") << " by " << p.criterion;
  if (p.pdb_violations > 0) {
    out << "; " << Plural(p.pdb_violations, "victim violates", "victims violate")
        << " a PodDisruptionBudget";
  }
  out << ")\n";
  const int32_t priority = snapshot.pod(p.preemptor).priority;
  for (model::PodIndex v : p.victims) {
    const model::Pod& victim = snapshot.pod(v);
    out << indent << "  " << engine::PodKey(victim) << " (priority " << victim.priority << " < "
        << priority << ")\n";
  }
}

// Every filter's verdict on one node and, when it is feasible, every score plugin's share.
void PrintNodeDetail(const model::Snapshot& snapshot, const engine::NodeVerdict& verdict,
                     std::ostream& out) {
  out << "\n  " << snapshot.node(verdict.node).meta.name << ": ";
  if (verdict.feasible) {
    out << "feasible, total score " << verdict.total_score << '\n';
  } else {
    const engine::NodeFilterVerdict* failure = FirstFailure(verdict);
    out << "infeasible" << (failure ? ": " + failure->reason : std::string()) << '\n';
  }
  TextTable filters({Align::kLeft, Align::kLeft});
  filters.AddRow({"FILTER", "VERDICT"});
  for (const auto& filter : verdict.filters) {
    std::string text = filter.passed ? "passed" : filter.reason;
    // DynamicResources' detail: the devices each request got, or why none fit.
    if (!filter.detail.empty() && filter.detail != text) text += " (" + filter.detail + ")";
    filters.AddRow({filter.plugin, text});
  }
  filters.Print(out, "    ");
  if (!verdict.feasible) return;
  TextTable scores({Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight});
  scores.AddRow({"SCORE", "RAW", "NORMALIZED", "WEIGHT", "WEIGHTED"});
  for (const auto& score : verdict.scores) {
    scores.AddRow({score.plugin, std::to_string(score.raw), std::to_string(score.normalized),
                   std::to_string(score.weight), std::to_string(score.weighted())});
  }
  scores.AddRow({"total", "", "", "", std::to_string(verdict.total_score)});
  out << '\n';
  scores.Print(out, "    ");
}

void PrintFull(const model::Snapshot& snapshot, const engine::Explanation& explanation,
               std::ostream& out) {
  PrintPodHeader(snapshot, explanation, out);
  const auto nodes = ByNodeName(snapshot, explanation.pod);
  out << "\nNodes (" << nodes.size()
      << ", in name order; an infeasible node counts under its first failing filter)\n";
  for (const engine::NodeVerdict* verdict : nodes) PrintNodeDetail(snapshot, *verdict, out);
  out << '\n';
  PrintDecision(snapshot, explanation.pod, "", out);
  PrintPreemption(snapshot, explanation, "", out);
}

void PrintSummary(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                  std::ostream& out) {
  PrintPodHeader(snapshot, explanation, out);
  const auto nodes = ByNodeName(snapshot, explanation.pod);

  // (plugin, reason) -> node names, in name order within each group.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> rejected;
  std::vector<const engine::NodeVerdict*> feasible;
  for (const engine::NodeVerdict* verdict : nodes) {
    if (verdict->feasible) {
      feasible.push_back(verdict);
    } else if (const engine::NodeFilterVerdict* failure = FirstFailure(*verdict)) {
      rejected[{failure->plugin, failure->reason}].push_back(
          snapshot.node(verdict->node).meta.name);
    }
  }
  if (!rejected.empty()) {
    out << "  Rejected by:\n";
    TextTable table({Align::kLeft, Align::kLeft, Align::kLeft, Align::kLeft});
    for (const auto& [key, names] : rejected) {
      table.AddRow({key.first, key.second,
                    Plural(static_cast<int64_t>(names.size()), "node", "nodes"),
                    NameSample(names)});
    }
    table.Print(out, "    ");
  }
  if (!feasible.empty()) {
    std::stable_sort(feasible.begin(), feasible.end(),
                     [](const auto* a, const auto* b) { return a->total_score > b->total_score; });
    out << "  Feasible: " << Plural(static_cast<int64_t>(feasible.size()), "node", "nodes")
        << "; best scores:";
    constexpr size_t kShown = 3;
    for (size_t i = 0; i < feasible.size() && i < kShown; ++i) {
      out << (i ? ", " : " ") << snapshot.node(feasible[i]->node).meta.name << " "
          << feasible[i]->total_score;
    }
    out << '\n';
  }
  PrintDecision(snapshot, explanation.pod, "  ", out);
  PrintPreemption(snapshot, explanation, "  ", out);
}

// "key=value:Effect", as kubectl taint prints one.
std::string FormatTaint(const core::Taint& t) {
  return t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + core::TaintEffectName(t.effect);
}

// What the nodes of a class share that matters for GPU pods: the GPU product, a cordon and
// the taints (allocatable is in the resource table under it).
std::string ClassTraits(const model::Node& node) {
  std::vector<std::string> traits;
  auto product = node.meta.labels.find("nvidia.com/gpu.product");
  if (product != node.meta.labels.end()) traits.push_back(product->second);
  if (node.unschedulable) traits.push_back("cordoned");
  for (const core::Taint& t : node.taints) traits.push_back("taint " + FormatTaint(t));
  std::string out;
  for (const std::string& t : traits) out += "; " + t;
  return out;
}

std::string VerdictText(const NodeGroup& group) {
  if (group.feasible) return "feasible";
  if (group.plugin.empty()) return "infeasible";
  return group.plugin + ": " + group.reason;
}

std::string ResourceText(const model::ResourceCatalog& catalog, model::ResourceId id, int64_t v) {
  return HumanAmount(catalog.Name(id), v);
}

// The resources a class's table shows: cpu and memory always, then every other resource the
// pod requests, in catalog order.
std::vector<model::ResourceId> ShownResources(const model::ResourceCatalog& catalog,
                                              const model::ResourceVector& requests) {
  std::vector<model::ResourceId> out;
  for (size_t i = 0; i < catalog.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    if (id == model::kCpu || id == model::kMemory || requests.Get(id) != 0) out.push_back(id);
  }
  return out;
}

void PrintNumbers(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                  const std::vector<size_t>& members, const model::ResourceVector& requests,
                  std::ostream& out);

// One class of nodes under one verdict: which nodes, what they share, requested against
// allocatable and free per resource, and who holds the GPUs of the nodes that lack them.
void PrintGroup(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                const NodeGroup& group, const model::ResourceVector& requests,
                std::ostream& out) {
  const auto& verdicts = explanation.pod.nodes;
  std::vector<std::string> names;
  for (size_t m : group.members) names.push_back(snapshot.node(verdicts[m].node).meta.name);
  const model::Node& first = snapshot.node(verdicts[group.members.front()].node);
  out << "\n  " << NameSample(names) << " ("
      << Plural(static_cast<int64_t>(names.size()), "node", "nodes") << ClassTraits(first)
      << "): " << VerdictText(group);
  if (group.feasible) {
    const size_t* best = nullptr;
    for (const size_t& m : group.members) {
      if (best == nullptr || verdicts[m].total_score > verdicts[*best].total_score) best = &m;
    }
    out << ", best score " << verdicts[*best].total_score << " ("
        << snapshot.node(verdicts[*best].node).meta.name << ")";
  }
  out << '\n';
  // The failing filter's own detail (DynamicResources: which claim and request, and why),
  // from the first node of the group.
  if (!group.feasible) {
    if (const engine::NodeFilterVerdict* failure = FirstFailure(verdicts[group.members.front()])) {
      if (!failure->detail.empty() && failure->detail != failure->reason) {
        out << "    " << failure->detail << '\n';
      }
    }
  }
  PrintNumbers(snapshot, explanation, group.members, requests, out);
}

// Requested against allocatable and free per resource over `members` (indices into the
// explanation's nodes, one class: allocatable is the first's), then who holds the GPUs of
// those that lack them. Nothing when the explanation carries no numbers.
void PrintNumbers(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                  const std::vector<size_t>& members, const model::ResourceVector& requests,
                  std::ostream& out) {
  if (explanation.nodes.empty()) return;
  const auto& verdicts = explanation.pod.nodes;
  const model::Node& first = snapshot.node(verdicts[members.front()].node);
  TextTable table({Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
  table.AddRow({"RESOURCE", "REQUESTED", "ALLOCATABLE", "FREE"});
  const model::ResourceCatalog& catalog = snapshot.resources;
  for (model::ResourceId id : ShownResources(catalog, requests)) {
    // Nodes of a class share allocatable; free differs with what is bound on each.
    int64_t low = 0;
    int64_t high = 0;
    bool any = false;
    for (size_t m : members) {
      const int64_t f = explanation.nodes[m].free.Get(id);
      low = any ? std::min(low, f) : f;
      high = any ? std::max(high, f) : f;
      any = true;
    }
    table.AddRow({catalog.Name(id), ResourceText(catalog, id, requests.Get(id)),
                  ResourceText(catalog, id, first.allocatable.Get(id)),
                  RangeText(low, high, ResourceText(catalog, id, low), ResourceText(catalog, id, high))});
  }
  table.Print(out, "    ");
  // Who holds the GPUs the pod cannot get, node by node (the first few).
  constexpr size_t kNodesShown = 3;
  constexpr size_t kPodsShown = 4;
  size_t shown = 0;
  size_t taken = 0;
  for (size_t m : members) {
    const engine::NodeAtTurn& at = explanation.nodes[m];
    if (!at.gpus_taken) continue;
    ++taken;
    if (shown == kNodesShown) continue;
    ++shown;
    std::vector<std::string> holders;
    for (const engine::NodeAtTurn::GpuHolder& h : at.gpu_holders) {
      holders.push_back(engine::PodKey(snapshot.pod(h.pod)) + " (" + std::to_string(h.gpus) +
                        (h.nominated ? ", nominated)" : ")"));
    }
    out << "    GPUs of " << snapshot.node(verdicts[m].node).meta.name << " held by: "
        << (holders.empty() ? "no pod (allocatable already short)" : NameSample(holders, kPodsShown))
        << '\n';
  }
  if (taken > shown) out << "    (+" << Plural(static_cast<int64_t>(taken - shown), "more node", "more nodes") << " like these)\n";
}

void PrintGrouped(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                  std::ostream& out) {
  PrintPodHeader(snapshot, explanation, out);
  const auto& verdicts = explanation.pod.nodes;
  out << "\nNodes by verdict (" << Plural(static_cast<int64_t>(verdicts.size()), "node", "nodes")
      << "; an infeasible node counts under its first failing filter)\n";
  TextTable table({Align::kRight, Align::kLeft, Align::kLeft});
  table.AddRow({"NODES", "VERDICT", "EXAMPLES"});
  for (const NodeGroup& group : GroupNodesByVerdict(snapshot, explanation)) {
    std::vector<std::string> names;
    for (size_t m : group.members) names.push_back(snapshot.node(verdicts[m].node).meta.name);
    table.AddRow({std::to_string(names.size()), VerdictText(group), NameSample(names)});
  }
  table.Print(out, "  ");
  if (!explanation.nodes.empty()) {
    out << "\nNode classes (same allocatable, labels and taints), free at the pod's turn\n";
  }
  const model::ResourceVector requests = PodRequests(snapshot, snapshot.pod(explanation.pod.pod));
  for (const NodeGroup& group : GroupNodesByClass(snapshot, explanation)) {
    PrintGroup(snapshot, explanation, group, requests, out);
  }
  out << '\n';
  PrintDecision(snapshot, explanation.pod, "", out);
  PrintPreemption(snapshot, explanation, "", out);
  out << "\nEvery filter and score on one node: add --node NAME\n";
}

}  // namespace

std::string FormatResources(const model::ResourceCatalog& catalog,
                            const model::ResourceVector& amounts) {
  std::string out;
  for (size_t i = 0; i < amounts.size() && i < catalog.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    const int64_t amount = amounts.Get(id);
    if (amount == 0) continue;
    const std::string& name = catalog.Name(id);
    out += (out.empty() ? "" : ", ") + name + " " + model::AmountQuantity(name, amount).ToString();
  }
  return out.empty() ? "none" : out;
}

void PrintExplanation(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                      ExplainDetail detail, std::ostream& out) {
  switch (detail) {
    case ExplainDetail::kFull:
      PrintFull(snapshot, explanation, out);
      return;
    case ExplainDetail::kGrouped:
      PrintGrouped(snapshot, explanation, out);
      return;
    case ExplainDetail::kSummary:
      PrintSummary(snapshot, explanation, out);
      return;
  }
}

bool PrintNodeExplanation(const model::Snapshot& snapshot, const engine::Explanation& explanation,
                          std::string_view node_name, std::ostream& out) {
  const engine::NodeVerdict* verdict = nullptr;
  for (const auto& v : explanation.pod.nodes) {
    if (snapshot.node(v.node).meta.name == node_name) verdict = &v;
  }
  if (verdict == nullptr) return false;
  PrintPodHeader(snapshot, explanation, out);
  PrintNodeDetail(snapshot, *verdict, out);
  const size_t index = static_cast<size_t>(verdict - explanation.pod.nodes.data());
  out << '\n';
  PrintNumbers(snapshot, explanation, {index},
               PodRequests(snapshot, snapshot.pod(explanation.pod.pod)), out);
  if (!explanation.nodes.empty()) out << '\n';
  PrintDecision(snapshot, explanation.pod, "", out);
  PrintPreemption(snapshot, explanation, "", out);
  return true;
}

}  // namespace berth::cli
