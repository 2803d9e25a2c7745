// The status is rebuilt in a fixed order (upstream's fields first, then berth's) so that the
// same decision always prints the same bytes, and every status key berth does not own is
// copied back after them: a newer upstream controller's fields survive a plan. Conditions go
// through PatchMetaConditions so an unchanged condition keeps its lastTransitionTime, which
// also keeps the hub from rewriting an unchanged object every cycle.
#include "io/internal/federated_learning_json.h"

#include <string>
#include <utility>

#include "io/internal/created_json.h"
#include "io/internal/json_patch.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr const char* kFlApiVersion = "federation-ai.open-cluster-management.io/v1alpha1";

OrderedJson FlClientsJson(const std::vector<model::FlClientStatus>& clients) {
  OrderedJson out = OrderedJson::array();
  for (const model::FlClientStatus& c : clients) {
    OrderedJson entry = OrderedJson::object();
    entry["clusterName"] = c.cluster;
    entry["state"] = model::FlClientStateName(c.state);
    if (!c.reason.empty()) entry["reason"] = c.reason;
    if (!c.message.empty()) entry["message"] = c.message;
    if (!c.data_config.empty()) entry["dataConfig"] = c.data_config;
    out.push_back(std::move(entry));
  }
  return out;
}

OrderedJson FlQuantitiesJson(const std::map<std::string, core::Quantity>& quantities) {
  OrderedJson out = OrderedJson::object();
  for (const auto& [name, q] : quantities) out[name] = q.ToString();
  return out;
}

}  // namespace

OrderedJson PatchedFederatedLearning(const model::FederatedLearning& fl,
                                     const DocumentStore& documents) {
  OrderedJson doc =
      DocumentOrMinimal(documents, fl.source, kFlApiVersion, "FederatedLearning", fl.meta);
  if (!fl.status.has_value()) return doc;
  const model::FederatedLearningStatus& planned = *fl.status;
  OrderedJson old_status = OrderedJson::object();
  if (auto it = doc.find("status"); it != doc.end() && it->is_object()) old_status = *it;

  OrderedJson status = OrderedJson::object();
  status["phase"] = model::FlPhaseName(planned.phase);
  status["message"] = planned.message;
  if (auto it = old_status.find("listeners"); it != old_status.end()) status["listeners"] = *it;
  if (!planned.server_cluster.empty()) status["serverCluster"] = planned.server_cluster;
  status["clients"] = FlClientsJson(planned.clients);
  status["currentRound"] = planned.current_round;
  if (planned.round_start_time.has_value()) {
    status["roundStartTime"] = planned.round_start_time->ToString();
  }
  if (!planned.round_losses.empty()) {
    OrderedJson losses = OrderedJson::array();
    for (const model::FlRoundLoss& r : planned.round_losses) {
      losses.push_back(OrderedJson::object({{"round", r.round}, {"loss", r.loss}}));
    }
    status["roundLosses"] = std::move(losses);
  }
  OrderedJson conditions = OrderedJson::array();
  if (auto it = old_status.find("conditions"); it != old_status.end() && it->is_array()) {
    conditions = *it;
  }
  PatchMetaConditions(conditions, planned.conditions);
  status["conditions"] = std::move(conditions);
  // berth's own fields it no longer sets go (a finished training has no round start).
  for (const char* owned : {"serverCluster", "roundStartTime", "roundLosses"}) {
    old_status.erase(owned);
  }
  for (auto it = old_status.begin(); it != old_status.end(); ++it) {
    if (status.contains(it.key())) continue;
    status[it.key()] = it.value();
  }
  doc["status"] = std::move(status);
  return doc;
}

OrderedJson GeneratedJobJson(const model::GeneratedJob& job) {
  OrderedJson doc = OrderedJson::object();
  doc["apiVersion"] = "batch/v1";
  doc["kind"] = "Job";
  OrderedJson md = OrderedJson::object();
  md["name"] = job.name;
  md["namespace"] = job.namespace_;
  if (!job.labels.empty()) md["labels"] = StringMapJson(job.labels);
  doc["metadata"] = std::move(md);

  OrderedJson container = OrderedJson::object();
  container["name"] = job.container;
  container["image"] = job.image;
  if (!job.args.empty()) container["args"] = job.args;
  if (!job.requests.empty() || !job.limits.empty()) {
    OrderedJson resources = OrderedJson::object();
    if (!job.limits.empty()) resources["limits"] = FlQuantitiesJson(job.limits);
    if (!job.requests.empty()) resources["requests"] = FlQuantitiesJson(job.requests);
    container["resources"] = std::move(resources);
  }
  OrderedJson volumes = OrderedJson::array();
  if (!job.volumes.empty()) {
    OrderedJson mounts = OrderedJson::array();
    for (const model::GeneratedVolume& v : job.volumes) {
      mounts.push_back(OrderedJson::object({{"name", v.name}, {"mountPath", v.mount_path}}));
      OrderedJson volume = OrderedJson::object({{"name", v.name}});
      if (!v.claim_name.empty()) {
        volume["persistentVolumeClaim"] = OrderedJson::object({{"claimName", v.claim_name}});
      } else {
        volume["hostPath"] = OrderedJson::object({{"path", v.host_path}});
      }
      volumes.push_back(std::move(volume));
    }
    container["volumeMounts"] = std::move(mounts);
  }

  OrderedJson pod_spec = OrderedJson::object();
  pod_spec["restartPolicy"] = "Never";
  pod_spec["containers"] = OrderedJson::array({std::move(container)});
  if (!volumes.empty()) pod_spec["volumes"] = std::move(volumes);
  OrderedJson tmpl = OrderedJson::object();
  if (!job.labels.empty()) {
    tmpl["metadata"] = OrderedJson::object({{"labels", StringMapJson(job.labels)}});
  }
  tmpl["spec"] = std::move(pod_spec);
  doc["spec"] = OrderedJson::object({{"template", std::move(tmpl)}});
  return doc;
}

}  // namespace berth::io::internal
