// Storage rules: volumes that keep GPU pods from starting or from running where their GPUs
// are. ReadWriteOnce claims shared across the pods of a multi-node job, claims pinned to a
// node the pod cannot use (WaitForFirstConsumer's selected node, a local PV's node
// affinity), claims naming a missing StorageClass, GPU pods whose claims are unbound, and
// local volume classes whose PVs sit on no GPU node. Claims, classes and PVs are indexed
// once per rule; a PV's nodes come from the label index, not a scan per pod.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/rules/rule_scope.h"
#include "diag/rules/rules.h"

namespace berth::diag::rules {

namespace {

using PodSpecRef = DoctorContext::PodSpecRef;

// The storage objects of the snapshot by ScopeKey: claims by (cluster, namespace) + '\0' +
// name, classes and volumes by (cluster, name).
struct StorageIndex {
  std::unordered_map<std::string, const model::PersistentVolumeClaim*> claims;
  std::unordered_map<std::string, const model::StorageClass*> classes;
  std::unordered_map<std::string, const model::PersistentVolume*> volumes;
  std::map<std::string, const model::StorageClass*> default_class;  // by cluster
  std::set<std::string> clusters_with_classes, clusters_with_claims;

  explicit StorageIndex(const model::Snapshot& snap) {
    for (const auto& c : snap.persistent_volume_claims) {
      claims.emplace(ScopeKey(c.cluster, c.meta.namespace_) + '\0' + c.meta.name, &c);
      clusters_with_claims.insert(c.cluster);
    }
    for (const auto& sc : snap.storage_classes) {
      classes.emplace(ScopeKey(sc.cluster, sc.meta.name), &sc);
      clusters_with_classes.insert(sc.cluster);
      if (sc.is_default) default_class.emplace(sc.cluster, &sc);
    }
    for (const auto& pv : snap.persistent_volumes) volumes.emplace(ScopeKey(pv.cluster, pv.meta.name), &pv);
  }
  const model::PersistentVolumeClaim* Claim(std::string_view cluster, std::string_view ns,
                                            const std::string& name) const {
    auto it = claims.find(ScopeKey(cluster, ns) + '\0' + name);
    return it == claims.end() ? nullptr : it->second;
  }
  // The claim's class: the one it names, else the cluster's default; nullptr when neither.
  const model::StorageClass* ClassOf(const model::PersistentVolumeClaim& c) const {
    if (c.storage_class_name.has_value()) {
      if (c.storage_class_name->empty()) return nullptr;
      auto it = classes.find(ScopeKey(c.cluster, *c.storage_class_name));
      return it == classes.end() ? nullptr : it->second;
    }
    auto it = default_class.find(c.cluster);
    return it == default_class.end() ? nullptr : it->second;
  }
  const model::PersistentVolume* VolumeOf(const model::PersistentVolumeClaim& c) const {
    if (c.volume_name.empty()) return nullptr;
    auto it = volumes.find(ScopeKey(c.cluster, c.volume_name));
    return it == volumes.end() ? nullptr : it->second;
  }
};

bool StorageIsBound(const model::PersistentVolumeClaim& c) { return c.phase == "Bound" || !c.volume_name.empty(); }

std::string StorageClaimField(const PodSpecRef& spec, size_t volume) {
  return spec.Field("volumes[" + std::to_string(volume) + "].persistentVolumeClaim.claimName");
}

// The nodes a PV's node affinity admits, through the label index: per term, the nodes of
// its first In requirement (or matchFields metadata.name In), else every node of the
// cluster; each candidate is then matched against the whole selector.
std::vector<model::NodeIndex> StorageNodesOf(const DoctorContext& ctx, const model::PersistentVolume& pv,
                                             const std::unordered_map<std::string, model::NodeIndex>& by_name) {
  std::set<model::NodeIndex> candidates;
  const core::NodeSelector& selector = *pv.node_affinity;
  for (const core::NodeSelectorTerm& term : selector.terms) {
    bool indexed = false;
    for (const core::SelectorRequirement& r : term.match_fields) {
      if (r.op != core::SelectorOp::kIn || r.key != "metadata.name") continue;
      for (const std::string& v : r.values) {
        if (auto it = by_name.find(ScopeKey(pv.cluster, v)); it != by_name.end()) candidates.insert(it->second);
      }
      indexed = true;
      break;
    }
    for (size_t i = 0; !indexed && i < term.match_expressions.size(); ++i) {
      const core::SelectorRequirement& r = term.match_expressions[i];
      if (r.op != core::SelectorOp::kIn) continue;
      for (const std::string& v : r.values) {
        for (model::NodeIndex n : ctx.NodesWithLabel(pv.cluster, r.key, v)) candidates.insert(n);
      }
      indexed = true;
    }
    if (!indexed) {
      for (model::NodeIndex n : ctx.NodesOf(pv.cluster)) candidates.insert(n);
    }
  }
  std::vector<model::NodeIndex> out;
  for (model::NodeIndex n : candidates) {
    const model::Node& node = ctx.snapshot().node(n);
    if (selector.Matches(node.meta.labels, node.meta.name)) out.push_back(n);
  }
  return out;
}

std::string StorageNodeList(const DoctorContext& ctx, const std::vector<model::NodeIndex>& nodes) {
  std::string names;
  for (size_t i = 0; i < nodes.size() && i < 3; ++i) {
    names += (names.empty() ? "" : ", ") + ctx.snapshot().node(nodes[i]).meta.name;
  }
  if (nodes.size() > 3) names += " and " + std::to_string(nodes.size() - 3) + " more";
  return names;
}

bool StorageHasMode(const model::PersistentVolumeClaim& c, std::string_view mode) {
  return std::find(c.access_modes.begin(), c.access_modes.end(), mode) != c.access_modes.end();
}

// A claim only one node (ReadWriteOnce) or one pod (ReadWriteOncePod) can mount, used by
// several pods: a multi-node job's pods fail to attach it ("Multi-Attach error"), and with
// ReadWriteOncePod the second pod is never scheduled.
void CheckRwoClaimMultiNode(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.persistent_volume_claims.empty()) return;
  const StorageIndex index(snap);
  struct Use {
    const PodSpecRef* spec;
    size_t volume;
  };
  std::map<const model::PersistentVolumeClaim*, std::vector<Use>> uses;
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    if (spec.spec->IsTerminal()) continue;
    for (size_t v = 0; v < spec.spec->volumes.size(); ++v) {
      const std::string& name = spec.spec->volumes[v].claim_name;
      if (name.empty()) continue;
      if (const auto* c = index.Claim(spec.object.cluster, spec.object.namespace_, name)) uses[c].push_back({&spec, v});
    }
  }
  for (const auto& [claim, users] : uses) {
    if (StorageHasMode(*claim, "ReadWriteMany") || StorageHasMode(*claim, "ReadOnlyMany")) continue;
    const bool one_pod = StorageHasMode(*claim, "ReadWriteOncePod");
    if (!one_pod && !StorageHasMode(*claim, "ReadWriteOnce")) continue;
    int64_t pods = 0;
    std::set<std::string> nodes;
    bool all_bound = true;
    for (const Use& u : users) {
      pods += u.spec->count;
      if (u.spec->workload != nullptr || u.spec->spec->node_name.empty()) {
        all_bound = false;
      } else {
        nodes.insert(u.spec->spec->node_name);
      }
    }
    if (pods < 2 || (!one_pod && all_bound && nodes.size() == 1)) continue;
    for (const Use& u : users) {
      const std::string mode = one_pod ? "ReadWriteOncePod" : "ReadWriteOnce";
      sink.AddAt(one_pod ? Severity::kError : Severity::kWarning, u.spec->object, StorageClaimField(*u.spec, u.volume),
                 "claim " + claim->meta.name + " is " + mode + " but " + std::to_string(pods) +
                     " pods use it" +
                     (one_pod ? ": only one of them can ever be scheduled"
                              : ": pods on a second node fail to attach it (Multi-Attach error) and never start"),
                 "use a ReadWriteMany (or ReadOnlyMany) class for data shared by the job's pods, or give each pod "
                 "its own claim (a StatefulSet's volumeClaimTemplates, a JobSet/Job per-index claim)");
    }
  }
}

