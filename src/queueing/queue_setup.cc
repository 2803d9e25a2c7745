#include "queueing/queue_setup.h"

#include <algorithm>
#include <set>

#include "core/result.h"

namespace berth::queueing {
namespace {

std::string ObjectName(const char* kind, const std::string& name) {
  std::string s = kind;
  s += '/';
  s += name;
  return s;
}

std::string GroupField(size_t g) {
  std::string s = "spec.resourceGroups[";
  s += std::to_string(g);
  s += ']';
  return s;
}

void Deactivate(ClusterQueueInfo& cq, const char* reason, std::string message) {
  // The first problem found names the condition, as Kueue reports one reason at a time.
  if (!cq.active) return;
  cq.active = false;
  cq.reason = reason;
  cq.message = std::move(message);
}

// Interns every (flavor, resource) pair the groups mention.
void InternFrs(const std::vector<model::ResourceGroup>& groups, QueueSetup& setup) {
  for (const auto& group : groups) {
    for (const auto& flavor : group.flavors) {
      for (const auto& quota : flavor.resources) {
        auto key = std::make_pair(flavor.flavor, quota.resource.v);
        if (setup.fr_ids.count(key) == 0) {
          setup.fr_ids.emplace(key, static_cast<int32_t>(setup.frs.size()));
          setup.frs.emplace_back(flavor.flavor, quota.resource);
        }
      }
    }
  }
}

// Checks the structural rules Kueue's webhook enforces (a resource and a flavor belong to one
// group; every flavor lists exactly the covered resources) and fills cq.groups. Returns false
// when the groups cannot be interpreted.
bool BuildGroups(const model::ClusterQueue& spec, const model::Snapshot& snapshot,
                 QueueSetup& setup, ClusterQueueInfo& cq, core::Diagnostics& diags) {
  const std::string object = ObjectName("ClusterQueue", spec.meta.name);
  std::set<std::string> seen_flavors;
  std::vector<std::string> missing;
  bool ok = true;
  for (size_t g = 0; g < spec.resource_groups.size(); ++g) {
    const auto& group = spec.resource_groups[g];
    QuotaGroup out;
    out.resources = group.covered_resources;
    for (size_t r = 0; r < group.covered_resources.size(); ++r) {
      const model::ResourceId id = group.covered_resources[r];
      if (!cq.group_of_resource.emplace(id.v, static_cast<int32_t>(g)).second) {
        std::string msg = "resource " + snapshot.resources.Name(id) +
                          " is covered by more than one resource group";
        diags.Report(core::InvalidArgument(
            msg, {"", object, GroupField(g) + ".coveredResources[" + std::to_string(r) + "]"}));
        Deactivate(cq, "InvalidSpec", std::move(msg));
        ok = false;
      }
      if (id == model::kPods) cq.covers_pods = true;
    }
    for (size_t f = 0; f < group.flavors.size(); ++f) {
      const auto& flavor = group.flavors[f];
      const std::string field = GroupField(g) + ".flavors[" + std::to_string(f) + "]";
      if (!seen_flavors.insert(flavor.flavor).second) {
        std::string msg = "flavor " + flavor.flavor + " appears in more than one resource group";
        diags.Report(core::InvalidArgument(msg, {"", object, field + ".name"}));
        Deactivate(cq, "InvalidSpec", std::move(msg));
        ok = false;
      }
      GroupFlavor gf;
      gf.name = flavor.flavor;
      auto fit = setup.flavor_by_name.find(flavor.flavor);
      if (fit == setup.flavor_by_name.end()) {
        missing.push_back(flavor.flavor);
      } else {
        gf.flavor = fit->second;
      }
      bool same = flavor.resources.size() == group.covered_resources.size();
      for (size_t r = 0; same && r < flavor.resources.size(); ++r) {
        same = flavor.resources[r].resource == group.covered_resources[r];
      }
      if (!same) {
        std::string msg = "flavor " + flavor.flavor +
                          " must list exactly the group's covered resources, in order";
        diags.Report(core::InvalidArgument(msg, {"", object, field + ".resources"}));
        Deactivate(cq, "InvalidSpec", std::move(msg));
        ok = false;
        continue;
      }
      for (size_t r = 0; r < flavor.resources.size(); ++r) {
        const auto& quota = flavor.resources[r];
        gf.frs.push_back(setup.FrId(flavor.flavor, quota.resource));
        if (spec.cohort.empty() && (quota.borrowing_limit || quota.lending_limit)) {
          std::string msg = std::string(quota.borrowing_limit ? "borrowingLimit" : "lendingLimit") +
                            " must be nil when cohortName is empty";
          diags.Report(core::InvalidArgument(
              msg, {"", object,
                    field + ".resources[" + std::to_string(r) + "]." +
                        (quota.borrowing_limit ? "borrowingLimit" : "lendingLimit")}));
          Deactivate(cq, "InvalidSpec", std::move(msg));
        }
      }
      out.flavors.push_back(std::move(gf));
    }
    cq.groups.push_back(std::move(out));
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : " ") + m;
    diags.Report(core::NotFound("references missing ResourceFlavor(s): [" + list + "]",
                              {"", object, "spec.resourceGroups"}));
    Deactivate(cq, "FlavorNotFound",
               "Can't admit new workloads: references missing ResourceFlavor(s): [" + list + "]");
  }
  return ok;
}

void SetQuotas(const std::vector<model::ResourceGroup>& groups, int32_t node, bool has_parent,
               QueueSetup& setup) {
  for (const auto& group : groups) {
    for (const auto& flavor : group.flavors) {
      for (const auto& quota : flavor.resources) {
        const int32_t fr = setup.FrId(flavor.flavor, quota.resource);
        setup.tree.SetQuota(node, fr, quota.nominal,
                            has_parent ? quota.borrowing_limit : std::nullopt,
                            has_parent ? quota.lending_limit : std::nullopt);
      }
    }
  }
}

bool NamespaceMatches(const model::ClusterQueue& cq, const model::Snapshot& snapshot,
                      const QueueSetup& setup, const std::string& ns) {
  if (!cq.namespace_selector) return false;
  if (cq.namespace_selector->Empty()) return true;
  core::Labels labels;
  auto it = setup.namespace_by_name.find(ns);
  if (it != setup.namespace_by_name.end()) {
    labels = snapshot.namespaces[static_cast<size_t>(it->second)].meta.labels;
  }
  // The API server labels every namespace with its own name.
  labels.emplace("kubernetes.io/metadata.name", ns);
  return cq.namespace_selector->Matches(labels);
}

}  // namespace

