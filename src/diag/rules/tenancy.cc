// Tenancy rules: what lets one tenant take or reach another tenant's GPUs. Quotas that do not
// fence GPUs (missing, written with a prefix the quota evaluator ignores, smaller than what
// Kueue admits), LimitRanges that hand out GPUs, namespaces open to every pod, service
// accounts with cluster-wide power, and containers that see GPUs outside the device plugin's
// accounting (privileged, hostPath /dev, NVIDIA_VISIBLE_DEVICES). Each check reads its
// objects once and indexes the rest by (cluster, namespace).
#include <limits>
#include <map>
#include <set>
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag/doctor_context.h"
#include "diag/rules/rule_scope.h"
#include "diag/rules/rules.h"
#include "model/pod_requests.h"

namespace berth::diag::rules {

namespace {

using PodSpecRef = DoctorContext::PodSpecRef;

std::string TenancyNs(std::string_view ns) { return ns.empty() ? "default" : std::string(ns); }

// The Namespace object's ref when the input has it (for its file), else a ref by name.
ObjectRef TenancyNamespaceRef(const DoctorContext& ctx, std::string_view cluster, std::string_view ns) {
  for (const model::Namespace& n : ctx.snapshot().namespaces) {
    if (n.meta.name == ns) return ObjectRef{"v1", "Namespace", "", n.meta.name, std::string(cluster), n.source, n.meta.labels};
  }
  return ObjectRef{"v1", "Namespace", "", std::string(ns), std::string(cluster), {}, {}};
}

// GPU demand of the pod specs of each tenant namespace: per GPU resource name, the total of
// count x effective request, and how many specs ask for GPUs.
struct TenancyGpuDemand {
  std::map<std::string, int64_t> by_resource;
  int32_t specs = 0;
};

std::map<std::string, TenancyGpuDemand> TenancyGpuDemandByNamespace(const DoctorContext& ctx) {
  std::map<std::string, TenancyGpuDemand> out;
  const model::ResourceCatalog& catalog = ctx.snapshot().resources;
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    if (spec.spec->IsTerminal() || ctx.PodGpuRequest(*spec.spec) == 0) continue;
    TenancyGpuDemand& d = out[ScopeKey(spec.object.cluster, spec.object.namespace_)];
    ++d.specs;
    const model::ResourceVector requests = model::PodRequests(*spec.spec);
    for (model::ResourceId id : ctx.GpuResources()) {
      const int64_t n = requests.Get(id);
      if (n <= 0) continue;
      // Saturating, as every sum of amounts (model/resources.h): a spec's request times its
      // pod count can exceed int64.
      int64_t total = 0;
      if (__builtin_mul_overflow(n, static_cast<int64_t>(spec.count), &total)) {
        total = std::numeric_limits<int64_t>::max();
      }
      int64_t& sum = d.by_resource[catalog.Name(id)];
      sum = model::SaturatingAdd(sum, total);
    }
  }
  return out;
}

std::string TenancyHardField(std::string_view name) { return "spec.hard[" + std::string(name) + "]"; }

// A namespace whose GPU pods no ResourceQuota entry requests.<gpu> and no Kueue LocalQueue
// fences: nothing stops one tenant from holding every GPU of the cluster.
void CheckGpuNamespaceWithoutQuota(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  const auto dumped = ClustersWithTenancyObjects(snap);
  std::map<std::string, std::set<std::string>> quota_entries;
  for (const model::NamespaceQuota& q : snap.resource_quotas) {
    std::set<std::string>& names = quota_entries[ScopeKey(q.cluster, q.meta.namespace_)];
    for (const model::QuotaEntry& e : q.hard) names.insert(e.name);
  }
  std::set<std::string> queued;
  for (const model::LocalQueue& lq : snap.local_queues) queued.insert(ScopeKey(lq.cluster, lq.meta.namespace_));
  for (const auto& [key, demand] : TenancyGpuDemandByNamespace(ctx)) {
    const std::string cluster = ScopeKeyCluster(key);
    const std::string ns = ScopeKeyName(key);
    if (!dumped.contains(cluster) || !IsTenantNamespace(ns) || queued.contains(key)) continue;
    const std::set<std::string>& names = quota_entries[key];
    std::string missing, fix;
    for (const auto& [resource, total] : demand.by_resource) {
      if (names.contains("requests." + resource)) continue;
      missing += (missing.empty() ? "" : ", ") + std::to_string(total) + " " + resource;
      fix += (fix.empty() ? "" : ", ") + std::string("requests.") + resource + ": \"<GPUs the team may hold>\"";
    }
    if (missing.empty()) continue;
    sink.Add(TenancyNamespaceRef(ctx, cluster, ns), "",
             "namespace " + ns + " runs " + std::to_string(demand.specs) + " GPU workload(s) asking for " +
                 missing + " with no ResourceQuota on requests.<gpu> and no Kueue LocalQueue: one tenant "
                 "can take every GPU of cluster " + cluster,
             "add a ResourceQuota in " + ns + " with spec.hard " + fix +
                 ", or queue its jobs through a Kueue LocalQueue whose ClusterQueue has a GPU quota");
  }
}

// limits.<gpu> (or a bare <gpu>) in a ResourceQuota: the API accepts it, but the pod
// evaluator only tracks extended resources under requests., so the entry never limits.
void CheckQuotaGpuLimitsPrefix(const DoctorContext& ctx, FindingSink& sink) {
  for (const model::NamespaceQuota& q : ctx.snapshot().resource_quotas) {
    for (const model::QuotaEntry& e : q.hard) {
      std::string_view resource = e.name;
      const bool limits = resource.starts_with("limits.");
      if (limits) resource.remove_prefix(7);
      if (resource.starts_with("requests.") || !IsGpuResourceName(ctx, resource)) continue;
      sink.Add(RefOf(q, "v1", "ResourceQuota"), TenancyHardField(e.name),
               "quota entry " + e.name + ": " + e.amount + " is never enforced: for extended resources " +
                   "the quota counts only requests." + std::string(resource) + ", so namespace " +
                   TenancyNs(q.meta.namespace_) + " can use any number of " + std::string(resource),
               "rename the entry to requests." + std::string(resource) + ": \"" + e.amount +
                   "\" (GPU requests always equal limits)");
    }
  }
}

// A Kueue workload that needs more GPUs than the namespace's ResourceQuota allows, in a
// ClusterQueue that can admit it: Kueue admits, the pods are refused "exceeded quota", and
// waitForPodsReady evicts and requeues it, over and over.
void CheckQuotaBelowKueueAdmission(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.resource_quotas.empty() || snap.kueue_workloads.empty()) return;
  // (cluster, ns) → quotas; (cluster, ns, name) → LocalQueue's ClusterQueue; (cluster, name) → CQ.
  std::map<std::string, std::vector<const model::NamespaceQuota*>> quotas;
  for (const model::NamespaceQuota& q : snap.resource_quotas) {
    quotas[ScopeKey(q.cluster, q.meta.namespace_)].push_back(&q);
  }
  std::map<std::string, std::string> lq_target;
  for (const model::LocalQueue& lq : snap.local_queues) {
    lq_target[ScopeKey(lq.cluster, lq.meta.namespace_) + '\0' + lq.meta.name] = lq.cluster_queue;
  }
  std::map<std::string, const model::ClusterQueue*> cqs;
  for (const model::ClusterQueue& cq : snap.cluster_queues) cqs[ScopeKey(cq.cluster, cq.meta.name)] = &cq;
  const model::ResourceCatalog& catalog = snap.resources;
  for (const model::Workload& w : snap.kueue_workloads) {
    if (w.queue_name.empty() || !w.active) continue;
    const std::string key = ScopeKey(w.cluster, w.meta.namespace_);
    auto qs = quotas.find(key);
    if (qs == quotas.end()) continue;
    auto lq = lq_target.find(key + '\0' + w.queue_name);
    if (lq == lq_target.end()) continue;
    auto cq = cqs.find(ScopeKey(w.cluster, lq->second));
    if (cq == cqs.end()) continue;
    for (model::ResourceId id : ctx.GpuResources()) {
      int64_t total = 0;
      for (const model::KueuePodSet& ps : w.pod_sets) {
        total += model::PodRequests(ps.pod_template).Get(id) * ps.count;
      }
      if (total == 0) continue;
      const std::string& resource = catalog.Name(id);
      // What the ClusterQueue can give: its nominal quota, or more through its cohort.
      int64_t nominal = 0;
      bool covered = false;
      for (const model::ResourceGroup& g : cq->second->resource_groups) {
        for (const model::FlavorQuotas& f : g.flavors) {
          for (const model::ResourceQuota& r : f.resources) {
            if (r.resource != id) continue;
            covered = true;
            nominal += r.nominal;
          }
        }
      }
      if (!covered || (total > nominal && cq->second->cohort.empty())) continue;
      for (const model::NamespaceQuota* q : qs->second) {
        for (const model::QuotaEntry& e : q->hard) {
          if (e.name != "requests." + resource || total * 1000 <= e.milli) continue;
          std::string job = w.meta.name;
          if (w.owner_workload.has_value()) {
            const model::WorkloadObject& owner = snap.workloads[static_cast<size_t>(*w.owner_workload)];
            job = owner.kind + "/" + owner.meta.name;
          }
          sink.Add(RefOf(*q, "v1", "ResourceQuota"), TenancyHardField(e.name),
                   "allows " + e.amount + " " + resource + " in namespace " + TenancyNs(q->meta.namespace_) +
                       ", but Kueue can admit " + job + " with " + std::to_string(total) + " " + resource +
                       " through LocalQueue " + w.queue_name + " (ClusterQueue " + lq->second + ", nominal " +
                       std::to_string(nominal) + "): its pods are refused (exceeded quota) after admission and "
                       "waitForPodsReady evicts and requeues it",
                   "let one layer own GPU quota: raise " + e.name + " to at least " + std::to_string(total) +
                       " (or drop it and rely on the ClusterQueue), or lower the ClusterQueue's nominal quota "
                       "to what the ResourceQuota allows");
        }
      }
    }
  }
}

