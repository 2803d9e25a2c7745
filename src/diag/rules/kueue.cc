// Kueue rules: queues that can admit nothing (a LocalQueue naming a missing ClusterQueue, a
// queue-name label naming a missing LocalQueue, a namespaceSelector that admits none of its
// LocalQueues' namespaces, an AdmissionCheck that is not there), flavors that point at no node
// or no topology, workloads Kueue can never admit (a resource no resourceGroup covers, taints
// no flavor tolerates, more than nominal quota plus every reachable borrow), cohorts where
// borrowing never happens, preemption settings that never fire, and quota the nodes cannot
// back. Semantics are queueing's (BuildQueueSetup, ResolveQueue, QuotaTree), so doctor and the
// planner agree; each rule builds the queue setup of a cluster once.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/rules/rules.h"
#include "engine/fleet_checks.h"
#include "queueing/queue_setup.h"
#include "queueing/workload_info.h"

namespace berth::diag::rules {

namespace {

constexpr std::string_view kKueueApi = "kueue.x-k8s.io/v1beta2";
constexpr const char* kKueueQueueLabel = "kueue.x-k8s.io/queue-name";

// Every cluster holding a ClusterQueue, Cohort, LocalQueue, ResourceFlavor or Workload.
std::vector<std::string> KueueClusters(const model::Snapshot& s) {
  std::set<std::string> out;
  for (const auto& o : s.cluster_queues) out.insert(o.cluster);
  for (const auto& o : s.cohorts) out.insert(o.cluster);
  for (const auto& o : s.local_queues) out.insert(o.cluster);
  for (const auto& o : s.resource_flavors) out.insert(o.cluster);
  for (const auto& o : s.kueue_workloads) out.insert(o.cluster);
  return {out.begin(), out.end()};
}

// The queue setup of each cluster, as admission builds it. Its diagnostics (what the planner
// reports) are dropped: the rules below say the same in the operator's words.
std::map<std::string, queueing::QueueSetup> KueueSetups(const DoctorContext& ctx) {
  std::map<std::string, queueing::QueueSetup> out;
  for (const std::string& cluster : KueueClusters(ctx.snapshot())) {
    core::Diagnostics scratch;
    out.emplace(cluster, queueing::BuildQueueSetup(ctx.snapshot(), cluster, scratch));
  }
  return out;
}

std::string KueueList(const std::vector<std::string>& items, size_t max = 5) {
  std::string s;
  for (size_t i = 0; i < items.size() && i < max; ++i) s += (i == 0 ? "" : ", ") + items[i];
  if (items.size() > max) s += ", ... (" + std::to_string(items.size()) + " in all)";
  return s;
}

std::string KueueAmount(const model::Snapshot& s, model::ResourceId r, int64_t amount) {
  const std::string& name = s.resources.Name(r);
  return model::AmountQuantity(name, amount).ToString() + " " + name;
}

int64_t KueueTimes(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::numeric_limits<int64_t>::max();
  return out;
}

// What a finding about a Kueue Workload points at: the job it was made for (with the pod set
// template's field prefix, as the other rules name it), or the Workload given as such.
struct KueueTarget {
  ObjectRef object;
  std::string queue_field;
  std::vector<std::string> pod_set_prefix;  // parallel to the workload's pod sets
};

class KueueTargets {
 public:
  explicit KueueTargets(const DoctorContext& ctx) : ctx_(ctx) {
    for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
      if (spec.workload != nullptr) specs_[spec.workload].push_back(&spec);
    }
  }

  KueueTarget Of(const model::Workload& wl) const {
    KueueTarget t;
    if (wl.owner_workload.has_value()) {
      const model::WorkloadObject& job =
          ctx_.snapshot().workloads[static_cast<size_t>(*wl.owner_workload)];
      t.object = RefOf(job, job.api_version, job.kind);
      t.queue_field = std::string("metadata.labels[\"") + kKueueQueueLabel + "\"]";
      auto it = specs_.find(&job);
      for (size_t p = 0; p < wl.pod_sets.size(); ++p) {
        if (it != specs_.end() && p < it->second.size()) {
          t.pod_set_prefix.push_back(it->second[p]->field_prefix);
        } else {
          t.pod_set_prefix.push_back("spec.");
        }
      }
      return t;
    }
    t.object = RefOf(wl, kKueueApi, "Workload");
    t.queue_field = "spec.queueName";
    for (size_t p = 0; p < wl.pod_sets.size(); ++p) {
      t.pod_set_prefix.push_back("spec.podSets[" + std::to_string(p) + "].template.spec.");
    }
    return t;
  }

