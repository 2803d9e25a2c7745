// Field names and condition reasons as Kueue v0.14 writes them (pkg/cache/clusterqueue.go,
// pkg/controller/core/localqueue_controller.go); the reasons berth knows of a queue that
// cannot admit are a missing ResourceFlavor (ClusterQueue) and a missing ClusterQueue
// (LocalQueue).
#include "cli/queue_status.h"

#include <algorithm>
#include <set>

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

Json Condition(bool active, const std::string& reason, const std::string& message, core::Timestamp now) {
  return Json{{"type", "Active"},
              {"status", active ? "True" : "False"},
              {"lastTransitionTime", now.ToString()},
              {"reason", reason},
              {"message", message}};
}

// [{name: flavor, resources: [{name, total[, borrowed]}]}] for every flavor and resource of
// the queue's resource groups, in their order (zeros included, as Kueue lists them).
Json FlavorAmounts(const model::ClusterQueue& cq, const model::ResourceCatalog& catalog,
                   const std::map<std::pair<std::string, std::string>, int64_t>& amounts,
                   bool with_borrowed) {
  Json out = Json::array();
  for (const model::ResourceGroup& group : cq.resource_groups) {
    for (const model::FlavorQuotas& flavor : group.flavors) {
      Json resources = Json::array();
      for (const model::ResourceQuota& quota : flavor.resources) {
        const std::string& name = catalog.Name(quota.resource);
        auto it = amounts.find({flavor.flavor, name});
        const int64_t total = it == amounts.end() ? 0 : it->second;
        Json r = {{"name", name}, {"total", model::AmountQuantity(name, total).ToString()}};
        if (with_borrowed) {
          r["borrowed"] = model::AmountQuantity(name, std::max<int64_t>(0, total - quota.nominal)).ToString();
        }
        resources.push_back(std::move(r));
      }
      out.push_back(Json{{"name", flavor.flavor}, {"resources", std::move(resources)}});
    }
  }
  return out;
}

}  // namespace

std::vector<QueueStatus> QueueStatuses(const model::Snapshot& planned,
                                       const server::FleetQueueCounts& counts, core::Timestamp now,
                                       const std::unordered_set<std::string>* skip_clusters) {
  auto skipped = [skip_clusters](const std::string& cluster) {
    return skip_clusters != nullptr && skip_clusters->contains(cluster);
  };
  std::set<std::string> flavors;
  for (const model::ResourceFlavor& f : planned.resource_flavors) flavors.insert(f.meta.name);
  std::map<std::string, const model::ClusterQueue*> by_name;
  std::vector<QueueStatus> out;
  for (const model::ClusterQueue& cq : planned.cluster_queues) {
    if (skipped(cq.cluster)) continue;
    by_name[cq.meta.name] = &cq;
    const server::QueueCounts& q = counts.cluster_queues.at(cq.meta.name);
    std::string missing;
    for (const model::ResourceGroup& group : cq.resource_groups) {
      for (const model::FlavorQuotas& flavor : group.flavors) {
        if (!flavors.contains(flavor.flavor)) missing += (missing.empty() ? "" : ", ") + flavor.flavor;
      }
    }
    Json status = Json::object();
    status["conditions"] = Json::array(
        {missing.empty()
             ? Condition(true, "Ready", "Can admit new workloads", now)
             : Condition(false, "FlavorNotFound",
                         "Can't admit new workloads: references missing ResourceFlavor(s): " + missing + ".",
                         now)});
    status["flavorsReservation"] = FlavorAmounts(cq, planned.resources, q.reservation, true);
    status["flavorsUsage"] = FlavorAmounts(cq, planned.resources, q.usage, true);
    status["pendingWorkloads"] = q.pending();
    status["reservingWorkloads"] = q.reserving;
    status["admittedWorkloads"] = q.admitted;
    out.push_back({"ClusterQueue", "", cq.meta.name, std::move(status)});
  }
  for (const model::LocalQueue& lq : planned.local_queues) {
    if (skipped(lq.cluster)) continue;
    const server::QueueCounts& q = counts.local_queues.at({lq.meta.namespace_, lq.meta.name});
    auto cq = by_name.find(lq.cluster_queue);
    Json status = Json::object();
    status["conditions"] = Json::array(
        {cq != by_name.end()
             ? Condition(true, "Ready", "Can submit new workloads to localQueue", now)
             : Condition(false, "ClusterQueueDoesNotExist", "Can't submit new workloads to clusterQueue", now)});
    if (cq != by_name.end()) {
      status["flavorsReservation"] = FlavorAmounts(*cq->second, planned.resources, q.reservation, false);
    }
    status["pendingWorkloads"] = q.pending();
    status["reservingWorkloads"] = q.reserving;
    status["admittedWorkloads"] = q.admitted;
    out.push_back({"LocalQueue", lq.meta.namespace_, lq.meta.name, std::move(status)});
  }
  return out;
}

void KeepConditionTimes(const Json& current, Json& next) {
  if (!current.is_object() || !next.is_object()) return;
  auto was = current.find("conditions");
  auto now = next.find("conditions");
  if (was == current.end() || now == next.end() || !was->is_array() || !now->is_array()) return;
  for (Json& c : *now) {
    for (const Json& old : *was) {
      if (!old.is_object() || old.value("type", "") != c.value("type", "")) continue;
      if (old.value("status", "") == c.value("status", "") && old.value("reason", "") == c.value("reason", "") &&
          old.value("message", "") == c.value("message", "") && old.contains("lastTransitionTime")) {
        c["lastTransitionTime"] = old["lastTransitionTime"];
      }
    }
  }
}

}  // namespace berth::cli