// LimitRange default/defaultRequest of a GPU resource (every container without one gets
// GPUs), or a max below what a workload of the namespace asks for (refused at admission).
void CheckLimitRangeGpuDefault(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  if (snap.limit_ranges.empty()) return;
  std::map<std::string, std::vector<const PodSpecRef*>> specs_by_ns;
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    if (ctx.PodGpuRequest(*spec.spec) > 0) {
      specs_by_ns[ScopeKey(spec.object.cluster, spec.object.namespace_)].push_back(&spec);
    }
  }
  for (const model::LimitRange& lr : snap.limit_ranges) {
    const ObjectRef ref = RefOf(lr, "v1", "LimitRange");
    const std::string ns = TenancyNs(lr.meta.namespace_);
    for (size_t i = 0; i < lr.limits.size(); ++i) {
      const model::LimitRangeItem& item = lr.limits[i];
      const std::string at = "spec.limits[" + std::to_string(i) + "].";
      auto defaults = [&](const std::vector<model::QuotaEntry>& entries, std::string_view field) {
        for (const model::QuotaEntry& e : entries) {
          if (!IsGpuResourceName(ctx, e.name)) continue;
          sink.Add(ref, at + std::string(field) + "[" + e.name + "]",
                   "gives every container of namespace " + ns + " that names no " + e.name + " " + e.amount +
                       " " + e.name + " by " + std::string(field) +
                       ": sidecars, init containers and CPU pods each take (or wait for) GPUs",
                   "remove " + e.name + " from spec.limits[" + std::to_string(i) + "]." + std::string(field) +
                       " and request GPUs in the GPU workloads themselves");
        }
      };
      defaults(item.default_limits, "default");
      defaults(item.default_requests, "defaultRequest");
      if (item.type != "Container" && item.type != "Pod") continue;
      for (const model::QuotaEntry& e : item.max) {
        if (!IsGpuResourceName(ctx, e.name)) continue;
        model::ResourceId id;
        if (!snap.resources.Find(e.name, &id)) continue;
        auto found = specs_by_ns.find(ScopeKey(lr.cluster, lr.meta.namespace_));
        if (found == specs_by_ns.end()) continue;
        for (const PodSpecRef* spec : found->second) {
          int64_t want = 0;
          if (item.type == "Pod") {
            want = model::PodRequests(*spec->spec).Get(id);
          } else {
            for (const model::Container& c : spec->spec->containers) {
              want = std::max({want, c.limits.Get(id), c.requests.Get(id)});
            }
            for (const model::Container& c : spec->spec->init_containers) {
              want = std::max({want, c.limits.Get(id), c.requests.Get(id)});
            }
          }
          if (want * 1000 <= e.milli) continue;
          sink.Add(ref, at + "max[" + e.name + "]",
                   "max " + e.name + " per " + item.type + " is " + e.amount + " but " + spec->object.kind + "/" +
                       spec->object.name + " asks for " + std::to_string(want) +
                       ": the API server refuses its pods (LimitRanger: maximum " + e.name + " usage per " +
                       item.type + " is " + e.amount + ")",
                   "raise spec.limits[" + std::to_string(i) + "].max[" + e.name + "] to at least " +
                       std::to_string(want) + ", or split the workload into pods of at most " + e.amount + " GPUs");
          break;
        }
      }
    }
  }
}