 private:
  const DoctorContext& ctx_;
  std::unordered_map<const model::WorkloadObject*, std::vector<const DoctorContext::PodSpecRef*>>
      specs_;
};

bool KueueFinished(const model::Workload& wl) {
  const model::WorkloadCondition* c = wl.FindCondition("Finished");
  return c != nullptr && c->status == "True";
}

// Kueue's flavorSelector: only the keys the flavor's own nodeLabels name are compared; a
// required-affinity term left with no expression matches everything.
bool KueueFlavorLabelsMatch(const model::Pod& pod, const core::Labels& flavor_labels) {
  for (const auto& [k, v] : pod.node_selector) {
    auto it = flavor_labels.find(k);
    if (it != flavor_labels.end() && it->second != v) return false;
  }
  if (!pod.node_affinity.required) return true;
  for (const core::NodeSelectorTerm& term : pod.node_affinity.required->terms) {
    core::NodeSelectorTerm kept;
    for (const auto& req : term.match_expressions) {
      if (flavor_labels.contains(req.key)) kept.match_expressions.push_back(req);
    }
    if (kept.match_expressions.empty() || kept.Matches(flavor_labels, "")) return true;
  }
  return false;
}

const core::Taint* KueueUntoleratedTaint(const model::Pod& pod, const model::ResourceFlavor& flavor) {
  std::vector<core::Toleration> tolerations = pod.tolerations;
  tolerations.insert(tolerations.end(), flavor.tolerations.begin(), flavor.tolerations.end());
  return core::FindUntoleratedHardTaint(flavor.node_taints, tolerations);
}

std::string KueueTaintText(const core::Taint& t) {
  return t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + core::TaintEffectName(t.effect);
}

// The nodes of `cluster` that carry every label of `labels` (every node when it is empty).
std::vector<model::NodeIndex> KueueFlavorNodes(const DoctorContext& ctx, const std::string& cluster,
                                               const core::Labels& labels) {
  if (labels.empty()) return ctx.NodesOf(cluster);
  const std::vector<model::NodeIndex>* smallest = nullptr;
  for (const auto& [k, v] : labels) {
    const auto& nodes = ctx.NodesWithLabel(cluster, k, v);
    if (smallest == nullptr || nodes.size() < smallest->size()) smallest = &nodes;
  }
  std::vector<model::NodeIndex> out;
  for (model::NodeIndex n : *smallest) {
    const core::Labels& node_labels = ctx.snapshot().node(n).meta.labels;
    bool all = true;
    for (const auto& [k, v] : labels) {
      auto it = node_labels.find(k);
      if (it == node_labels.end() || it->second != v) {
        all = false;
        break;
      }
    }
    if (all) out.push_back(n);
  }
  return out;
}

// ---- localqueue-clusterqueue-missing ----

void CheckLocalQueueClusterQueueMissing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::map<std::string, std::vector<std::string>> cqs;  // cluster -> names
  for (const model::ClusterQueue& cq : s.cluster_queues) cqs[cq.cluster].push_back(cq.meta.name);
  for (const model::LocalQueue& lq : s.local_queues) {
    const std::vector<std::string>& names = cqs[lq.cluster];
    if (std::find(names.begin(), names.end(), lq.cluster_queue) != names.end()) continue;
    sink.Add(RefOf(lq, kKueueApi, "LocalQueue"), "spec.clusterQueue",
             "names ClusterQueue " + lq.cluster_queue + ", which does not exist in cluster " + lq.cluster +
                 ": every workload queued here stays suspended (Misconfigured: ClusterQueue " +
                 lq.cluster_queue + " doesn't exist)",
             names.empty() ? "create ClusterQueue " + lq.cluster_queue
                           : "set spec.clusterQueue to an existing ClusterQueue (" + KueueList(names) +
                                 ") or create ClusterQueue " + lq.cluster_queue);
  }
}

// ---- queue-name-dangling ----

void CheckQueueNameDangling(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  // cluster/name -> namespaces holding a LocalQueue of that name.
  std::map<std::string, std::vector<std::string>> by_name;
  std::set<std::string> keys;
  for (const model::LocalQueue& lq : s.local_queues) {
    by_name[lq.cluster + "/" + lq.meta.name].push_back(lq.meta.namespace_);
    keys.insert(lq.cluster + "/" + lq.meta.namespace_ + "/" + lq.meta.name);
  }
  const KueueTargets targets(ctx);
  for (const model::Workload& wl : s.kueue_workloads) {
    if (wl.queue_name.empty() || KueueFinished(wl)) continue;
    if (keys.contains(wl.cluster + "/" + wl.meta.namespace_ + "/" + wl.queue_name)) continue;
    const KueueTarget t = targets.Of(wl);
    std::string elsewhere;
    auto it = by_name.find(wl.cluster + "/" + wl.queue_name);
    if (it != by_name.end()) {
      elsewhere = " (LocalQueue " + wl.queue_name + " exists in namespace(s) " + KueueList(it->second) +
                  ": a LocalQueue serves only its own namespace)";
    }
    sink.Add(t.object, t.queue_field,
             "is queued to LocalQueue " + wl.queue_name + ", which does not exist in namespace " +
                 wl.meta.namespace_ + elsewhere + ": Kueue keeps it suspended and never admits it",
             "create LocalQueue " + wl.queue_name + " in namespace " + wl.meta.namespace_ +
                 " pointing at a ClusterQueue, or set kueue.x-k8s.io/queue-name to a LocalQueue of "
                 "that namespace");
  }
}

// ---- namespace-selector-admits-nothing ----

