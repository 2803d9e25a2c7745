#include "queueing/workload_info.h"

#include <algorithm>

#include "model/pod_requests.h"

namespace berth::queueing {

std::vector<std::pair<model::ResourceId, int64_t>> KueuePodRequests(const model::Pod& pod) {
  // Kueue's job integrations copy limits into missing requests before computing the
  // Workload's usage (model::PodRequestsOptions::limits_for_missing_requests).
  model::PodRequestsOptions options;
  options.limits_for_missing_requests = true;
  const model::ResourceVector total = model::PodRequests(pod, options);
  std::vector<std::pair<model::ResourceId, int64_t>> out;
  for (size_t r = 0; r < total.size(); ++r) {
    const int64_t v = total.amounts()[r];
    if (v > 0) out.emplace_back(model::ResourceId{static_cast<uint16_t>(r)}, v);
  }
  return out;
}

bool ConditionTrue(const model::Workload& wl, const char* type) {
  const model::WorkloadCondition* c = wl.FindCondition(type);
  return c != nullptr && c->status == "True";
}

core::Timestamp QueueOrderTimestamp(const model::Workload& wl) {
  const model::WorkloadCondition* evicted = wl.FindCondition("Evicted");
  if (evicted != nullptr && evicted->status == "True" &&
      (evicted->reason == "PodsReadyTimeout" || evicted->reason == "AdmissionCheck")) {
    return evicted->last_transition_time;
  }
  return wl.meta.creation_timestamp;
}

WorkloadInfo BuildWorkloadInfo(const model::Workload& wl, int32_t index) {
  WorkloadInfo info;
  info.index = index;
  info.priority = wl.priority;
  info.queue_timestamp = QueueOrderTimestamp(wl);
  for (const auto& ps : wl.pod_sets) {
    PodSetRequest r;
    r.name = ps.name;
    r.count = std::max<int32_t>(0, ps.count);
    r.min_count = ps.min_count;
    r.per_pod = KueuePodRequests(ps.pod_template);
    info.pod_sets.push_back(std::move(r));
  }
  std::string& key = info.equivalence;
  key = std::to_string(info.priority);
  for (size_t p = 0; p < wl.pod_sets.size(); ++p) {
    const model::KueuePodSet& ps = wl.pod_sets[p];
    const model::Pod& t = ps.pod_template;
    if (t.node_affinity.required || !ps.topology_request.empty() || !t.pod_affinity.empty() ||
        !t.pod_anti_affinity.empty()) {
      key += "|unique:" + std::to_string(index);
      break;
    }
    key += '|' + ps.name + ':' + std::to_string(ps.count) + ':' +
           (ps.min_count ? std::to_string(*ps.min_count) : "-");
    for (const auto& [r, v] : info.pod_sets[p].per_pod) {
      key += ',' + std::to_string(r.v) + '=' + std::to_string(v);
    }
    for (const auto& [k, v] : t.node_selector) key += ";ns:" + k + '=' + v;
    for (const auto& tol : t.tolerations) {
      key += ";tol:" + tol.key + (tol.op == core::TolerationOp::kExists ? "?" : "=") + tol.value +
             ':' + (tol.effect ? std::to_string(static_cast<int>(*tol.effect)) : "*");
    }
  }
  return info;
}

}  // namespace berth::queueing
