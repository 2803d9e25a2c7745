// Why a DataLoad and not an init container: a DataLoad warms the cluster's shared cache once
// for every pod of the job (and later jobs), where an init container would pull per pod and
// recreate the storm the fetch schedule warns about; and Fluid already runs it. Only where
// Fluid serves the dataset: elsewhere berth has nothing to prefetch into.
#include "dispatch/prefetch.h"

#include <algorithm>
#include <string_view>

#include "dispatch/work_names.h"
#include "model/berth_names.h"
#include "model/work.h"

namespace berth::dispatch {
namespace {

void AddClaims(const model::Pod& pod, std::vector<std::string>* claims) {
  for (const model::PodVolume& v : pod.volumes) {
    if (v.claim_name.empty()) continue;
    if (std::find(claims->begin(), claims->end(), v.claim_name) == claims->end()) {
      claims->push_back(v.claim_name);
    }
  }
}

bool SameObject(const model::ObjectMeta& meta, const std::string& cluster, std::string_view ns,
                std::string_view name, const std::string& object_cluster) {
  return object_cluster == cluster && meta.namespace_ == ns && meta.name == name;
}

bool LoadInFlight(const model::Snapshot& snapshot, const std::string& cluster,
                  const model::Dataset& d) {
  for (const model::DataLoad& l : snapshot.data_loads) {
    if (l.cluster != cluster || l.dataset_name != d.meta.name) continue;
    const std::string& ns = l.dataset_namespace.empty() ? l.meta.namespace_ : l.dataset_namespace;
    if (ns != d.meta.namespace_) continue;
    // Fluid's phases: "" or Pending before its loader job runs, Executing (older: Loading)
    // while it does; Complete and Failed are done.
    if (l.phase.empty() || l.phase == "Pending" || l.phase == "Executing" || l.phase == "Loading") {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<model::DataLoad> Prefetches(const model::Snapshot& snapshot, const model::Workload& wl,
                                        const std::string& cluster) {
  std::vector<model::DataLoad> out;
  if (snapshot.datasets.empty()) return out;
  std::vector<std::string> claims;
  for (const model::KueuePodSet& ps : wl.pod_sets) AddClaims(ps.pod_template, &claims);
  for (const std::vector<int32_t>& pods : wl.pods) {
    for (int32_t p : pods) {
      if (p >= 0 && static_cast<size_t>(p) < snapshot.pods.size()) {
        AddClaims(snapshot.pods[static_cast<size_t>(p)], &claims);
      }
    }
  }
  const std::string& ns = wl.meta.namespace_;
  // Named after the job (the Workload's owner), as people know it.
  std::string base = wl.meta.name;
  if (wl.owner_workload.has_value() && *wl.owner_workload >= 0 &&
      static_cast<size_t>(*wl.owner_workload) < snapshot.workloads.size()) {
    base = snapshot.workloads[static_cast<size_t>(*wl.owner_workload)].meta.name;
  }
  for (const std::string& claim : claims) {
    auto dataset = std::find_if(snapshot.datasets.begin(), snapshot.datasets.end(),
                                [&](const model::Dataset& d) {
                                  return SameObject(d.meta, cluster, ns, claim, d.cluster);
                                });
    if (dataset == snapshot.datasets.end()) continue;
    const bool served = std::any_of(
        snapshot.data_runtimes.begin(), snapshot.data_runtimes.end(),
        [&](const model::DataRuntime& r) { return SameObject(r.meta, cluster, ns, claim, r.cluster); });
    if (!served) continue;
    const std::string name = BoundedName(base + "-prefetch-" + claim, kMaxLabelValueLength);
    // Once our DataLoad is in the cluster the work keeps it whatever the cache says: a work
    // that dropped it would have the agent delete a load in flight (and flip every cycle).
    const bool ours = std::any_of(snapshot.data_loads.begin(), snapshot.data_loads.end(),
                                  [&](const model::DataLoad& l) {
                                    return SameObject(l.meta, cluster, ns, name, l.cluster);
                                  });
    if (!ours) {
      if (dataset->cache.cached_percentage.has_value() &&
          *dataset->cache.cached_percentage >= 100) {
        continue;
      }
      if (LoadInFlight(snapshot, cluster, *dataset)) continue;
    }
    model::DataLoad load;
    load.meta.name = name;
    load.meta.namespace_ = ns;
    load.meta.labels[model::kWorkloadLabel] = WorkloadLabelValue(wl);
    load.dataset_name = claim;
    load.dataset_namespace = ns;
    load.cluster = cluster;
    out.push_back(std::move(load));
  }
  return out;
}

}  // namespace berth::dispatch