void CheckNamespaceSelectorAdmitsNothing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::unordered_map<std::string, const model::Namespace*> namespaces;
  for (const model::Namespace& ns : s.namespaces) namespaces.emplace(ns.meta.name, &ns);
  std::map<std::string, std::vector<const model::LocalQueue*>> lqs;  // cluster/cq -> queues
  for (const model::LocalQueue& lq : s.local_queues) lqs[lq.cluster + "/" + lq.cluster_queue].push_back(&lq);
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    const ObjectRef ref = RefOf(cq, kKueueApi, "ClusterQueue");
    if (!cq.namespace_selector.has_value()) {
      sink.Add(ref, "spec.namespaceSelector",
               "has no namespaceSelector, which admits no namespace: every workload sent to it is "
               "inadmissible (Misconfigured: namespace doesn't match ClusterQueue selector)",
               "set spec.namespaceSelector: {} to admit every namespace, or a selector matching the "
               "tenant namespaces");
      continue;
    }
    const core::LabelSelector& sel = *cq.namespace_selector;
    if (sel.Empty()) continue;
    // Only the API server's own label is known for a namespace not in the input.
    bool needs_namespace_labels = false;
    for (const auto& [k, v] : sel.match_labels) needs_namespace_labels |= k != "kubernetes.io/metadata.name";
    for (const auto& r : sel.match_expressions) needs_namespace_labels |= r.key != "kubernetes.io/metadata.name";
    std::vector<std::string> missed;
    for (const model::LocalQueue* lq : lqs[cq.cluster + "/" + cq.meta.name]) {
      const std::string& name = lq->meta.namespace_;
      core::Labels labels;
      auto it = namespaces.find(name);
      if (it != namespaces.end()) {
        labels = it->second->meta.labels;
      } else if (needs_namespace_labels) {
        continue;  // unknown labels: no verdict
      }
      labels.emplace("kubernetes.io/metadata.name", name);
      if (!sel.Matches(labels) && std::find(missed.begin(), missed.end(), name) == missed.end()) {
        missed.push_back(name);
      }
    }
    if (missed.empty()) continue;
    sink.Add(ref, "spec.namespaceSelector",
             "namespaceSelector does not match namespace(s) " + KueueList(missed) +
                 " whose LocalQueues point at it: their workloads are inadmissible (Misconfigured: "
                 "namespace doesn't match ClusterQueue selector)",
             "label the namespace(s) to match spec.namespaceSelector, or widen the selector (kubectl "
             "get ns --show-labels)");
  }
}

// ---- flavor-matches-no-node, topology-level-missing ----

std::set<std::string> KueueReferencedFlavors(const model::Snapshot& s) {
  std::set<std::string> out;
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    for (const auto& g : cq.resource_groups) {
      for (const auto& f : g.flavors) out.insert(cq.cluster + "/" + f.flavor);
    }
  }
  for (const model::Cohort& c : s.cohorts) {
    for (const auto& g : c.resource_groups) {
      for (const auto& f : g.flavors) out.insert(c.cluster + "/" + f.flavor);
    }
  }
  return out;
}

void CheckFlavorMatchesNoNode(const DoctorContext& ctx, FindingSink& sink) {
  const std::set<std::string> used = KueueReferencedFlavors(ctx.snapshot());
  for (const model::ResourceFlavor& f : ctx.snapshot().resource_flavors) {
    if (f.node_labels.empty() || ctx.NodesOf(f.cluster).empty()) continue;
    if (ctx.AnyNodeMatches(f.cluster, f.node_labels, std::nullopt)) continue;
    std::string detail;
    for (const auto& [k, v] : f.node_labels) {
      if (ctx.NodesWithLabel(f.cluster, k, v).empty()) {
        detail = "no node is labelled " + k + "=" + v;
        break;
      }
    }
    if (detail.empty()) detail = "no node carries all of its labels together";
    const bool referenced = used.contains(f.cluster + "/" + f.meta.name);
    sink.AddAt(referenced ? Severity::kError : Severity::kWarning, RefOf(f, kKueueApi, "ResourceFlavor"),
               "spec.nodeLabels",
               "nodeLabels match no node of cluster " + f.cluster + " (" + detail + ")" +
                   (referenced ? ": workloads admitted in this flavor get a nodeSelector no node satisfies "
                                 "and stay Pending"
                               : ""),
               "use label values the nodes carry (kubectl get nodes -L <key>), or label the intended "
               "nodes");
  }
}

void CheckTopologyLevelMissing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::map<std::string, const model::Topology*> topologies;
  for (const model::Topology& t : s.topologies) topologies.emplace(t.cluster + "/" + t.meta.name, &t);
  for (const model::ResourceFlavor& f : s.resource_flavors) {
    if (f.topology_name.empty()) continue;
    const ObjectRef ref = RefOf(f, kKueueApi, "ResourceFlavor");
    auto it = topologies.find(f.cluster + "/" + f.topology_name);
    if (it == topologies.end()) {
      sink.Add(ref, "spec.topologyName",
               "names Topology " + f.topology_name + ", which does not exist in cluster " + f.cluster +
                   ": topology-aware scheduling cannot place workloads of this flavor",
               "create Topology " + f.topology_name + " with the node label levels, or fix spec.topologyName");
      continue;
    }
    if (ctx.NodesOf(f.cluster).empty()) continue;
    const std::vector<model::NodeIndex> nodes = KueueFlavorNodes(ctx, f.cluster, f.node_labels);
    if (nodes.empty()) continue;  // flavor-matches-no-node
    for (size_t l = 0; l < it->second->levels.size(); ++l) {
      const std::string& level = it->second->levels[l];
      size_t carrying = 0;
      for (model::NodeIndex n : nodes) carrying += s.node(n).meta.labels.contains(level) ? 1 : 0;
      if (carrying == nodes.size()) continue;
      const bool none = carrying == 0;
      sink.AddAt(none ? Severity::kError : Severity::kWarning, ref, "spec.topologyName",
                 "Topology " + f.topology_name + " level " + level + " is a label " +
                     (none ? "none" : std::to_string(nodes.size() - carrying)) + " of the " +
                     std::to_string(nodes.size()) + " node(s) of this flavor carry" +
                     (none ? ": Kueue finds no topology domains and admits no workload with a topology "
                             "request here"
                           : "; topology-aware scheduling never places pods on those nodes"),
                 "label every node of the flavor with " + level +
                     " (kubectl label node NODE " + level + "=VALUE), or remove the level from Topology " +
                     f.topology_name);
      break;  // one finding per flavor: the coarsest missing level
    }
  }
}

