#include "engine/plan.h"

#include <algorithm>
#include <set>
#include <utility>

namespace berth::engine {

namespace {

// The part of the snapshot one member cluster's scheduler sees. kube-scheduler runs per
// cluster and never sees another cluster's nodes, so each cluster is scheduled on its own.
// With a single cluster (the common case: no berth.dev/cluster annotations) the part borrows
// the whole snapshot and the index maps are the identity, so nothing is copied.
struct ClusterPart {
  const model::Snapshot* whole = nullptr;
  std::optional<model::Snapshot> owned;  // the cluster's objects, when the input has several
  std::vector<model::PodIndex> pods;     // local index -> index in `whole`; empty: identity
  std::vector<model::NodeIndex> nodes;   // local index -> index in `whole`; empty: identity
  std::vector<int32_t> claims;           // local claim index -> index in `whole`
  std::string cluster;                   // empty: the only cluster (Scheduler picks the name)

  const model::Snapshot& snapshot() const { return owned ? *owned : *whole; }

  model::PodIndex ToWhole(model::PodIndex local) const {
    return pods.empty() ? local : pods[static_cast<size_t>(local.v)];
  }
  model::NodeIndex ToWhole(model::NodeIndex local) const {
    return nodes.empty() ? local : nodes[static_cast<size_t>(local.v)];
  }
  int32_t ToWholeClaim(devices::ClaimIndex local) const {
    return owned ? claims[static_cast<size_t>(local.v)] : local.v;
  }
  std::optional<model::PodIndex> ToLocal(model::PodIndex in_whole) const {
    if (!owned) return in_whole;
    auto it = std::find(pods.begin(), pods.end(), in_whole);
    if (it == pods.end()) return std::nullopt;
    return model::PodIndex{static_cast<int32_t>(it - pods.begin())};
  }
};

std::vector<ClusterPart> SplitByCluster(const model::Snapshot& whole) {
  std::set<std::string> clusters;
  for (const auto& node : whole.nodes) clusters.insert(node.cluster);
  for (const auto& pod : whole.pods) clusters.insert(pod.cluster);

  std::vector<ClusterPart> parts;
  if (clusters.size() <= 1) {
    parts.push_back(ClusterPart{&whole, std::nullopt, {}, {}, {}, ""});
    return parts;
  }
  for (const auto& cluster : clusters) {
    ClusterPart part{&whole, model::Snapshot{}, {}, {}, {}, cluster};
    model::Snapshot& s = *part.owned;
    // The catalog is copied whole so that ResourceIds mean the same in every part.
    s.resources = whole.resources;
    s.priority_classes = whole.priority_classes;
    s.namespaces = whole.namespaces;
    s.scheduler_config = whole.scheduler_config;
    for (size_t i = 0; i < whole.nodes.size(); ++i) {
      if (whole.nodes[i].cluster != cluster) continue;
      s.nodes.push_back(whole.nodes[i]);
      part.nodes.push_back(model::NodeIndex{static_cast<int32_t>(i)});
    }
    for (size_t i = 0; i < whole.pods.size(); ++i) {
      if (whole.pods[i].cluster != cluster) continue;
      s.pods.push_back(whole.pods[i]);
      part.pods.push_back(model::PodIndex{static_cast<int32_t>(i)});
    }
    for (const auto& workload : whole.workloads) {
      if (workload.cluster == cluster) s.workloads.push_back(workload);
    }
    // DeviceClasses carry no cluster (each member cluster has its own copy of the same
    // classes); claims, templates and slices belong to one.
    s.device_classes = whole.device_classes;
    for (size_t i = 0; i < whole.resource_claims.size(); ++i) {
      if (whole.resource_claims[i].cluster != cluster) continue;
      s.resource_claims.push_back(whole.resource_claims[i]);
      part.claims.push_back(static_cast<int32_t>(i));
    }
    for (const auto& t : whole.resource_claim_templates) {
      if (t.cluster == cluster) s.resource_claim_templates.push_back(t);
    }
    for (const auto& slice : whole.resource_slices) {
      if (slice.cluster == cluster) s.resource_slices.push_back(slice);
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

// Rewrites the indices of a part's decision so that they refer to the whole snapshot.
model::PodDecision ToWhole(const ClusterPart& part, model::PodDecision decision) {
  decision.pod = part.ToWhole(decision.pod);
  if (decision.node) decision.node = part.ToWhole(*decision.node);
  return decision;
}

// Sets (or replaces) a pod condition, as the kubelet and scheduler patch status.conditions.
void SetCondition(model::Pod& pod, model::PodCondition condition) {
  for (auto& existing : pod.conditions) {
    if (existing.type == condition.type) {
      existing = std::move(condition);
      return;
    }
  }
  pod.conditions.push_back(std::move(condition));
}

// Writes a decision where kube-scheduler writes it: the binding sets spec.nodeName and
// PodScheduled=True; a failed attempt sets PodScheduled=False with reason Unschedulable and
// the FitError message.
void WriteDecision(const model::PodDecision& decision, model::Snapshot& planned) {
  if (decision.skipped) return;
  model::Pod& pod = planned.pods[static_cast<size_t>(decision.pod.v)];
  if (decision.node) {
    pod.node_name = planned.node(*decision.node).meta.name;
    SetCondition(pod, {"PodScheduled", "True", "", ""});
  } else {
    SetCondition(pod, {"PodScheduled", "False", "Unschedulable", decision.message});
  }
}

// Writes what DynamicResources' PreBind writes: the allocation of a claim the bind
// allocated, and the pod in status.reservedFor. Returns the claim's index in `planned`.
int32_t WriteClaimBinding(const ClusterPart& part, const binding::ClaimBinding& binding,
                          model::Snapshot& planned) {
  const int32_t index = part.ToWholeClaim(binding.claim);
  model::ResourceClaim& claim = planned.resource_claims[static_cast<size_t>(index)];
  if (binding.allocated) claim.allocation = binding.allocation;
  const std::string& pod = planned.pod(part.ToWhole(binding.pod)).meta.name;
  if (std::find(claim.reserved_for.begin(), claim.reserved_for.end(), pod) ==
      claim.reserved_for.end()) {
    claim.reserved_for.push_back(pod);
  }
  return index;
}

// Appends `from`'s entries to `to`, each distinct (message, location, severity) once: every
// cluster's allocator sees the same DeviceClasses, so their problems would repeat.
void MergeDiagnostics(const core::Diagnostics& from, core::Diagnostics& to) {
  for (const core::Diagnostic& d : from.entries()) {
    bool seen = false;
    for (const core::Diagnostic& e : to.entries()) {
      if (e.severity == d.severity && e.error.message() == d.error.message() &&
          e.error.location() == d.error.location()) {
        seen = true;
        break;
      }
    }
    if (seen) continue;
    if (d.severity == core::Severity::kError) {
      to.Report(d.error);
    } else {
      to.Warn(d.error);
    }
  }
}

binding::SchedulerOptions PartOptions(const ClusterPart& part, core::Diagnostics* diags) {
  binding::SchedulerOptions options;
  options.cluster = part.cluster;
  options.diagnostics = diags;
  return options;
}

const char* PhaseName(model::PodPhase phase) {
  switch (phase) {
    case model::PodPhase::kPending:
      return "Pending";
    case model::PodPhase::kRunning:
      return "Running";
    case model::PodPhase::kSucceeded:
      return "Succeeded";
    case model::PodPhase::kFailed:
      return "Failed";
    case model::PodPhase::kUnknown:
      return "Unknown";
  }
  return "Unknown";
}

// Why a pod is not in the scheduling queue, for ExplainPod's error.
core::Error NotQueued(const model::Pod& pod, const model::SchedulerConfig& config) {
  std::string key = PodKey(pod);
  if (pod.IsTerminal()) {
    return core::FailedPrecondition("pod " + key + " has finished (phase " + PhaseName(pod.phase) +
                                    "); only pending pods are scheduled");
  }
  if (pod.IsBound()) {
    return core::FailedPrecondition("pod " + key + " is already bound to node " + pod.node_name +
                                    "; only pending pods are scheduled");
  }
  if (config.FindProfile(pod.scheduler_name) == nullptr) {
    return core::FailedPrecondition("pod " + key + " asks for schedulerName \"" +
                                    pod.scheduler_name +
                                    "\", which no scheduler profile serves; it is left alone");
  }
  return core::FailedPrecondition("pod " + key + " is not in the scheduling queue");
}

}  // namespace

std::string PodKey(const model::Pod& pod) {
  std::string key = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
  key += '/';
  key += pod.meta.name;
  return key;
}

model::SchedulerConfig EffectiveSchedulerConfig(const model::Snapshot& snapshot,
                                                const PlanOptions& options) {
  model::SchedulerConfig config = snapshot.scheduler_config.value_or(model::SchedulerConfig{});
  if (options.scoring) {
    for (auto& profile : config.profiles) {
      profile.fit_strategy.type = *options.scoring;
      // Upstream validation requires a shape for RequestedToCapacityRatio; a flag cannot
      // carry one, so use the documented bin-packing shape.
      if (*options.scoring == model::ScoringStrategyType::kRequestedToCapacityRatio &&
          profile.fit_strategy.shape.empty()) {
        profile.fit_strategy.shape = {{0, 0}, {100, 10}};
      }
    }
  }
  return config;
}

Plan RunPlan(const model::Snapshot& snapshot, const PlanOptions& options) {
  Plan plan;
  plan.planned = snapshot;
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  std::set<int32_t> changed;
  for (const ClusterPart& part : SplitByCluster(snapshot)) {
    core::Diagnostics diags;
    binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
    for (model::PodDecision& local : scheduler.ScheduleAll()) {
      model::PodDecision decision = ToWhole(part, std::move(local));
      WriteDecision(decision, plan.planned);
      plan.pod_decisions.push_back(std::move(decision));
    }
    for (const binding::ClaimBinding& binding : scheduler.ClaimBindings()) {
      changed.insert(WriteClaimBinding(part, binding, plan.planned));
    }
    MergeDiagnostics(diags, plan.diagnostics);
  }
  plan.changed_claims.assign(changed.begin(), changed.end());
  return plan;
}

core::Result<model::PodIndex> FindPod(const model::Snapshot& snapshot,
                                      const std::string& pod_name) {
  const bool qualified = pod_name.find('/') != std::string::npos;
  std::vector<model::PodIndex> matches;
  for (size_t i = 0; i < snapshot.pods.size(); ++i) {
    const model::Pod& pod = snapshot.pods[i];
    if (qualified ? PodKey(pod) == pod_name : pod.meta.name == pod_name) {
      matches.push_back(model::PodIndex{static_cast<int32_t>(i)});
    }
  }
  if (matches.empty()) return core::NotFound("pod \"" + pod_name + "\" not found in the input");
  if (matches.size() > 1) {
    std::string candidates;
    for (model::PodIndex i : matches) {
      const model::Pod& pod = snapshot.pod(i);
      if (!candidates.empty()) candidates += ", ";
      candidates += PodKey(pod);
      if (pod.cluster != "default") candidates += " (cluster " + pod.cluster + ")";
    }
    return core::InvalidArgument("pod name \"" + pod_name + "\" is ambiguous: " + candidates +
                                 "; name it as namespace/name");
  }
  return matches.front();
}

core::Result<Explanation> ExplainPod(const model::Snapshot& snapshot, const std::string& pod_name,
                                     const PlanOptions& options) {
  BERTH_ASSIGN_OR_RETURN(model::PodIndex target, FindPod(snapshot, pod_name));
  const model::SchedulerConfig config = EffectiveSchedulerConfig(snapshot, options);
  for (const ClusterPart& part : SplitByCluster(snapshot)) {
    std::optional<model::PodIndex> local = part.ToLocal(target);
    if (!local) continue;
    core::Diagnostics diags;
    binding::Scheduler scheduler(part.snapshot(), config, PartOptions(part, &diags));
    const std::vector<model::PodIndex> queue = scheduler.QueueOrder();
    auto it = std::find(queue.begin(), queue.end(), *local);
    if (it == queue.end()) return NotQueued(snapshot.pod(target), config);
    // Replay the cycle up to the pod so that it meets the nodes as the cycle leaves them.
    for (auto ahead = queue.begin(); ahead != it; ++ahead) {
      (void)scheduler.ScheduleOne(*ahead);
    }
    Explanation explanation;
    explanation.pod = scheduler.Explain(*local);
    explanation.pod.pod = target;
    for (auto& verdict : explanation.pod.nodes) verdict.node = part.ToWhole(verdict.node);
    explanation.pod.decision = ToWhole(part, std::move(explanation.pod.decision));
    explanation.queue_position = static_cast<int32_t>(it - queue.begin()) + 1;
    explanation.queue_length = static_cast<int32_t>(queue.size());
    MergeDiagnostics(diags, explanation.diagnostics);
    return explanation;
  }
  // FindPod returned an index of `snapshot`, and the parts cover every pod.
  BERTH_CHECK(false, "pod found in the snapshot but in no cluster part");
  return core::Internal("unreachable");
}

}  // namespace berth::engine
