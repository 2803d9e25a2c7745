// OCM rules: Placements that select no cluster or are misconfigured (decided by the placement
// module, as the planner decides them), ManagedClusterSetBindings to sets that do not exist,
// expired AddOnPlacementScores, GPU placements CPU-only clusters can win, and unavailable
// clusters Placements still count on. Each rule decides every Placement once, with one
// AddOnPlacementScore index.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/rules/rules.h"
#include "engine/fleet_checks.h"
#include "placement/addon_score_index.h"
#include "placement/cluster_set_references.h"
#include "placement/placement_scheduler.h"

namespace berth::diag::rules {

namespace {

constexpr std::string_view kOcmPlacementApi = "cluster.open-cluster-management.io/v1beta1";
constexpr std::string_view kOcmSetApi = "cluster.open-cluster-management.io/v1beta2";

struct OcmDecided {
  const model::Placement* placement;
  placement::PlacementOutcome outcome;
};

std::vector<OcmDecided> OcmDecideAll(const DoctorContext& ctx) {
  const model::Snapshot& s = ctx.snapshot();
  const placement::AddOnScoreIndex scores(s.addon_placement_scores);
  placement::ScheduleOptions options;
  options.addon_scores = &scores;
  std::vector<OcmDecided> out;
  out.reserve(s.placements.size());
  for (const model::Placement& p : s.placements) {
    out.push_back({&p, placement::SchedulePlacement(s, p, ctx.now(), options)});
  }
  return out;
}

std::string OcmJoin(const std::vector<std::string>& items, size_t max = 5) {
  std::string s;
  for (size_t i = 0; i < items.size() && i < max; ++i) s += (i == 0 ? "" : ", ") + items[i];
  if (items.size() > max) s += ", ... (" + std::to_string(items.size()) + " in all)";
  return s;
}

// ---- placement-selects-nothing, placement-misconfigured ----

void CheckPlacementSelectsNothing(const DoctorContext& ctx, FindingSink& sink) {
  for (const OcmDecided& d : OcmDecideAll(ctx)) {
    const placement::PlacementOutcome& o = d.outcome;
    if (o.skipped || o.misconfigured.status == model::ConditionStatus::kTrue || !o.selected.empty()) continue;
    if (d.placement->number_of_clusters.has_value() && *d.placement->number_of_clusters <= 0) continue;
    const std::string& reason = o.satisfied.reason;
    const std::string ns = d.placement->meta.namespace_;
    std::string field = "spec.predicates", detail, fix;
    if (reason == "NoManagedClusterSetBindings") {
      field = "metadata.namespace";
      fix = "create a ManagedClusterSetBinding in namespace " + ns + " for the cluster set to use (its name "
            "equal to spec.clusterSet; clusteradm clusterset bind SET --namespace " + ns + ")";
    } else if (reason == "NoIntersection") {
      field = "spec.clusterSets";
      fix = "bind the sets named in spec.clusterSets to namespace " + ns +
            " (ManagedClusterSetBinding), or name sets that are bound there";
    } else if (reason == "AllManagedClusterSetsEmpty") {
      field = "spec.clusterSets";
      fix = "add clusters to the set (label cluster.open-cluster-management.io/clusterset=SET on the "
            "ManagedClusters, or fix the set's selector)";
    } else {
      std::vector<std::string> why;
      for (const model::Rejection& r : o.rejections) {
        why.push_back(r.plugin + ": " + r.message + " (" + std::to_string(r.count) + " cluster(s))");
      }
      if (!why.empty()) detail = "; " + OcmJoin(why, 3);
      fix = "relax the predicates (label, claim and CEL selectors) or tolerations so some cluster of the bound "
            "sets passes (berth explain placement/" + ns + "/" + d.placement->meta.name + " lists each cluster)";
    }
    sink.Add(RefOf(*d.placement, kOcmPlacementApi, "Placement"), field,
             "selects no cluster (PlacementSatisfied=False, " + reason + ": " + o.satisfied.message + detail +
                 "): everything it places waits",
             fix);
  }
}

void CheckPlacementMisconfigured(const DoctorContext& ctx, FindingSink& sink) {
  for (const OcmDecided& d : OcmDecideAll(ctx)) {
    if (d.outcome.skipped || d.outcome.misconfigured.status != model::ConditionStatus::kTrue) continue;
    sink.Add(RefOf(*d.placement, kOcmPlacementApi, "Placement"), "spec",
             "is misconfigured (PlacementMisconfigured=True: " + d.outcome.misconfigured.message +
                 "): the scheduler makes no decision for it",
             "fix the named part: prioritizer names (Balance, Steady, ResourceAllocatableCPU/Memory, or "
             "type AddOn with resourceName and scoreName), toleration operators, CEL expressions, "
             "clustersPerDecisionGroup");
  }
}

// ---- clusterset-binding-unbound ----

void CheckClusterSetBindingUnbound(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::set<std::string> sets;
  std::vector<std::string> names;
  for (const model::ManagedClusterSet& set : s.managed_cluster_sets) {
    sets.insert(set.cluster + "/" + set.meta.name);
    names.push_back(set.meta.name);
  }
  for (const model::ManagedClusterSetBinding& b : s.managed_cluster_set_bindings) {
    const ObjectRef ref = RefOf(b, kOcmSetApi, "ManagedClusterSetBinding");
    if (b.cluster_set == placement::kGlobalClusterSet || sets.contains(b.cluster + "/" + b.cluster_set)) continue;
    sink.Add(ref, "spec.clusterSet",
             "binds ManagedClusterSet " + b.cluster_set + ", which does not exist: the binding is not Bound and "
             "Placements in namespace " + b.meta.namespace_ + " get no clusters from it",
             names.empty() ? "create ManagedClusterSet " + b.cluster_set
                           : "bind an existing set (" + OcmJoin(names) + ") or create ManagedClusterSet " +
                                 b.cluster_set);
  }
}

// ---- addon-placement-score-stale ----

// The literal names a CEL expression passes to managedCluster.scores("...").
std::vector<std::string> OcmScoresCalled(const std::string& expr) {
  std::vector<std::string> out;
  for (size_t at = expr.find("scores("); at != std::string::npos; at = expr.find("scores(", at + 1)) {
    size_t q = at + 7;
    while (q < expr.size() && expr[q] == ' ') ++q;
    if (q >= expr.size() || (expr[q] != '"' && expr[q] != '\'')) continue;
    const size_t end = expr.find(expr[q], q + 1);
    if (end != std::string::npos) out.push_back(expr.substr(q + 1, end - q - 1));
  }
  return out;
}

void CheckAddonPlacementScoreStale(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  // Which Placements read each score resource: AddOn prioritizers and CEL scores("name").
  std::map<std::string, std::vector<std::string>> readers;
  for (const model::Placement& p : s.placements) {
    const std::string who = p.meta.namespace_ + "/" + p.meta.name;
    std::set<std::string> used;
    for (const model::PrioritizerConfig& c : p.prioritizer_policy.configurations) {
      if (c.score_coordinate && c.score_coordinate->type == model::ScoreCoordinateType::kAddOn && c.weight != 0) {
        used.insert(c.score_coordinate->addon_resource_name);
      }
    }
    for (const model::ClusterSelector& pred : p.predicates) {
      for (const std::string& expr : pred.cel_expressions) {
        for (std::string& name : OcmScoresCalled(expr)) used.insert(std::move(name));
      }
    }
    for (const std::string& name : used) readers[name].push_back(who);
  }
  for (const model::AddOnPlacementScore& score : s.addon_placement_scores) {
    if (!score.valid_until || !(*score.valid_until < ctx.now())) continue;
    auto it = readers.find(score.meta.name);
    const bool read = it != readers.end();
    sink.AddAt(read ? Severity::kWarning : Severity::kInfo,
               RefOf(score, "cluster.open-cluster-management.io/v1alpha1", "AddOnPlacementScore"),
               "status.validUntil",
               "expired at " + score.valid_until->ToString() + " (cluster " + score.meta.namespace_ +
                   ")" +
                   (read ? ": Placement(s) " + OcmJoin(it->second) +
                               " score this cluster 0 for it (CEL scores() still reads the stale values), so "
                               "it loses to clusters with fresh scores"
                         : ""),
               "check the add-on agent on cluster " + score.meta.namespace_ +
                   " that updates this score (its pod logs and lease), or delete the stale score");
  }
}

// ---- placement-without-gpu-predicate ----

bool OcmGpuResourceName(const std::string& name) {
  if (name.starts_with("nvidia.com/gpu") || name.starts_with("nvidia.com/mig-")) return true;
  if (name.starts_with("gpu.intel.com/")) return true;
  const size_t slash = name.find('/');
  return slash != std::string::npos && name.substr(slash + 1) == "gpu";
}

// Whether a managed cluster is known to have no GPU: its allocatable names none, or (when it
// reports no allocatable) its nodes were read and none is a GPU node. Unknown: false.
bool OcmCpuOnly(const DoctorContext& ctx, const model::ManagedCluster& mc) {
  if (!mc.allocatable.empty()) {
    for (const auto& [name, q] : mc.allocatable) {
      if (OcmGpuResourceName(name) && !q.IsZero() && !q.IsNegative()) return false;
    }
    return true;
  }
  const std::vector<model::NodeIndex>& nodes = ctx.NodesOf(mc.meta.name);
  if (nodes.empty()) return false;
  for (model::NodeIndex n : nodes) {
    if (ctx.IsGpuNode(n)) return false;
  }
  return true;
}

void CheckPlacementWithoutGpuPredicate(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  // Placements that admission checks use for ClusterQueues with GPU quota.
  const engine::FleetChecks fleet = engine::FindFleetChecks(s, "default");
  std::map<int32_t, std::vector<std::string>> gpu_queues;  // placement -> ClusterQueues
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    if (cq.cluster != "default") continue;
    const engine::FleetCheck* check = fleet.ForClusterQueue(cq.meta.name);
    if (check == nullptr || !check->placement) continue;
    bool gpu = false;
    for (const auto& g : cq.resource_groups) {
      for (model::ResourceId r : g.covered_resources) gpu |= ctx.IsGpuResource(r);
    }
    if (gpu) gpu_queues[*check->placement].push_back(cq.meta.name);
  }
  if (gpu_queues.empty()) return;
  std::map<std::string, const model::ManagedCluster*> clusters;
  for (const model::ManagedCluster& mc : s.managed_clusters) clusters.emplace(mc.meta.name, &mc);
  const placement::AddOnScoreIndex scores(s.addon_placement_scores);
  placement::ScheduleOptions options;
  options.addon_scores = &scores;
  for (const auto& [index, queues] : gpu_queues) {
    const model::Placement& p = s.placements[static_cast<size_t>(index)];
    const placement::PlacementOutcome o = placement::SchedulePlacement(s, p, ctx.now(), options);
    std::vector<std::string> cpu_only;
    for (const placement::ClusterVerdict& v : o.clusters) {
      auto it = clusters.find(v.cluster_name);
      if (v.feasible && it != clusters.end() && OcmCpuOnly(ctx, *it->second)) cpu_only.push_back(v.cluster_name);
    }
    if (cpu_only.empty()) continue;
    sink.Add(RefOf(p, kOcmPlacementApi, "Placement"), "spec.predicates",
             "places GPU work of ClusterQueue(s) " + OcmJoin(queues) + " but CPU-only cluster(s) " +
                 OcmJoin(cpu_only) + " pass its predicates: work sent there never starts",
             "add a predicate that requires GPUs, e.g. a celSelector over managedCluster.status.allocatable "
             "(\"nvidia.com/gpu\" in managedCluster.status.allocatable) or a label/claim the GPU clusters carry");
  }
}

// ---- managed-cluster-unavailable ----

void CheckManagedClusterUnavailable(const DoctorContext& ctx, FindingSink& sink) {
  std::map<std::string, std::vector<std::string>> candidate_of;  // cluster -> placements
  for (const OcmDecided& d : OcmDecideAll(ctx)) {
    if (d.outcome.skipped) continue;
    for (const placement::ClusterVerdict& v : d.outcome.clusters) {
      candidate_of[v.cluster_name].push_back(d.placement->meta.namespace_ + "/" + d.placement->meta.name);
    }
  }
  for (const model::ManagedCluster& mc : ctx.snapshot().managed_clusters) {
    auto it = candidate_of.find(mc.meta.name);
    if (it == candidate_of.end() || mc.deletion_timestamp) continue;
    const model::Condition* c = mc.FindCondition(model::kConditionClusterAvailable);
    if (c != nullptr && c->status == model::ConditionStatus::kTrue) continue;
    const std::string state =
        c == nullptr ? "missing" : std::string(model::ConditionStatusName(c->status)) +
                                       (c->reason.empty() ? "" : " (" + c->reason + ")");
    const bool is_false = c != nullptr && c->status == model::ConditionStatus::kFalse;
    sink.Add(RefOf(mc, "cluster.open-cluster-management.io/v1", "ManagedCluster"), "status.conditions",
             std::string(model::kConditionClusterAvailable) + " is " + state + ": the hub taints it " +
                 (is_false ? model::kTaintClusterUnavailable : model::kTaintClusterUnreachable) +
                 " (NoSelect) and Placement(s) " + OcmJoin(it->second) +
                 " that count on it drop it; work already there is not rescheduled",
             "restore the klusterlet on cluster " + mc.meta.name +
                 " (kubectl -n open-cluster-management-agent get pods; check its hub kubeconfig and lease), "
                 "or remove it from the cluster set");
  }
}

}  // namespace