QueueResolution ResolveQueue(const QueueSetup& setup, const model::Snapshot& snapshot,
                             const model::Workload& wl) {
  QueueResolution out;
  auto lq_it = setup.local_queue_by_key.find(wl.meta.namespace_ + "/" + wl.queue_name);
  if (lq_it == setup.local_queue_by_key.end()) {
    out.reason = "Misconfigured";
    out.message = "LocalQueue " + wl.queue_name + " doesn't exist";
    return out;
  }
  const model::LocalQueue& lq = snapshot.local_queues[static_cast<size_t>(lq_it->second)];
  // Pending workloads get the workload controller's getQueueBlocker texts ("is stopped" is
  // only for one that held quota when the LocalQueue stopped).
  if (lq.stop_policy != model::StopPolicy::kNone) {
    out.reason = "Suspended";
    out.message = "LocalQueue " + wl.queue_name + " is inactive";
    return out;
  }
  auto cq_it = setup.cq_by_name.find(lq.cluster_queue);
  if (cq_it == setup.cq_by_name.end()) {
    out.reason = "Misconfigured";
    out.message = "ClusterQueue " + lq.cluster_queue + " doesn't exist";
    return out;
  }
  out.cq = cq_it->second;
  const ClusterQueueInfo& cq = setup.cqs[static_cast<size_t>(out.cq)];
  if (!cq.active) {
    // Kueue says Suspended for every inactive ClusterQueue, stopped or misconfigured
    // (getQueueBlocker; the scheduler's InactiveClusterQueueSets too).
    out.reason = "Suspended";
    out.message = "ClusterQueue " + cq.name + " is inactive";
    return out;
  }
  if (!NamespaceMatches(snapshot.cluster_queues[static_cast<size_t>(cq.index)], snapshot, setup,
                        wl.meta.namespace_)) {
    out.reason = "Misconfigured";
    out.message = "workload namespace doesn't match ClusterQueue selector";
  }
  return out;
}