// A tenant namespace running GPU pods with no NetworkPolicy that selects every pod and
// denies all ingress: any pod of the cluster reaches its inference servers and NCCL ports.
void CheckNamespaceWithoutDefaultDeny(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  const auto dumped = ClustersWithTenancyObjects(snap);
  std::set<std::string> denied;
  for (const model::NetworkPolicy& np : snap.network_policies) {
    if (np.pod_selector.Empty() && np.ingress_type && np.ingress_rules == 0) {
      denied.insert(ScopeKey(np.cluster, np.meta.namespace_));
    }
  }
  for (const auto& [key, demand] : TenancyGpuDemandByNamespace(ctx)) {
    const std::string cluster = ScopeKeyCluster(key);
    const std::string ns = ScopeKeyName(key);
    if (!dumped.contains(cluster) || !IsTenantNamespace(ns) || denied.contains(key)) continue;
    sink.Add(TenancyNamespaceRef(ctx, cluster, ns), "",
             "tenant namespace " + ns + " runs " + std::to_string(demand.specs) +
                 " GPU workload(s) but has no default-deny NetworkPolicy (podSelector {} with policyTypes "
                 "[Ingress] and no ingress rules): every pod of cluster " + cluster +
                 " can reach its pods",
             "add a NetworkPolicy in " + ns + " with spec.podSelector: {}, policyTypes: [Ingress] and no "
             "ingress rules, then allow the traffic the team needs with further policies");
  }
}