// ---- workload checks over the resolved queue ----

// Calls fn(wl, setup, cq info) for every unfinished, unadmitted workload whose LocalQueue and
// ClusterQueue exist (namespace and activity are not required: those are other rules).
void KueueForEachQueuedWorkload(
    const DoctorContext& ctx, const std::map<std::string, queueing::QueueSetup>& setups,
    const std::function<void(size_t, const model::Workload&, const queueing::QueueSetup&,
                             const queueing::ClusterQueueInfo&)>& fn) {
  const model::Snapshot& s = ctx.snapshot();
  for (size_t i = 0; i < s.kueue_workloads.size(); ++i) {
    const model::Workload& wl = s.kueue_workloads[i];
    if (wl.queue_name.empty() || KueueFinished(wl) || wl.admission.has_value()) continue;
    auto setup = setups.find(wl.cluster);
    if (setup == setups.end()) continue;
    const queueing::QueueResolution res = queueing::ResolveQueue(setup->second, s, wl);
    if (res.cq < 0) continue;
    fn(i, wl, setup->second, setup->second.cqs[static_cast<size_t>(res.cq)]);
  }
}

std::vector<std::string> KueueCovered(const model::Snapshot& s, const queueing::ClusterQueueInfo& cq) {
  std::vector<std::string> out;
  for (const auto& g : cq.groups) {
    for (model::ResourceId r : g.resources) out.push_back(s.resources.Name(r));
  }
  return out;
}

void CheckResourceNotCovered(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  const auto setups = KueueSetups(ctx);
  const KueueTargets targets(ctx);
  KueueForEachQueuedWorkload(ctx, setups, [&](size_t i, const model::Workload& wl,
                                              const queueing::QueueSetup&,
                                              const queueing::ClusterQueueInfo& cq) {
    const queueing::WorkloadInfo info = queueing::BuildWorkloadInfo(wl, static_cast<int32_t>(i));
    const KueueTarget t = targets.Of(wl);
    for (size_t p = 0; p < info.pod_sets.size(); ++p) {
      std::vector<std::string> missing;
      bool gpu = false;
      for (const auto& [r, amount] : info.pod_sets[p].per_pod) {
        if (amount <= 0 || cq.group_of_resource.contains(r.v)) continue;
        missing.push_back(s.resources.Name(r));
        gpu |= ctx.IsGpuResource(r);
      }
      if (missing.empty()) continue;
      const std::vector<std::string> covered = KueueCovered(s, cq);
      sink.Add(t.object, t.pod_set_prefix[p] + "containers",
               "pod set " + info.pod_sets[p].name + " requests " + KueueList(missing) +
                   (missing.size() == 1 ? ", which" : ", which none of") + " ClusterQueue " + cq.name +
                   " covers (coveredResources: " + (covered.empty() ? "none" : KueueList(covered, 8)) +
                   "): Kueue never admits it (resource " + missing.front() + " unavailable in ClusterQueue)",
               "add " + KueueList(missing) + " to a resourceGroup's coveredResources of ClusterQueue " + cq.name +
                   " with a nominalQuota in each flavor" +
                   (gpu ? " (the GPU resource name the nodes advertise)" : "") +
                   ", or remove the request");
    }
  });
}

// The flavors of `group` a pod set may take (present, taints tolerated, labels compatible).
std::vector<size_t> KueueUsableFlavors(const model::Snapshot& s, const queueing::QuotaGroup& group,
                                       const model::Pod& pod) {
  std::vector<size_t> out;
  for (size_t f = 0; f < group.flavors.size(); ++f) {
    const queueing::GroupFlavor& gf = group.flavors[f];
    if (gf.flavor < 0 || gf.frs.size() != group.resources.size()) continue;
    const model::ResourceFlavor& flavor = s.resource_flavors[static_cast<size_t>(gf.flavor)];
    if (KueueUntoleratedTaint(pod, flavor) != nullptr) continue;
    if (!KueueFlavorLabelsMatch(pod, flavor.node_labels)) continue;
    out.push_back(f);
  }
  return out;
}

// The resource groups a pod set's requests fall in.
std::set<int32_t> KueueGroupsOf(const queueing::PodSetRequest& ps, const queueing::ClusterQueueInfo& cq) {
  std::set<int32_t> out;
  for (const auto& [r, amount] : ps.per_pod) {
    auto it = cq.group_of_resource.find(r.v);
    if (amount > 0 && it != cq.group_of_resource.end()) out.insert(it->second);
  }
  return out;
}