// A claim pinned to a node the pod cannot use: the WaitForFirstConsumer selected node, or
// the node affinity of the (local) PV it is bound to.
void CheckWffcClaimPinnedElsewhere(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.persistent_volume_claims.empty()) return;
  const StorageIndex index(snap);
  const auto by_name = NodesByName(snap);
  std::map<const model::PersistentVolume*, std::vector<model::NodeIndex>> pv_nodes;  // computed once per PV
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (pod.IsTerminal() || !pod.node_name.empty()) continue;  // a bound pod's node was chosen
    for (size_t v = 0; v < pod.volumes.size(); ++v) {
      const std::string& name = pod.volumes[v].claim_name;
      if (name.empty()) continue;
      const model::PersistentVolumeClaim* claim = index.Claim(spec.object.cluster, spec.object.namespace_, name);
      if (claim == nullptr) continue;
      const std::string fix =
          "delete the volume.kubernetes.io/selected-node annotation of an unbound claim (or recreate the claim) "
          "so the scheduler picks a node the pod can use, or change the pod's selectors and tolerations; a claim "
          "bound to a local PV must move with its data";
      if (!claim->selected_node.empty() && !StorageIsBound(*claim)) {
        auto it = by_name.find(ScopeKey(claim->cluster, claim->selected_node));
        const std::string why = it == by_name.end() ? "that node does not exist"
                                                    : NodeRefusesPod(ctx, pod, it->second);
        if (why.empty()) continue;
        sink.Add(spec.object, StorageClaimField(spec, v),
                 "claim " + name + " is pinned to node " + claim->selected_node +
                     " (volume.kubernetes.io/selected-node) but " + why + ": the pod cannot start",
                 fix);
        continue;
      }
      const model::PersistentVolume* pv = index.VolumeOf(*claim);
      if (pv == nullptr || !pv->node_affinity.has_value()) continue;
      auto [at, added] = pv_nodes.try_emplace(pv);
      if (added) at->second = StorageNodesOf(ctx, *pv, by_name);
      std::string first_reason;
      bool usable = false;
      for (model::NodeIndex n : at->second) {
        const std::string why = NodeRefusesPod(ctx, pod, n);
        if (why.empty()) {
          usable = true;
          break;
        }
        if (first_reason.empty()) first_reason = ctx.snapshot().node(n).meta.name + ": " + why;
      }
      if (usable) continue;
      sink.Add(spec.object, StorageClaimField(spec, v),
               "claim " + name + " is bound to PV " + pv->meta.name + ", reachable only from " +
                   (at->second.empty() ? std::string("no node of the cluster")
                                       : "node(s) " + StorageNodeList(ctx, at->second)) +
                   (first_reason.empty() ? "" : " (" + first_reason + ")") + ": the pod can run on none of them",
               fix);
    }
  }
}