QueueSetup BuildQueueSetup(const model::Snapshot& snapshot, const std::string& cluster,
                           core::Diagnostics& diags) {
  QueueSetup setup;
  for (size_t i = 0; i < snapshot.resource_flavors.size(); ++i) {
    const auto& f = snapshot.resource_flavors[i];
    if (f.cluster == cluster) setup.flavor_by_name.emplace(f.meta.name, static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < snapshot.namespaces.size(); ++i) {
    setup.namespace_by_name.emplace(snapshot.namespaces[i].meta.name, static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < snapshot.admission_checks.size(); ++i) {
    const auto& a = snapshot.admission_checks[i];
    if (a.cluster == cluster) {
      setup.admission_check_by_name.emplace(a.meta.name, static_cast<int32_t>(i));
    }
  }
  for (size_t i = 0; i < snapshot.local_queues.size(); ++i) {
    const auto& lq = snapshot.local_queues[i];
    if (lq.cluster == cluster) {
      setup.local_queue_by_key.emplace(lq.meta.namespace_ + "/" + lq.meta.name,
                                       static_cast<int32_t>(i));
    }
  }

  // Cohort nodes: every Cohort object, every cohortName and every parentName, so an implicit
  // cohort (named but without an object) is a node like any other.
  std::map<std::string, int32_t> cohort_node;  // name -> index into cohort_names
  std::map<std::string, int32_t> cohort_object;
  auto cohort_id = [&](const std::string& name) {
    auto [it, inserted] =
        cohort_node.emplace(name, static_cast<int32_t>(setup.cohort_names.size()));
    if (inserted) setup.cohort_names.push_back(name);
    return it->second;
  };
  for (size_t i = 0; i < snapshot.cluster_queues.size(); ++i) {
    const auto& spec = snapshot.cluster_queues[i];
    if (spec.cluster != cluster) continue;
    ClusterQueueInfo info;
    info.index = static_cast<int32_t>(i);
    info.name = spec.meta.name;
    if (!setup.cq_by_name.emplace(spec.meta.name, static_cast<int32_t>(setup.cqs.size())).second) {
      // The reader keeps one copy of an object read twice, so two here came by different
      // routes into one cluster. The second is left out of the tree: its quota would count
      // in the cohort while no LocalQueue can reach it.
      diags.Report(core::InvalidArgument(
          "ClusterQueue " + spec.meta.name + " is defined twice in cluster " + cluster +
              "; the second definition is ignored",
          {"", ObjectName("ClusterQueue", spec.meta.name), "metadata.name"}));
      continue;
    }
    setup.cqs.push_back(std::move(info));
    if (!spec.cohort.empty()) cohort_id(spec.cohort);
    InternFrs(spec.resource_groups, setup);
  }
  for (size_t i = 0; i < snapshot.cohorts.size(); ++i) {
    const auto& c = snapshot.cohorts[i];
    if (c.cluster != cluster) continue;
    cohort_id(c.meta.name);
    cohort_object.emplace(c.meta.name, static_cast<int32_t>(i));
    if (!c.parent.empty()) cohort_id(c.parent);
    InternFrs(c.resource_groups, setup);
  }

  // A LocalQueue naming a ClusterQueue that is not there queues nothing: reported on the
  // LocalQueue, as well as in each of its workloads' status (ResolveQueue).
  for (const model::LocalQueue& lq : snapshot.local_queues) {  // input order: stable output
    if (lq.cluster != cluster || setup.cq_by_name.count(lq.cluster_queue) != 0) continue;
    diags.Report(core::NotFound(
        "ClusterQueue " + lq.cluster_queue + " doesn't exist",
        {"", "LocalQueue/" + lq.meta.namespace_ + "/" + lq.meta.name, "spec.clusterQueue"}));
  }

  const int32_t num_cqs = static_cast<int32_t>(setup.cqs.size());
  const int32_t num_nodes = num_cqs + static_cast<int32_t>(setup.cohort_names.size());
  setup.tree = QuotaTree(num_nodes, static_cast<int32_t>(setup.frs.size()));

  // Cohort parents, then cycles: a cohort on (or above) a cycle has no usable root, so every
  // ClusterQueue below it is inactive until the cycle is removed.
  std::vector<int32_t> cohort_parent(setup.cohort_names.size(), QuotaTree::kNoParent);
  for (const auto& [name, obj] : cohort_object) {
    const auto& c = snapshot.cohorts[static_cast<size_t>(obj)];
    if (!c.parent.empty())
      cohort_parent[static_cast<size_t>(cohort_node[name])] = cohort_node[c.parent];
  }
  std::vector<bool> in_cycle(setup.cohort_names.size(), false);
  for (size_t start = 0; start < cohort_parent.size(); ++start) {
    // Floyd-free walk: at most N steps reach a root unless there is a cycle.
    std::vector<int32_t> path;
    std::set<int32_t> on_path;
    for (int32_t v = static_cast<int32_t>(start); v != QuotaTree::kNoParent;
         v = cohort_parent[static_cast<size_t>(v)]) {
      if (!on_path.insert(v).second) {
        for (int32_t p : path) in_cycle[static_cast<size_t>(p)] = true;
        break;
      }
      path.push_back(v);
    }
  }
  for (size_t c = 0; c < cohort_parent.size(); ++c) {
    if (in_cycle[c]) {
      const std::string& name = setup.cohort_names[c];
      auto obj = cohort_object.find(name);
      if (obj != cohort_object.end()) {
        diags.Report(core::FailedPrecondition("cohort " + name + " is part of a cycle of parentName",
                                            {"", ObjectName("Cohort", name), "spec.parentName"}));
      }
      cohort_parent[c] = QuotaTree::kNoParent;  // keep the tree a forest
    } else {
      setup.tree.SetParent(num_cqs + static_cast<int32_t>(c),
                           cohort_parent[c] == QuotaTree::kNoParent ? QuotaTree::kNoParent
                                                                    : num_cqs + cohort_parent[c]);
    }
  }

  for (int32_t q = 0; q < num_cqs; ++q) {
    ClusterQueueInfo& cq = setup.cqs[static_cast<size_t>(q)];
    const auto& spec = snapshot.cluster_queues[static_cast<size_t>(cq.index)];
    const std::string object = ObjectName("ClusterQueue", spec.meta.name);
    const bool groups_ok = BuildGroups(spec, snapshot, setup, cq, diags);
    if (!spec.cohort.empty()) {
      const int32_t c = cohort_node[spec.cohort];
      setup.tree.SetParent(q, num_cqs + c);
      bool cyclic = in_cycle[static_cast<size_t>(c)];
      for (int32_t v = cohort_parent[static_cast<size_t>(c)]; !cyclic && v != QuotaTree::kNoParent;
           v = cohort_parent[static_cast<size_t>(v)]) {
        cyclic = in_cycle[static_cast<size_t>(v)];
      }
      if (cyclic) {
        diags.Report(core::FailedPrecondition("cohort " + spec.cohort + " is in a cohort cycle",
                                            {"", object, "spec.cohortName"}));
        Deactivate(cq, "CohortCycle",
                   "Can't admit new workloads: the cohort " + spec.cohort + " is in a cycle");
      }
    }
    if (groups_ok) SetQuotas(spec.resource_groups, q, !spec.cohort.empty(), setup);
    std::vector<std::string> missing_checks;
    for (const auto& rule : spec.admission_checks) {
      if (setup.admission_check_by_name.count(rule.name) == 0) missing_checks.push_back(rule.name);
    }
    if (!missing_checks.empty()) {
      std::string list;
      for (const auto& m : missing_checks) list += (list.empty() ? "" : " ") + m;
      diags.Report(core::NotFound("references missing AdmissionCheck(s): [" + list + "]",
                                {"", object, "spec.admissionChecksStrategy"}));
      Deactivate(cq, "AdmissionCheckNotFound",
                 "Can't admit new workloads: references missing AdmissionCheck(s): [" + list + "]");
    }
    if (spec.stop_policy != model::StopPolicy::kNone) {
      cq.stopped = true;
      Deactivate(cq, "Stopped", "Can't admit new workloads: ClusterQueue is stopped");
    }
  }
  for (const auto& [name, obj] : cohort_object) {
    const auto& c = snapshot.cohorts[static_cast<size_t>(obj)];
    const int32_t node = num_cqs + cohort_node[name];
    SetQuotas(c.resource_groups, node, setup.tree.HasParent(node), setup);
  }
  setup.tree.Finalize();

  std::map<int32_t, std::vector<int32_t>> by_root;
  for (int32_t q = 0; q < num_cqs; ++q) by_root[setup.tree.Root(q)].push_back(q);
  for (auto& [root, members] : by_root) {
    for (int32_t q : members) setup.cqs[static_cast<size_t>(q)].same_tree = members;
  }
  return setup;
}

void CheckQueueSetup(const model::Snapshot& snapshot, const std::string& cluster,
                     core::Diagnostics& diags) {
  auto in_cluster = [&cluster](const auto& object) { return object.cluster == cluster; };
  if (std::none_of(snapshot.cluster_queues.begin(), snapshot.cluster_queues.end(), in_cluster) &&
      std::none_of(snapshot.cohorts.begin(), snapshot.cohorts.end(), in_cluster) &&
      std::none_of(snapshot.local_queues.begin(), snapshot.local_queues.end(), in_cluster)) {
    return;
  }
  (void)BuildQueueSetup(snapshot, cluster, diags);
}

}  // namespace berth::queueing