void CheckFlavorTaintUntolerated(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  const auto setups = KueueSetups(ctx);
  const KueueTargets targets(ctx);
  KueueForEachQueuedWorkload(ctx, setups, [&](size_t i, const model::Workload& wl,
                                              const queueing::QueueSetup&,
                                              const queueing::ClusterQueueInfo& cq) {
    const queueing::WorkloadInfo info = queueing::BuildWorkloadInfo(wl, static_cast<int32_t>(i));
    const KueueTarget t = targets.Of(wl);
    for (size_t p = 0; p < info.pod_sets.size() && p < wl.pod_sets.size(); ++p) {
      const model::Pod& pod = wl.pod_sets[p].pod_template;
      for (int32_t g : KueueGroupsOf(info.pod_sets[p], cq)) {
        const queueing::QuotaGroup& group = cq.groups[static_cast<size_t>(g)];
        std::string blocking;
        bool any = false, tolerated = false;
        for (const queueing::GroupFlavor& gf : group.flavors) {
          if (gf.flavor < 0) continue;
          any = true;
          const model::ResourceFlavor& flavor = s.resource_flavors[static_cast<size_t>(gf.flavor)];
          const core::Taint* taint = KueueUntoleratedTaint(pod, flavor);
          if (taint == nullptr) {
            tolerated = true;
            break;
          }
          blocking += (blocking.empty() ? "" : ", ") + gf.name + ": " + KueueTaintText(*taint);
        }
        if (!any || tolerated) continue;
        sink.Add(t.object, t.pod_set_prefix[p] + "tolerations",
                 "pod set " + info.pod_sets[p].name + " tolerates no taint of the flavors ClusterQueue " +
                     cq.name + " offers for its resources (" + blocking +
                     "): Kueue never admits it (NoMatchingFlavor: untolerated taint)",
                 "add tolerations for those taints to the pod template, or add them to the "
                 "ResourceFlavor's spec.tolerations if every workload of the flavor should tolerate them");
        break;
      }
    }
  });
}

void CheckWorkloadLargerThanQuota(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  const auto setups = KueueSetups(ctx);
  const KueueTargets targets(ctx);
  KueueForEachQueuedWorkload(ctx, setups, [&](size_t i, const model::Workload& wl,
                                              const queueing::QueueSetup& setup,
                                              const queueing::ClusterQueueInfo& cq) {
    if (cq.reason == "InvalidSpec") return;  // its quotas were not read into the tree
    const queueing::WorkloadInfo info = queueing::BuildWorkloadInfo(wl, static_cast<int32_t>(i));
    const KueueTarget t = targets.Of(wl);
    const int32_t node = static_cast<int32_t>(&cq - setup.cqs.data());
    const model::ClusterQueue& spec = s.cluster_queues[static_cast<size_t>(cq.index)];
    for (size_t p = 0; p < info.pod_sets.size() && p < wl.pod_sets.size(); ++p) {
      const queueing::PodSetRequest& ps = info.pod_sets[p];
      const int64_t count = ps.min_count.value_or(ps.count);  // partial admission's floor
      for (int32_t g : KueueGroupsOf(ps, cq)) {
        const queueing::QuotaGroup& group = cq.groups[static_cast<size_t>(g)];
        const std::vector<size_t> usable = KueueUsableFlavors(s, group, wl.pod_sets[p].pod_template);
        if (usable.empty()) continue;  // flavor rules say why
        // The flavor that comes closest: its worst resource's shortfall is the smallest.
        bool fits = false;
        std::string best_text;
        int64_t best_short = -1;
        for (size_t f : usable) {
          const queueing::GroupFlavor& gf = group.flavors[f];
          int64_t worst = 0;
          std::string text;
          for (size_t ri = 0; ri < group.resources.size(); ++ri) {
            const model::ResourceId r = group.resources[ri];
            int64_t per_pod = 0;
            for (const auto& [rr, amount] : ps.per_pod) per_pod = rr == r ? amount : per_pod;
            if (r == model::kPods) per_pod = 1;
            if (per_pod <= 0) continue;
            const int64_t want = KueueTimes(per_pod, count);
            const int64_t potential = setup.tree.PotentialAvailable(node, gf.frs[ri]);
            if (want <= potential) continue;
            const int64_t nominal = setup.tree.Nominal(node, gf.frs[ri]);
            const int64_t shortfall = want - potential;
            if (shortfall > worst) {
              worst = shortfall;
              text = "needs " + KueueAmount(s, r, want) +
                     (count > 1 ? " (" + std::to_string(count) + " pods × " +
                                      model::AmountQuantity(s.resources.Name(r), per_pod).ToString() + ")"
                                : "") +
                     " but ClusterQueue " + cq.name + " can reach at most " +
                     model::AmountQuantity(s.resources.Name(r), potential).ToString() + " in flavor " + gf.name +
                     " (nominal " + model::AmountQuantity(s.resources.Name(r), nominal).ToString() +
                     (spec.cohort.empty() ? ", no cohort to borrow from"
                                          : ", " + model::AmountQuantity(s.resources.Name(r), potential - nominal)
                                                       .ToString() +
                                                " more by borrowing in cohort " + spec.cohort) +
                     ")";
            }
          }
          if (worst == 0) {
            fits = true;
            break;
          }
          if (best_short < 0 || worst < best_short) {
            best_short = worst;
            best_text = text;
          }
        }
        if (fits) continue;
        sink.Add(t.object, t.pod_set_prefix[p] + "containers",
                 "pod set " + ps.name + " " + best_text +
                     ": Kueue can never admit it (ExceedsMaxQuota), whatever else finishes",
                 "lower the pod set's requests or pod count, or raise nominalQuota (or the borrowingLimit "
                 "and the cohort's lendable quota) of ClusterQueue " + cq.name);
        break;
      }
    }
  });
}

