// Short builders for dispatch tests: a hub snapshot with ResourceFlavors, jobs, pods and the
// Kueue Workloads made for them. Test-only; plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/taint.h"
#include "model/kueue.h"
#include "model/snapshot.h"

namespace berth::dispatch::testing {

inline constexpr const char* kHub = "hub";

inline model::ResourceFlavor Flavor(std::string name, core::Labels node_labels,
                                    std::vector<core::Toleration> tolerations = {},
                                    std::string cluster = kHub) {
  model::ResourceFlavor f;
  f.meta.name = std::move(name);
  f.node_labels = std::move(node_labels);
  f.tolerations = std::move(tolerations);
  f.cluster = std::move(cluster);
  return f;
}

inline core::Toleration Tolerate(std::string key, std::string value = "") {
  core::Toleration t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.op = t.value.empty() ? core::TolerationOp::kExists : core::TolerationOp::kEqual;
  t.effect = core::TaintEffect::kNoSchedule;
  return t;
}

inline model::PodSetAssignment Assign(std::string pod_set,
                                      std::map<std::string, std::string> flavors,
                                      int32_t count = 1) {
  model::PodSetAssignment a;
  a.name = std::move(pod_set);
  a.flavors = std::move(flavors);
  a.count = count;
  return a;
}

inline model::TopologyAssignment Topology(
    std::vector<std::string> levels,
    std::vector<std::pair<std::vector<std::string>, int32_t>> domains) {
  model::TopologyAssignment t;
  t.levels = std::move(levels);
  for (auto& [values, count] : domains) {
    t.domains.push_back(model::TopologyDomainAssignment{std::move(values), count});
  }
  return t;
}

// Adds a job object (read from document `document`) with the given pod sets and the
// Workload Kueue makes for it (`<kind lowercased>-<name>`); returns the Workload's index.
inline int32_t AddJob(model::Snapshot& s, const std::string& api_version, const std::string& kind,
                      const std::string& ns, const std::string& name,
                      const std::vector<std::string>& pod_sets,
                      std::optional<model::Admission> admission = std::nullopt,
                      std::string cluster = kHub) {
  model::WorkloadObject job;
  job.api_version = api_version;
  job.kind = kind;
  job.meta.name = name;
  job.meta.namespace_ = ns;
  job.meta.labels["kueue.x-k8s.io/queue-name"] = "hub-queue";
  job.cluster = cluster;
  job.source.document = static_cast<int32_t>(s.workloads.size()) + 100;
  model::Workload wl;
  std::string lower = kind;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  wl.meta.name = lower + "-" + name;
  wl.meta.namespace_ = ns;
  wl.queue_name = "hub-queue";
  wl.cluster = cluster;
  for (const std::string& ps : pod_sets) {
    model::PodSetTemplate t;
    t.name = ps;
    job.pod_sets.push_back(t);
    model::KueuePodSet k;
    k.name = ps;
    wl.pod_sets.push_back(k);
  }
  wl.owner_workload = static_cast<int32_t>(s.workloads.size());
  wl.admission = std::move(admission);
  s.workloads.push_back(std::move(job));
  s.kueue_workloads.push_back(std::move(wl));
  return static_cast<int32_t>(s.kueue_workloads.size()) - 1;
}

// Adds `count` given pods of pod group `group` and its Workload (`pod-group-<group>`).
inline int32_t AddPodGroup(model::Snapshot& s, const std::string& ns, const std::string& group,
                           int32_t count, std::optional<model::Admission> admission) {
  model::Workload wl;
  wl.meta.name = "pod-group-" + group;
  wl.meta.namespace_ = ns;
  wl.cluster = kHub;
  model::KueuePodSet k;
  k.count = count;
  wl.pod_sets.push_back(k);
  wl.pods.emplace_back();
  for (int32_t i = 0; i < count; ++i) {
    model::Pod pod;
    pod.meta.name = group + "-" + std::to_string(i);
    pod.meta.namespace_ = ns;
    pod.meta.labels["kueue.x-k8s.io/pod-group-name"] = group;
    pod.cluster = kHub;
    pod.source.document = 500 + static_cast<int32_t>(s.pods.size());
    wl.pods[0].push_back(static_cast<int32_t>(s.pods.size()));
    s.pods.push_back(std::move(pod));
  }
  wl.admission = std::move(admission);
  s.kueue_workloads.push_back(std::move(wl));
  return static_cast<int32_t>(s.kueue_workloads.size()) - 1;
}

inline model::WorkloadCondition Cond(std::string type, std::string status,
                                     std::string reason = "") {
  model::WorkloadCondition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = std::move(reason);
  return c;
}

}  // namespace berth::dispatch::testing
