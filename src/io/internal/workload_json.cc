// Why the admission is kept as read when it names the same ClusterQueue and the same pod
// sets, counts and flavors: Kueue sets an admission once and only replaces it after an
// eviction, so an unchanged assignment means the plan left it alone, and keeping the text
// keeps the output diffable against the cluster. A workload preempted and admitted again
// within the plan (even in the same ClusterQueue) gets its new admission printed. Status
// fields are written in the Go structs' order (Admission: clusterQueue, podSetAssignments;
// PodSetAssignment: name, flavors, resourceUsage, count, topologyAssignment; Condition:
// type, status, observedGeneration, lastTransitionTime, reason, message).
#include "io/internal/workload_json.h"

#include <string>
#include <utility>

#include "core/quantity.h"
#include "core/time.h"
#include "io/internal/json_patch.h"

namespace berth::io::internal {

namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson DomainsJson(const model::TopologyAssignment& ta) {
  OrderedJson domains = OrderedJson::array();
  for (const model::TopologyDomainAssignment& d : ta.domains) {
    OrderedJson domain = OrderedJson::object();
    domain["values"] = d.values;
    domain["count"] = d.count;
    domains.push_back(std::move(domain));
  }
  return domains;
}

// v1beta2's encoding: one slice holding every domain; a level whose values are all equal,
// and pod counts that are all equal, are written `universal`.
OrderedJson SlicesJson(const model::TopologyAssignment& ta) {
  OrderedJson slices = OrderedJson::array();
  if (ta.domains.empty()) return slices;
  OrderedJson slice = OrderedJson::object();
  slice["domainCount"] = ta.domains.size();
  OrderedJson per_level = OrderedJson::array();
  for (size_t l = 0; l < ta.levels.size(); ++l) {
    bool same = true;
    for (const model::TopologyDomainAssignment& d : ta.domains) {
      same = same && l < d.values.size() && d.values[l] == ta.domains[0].values[l];
    }
    OrderedJson level = OrderedJson::object();
    if (same && l < ta.domains[0].values.size()) {
      level["universal"] = ta.domains[0].values[l];
    } else {
      OrderedJson roots = OrderedJson::array();
      for (const model::TopologyDomainAssignment& d : ta.domains) {
        roots.push_back(l < d.values.size() ? d.values[l] : "");
      }
      level["individual"] = OrderedJson::object({{"roots", std::move(roots)}});
    }
    per_level.push_back(std::move(level));
  }
  slice["valuesPerLevel"] = std::move(per_level);
  bool same_count = true;
  for (const model::TopologyDomainAssignment& d : ta.domains) {
    same_count = same_count && d.count == ta.domains[0].count;
  }
  OrderedJson counts = OrderedJson::object();
  if (same_count) {
    counts["universal"] = ta.domains[0].count;
  } else {
    OrderedJson individual = OrderedJson::array();
    for (const model::TopologyDomainAssignment& d : ta.domains) individual.push_back(d.count);
    counts["individual"] = std::move(individual);
  }
  slice["podCounts"] = std::move(counts);
  slices.push_back(std::move(slice));
  return slices;
}

OrderedJson AdmissionJson(const model::Admission& admission, bool v1beta1) {
  OrderedJson out = OrderedJson::object();
  out["clusterQueue"] = admission.cluster_queue;
  OrderedJson assignments = OrderedJson::array();
  for (const model::PodSetAssignment& psa : admission.pod_set_assignments) {
    OrderedJson a = OrderedJson::object();
    a["name"] = psa.name;
    OrderedJson flavors = OrderedJson::object();
    for (const auto& [resource, flavor] : psa.flavors) flavors[resource] = flavor;
    a["flavors"] = std::move(flavors);
    OrderedJson usage = OrderedJson::object();
    for (const auto& [resource, amount] : psa.resource_usage) {
      usage[resource] = QuantityString(resource, amount);
    }
    a["resourceUsage"] = std::move(usage);
    a["count"] = psa.count;
    if (psa.topology_assignment.has_value()) {
      OrderedJson ta = OrderedJson::object();
      ta["levels"] = psa.topology_assignment->levels;
      if (v1beta1) {
        ta["domains"] = DomainsJson(*psa.topology_assignment);
      } else {
        ta["slices"] = SlicesJson(*psa.topology_assignment);
      }
      a["topologyAssignment"] = std::move(ta);
    }
    assignments.push_back(std::move(a));
  }
  out["podSetAssignments"] = std::move(assignments);
  return out;
}

void SetOrErase(OrderedJson& obj, const char* key, const std::string& value) {
  if (value.empty()) {
    obj.erase(key);
  } else {
    obj[key] = value;
  }
}

void PatchConditions(OrderedJson& status, const std::vector<model::WorkloadCondition>& planned) {
  if (planned.empty()) return;
  if (!status["conditions"].is_array()) status["conditions"] = OrderedJson::array();
  OrderedJson& conditions = status["conditions"];
  for (const model::WorkloadCondition& cond : planned) {
    std::string time =
        cond.last_transition_time.unix_s != 0 ? cond.last_transition_time.ToString() : "";
    bool replaced = false;
    for (OrderedJson& c : conditions) {
      auto type = c.is_object() ? c.find("type") : c.end();
      if (type == c.end() || !type->is_string() || *type != cond.type) continue;
      c["status"] = cond.status;
      // The same instant spelled another way (fractional seconds, an offset) stays as read.
      auto old_time = c.find("lastTransitionTime");
      bool same_time = false;
      if (old_time != c.end() && old_time->is_string()) {
        auto parsed = core::Timestamp::Parse(old_time->get<std::string>());
        same_time = parsed.has_value() && *parsed == cond.last_transition_time;
      }
      if (!time.empty() && !same_time) c["lastTransitionTime"] = time;
      SetOrErase(c, "reason", cond.reason);
      SetOrErase(c, "message", cond.message);
      replaced = true;
      break;
    }
    if (replaced) continue;
    OrderedJson c = OrderedJson::object();
    c["type"] = cond.type;
    c["status"] = cond.status;
    if (!time.empty()) c["lastTransitionTime"] = time;
    if (!cond.reason.empty()) c["reason"] = cond.reason;
    if (!cond.message.empty()) c["message"] = cond.message;
    conditions.push_back(std::move(c));
  }
}

const char* CheckStateName(model::CheckState state) {
  switch (state) {
    case model::CheckState::kPending:
      return "Pending";
    case model::CheckState::kReady:
      return "Ready";
    case model::CheckState::kRetry:
      return "Retry";
    case model::CheckState::kRejected:
      return "Rejected";
  }
  return "Pending";
}

// status.admissionChecks: each planned check replaces the entry of its name in place (so
// podSetUpdates and other fields berth does not model stay), or is appended.
void PatchAdmissionChecks(OrderedJson& status,
                          const std::vector<model::AdmissionCheckStatus>& planned) {
  if (planned.empty()) return;
  if (!status["admissionChecks"].is_array()) status["admissionChecks"] = OrderedJson::array();
  OrderedJson& checks = status["admissionChecks"];
  for (const model::AdmissionCheckStatus& check : planned) {
    OrderedJson* entry = nullptr;
    for (OrderedJson& c : checks) {
      auto name = c.is_object() ? c.find("name") : c.end();
      if (name != c.end() && name->is_string() && *name == check.name) entry = &c;
    }
    if (entry == nullptr) {
      checks.push_back(OrderedJson::object({{"name", check.name}}));
      entry = &checks.back();
    }
    (*entry)["state"] = CheckStateName(check.state);
    SetOrErase(*entry, "message", check.message);
  }
}

// Whether the admission as read names what `admission` holds: same ClusterQueue, and per
// pod set the same name, count and flavors (resourceUsage follows from those).
bool SameAdmission(const OrderedJson& old, const model::Admission& admission) {
  if (!old.is_object() || !old.contains("clusterQueue") ||
      old["clusterQueue"] != admission.cluster_queue) {
    return false;
  }
  auto assignments = old.find("podSetAssignments");
  if (assignments == old.end() || !assignments->is_array() ||
      assignments->size() != admission.pod_set_assignments.size()) {
    return false;
  }
  for (size_t i = 0; i < admission.pod_set_assignments.size(); ++i) {
    const model::PodSetAssignment& psa = admission.pod_set_assignments[i];
    const OrderedJson& a = (*assignments)[i];
    if (!a.is_object() || a.value("name", std::string()) != psa.name) return false;
    auto count = a.find("count");
    if (count != a.end() && (!count->is_number_integer() || *count != psa.count)) return false;
    auto flavors = a.find("flavors");
    if (flavors == a.end() || !flavors->is_object() || flavors->size() != psa.flavors.size()) {
      return false;
    }
    for (const auto& [resource, flavor] : psa.flavors) {
      auto f = flavors->find(resource);
      if (f == flavors->end() || *f != flavor) return false;
    }
  }
  return true;
}

}  // namespace

