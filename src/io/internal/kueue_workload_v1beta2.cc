// kueue.x-k8s.io: Workload (v1beta2, and v1beta1 with priorityClassName/priorityClassSource
// instead of priorityClassRef), plus the PodSet topology annotations jobs carry. The status
// is read too: a Workload given with status.admission holds that quota, and its conditions
// say where it stands. topologyAssignment is read in both encodings, v1beta1's
// `domains[{values, count}]` and v1beta2's `slices` (values per level, universal or
// individual with prefix/suffix, and pod counts), into the flat domain list.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Status DecodeTopologyRequest(dom::object tr, model::TopologyRequest* out) {
  BERTH_RETURN_IF_ERROR(GetString(tr, "required", &out->required));
  BERTH_RETURN_IF_ERROR(GetString(tr, "preferred", &out->preferred));
  BERTH_RETURN_IF_ERROR(GetBool(tr, "unconstrained", &out->unconstrained));
  BERTH_RETURN_IF_ERROR(GetString(tr, "podSetGroupName", &out->pod_set_group_name));
  BERTH_RETURN_IF_ERROR(
      GetString(tr, "podSetSliceRequiredTopology", &out->slice_required_topology));
  int32_t size = 0;
  bool has_size = false;
  BERTH_RETURN_IF_ERROR(GetInt32(tr, "podSetSliceSize", &size, &has_size));
  if (has_size) {
    if (size < 1) return FieldError("podSetSliceSize", "must be greater than or equal to 1");
    out->slice_size = size;
  }
  int levels = (out->required.empty() ? 0 : 1) + (out->preferred.empty() ? 0 : 1) +
               (out->unconstrained ? 1 : 0);
  if (levels > 1) {
    return FieldError("required", "only one of required, preferred and unconstrained may be set");
  }
  return core::OkStatus();
}

core::Result<model::KueuePodSet> DecodePodSet(dom::element e, const model::WorkloadObject& owner,
                                              model::ResourceCatalog& catalog) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::KueuePodSet set;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &set.name));
  if (set.name.empty()) set.name = "main";
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "count", &set.count));
  if (set.count < 0) return FieldError("count", "must be greater than or equal to 0");
  int32_t min_count = 0;
  bool has_min = false;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "minCount", &min_count, &has_min));
  if (has_min) {
    if (min_count < 0) return FieldError("minCount", "must be greater than or equal to 0");
    if (min_count > set.count) {
      return FieldError("minCount", "must be less than or equal to the count");
    }
    set.min_count = min_count;
  }
  dom::object tmpl;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "template", &tmpl, &found));
  if (!found) return FieldError("template", "required value");
  model::PodSetTemplate pod_set;
  PodSetSource source;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodTemplate(tmpl, owner, catalog, &pod_set, &source),
                              "template");
  set.pod_template = std::move(pod_set.pod_template);
  dom::object tr;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "topologyRequest", &tr, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeTopologyRequest(tr, &set.topology_request),
                                "topologyRequest");
  }
  return set;
}

core::Result<std::vector<std::string>> DecodeSliceLevelValues(dom::element e, int32_t domains) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  std::string universal;
  bool has_universal = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "universal", &universal, &has_universal));
  if (has_universal) return std::vector<std::string>(static_cast<size_t>(domains), universal);
  dom::object individual;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "individual", &individual, &found));
  if (!found) return FieldError("universal", "exactly one of universal, individual must be set");
  std::string prefix;
  std::string suffix;
  std::vector<std::string> roots;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(individual, "prefix", &prefix), "individual");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(individual, "suffix", &suffix), "individual");
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(individual, "roots", &roots), "individual");
  if (roots.size() != static_cast<size_t>(domains)) {
    return FieldError("individual.roots", "must have domainCount items");
  }
  for (std::string& root : roots) root = prefix + root + suffix;
  return roots;
}