// A ServiceAccount of a tenant namespace (or every service account, through the
// system:serviceaccounts groups) bound to cluster-admin or a role granting * on *.
void CheckServiceAccountClusterAdmin(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& snap = ctx.snapshot();
  std::set<std::string> all_powerful;  // cluster + kind + namespace + name of roles granting *
  for (const model::RbacRole& r : snap.rbac_roles) {
    if (!r.grants_all) continue;
    all_powerful.insert(ScopeKey(r.cluster, r.cluster_scoped ? "" : r.meta.namespace_) + '\0' +
                        (r.cluster_scoped ? "ClusterRole" : "Role") + '\0' + r.meta.name);
  }
  for (const model::RbacBinding& b : snap.rbac_bindings) {
    const bool cluster_role = b.role_kind == "ClusterRole";
    const bool powerful =
        (cluster_role && b.role_name == "cluster-admin") ||
        all_powerful.contains(ScopeKey(b.cluster, cluster_role ? "" : b.meta.namespace_) + '\0' + b.role_kind +
                              '\0' + b.role_name);
    if (!powerful) continue;
    const std::string role = b.role_kind + " " + b.role_name;
    const ObjectRef ref = RefOf(b, "rbac.authorization.k8s.io/v1", b.cluster_scoped ? "ClusterRoleBinding" : "RoleBinding");
    for (size_t i = 0; i < b.subjects.size(); ++i) {
      const model::RbacSubject& s = b.subjects[i];
      std::string who;
      if (s.kind == "ServiceAccount") {
        const std::string ns = s.namespace_.empty() ? TenancyNs(b.meta.namespace_) : s.namespace_;
        if (!IsTenantNamespace(ns)) continue;
        who = "ServiceAccount " + ns + "/" + s.name;
      } else if (s.kind == "Group" &&
                 (s.name == "system:serviceaccounts" || s.name.starts_with("system:serviceaccounts:"))) {
        const std::string ns = s.name.size() > 23 ? s.name.substr(23) : "";
        if (!ns.empty() && !IsTenantNamespace(ns)) continue;
        who = "group " + s.name + " (" + (ns.empty() ? std::string("every service account") : "every service account of " + ns) + ")";
      } else {
        continue;
      }
      const std::string scope = b.cluster_scoped ? "in every namespace" : "in namespace " + TenancyNs(b.meta.namespace_);
      sink.Add(ref, "subjects[" + std::to_string(i) + "]",
               who + " is bound to " + role + ", which grants every verb on every resource " + scope +
                   ": any pod running as it can raise its own ResourceQuota, delete NetworkPolicies and evict "
                   "other tenants' GPU workloads",
               "bind the service account to a role with only the verbs and resources it needs (e.g. ClusterRole "
               "edit through a RoleBinding in its own namespace), and remove it from " + role);
    }
  }
}

