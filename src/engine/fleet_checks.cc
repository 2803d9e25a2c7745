#include "engine/fleet_checks.h"

namespace berth::engine {
namespace {

// The Placement an admission check names: the one in kueue-system when several share the
// name, else the only one.
FleetCheck ResolvePlacement(const model::Snapshot& snapshot, const model::AdmissionCheck& check) {
  FleetCheck out;
  out.name = check.meta.name;
  out.kind = FleetCheckKind::kPlacement;
  if (check.parameters_kind != "Placement" || check.parameters_name.empty()) {
    out.error = "AdmissionCheck " + check.meta.name +
                " must name a Placement in spec.parameters (apiGroup "
                "cluster.open-cluster-management.io, kind Placement)";
    return out;
  }
  std::vector<int32_t> found;
  for (size_t i = 0; i < snapshot.placements.size(); ++i) {
    const model::Placement& p = snapshot.placements[i];
    if (p.meta.name != check.parameters_name) continue;
    if (p.meta.namespace_ == kKueueSystemNamespace) {
      found = {static_cast<int32_t>(i)};
      break;
    }
    found.push_back(static_cast<int32_t>(i));
  }
  if (found.empty()) {
    out.error = "Placement " + check.parameters_name + " not found";
  } else if (found.size() > 1) {
    out.error = "Placement " + check.parameters_name + " exists in several namespaces and none is " +
                kKueueSystemNamespace;
  } else {
    out.placement = found.front();
  }
  return out;
}

FleetCheck ResolveMultiKueue(const model::Snapshot& snapshot, const model::AdmissionCheck& check) {
  FleetCheck out;
  out.name = check.meta.name;
  out.kind = FleetCheckKind::kMultiKueue;
  for (size_t i = 0; i < snapshot.multikueue_configs.size(); ++i) {
    if (snapshot.multikueue_configs[i].meta.name == check.parameters_name) {
      out.multikueue_config = static_cast<int32_t>(i);
      return out;
    }
  }
  out.error = "MultiKueueConfig " + (check.parameters_name.empty() ? std::string("(unnamed)")
                                                                    : check.parameters_name) +
              " not found";
  return out;
}

}  // namespace

FleetChecks FindFleetChecks(const model::Snapshot& snapshot, const std::string& hub) {
  FleetChecks out;
  std::unordered_map<std::string, int32_t> by_name;
  for (const model::AdmissionCheck& check : snapshot.admission_checks) {
    if (check.cluster != hub) continue;
    if (check.controller_name == kPlacementCheckController) {
      by_name.emplace(check.meta.name, static_cast<int32_t>(out.checks.size()));
      out.checks.push_back(ResolvePlacement(snapshot, check));
    } else if (check.controller_name == kMultiKueueCheckController) {
      by_name.emplace(check.meta.name, static_cast<int32_t>(out.checks.size()));
      out.checks.push_back(ResolveMultiKueue(snapshot, check));
    }
  }
  if (out.checks.empty()) return out;
  for (const model::ClusterQueue& cq : snapshot.cluster_queues) {
    if (cq.cluster != hub) continue;
    for (const model::AdmissionCheckRule& rule : cq.admission_checks) {
      auto it = by_name.find(rule.name);
      if (it == by_name.end()) continue;
      out.by_cluster_queue.emplace(cq.meta.name, it->second);
      break;
    }
  }
  return out;
}

}  // namespace berth::engine