// A claim waiting for provisioning that names a StorageClass the cluster does not have, or
// names none while no class is the default.
void CheckPvcStorageClassMissing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  const StorageIndex index(snap);
  std::set<std::string> pv_classes;  // ScopeKey(cluster, class) of static PVs ("" as "default")
  std::set<std::string> classless_pv_clusters;
  for (const model::PersistentVolume& pv : snap.persistent_volumes) {
    if (pv.storage_class_name.empty()) {
      if (pv.claim_name.empty()) classless_pv_clusters.insert(pv.cluster);
    } else {
      pv_classes.insert(ScopeKey(pv.cluster, pv.storage_class_name));
    }
  }
  for (const model::PersistentVolumeClaim& c : snap.persistent_volume_claims) {
    if (StorageIsBound(c) || !index.clusters_with_classes.contains(c.cluster)) continue;
    const ObjectRef ref = RefOf(c, "v1", "PersistentVolumeClaim");
    if (c.storage_class_name.has_value()) {
      const std::string& name = *c.storage_class_name;
      if (name.empty() || index.classes.contains(ScopeKey(c.cluster, name)) ||
          pv_classes.contains(ScopeKey(c.cluster, name))) {
        continue;
      }
      std::string known;
      for (const model::StorageClass& sc : snap.storage_classes) {
        if (sc.cluster == c.cluster) known += (known.empty() ? "" : ", ") + sc.meta.name;
      }
      sink.AddAt(Severity::kError, ref, "spec.storageClassName",
                 "names StorageClass " + name + ", which cluster " + c.cluster +
                     " does not have (it has " + known + "): no volume is ever provisioned and its pods stay Pending",
                 "set spec.storageClassName to one of " + known + " (claims are immutable: recreate it)");
    } else if (!index.default_class.contains(c.cluster) && !classless_pv_clusters.contains(c.cluster)) {
      sink.Add(ref, "spec.storageClassName",
               "names no StorageClass and cluster " + c.cluster +
                   " has no default class (annotation storageclass.kubernetes.io/is-default-class) nor an "
                   "unclaimed PV without a class: it stays Pending",
               "name a StorageClass in spec.storageClassName, or mark one class default with "
               "storageclass.kubernetes.io/is-default-class: \"true\"");
    }
  }
}