// ---- cohort-borrowing-impossible ----

// What a ClusterQueue could ever borrow, summed over its (flavor, resource) pairs.
int64_t KueueBorrowable(const queueing::QueueSetup& setup, int32_t q) {
  std::set<int32_t> frs;
  for (const auto& g : setup.cqs[static_cast<size_t>(q)].groups) {
    for (const auto& f : g.flavors) frs.insert(f.frs.begin(), f.frs.end());
  }
  int64_t total = 0;
  for (int32_t fr : frs) {
    if (fr < 0) continue;
    total = model::SaturatingAdd(
        total, std::max<int64_t>(0, setup.tree.PotentialAvailable(q, fr) - setup.tree.Nominal(q, fr)));
  }
  return total;
}

// Why nobody in a cohort tree can borrow: the members' quotas, read once.
std::string KueueNoBorrowReason(const model::Snapshot& s, const queueing::QueueSetup& setup,
                                const std::vector<int32_t>& members) {
  bool all_zero_borrow = true, any_lend = false;
  for (int32_t q : members) {
    const model::ClusterQueue& spec = s.cluster_queues[static_cast<size_t>(setup.cqs[static_cast<size_t>(q)].index)];
    for (const auto& g : spec.resource_groups) {
      for (const auto& f : g.flavors) {
        for (const auto& rq : f.resources) {
          if (!rq.borrowing_limit || *rq.borrowing_limit > 0) all_zero_borrow = false;
          const int64_t lend = rq.lending_limit ? std::min(*rq.lending_limit, rq.nominal) : rq.nominal;
          if (lend > 0) any_lend = true;
        }
      }
    }
  }
  if (all_zero_borrow) return "every member sets borrowingLimit 0";
  if (!any_lend) return "no member lends anything (lendingLimit 0 or no nominal quota)";
  return "the members lend only in flavors and resources the others do not use";
}

void CheckCohortBorrowingImpossible(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  for (const auto& [cluster, setup] : KueueSetups(ctx)) {
    std::set<std::vector<int32_t>> trees;
    for (size_t q = 0; q < setup.cqs.size(); ++q) {
      const model::ClusterQueue& spec = s.cluster_queues[static_cast<size_t>(setup.cqs[q].index)];
      if (spec.cohort.empty()) continue;
      const int64_t borrowable = KueueBorrowable(setup, static_cast<int32_t>(q));
      if (spec.preemption.borrow_within_cohort.policy != model::PreemptionPolicy::kNever && borrowable == 0) {
        sink.Add(RefOf(spec, kKueueApi, "ClusterQueue"), "spec.preemption.borrowWithinCohort",
                 "sets borrowWithinCohort, but ClusterQueue " + spec.meta.name + " can never borrow in cohort " +
                     spec.cohort + " (" + KueueNoBorrowReason(s, setup, setup.cqs[q].same_tree) +
                     "): the policy never fires",
                 "give the cohort lendable quota in this queue's flavors (or a borrowingLimit above 0), or "
                 "remove borrowWithinCohort");
      }
      if (setup.cqs[q].same_tree.size() >= 2) trees.insert(setup.cqs[q].same_tree);
    }
    for (const std::vector<int32_t>& members : trees) {
      bool any = false;
      for (int32_t q : members) any |= KueueBorrowable(setup, q) > 0;
      if (any) continue;
      const std::string reason = KueueNoBorrowReason(s, setup, members);
      for (int32_t q : members) {
        const model::ClusterQueue& spec = s.cluster_queues[static_cast<size_t>(setup.cqs[static_cast<size_t>(q)].index)];
        if (spec.cohort.empty()) continue;
        sink.Add(RefOf(spec, kKueueApi, "ClusterQueue"), "spec.cohortName",
                 "is in cohort " + spec.cohort + " where no ClusterQueue can ever borrow (" + reason +
                     "): idle quota of one queue never serves another",
                 "let members lend (raise or drop lendingLimit, give nominalQuota in the same flavors and "
                 "resources) and allow borrowing (drop borrowingLimit 0), or leave the cohort out");
      }
    }
  }
}

// ---- preemption-contradictory ----

const char* KueuePolicyName(model::PreemptionPolicy p) {
  switch (p) {
    case model::PreemptionPolicy::kNever: return "Never";
    case model::PreemptionPolicy::kLowerPriority: return "LowerPriority";
    case model::PreemptionPolicy::kLowerOrNewerEqualPriority: return "LowerOrNewerEqualPriority";
    case model::PreemptionPolicy::kAny: return "Any";
  }
  return "Never";
}