bool TenancyPrivileged(const model::Pod& pod, std::string* field) {
  for (size_t i = 0; i < pod.containers.size(); ++i) {
    if (pod.containers[i].privileged) {
      *field = "containers[" + std::to_string(i) + "].securityContext.privileged";
      return true;
    }
  }
  for (size_t i = 0; i < pod.init_containers.size(); ++i) {
    if (pod.init_containers[i].privileged) {
      *field = "initContainers[" + std::to_string(i) + "].securityContext.privileged";
      return true;
    }
  }
  return false;
}

// A privileged container in a tenant namespace that runs GPU workloads, or on a GPU node:
// it sees every /dev/nvidia* device of its node, outside the device plugin's accounting.
void CheckPrivilegedGpuPod(const DoctorContext& ctx, FindingSink& sink) {
  const auto gpu_namespaces = TenancyGpuDemandByNamespace(ctx);
  std::unordered_map<std::string, model::NodeIndex> nodes;  // built on the first bound pod
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    std::string field;
    if (!IsTenantNamespace(spec.object.namespace_) || !TenancyPrivileged(pod, &field)) continue;
    std::string why;
    if (ctx.PodGpuRequest(pod) > 0) {
      why = "it requests GPUs";
    } else if (gpu_namespaces.contains(ScopeKey(spec.object.cluster, spec.object.namespace_))) {
      why = "namespace " + TenancyNs(spec.object.namespace_) + " runs GPU workloads";
    } else if (!pod.node_name.empty()) {
      if (nodes.empty()) nodes = NodesByName(ctx.snapshot());
      auto it = nodes.find(ScopeKey(pod.cluster, pod.node_name));
      if (it != nodes.end() && ctx.IsGpuNode(it->second)) why = "it runs on GPU node " + pod.node_name;
    }
    if (why.empty()) continue;
    sink.Add(spec.object, spec.Field(field),
             "a privileged container in tenant namespace " + TenancyNs(spec.object.namespace_) + " (" + why +
                 ") sees every GPU device of its node, whatever the device plugin allocated: it can read "
                 "other tenants' GPU memory and hold GPUs the kubelet counts as free",
             "drop securityContext.privileged (add only the capabilities it needs) and request GPUs through "
             "resources.limits; keep privileged pods in the GPU operator's namespace");
  }
}

// hostPath /dev, /dev/ or /dev/nvidia* in a tenant pod: device nodes mounted around the
// device plugin.
void CheckHostPathDevNvidia(const DoctorContext& ctx, FindingSink& sink) {
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    if (!IsTenantNamespace(spec.object.namespace_)) continue;
    const std::vector<model::PodVolume>& volumes = spec.spec->volumes;
    for (size_t i = 0; i < volumes.size(); ++i) {
      const std::string& path = volumes[i].host_path;
      if (path != "/dev" && path != "/dev/" && !path.starts_with("/dev/nvidia")) continue;
      sink.Add(spec.object, spec.Field("volumes[" + std::to_string(i) + "].hostPath.path"),
               "mounts host path " + path + " (volume " + volumes[i].name + ") in tenant namespace " +
                   TenancyNs(spec.object.namespace_) +
                   ": its containers can open GPU device nodes the device plugin never allocated to them",
               "remove the hostPath volume and request GPUs through resources.limits (nvidia.com/gpu); the "
               "device plugin mounts exactly the allocated devices");
    }
  }
}

bool TenancyExposesGpus(const std::string& value) {
  return !value.empty() && value != "none" && value != "void";
}