// A GPU pod whose claim is missing, Lost, or Pending with Immediate binding: the scheduler
// refuses it ("persistentvolumeclaim not found", "pod has unbound immediate
// PersistentVolumeClaims") while its GPUs wait.
void CheckPvcUnboundForGpuPod(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.persistent_volume_claims.empty()) return;
  const StorageIndex index(snap);
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (pod.IsTerminal() || ctx.PodGpuRequest(pod) == 0) continue;
    if (!index.clusters_with_claims.contains(spec.object.cluster)) continue;
    const std::string ns = spec.object.namespace_.empty() ? "default" : spec.object.namespace_;
    for (size_t v = 0; v < pod.volumes.size(); ++v) {
      const std::string& name = pod.volumes[v].claim_name;
      if (name.empty()) continue;
      const model::PersistentVolumeClaim* claim = index.Claim(spec.object.cluster, spec.object.namespace_, name);
      const std::string gpus = std::to_string(ctx.PodGpuRequest(pod)) + " GPU(s)";
      if (claim == nullptr) {
        sink.AddAt(Severity::kError, spec.object, StorageClaimField(spec, v),
                   "uses claim " + name + ", which namespace " + ns + " does not have: the pod (" + gpus +
                       ") is unschedulable (persistentvolumeclaim \"" + name + "\" not found)",
                   "create PersistentVolumeClaim " + ns + "/" + name + " or fix the claimName");
        continue;
      }
      if (claim->phase == "Lost") {
        sink.AddAt(Severity::kError, spec.object, StorageClaimField(spec, v),
                   "uses claim " + name + ", which is Lost (its PersistentVolume " + claim->volume_name +
                       " is gone): the pod (" + gpus + ") cannot start",
                   "restore the PersistentVolume or recreate the claim from a backup or snapshot");
        continue;
      }
      if (claim->phase != "Pending" || !claim->volume_name.empty()) continue;
      const model::StorageClass* sc = index.ClassOf(*claim);
      if (sc != nullptr && sc->volume_binding_mode == "WaitForFirstConsumer") continue;  // binds at scheduling
      sink.Add(spec.object, StorageClaimField(spec, v),
               "uses claim " + name + ", which is Pending" +
                   (sc != nullptr ? " (StorageClass " + sc->meta.name + ", Immediate binding)" : "") +
                   ": the scheduler refuses the pod (" + gpus + ") until it binds (pod has unbound immediate "
                   "PersistentVolumeClaims)",
               "check the claim's events (kubectl describe pvc " + name + " -n " + ns +
                   ") for the provisioner's error; use a WaitForFirstConsumer class so volumes follow the GPU node");
    }
  }
}