core::Status DecodeSlice(dom::element e, size_t levels, model::TopologyAssignment* out) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  int32_t domains = 0;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "domainCount", &domains));
  if (domains < 1) return FieldError("domainCount", "must be greater than or equal to 1");
  dom::array per_level;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "valuesPerLevel", &per_level));
  if (per_level.size() != levels) {
    return FieldError("valuesPerLevel", "must have one item per level");
  }
  size_t first = out->domains.size();
  out->domains.resize(first + static_cast<size_t>(domains));
  size_t l = 0;
  for (dom::element item : per_level) {
    auto values = DecodeSliceLevelValues(item, domains);
    BERTH_IO_RETURN_IF_ERROR_AT(values, "valuesPerLevel" + IndexField(l++));
    for (size_t d = 0; d < values->size(); ++d) {
      out->domains[first + d].values.push_back(std::move((*values)[d]));
    }
  }
  dom::object counts;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "podCounts", &counts, &found));
  if (!found) return FieldError("podCounts", "required value");
  int32_t universal = 0;
  bool has_universal = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(counts, "universal", &universal, &has_universal),
                              "podCounts");
  dom::array individual;
  bool has_individual = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(counts, "individual", &individual, &has_individual),
                              "podCounts");
  if (has_universal == has_individual) {
    return FieldError("podCounts", "exactly one of universal, individual must be set");
  }
  if (has_individual && individual.size() != static_cast<size_t>(domains)) {
    return FieldError("podCounts.individual", "must have domainCount items");
  }
  size_t d = first;
  if (has_universal) {
    for (; d < out->domains.size(); ++d) out->domains[d].count = universal;
    return core::OkStatus();
  }
  for (dom::element c : individual) {
    int64_t count = 0;
    if (c.get_int64().get(count) != simdjson::SUCCESS || count < 0 ||
        count > std::numeric_limits<int32_t>::max()) {
      return FieldError("podCounts.individual" + IndexField(d - first),
                        "must be a non-negative 32-bit integer");
    }
    out->domains[d++].count = static_cast<int32_t>(count);
  }
  return core::OkStatus();
}

core::Result<model::TopologyAssignment> DecodeTopologyAssignment(dom::object obj) {
  model::TopologyAssignment ta;
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "levels", &ta.levels));
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "domains", &array, &found));
  size_t i = 0;
  if (found) {
    for (dom::element item : array) {
      std::string field = "domains" + IndexField(i++);
      auto domain = AsObject(item);
      BERTH_IO_RETURN_IF_ERROR_AT(domain, field);
      model::TopologyDomainAssignment d;
      BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(*domain, "values", &d.values), field);
      BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*domain, "count", &d.count), field);
      if (d.values.size() != ta.levels.size()) {
        return FieldError(field + ".values", "must have one value per level");
      }
      ta.domains.push_back(std::move(d));
    }
  }
  BERTH_RETURN_IF_ERROR(GetArray(obj, "slices", &array, &found));
  if (!found) return ta;
  i = 0;
  for (dom::element item : array) {
    const std::string field = "slices" + IndexField(i++);  // outside the macro: always counted
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeSlice(item, ta.levels.size(), &ta), field);
  }
  return ta;
}

core::Result<model::PodSetAssignment> DecodePodSetAssignment(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::PodSetAssignment psa;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &psa.name));
  if (psa.name.empty()) psa.name = "main";
  core::Labels flavors;
  BERTH_RETURN_IF_ERROR(GetStringMap(obj, "flavors", &flavors));
  for (auto& [resource, flavor] : flavors) psa.flavors[resource] = flavor;
  dom::object usage;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "resourceUsage", &usage, &found));
  if (found) {
    for (auto [name, value] : usage) {
      std::string field = KeyField("resourceUsage", name);
      auto q = ParseQuantityElement(value);
      BERTH_IO_RETURN_IF_ERROR_AT(q, field);
      auto units = ResourceUnits(name, *q);
      BERTH_IO_RETURN_IF_ERROR_AT(units, field);
      psa.resource_usage[std::string(name)] = *units;
    }
  }
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "count", &psa.count));
  if (psa.count < 0) return FieldError("count", "must be greater than or equal to 0");
  dom::object ta;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "topologyAssignment", &ta, &found));
  if (found) {
    auto assignment = DecodeTopologyAssignment(ta);
    BERTH_IO_RETURN_IF_ERROR_AT(assignment, "topologyAssignment");
    psa.topology_assignment = std::move(*assignment);
  }
  return psa;
}

