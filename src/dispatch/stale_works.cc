#include "dispatch/stale_works.h"

#include <tuple>
#include <utility>

#include "dispatch/work_names.h"

namespace berth::dispatch {
namespace {

constexpr const char* kManifestWorkApiVersion = "work.open-cluster-management.io/v1";

// (hub cluster, label value): the label alone is ambiguous across hubs.
using HubLabelKey = std::pair<std::string, std::string>;
// (hub cluster, namespace = member cluster, label value) -> planned work name.
using PlannedKey = std::tuple<std::string, std::string, std::string>;

const std::string* WorkloadLabel(const model::ManifestWork& work) {
  auto it = work.meta.labels.find(model::kWorkloadLabel);
  if (it == work.meta.labels.end() || it->second.empty()) return nullptr;
  return &it->second;
}

bool ConditionTrue(const model::Workload& wl, const char* type) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c != nullptr && c->status == "True";
}

std::string Subject(const model::Workload& wl) {
  std::string s = "workload ";
  s += wl.meta.namespace_;
  s += '/';
  s += wl.meta.name;
  return s;
}

// Why the work of a workload that has no cluster after the cycle goes away.
std::string UnplacedReason(const model::Workload& wl, const std::string& cluster) {
  if (const model::WorkloadCondition* evicted = wl.FindCondition("Evicted");
      evicted != nullptr && evicted->status == "True") {
    std::string reason = Subject(wl) + " was evicted";
    if (!evicted->reason.empty()) reason += " (" + evicted->reason + ")";
    return reason;
  }
  const model::WorkloadCondition* admitted = wl.FindCondition("Admitted");
  if (!wl.admission.has_value() || (admitted != nullptr && admitted->status != "True")) {
    return Subject(wl) + " is no longer admitted";
  }
  return Subject(wl) + " no longer runs on " + cluster;
}

}  // namespace

std::vector<model::ObjectDeletion> StaleManifestWorks(
    const model::Snapshot& snapshot, const std::vector<model::ManifestWork>& planned,
    const std::map<int32_t, std::string>& placed) {
  std::map<HubLabelKey, int32_t> workloads;
  for (size_t i = 0; i < snapshot.kueue_workloads.size(); ++i) {
    const model::Workload& wl = snapshot.kueue_workloads[i];
    workloads.try_emplace(HubLabelKey{wl.cluster, WorkloadLabelValue(wl)}, static_cast<int32_t>(i));
  }
  std::map<PlannedKey, std::string> planned_names;
  for (const model::ManifestWork& work : planned) {
    if (const std::string* label = WorkloadLabel(work)) {
      planned_names.try_emplace(PlannedKey{work.cluster, work.meta.namespace_, *label},
                                work.meta.name);
    }
  }

  std::vector<model::ObjectDeletion> out;
  for (const model::ManifestWork& work : snapshot.manifest_works) {
    if (work.created) continue;
    const std::string* label = WorkloadLabel(work);
    if (label == nullptr) continue;  // not berth's: left alone
    const std::string& here = work.meta.namespace_;
    auto remove = [&](std::string reason) {
      out.push_back(model::ObjectDeletion{kManifestWorkApiVersion, "ManifestWork", here,
                                          work.meta.name, std::move(reason)});
    };

    auto wl_it = workloads.find(HubLabelKey{work.cluster, *label});
    if (wl_it == workloads.end()) {
      std::string name = *label;
      if (size_t dot = name.find('.'); dot != std::string::npos) name[dot] = '/';
      remove("workload " + name + " no longer exists");
      continue;
    }
    const int32_t index = wl_it->second;
    const model::Workload& wl = snapshot.kueue_workloads[static_cast<size_t>(index)];

    if (auto p = planned_names.find(PlannedKey{work.cluster, here, *label});
        p != planned_names.end()) {
      if (p->second != work.meta.name) {
        remove(Subject(wl) + " is now sent as ManifestWork " + p->second);
      }
      continue;
    }
    if (ConditionTrue(wl, "Finished")) {
      remove(Subject(wl) + " finished");
      continue;
    }
    if (auto p = placed.find(index); p != placed.end()) {
      if (p->second != here) remove(Subject(wl) + " now runs on " + p->second);
      continue;
    }
    remove(UnplacedReason(wl, here));
  }
  return out;
}

}  // namespace berth::dispatch