// A local volume class (no provisioner) that GPU pods' unbound claims ask for, whose
// unclaimed PVs are all on nodes without GPUs: the scheduler finds no node with both.
void CheckLocalPvMissesGpuNodes(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.persistent_volumes.empty() || snap.persistent_volume_claims.empty()) return;
  const StorageIndex index(snap);
  const auto by_name = NodesByName(snap);
  // ScopeKey(cluster, class) → {unclaimed local PVs, those reaching a GPU node}; computed on first use.
  struct ClassVolumes {
    int32_t local = 0, on_gpu = 0;
    std::vector<model::NodeIndex> nodes;
  };
  std::map<std::string, ClassVolumes> by_class;
  auto volumes_of = [&](const model::StorageClass& sc) -> const ClassVolumes& {
    const std::string key = ScopeKey(sc.cluster, sc.meta.name);
    auto [it, added] = by_class.try_emplace(key);
    if (!added) return it->second;
    std::set<model::NodeIndex> seen;
    for (const model::PersistentVolume& pv : snap.persistent_volumes) {
      if (pv.cluster != sc.cluster || pv.storage_class_name != sc.meta.name || !pv.claim_name.empty() ||
          !pv.node_affinity.has_value()) {
        continue;
      }
      ++it->second.local;
      bool gpu = false;
      for (model::NodeIndex n : StorageNodesOf(ctx, pv, by_name)) {
        if (seen.insert(n).second) it->second.nodes.push_back(n);
        gpu = gpu || ctx.IsGpuNode(n);
      }
      if (gpu) ++it->second.on_gpu;
    }
    return it->second;
  };
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    if (pod.IsTerminal() || !pod.node_name.empty() || ctx.PodGpuRequest(pod) == 0) continue;
    for (const model::PodVolume& vol : pod.volumes) {
      if (vol.claim_name.empty()) continue;
      const model::PersistentVolumeClaim* claim = index.Claim(spec.object.cluster, spec.object.namespace_, vol.claim_name);
      if (claim == nullptr || StorageIsBound(*claim)) continue;
      const model::StorageClass* sc = index.ClassOf(*claim);
      if (sc == nullptr || sc->provisioner != "kubernetes.io/no-provisioner") continue;
      const ClassVolumes& volumes = volumes_of(*sc);
      if (volumes.local == 0 || volumes.on_gpu > 0) continue;
      sink.Add(RefOf(*claim, "v1", "PersistentVolumeClaim"), "spec.storageClassName",
               "GPU workload " + spec.object.kind + "/" + spec.object.name + " needs this claim of local class " +
                   sc->meta.name + ", but its " + std::to_string(volumes.local) +
                   " unclaimed PV(s) are on node(s) " + StorageNodeList(ctx, volumes.nodes) +
                   " without GPUs: no node has both the volume and the GPUs (didn't find available persistent "
                   "volumes to bind)",
               "create local PVs of class " + sc->meta.name + " on the GPU nodes (or run the local volume "
               "provisioner there), or use a network-attached class for this claim");
    }
  }
}

}  // namespace

void AddStorageRules(std::vector<Rule>& out) {
  out.push_back({"rwo-claim-multi-node", Severity::kWarning, "storage",
                 "A ReadWriteOnce(Pod) claim is shared by several pods of a workload",
                 {"PersistentVolumeClaim", "Pod"}, CheckRwoClaimMultiNode});
  out.push_back({"wffc-claim-pinned-elsewhere", Severity::kError, "storage",
                 "A claim is pinned to a node (selected node, local PV) the pod cannot use",
                 {"PersistentVolumeClaim", "PersistentVolume", "Node", "Pod"}, CheckWffcClaimPinnedElsewhere});
  out.push_back({"pvc-storage-class-missing", Severity::kWarning, "storage",
                 "A pending claim names a StorageClass that does not exist, or there is no default class",
                 {"PersistentVolumeClaim", "StorageClass", "PersistentVolume"}, CheckPvcStorageClassMissing});
  out.push_back({"pvc-unbound-for-gpu-pod", Severity::kWarning, "storage",
                 "A GPU pod's claim is missing, Lost or Pending with Immediate binding",
                 {"PersistentVolumeClaim", "StorageClass", "Pod"}, CheckPvcUnboundForGpuPod});
  out.push_back({"local-pv-misses-gpu-nodes", Severity::kWarning, "storage",
                 "A GPU pod's local volume class has PVs on no GPU node",
                 {"PersistentVolume", "PersistentVolumeClaim", "StorageClass", "Node", "Pod"},
                 CheckLocalPvMissesGpuNodes});
}

}  // namespace berth::diag::rules