std::string QuantityString(const std::string& resource, int64_t amount) {
  return model::AmountQuantity(resource, amount).ToString();
}

OrderedJson PatchedWorkload(const model::Workload& wl, const DocumentStore& documents) {
  OrderedJson doc =
      DocumentOrMinimal(documents, wl.source, "kueue.x-k8s.io/v1beta2", "Workload", wl.meta);
  auto api = doc.find("apiVersion");
  bool v1beta1 = api != doc.end() && api->is_string() && *api == "kueue.x-k8s.io/v1beta1";
  if (!doc["status"].is_object()) doc["status"] = OrderedJson::object();
  OrderedJson& status = doc["status"];
  if (wl.admission.has_value()) {
    auto old = status.find("admission");
    const bool keep = old != status.end() && SameAdmission(*old, *wl.admission);
    if (!keep) status["admission"] = AdmissionJson(*wl.admission, v1beta1);
  } else {
    status.erase("admission");
  }
  PatchConditions(status, wl.conditions);
  PatchAdmissionChecks(status, wl.admission_checks);
  // MultiKueue: the status mirrors the plan (io read both fields into the model, so a
  // workload the plan left alone comes back as read). Kueue resets the nominations when it
  // sets clusterName, and the CRD refuses both at once.
  if (!wl.cluster_name.empty()) {
    status.erase("nominatedClusterNames");
    status["clusterName"] = wl.cluster_name;
  } else {
    status.erase("clusterName");
    if (wl.nominated_cluster_names.empty()) {
      status.erase("nominatedClusterNames");
    } else {
      status["nominatedClusterNames"] = wl.nominated_cluster_names;
    }
  }
  if (status.empty()) doc.erase("status");
  return doc;
}

}  // namespace berth::io::internal