core::Result<model::WorkloadCondition> DecodeCondition(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::WorkloadCondition c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &c.type));
  if (c.type.empty()) return FieldError("type", "required value");
  BERTH_RETURN_IF_ERROR(GetString(obj, "status", &c.status));
  if (c.status != "True" && c.status != "False" && c.status != "Unknown") {
    return Unsupported("status", c.status, {"False", "True", "Unknown"});
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "reason", &c.reason));
  BERTH_RETURN_IF_ERROR(GetString(obj, "message", &c.message));
  std::string time;
  BERTH_RETURN_IF_ERROR(GetString(obj, "lastTransitionTime", &time));
  if (!time.empty()) {
    auto ts = core::Timestamp::Parse(time);
    BERTH_IO_RETURN_IF_ERROR_AT(ts, "lastTransitionTime");
    c.last_transition_time = *ts;
  }
  return c;
}

core::Result<model::AdmissionCheckStatus> DecodeCheckStatus(dom::element e) {
  model::AdmissionCheckStatus s;
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &s.name));
  std::string state;
  BERTH_RETURN_IF_ERROR(GetString(obj, "state", &state));
  if (state == "Pending") {
    s.state = model::CheckState::kPending;
  } else if (state == "Ready") {
    s.state = model::CheckState::kReady;
  } else if (state == "Retry") {
    s.state = model::CheckState::kRetry;
  } else if (state == "Rejected") {
    s.state = model::CheckState::kRejected;
  } else {
    return Unsupported("state", state, {"Pending", "Ready", "Rejected", "Retry"});
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "message", &s.message));
  return s;
}
core::Status DecodePriorityClass(dom::object spec, KueueVersion version, model::Workload* wl) {
  if (version == KueueVersion::kV1beta2) {
    dom::object ref;
    bool found = false;
    BERTH_RETURN_IF_ERROR(GetObject(spec, "priorityClassRef", &ref, &found));
    if (!found) return core::OkStatus();
    std::string group;
    std::string kind;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "group", &group), "priorityClassRef");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "kind", &kind), "priorityClassRef");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "name", &wl->priority_class_name),
                                "priorityClassRef");
    if (group == "kueue.x-k8s.io" && kind == "WorkloadPriorityClass") {
      wl->priority_class_source = model::kWorkloadPriorityClassSource;
    } else if (group == "scheduling.k8s.io" && kind == "PriorityClass") {
      wl->priority_class_source = model::kPodPriorityClassSource;
    } else {
      return FieldError("priorityClassRef",
                        "must name a kueue.x-k8s.io WorkloadPriorityClass or a scheduling.k8s.io "
                        "PriorityClass");
    }
    return core::OkStatus();
  }
  BERTH_RETURN_IF_ERROR(GetString(spec, "priorityClassName", &wl->priority_class_name));
  BERTH_RETURN_IF_ERROR(GetString(spec, "priorityClassSource", &wl->priority_class_source));
  if (!wl->priority_class_source.empty() &&
      wl->priority_class_source != model::kWorkloadPriorityClassSource &&
      wl->priority_class_source != model::kPodPriorityClassSource) {
    return Unsupported("priorityClassSource", wl->priority_class_source,
                       {model::kWorkloadPriorityClassSource, model::kPodPriorityClassSource});
  }
  return core::OkStatus();
}

core::Status DecodeWorkloadStatus(dom::object status, model::Workload* wl) {
  dom::object admission;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(status, "admission", &admission, &found));
  if (found) {
    model::Admission a;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(admission, "clusterQueue", &a.cluster_queue),
                                "admission");
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(admission, "podSetAssignments", DecodePodSetAssignment, &a.pod_set_assignments),
        "admission");
    wl->admission = std::move(a);
  }
  BERTH_RETURN_IF_ERROR(DecodeList(status, "conditions", DecodeCondition, &wl->conditions));
  BERTH_RETURN_IF_ERROR(
      DecodeList(status, "admissionChecks", DecodeCheckStatus, &wl->admission_checks));
  BERTH_RETURN_IF_ERROR(
      GetStringList(status, "nominatedClusterNames", &wl->nominated_cluster_names));
  BERTH_RETURN_IF_ERROR(GetString(status, "clusterName", &wl->cluster_name));
  return core::OkStatus();
}

}  // namespace