void CheckPreemptionContradictory(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  const bool fair_sharing = s.kueue_config.has_value() && s.kueue_config->fair_sharing.has_value();
  // Priorities per ClusterQueue (through its LocalQueues), for policies that compare them.
  std::map<std::string, std::string> lq_to_cq;
  for (const model::LocalQueue& lq : s.local_queues) {
    lq_to_cq[lq.cluster + "/" + lq.meta.namespace_ + "/" + lq.meta.name] = lq.cluster + "/" + lq.cluster_queue;
  }
  std::map<std::string, std::set<int32_t>> priorities;
  for (const model::Workload& wl : s.kueue_workloads) {
    auto it = lq_to_cq.find(wl.cluster + "/" + wl.meta.namespace_ + "/" + wl.queue_name);
    if (it != lq_to_cq.end()) priorities[it->second].insert(wl.priority);
  }
  std::set<std::string> clusters_with_classes;
  for (const model::WorkloadPriorityClass& c : s.workload_priority_classes) clusters_with_classes.insert(c.cluster);
  const bool pod_classes = !s.priority_classes.empty();

  for (const model::ClusterQueue& cq : s.cluster_queues) {
    const ObjectRef ref = RefOf(cq, kKueueApi, "ClusterQueue");
    const model::ClusterQueuePreemption& p = cq.preemption;
    const bool borrow = p.borrow_within_cohort.policy != model::PreemptionPolicy::kNever;
    if (cq.cohort.empty()) {
      if (p.reclaim_within_cohort != model::PreemptionPolicy::kNever) {
        sink.Add(ref, "spec.preemption.reclaimWithinCohort",
                 std::string("reclaimWithinCohort: ") + KueuePolicyName(p.reclaim_within_cohort) +
                     " never fires: the ClusterQueue has no cohortName, so it lends nothing to reclaim",
                 "set spec.cohortName to share quota with other queues, or drop reclaimWithinCohort");
      }
      if (borrow) {
        sink.Add(ref, "spec.preemption.borrowWithinCohort",
                 "borrowWithinCohort never fires: the ClusterQueue has no cohortName, so it never borrows",
                 "set spec.cohortName, or drop borrowWithinCohort");
      }
    } else if (borrow && fair_sharing) {
      sink.Add(ref, "spec.preemption.borrowWithinCohort",
               "borrowWithinCohort is ignored: the Kueue Configuration enables fair sharing, whose "
               "preemption does not use it",
               "drop borrowWithinCohort and tune fairSharing (weights, preemptionStrategies), or turn fair "
               "sharing off");
    }
    // LowerPriority compares priorities: with one priority everywhere it never preempts.
    const std::string key = cq.cluster + "/" + cq.meta.name;
    auto pr = priorities.find(key);
    const bool one_priority = !pod_classes && !clusters_with_classes.contains(cq.cluster) &&
                              pr != priorities.end() && pr->second.size() == 1;
    if (one_priority && p.within_cluster_queue == model::PreemptionPolicy::kLowerPriority) {
      sink.Add(ref, "spec.preemption.withinClusterQueue",
               "withinClusterQueue: LowerPriority never fires: every workload queued here has priority " +
                   std::to_string(*pr->second.begin()) + " and no PriorityClass or WorkloadPriorityClass exists",
               "give workloads priorities (a WorkloadPriorityClass and the kueue.x-k8s.io/priority-class "
               "label), or use LowerOrNewerEqualPriority to let older workloads preempt newer ones");
    }
  }
}

// ---- phantom-quota ----

void CheckPhantomQuota(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  // Queues whose workloads run in other clusters hold quota the hub's nodes never back.
  std::set<std::string> fleet_checks;
  for (const model::AdmissionCheck& a : s.admission_checks) {
    if (a.controller_name == engine::kMultiKueueCheckController ||
        a.controller_name == engine::kPlacementCheckController) {
      fleet_checks.insert(a.cluster + "/" + a.meta.name);
    }
  }
  // cluster/flavor -> resource -> (queue, nominal)
  std::map<std::string, std::map<uint16_t, std::vector<std::pair<std::string, int64_t>>>> quota;
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    bool gated = false;
    for (const auto& rule : cq.admission_checks) gated |= fleet_checks.contains(cq.cluster + "/" + rule.name);
    if (gated) continue;
    for (const auto& g : cq.resource_groups) {
      for (const auto& f : g.flavors) {
        for (const auto& rq : f.resources) {
          if (rq.nominal > 0 && ctx.IsGpuResource(rq.resource)) {
            quota[cq.cluster + "/" + f.flavor][rq.resource.v].emplace_back(cq.meta.name, rq.nominal);
          }
        }
      }
    }
  }
  for (const model::ResourceFlavor& f : s.resource_flavors) {
    auto q = quota.find(f.cluster + "/" + f.meta.name);
    if (q == quota.end() || ctx.NodesOf(f.cluster).empty()) continue;
    const std::vector<model::NodeIndex> nodes = KueueFlavorNodes(ctx, f.cluster, f.node_labels);
    if (nodes.empty()) continue;  // flavor-matches-no-node
    for (const auto& [rv, queues] : q->second) {
      const model::ResourceId r{rv};
      int64_t nominal = 0, allocatable = 0;
      for (const auto& [name, amount] : queues) nominal = model::SaturatingAdd(nominal, amount);
      for (model::NodeIndex n : nodes) allocatable = model::SaturatingAdd(allocatable, s.node(n).allocatable.Get(r));
      if (nominal <= allocatable) continue;
      std::vector<std::string> parts;
      for (const auto& [name, amount] : queues) parts.push_back(name + " " + std::to_string(amount));
      sink.Add(RefOf(f, kKueueApi, "ResourceFlavor"), "spec.nodeLabels",
               "ClusterQueues grant " + KueueAmount(s, r, nominal) + " of flavor " + f.meta.name + " (" +
                   KueueList(parts) + ") but the " + std::to_string(nodes.size()) +
                   " node(s) it selects have " + std::to_string(allocatable) +
                   " allocatable: workloads admitted past that stay Pending while holding quota",
               "lower the nominalQuota of " + s.resources.Name(r) + " in flavor " + f.meta.name +
                   " to at most " + std::to_string(allocatable) + " in total, or add nodes the flavor selects");
      break;
    }
  }
}