// NVIDIA_VISIBLE_DEVICES=all (or a device list) on a container that requests no GPU: with
// the NVIDIA runtime it sees those GPUs while the kubelet counts none.
void CheckNvidiaVisibleDevicesWithoutRequest(const DoctorContext& ctx, FindingSink& sink) {
  auto asks_gpu = [&](const model::Container& c) {
    for (model::ResourceId id : ctx.GpuResources()) {
      if (c.requests.Get(id) > 0 || c.limits.Get(id) > 0) return true;
    }
    return false;
  };
  for (const PodSpecRef& spec : ctx.PodSpecs()) {
    if (!IsTenantNamespace(spec.object.namespace_)) continue;
    auto check = [&](const std::vector<model::Container>& containers, std::string_view list) {
      for (size_t i = 0; i < containers.size(); ++i) {
        const model::Container& c = containers[i];
        if (!c.nvidia_visible_devices.has_value() || !TenancyExposesGpus(*c.nvidia_visible_devices) ||
            asks_gpu(c)) {
          continue;
        }
        sink.Add(spec.object, spec.Field(std::string(list) + "[" + std::to_string(i) + "].env[NVIDIA_VISIBLE_DEVICES]"),
                 "container " + c.name + " sets NVIDIA_VISIBLE_DEVICES=" + *c.nvidia_visible_devices +
                     " but requests no GPU: on a GPU node the NVIDIA runtime exposes those GPUs to it while "
                     "the kubelet counts them free for other tenants",
                 "remove NVIDIA_VISIBLE_DEVICES (or set it to void) and request nvidia.com/gpu if it needs one; "
                 "cluster-wide, run the device plugin with deviceListStrategy volume-mounts and "
                 "accept-nvidia-visible-devices-envvar-when-unprivileged=false");
      }
    };
    check(spec.spec->containers, "containers");
    check(spec.spec->init_containers, "initContainers");
  }
}

}  // namespace

void AddTenancyRules(std::vector<Rule>& out) {
  out.push_back({"gpu-namespace-without-quota", Severity::kWarning, "tenancy",
                 "A tenant namespace runs GPU pods with neither a GPU ResourceQuota nor a Kueue LocalQueue",
                 {"ResourceQuota", "LocalQueue", "Pod"}, CheckGpuNamespaceWithoutQuota});
  out.push_back({"quota-gpu-limits-prefix", Severity::kWarning, "tenancy",
                 "A ResourceQuota limits a GPU resource under limits. (or no prefix), which is never enforced",
                 {"ResourceQuota"}, CheckQuotaGpuLimitsPrefix});
  out.push_back({"quota-below-kueue-admission", Severity::kWarning, "tenancy",
                 "A namespace's GPU ResourceQuota is smaller than a workload Kueue admits there",
                 {"ResourceQuota", "LocalQueue", "ClusterQueue", "Workload"}, CheckQuotaBelowKueueAdmission});
  out.push_back({"limitrange-gpu-default", Severity::kError, "tenancy",
                 "A LimitRange defaults GPUs into every container, or caps them below a workload's request",
                 {"LimitRange", "Pod"}, CheckLimitRangeGpuDefault});
  out.push_back({"namespace-without-default-deny", Severity::kWarning, "tenancy",
                 "A tenant namespace running GPU pods has no default-deny ingress NetworkPolicy",
                 {"NetworkPolicy", "Pod"}, CheckNamespaceWithoutDefaultDeny});
  out.push_back({"serviceaccount-cluster-admin", Severity::kWarning, "tenancy",
                 "A tenant's ServiceAccount is bound to cluster-admin or a role granting * on *",
                 {"ClusterRoleBinding", "RoleBinding", "ClusterRole", "Role"}, CheckServiceAccountClusterAdmin});
  out.push_back({"privileged-gpu-pod", Severity::kWarning, "tenancy",
                 "A privileged container runs among tenants' GPU workloads",
                 {"Pod", "Node"}, CheckPrivilegedGpuPod});
  out.push_back({"hostpath-dev-nvidia", Severity::kWarning, "tenancy",
                 "A tenant pod mounts /dev or /dev/nvidia* from the host",
                 {"Pod"}, CheckHostPathDevNvidia});
  out.push_back({"nvidia-visible-devices-without-request", Severity::kWarning, "tenancy",
                 "A container sets NVIDIA_VISIBLE_DEVICES but requests no GPU",
                 {"Pod"}, CheckNvidiaVisibleDevicesWithoutRequest});
}

}  // namespace berth::diag::rules