core::Result<model::Workload> DecodeKueueWorkload(dom::object obj, KueueVersion version,
                                                  model::ResourceCatalog& catalog) {
  model::Workload wl;
  // The pod templates' owner: the Workload itself.
  BERTH_ASSIGN_OR_RETURN(model::WorkloadObject owner, DecodeWorkloadHeader(obj));
  wl.meta = owner.meta;
  wl.owner = owner.owner;  // the job Kueue made it for (found by the reader's ownership pass)
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return FieldError("spec.podSets", "required value");
  dom::array pod_sets;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "podSets", &pod_sets, &found), "spec");
  if (!found || pod_sets.size() == 0) return FieldError("spec.podSets", "required value");
  if (pod_sets.size() > 18) return FieldError("spec.podSets", "must have at most 18 items");
  size_t i = 0;
  bool has_min_count = false;
  for (dom::element item : pod_sets) {
    std::string field = "spec.podSets" + IndexField(i++);
    auto set = DecodePodSet(item, owner, catalog);
    BERTH_IO_RETURN_IF_ERROR_AT(set, field);
    for (const model::KueuePodSet& other : wl.pod_sets) {
      if (other.name == set->name) {
        return FieldError(field + ".name", "duplicate value " + core::Quote(set->name));
      }
    }
    if (set->min_count.has_value()) {
      if (has_min_count) {
        return FieldError(field + ".minCount", "at most one podSet can use minCount");
      }
      has_min_count = true;
    }
    wl.pod_sets.push_back(std::move(*set));
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "queueName", &wl.queue_name), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(spec, "priority", &wl.priority), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePriorityClass(spec, version, &wl), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "active", &wl.active), "spec");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeWorkloadStatus(status, &wl), "status");
  return wl;
}

core::Result<model::TopologyRequest> TopologyRequestFromAnnotations(
    const core::Labels& annotations) {
  model::TopologyRequest tr;
  auto get = [&](const char* key) -> const std::string* {
    auto it = annotations.find(key);
    return it == annotations.end() ? nullptr : &it->second;
  };
  const std::string prefix = "metadata.annotations";
  if (const std::string* v = get("kueue.x-k8s.io/podset-required-topology")) tr.required = *v;
  if (const std::string* v = get("kueue.x-k8s.io/podset-preferred-topology")) tr.preferred = *v;
  if (const std::string* v = get("kueue.x-k8s.io/podset-unconstrained-topology")) {
    if (*v != "true" && *v != "false") {
      return FieldError(KeyField(prefix, "kueue.x-k8s.io/podset-unconstrained-topology"),
                        "invalid value " + core::Quote(*v) + ": must be true or false");
    }
    tr.unconstrained = *v == "true";
  }
  if (const std::string* v = get("kueue.x-k8s.io/podset-slice-required-topology")) {
    tr.slice_required_topology = *v;
  }
  if (const std::string* v = get("kueue.x-k8s.io/podset-group-name")) tr.pod_set_group_name = *v;
  int levels =
      (tr.required.empty() ? 0 : 1) + (tr.preferred.empty() ? 0 : 1) + (tr.unconstrained ? 1 : 0);
  if (levels > 1) {
    return FieldError(KeyField(prefix, "kueue.x-k8s.io/podset-required-topology"),
                      "must not be used together with podset-preferred-topology or "
                      "podset-unconstrained-topology");
  }
  if (const std::string* v = get("kueue.x-k8s.io/podset-slice-size")) {
    std::string field = KeyField(prefix, "kueue.x-k8s.io/podset-slice-size");
    int64_t size = 0;
    bool ok = !v->empty() && v->size() <= 10;
    for (char c : *v) ok = ok && c >= '0' && c <= '9';
    if (ok) size = std::stoll(*v);
    if (!ok || size < 1 || size > std::numeric_limits<int32_t>::max()) {
      return FieldError(field, "invalid value " + core::Quote(*v) + ": must be a positive integer");
    }
    if (tr.slice_required_topology.empty()) {
      return FieldError(field, "requires kueue.x-k8s.io/podset-slice-required-topology");
    }
    tr.slice_size = static_cast<int32_t>(size);
  }
  return tr;
}

}  // namespace berth::io::internal