// ---- admission-check-missing ----

void CheckAdmissionCheckMissing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::set<std::string> checks;
  for (const model::AdmissionCheck& a : s.admission_checks) checks.insert(a.cluster + "/" + a.meta.name);
  for (const model::ClusterQueue& cq : s.cluster_queues) {
    for (size_t i = 0; i < cq.admission_checks.size(); ++i) {
      const std::string& name = cq.admission_checks[i].name;
      if (checks.contains(cq.cluster + "/" + name)) continue;
      sink.Add(RefOf(cq, kKueueApi, "ClusterQueue"),
               "spec.admissionChecksStrategy.admissionChecks[" + std::to_string(i) + "].name",
               "names AdmissionCheck " + name + ", which does not exist: the ClusterQueue is inactive "
               "(AdmissionCheckNotFound) and admits nothing",
               "create AdmissionCheck " + name + " (with its controller running), or remove it from the "
               "ClusterQueue");
    }
  }
  // Fleet checks whose parameters name no Placement or MultiKueueConfig: inactive too.
  const engine::FleetChecks fleet = engine::FindFleetChecks(s, "default");
  for (const engine::FleetCheck& check : fleet.checks) {
    if (check.error.empty()) continue;
    for (const model::AdmissionCheck& a : s.admission_checks) {
      if (a.cluster != "default" || a.meta.name != check.name) continue;
      sink.Add(RefOf(a, kKueueApi, "AdmissionCheck"), "spec.parameters",
               check.error + ": the check never becomes Ready and the workloads of its ClusterQueues are "
               "never admitted",
               "point spec.parameters at an existing " +
                   std::string(check.kind == engine::FleetCheckKind::kPlacement ? "Placement (in kueue-system)"
                                                                                 : "MultiKueueConfig"));
    }
  }
}

}  // namespace

void AddKueueRules(std::vector<Rule>& out) {
  out.push_back({"localqueue-clusterqueue-missing", Severity::kError, "kueue",
                 "A LocalQueue names a ClusterQueue that does not exist",
                 {"LocalQueue", "ClusterQueue"}, CheckLocalQueueClusterQueueMissing});
  out.push_back({"queue-name-dangling", Severity::kError, "kueue",
                 "A job's kueue.x-k8s.io/queue-name names no LocalQueue in its namespace",
                 {"LocalQueue", "Workload", "Job"}, CheckQueueNameDangling});
  out.push_back({"namespace-selector-admits-nothing", Severity::kError, "kueue",
                 "A ClusterQueue's namespaceSelector admits none of its LocalQueues' namespaces",
                 {"ClusterQueue", "LocalQueue", "Namespace"}, CheckNamespaceSelectorAdmitsNothing});
  out.push_back({"flavor-matches-no-node", Severity::kError, "kueue",
                 "A ResourceFlavor's nodeLabels match no node",
                 {"ResourceFlavor", "Node"}, CheckFlavorMatchesNoNode});
  out.push_back({"topology-level-missing", Severity::kError, "kueue",
                 "A TAS flavor's Topology is missing or its levels are labels its nodes lack",
                 {"ResourceFlavor", "Topology", "Node"}, CheckTopologyLevelMissing});
  out.push_back({"resource-not-covered", Severity::kError, "kueue",
                 "A workload requests a resource its ClusterQueue does not cover",
                 {"ClusterQueue", "LocalQueue", "Workload"}, CheckResourceNotCovered});
  out.push_back({"flavor-taint-untolerated", Severity::kError, "kueue",
                 "A workload tolerates the taints of none of its ClusterQueue's flavors",
                 {"ClusterQueue", "ResourceFlavor", "Workload"}, CheckFlavorTaintUntolerated});
  out.push_back({"workload-larger-than-quota", Severity::kError, "kueue",
                 "A pod set needs more than nominal quota plus every reachable borrow",
                 {"ClusterQueue", "Cohort", "ResourceFlavor", "Workload"}, CheckWorkloadLargerThanQuota});
  out.push_back({"cohort-borrowing-impossible", Severity::kWarning, "kueue",
                 "A cohort in which no ClusterQueue can ever borrow",
                 {"ClusterQueue", "Cohort"}, CheckCohortBorrowingImpossible});
  out.push_back({"preemption-contradictory", Severity::kWarning, "kueue",
                 "ClusterQueue preemption settings that can never fire",
                 {"ClusterQueue", "Workload", "WorkloadPriorityClass"}, CheckPreemptionContradictory});
  out.push_back({"phantom-quota", Severity::kWarning, "kueue",
                 "GPU quota of a flavor exceeds the allocatable GPUs of the nodes it selects",
                 {"ClusterQueue", "ResourceFlavor", "Node"}, CheckPhantomQuota});
  out.push_back({"admission-check-missing", Severity::kError, "kueue",
                 "A ClusterQueue names an AdmissionCheck that does not exist or cannot work",
                 {"ClusterQueue", "AdmissionCheck", "Placement"}, CheckAdmissionCheckMissing});
}

}  // namespace berth::diag::rules