void AddOcmRules(std::vector<Rule>& out) {
  out.push_back({"placement-selects-nothing", Severity::kError, "ocm",
                 "A Placement selects no cluster (no binding, empty sets, or no cluster passes)",
                 {"Placement", "ManagedCluster", "ManagedClusterSet", "ManagedClusterSetBinding"},
                 CheckPlacementSelectsNothing});
  out.push_back({"placement-misconfigured", Severity::kError, "ocm",
                 "A Placement the OCM scheduler reports as misconfigured",
                 {"Placement"}, CheckPlacementMisconfigured});
  out.push_back({"clusterset-binding-unbound", Severity::kError, "ocm",
                 "A ManagedClusterSetBinding names a ManagedClusterSet that does not exist",
                 {"ManagedClusterSetBinding", "ManagedClusterSet"}, CheckClusterSetBindingUnbound});
  out.push_back({"addon-placement-score-stale", Severity::kWarning, "ocm",
                 "An AddOnPlacementScore whose validUntil has passed",
                 {"AddOnPlacementScore", "Placement"}, CheckAddonPlacementScoreStale});
  out.push_back({"placement-without-gpu-predicate", Severity::kWarning, "ocm",
                 "A GPU workload's Placement lets CPU-only clusters win",
                 {"Placement", "ManagedCluster", "ClusterQueue", "AdmissionCheck"}, CheckPlacementWithoutGpuPredicate});
  out.push_back({"managed-cluster-unavailable", Severity::kWarning, "ocm",
                 "A ManagedCluster Placements count on is not Available",
                 {"ManagedCluster", "Placement"}, CheckManagedClusterUnavailable});
}

}  // namespace berth::diag::rules
