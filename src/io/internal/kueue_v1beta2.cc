// kueue.x-k8s.io: ResourceFlavor, ClusterQueue, Cohort, LocalQueue, WorkloadPriorityClass,
// Topology and AdmissionCheck (the Workload is in kueue_workload_v1beta2.cc). v1beta2 is
// read as written; v1beta1 differs only in the field names KueueVersion lists, so both go
// through the same code with the version picking the name. Validation follows the CRDs'
// CEL rules and Kueue's webhooks (apis/kueue/v1beta2/*_types.go, pkg/webhooks), since a
// cluster would have refused an object that breaks them.
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Status DecodePreemptionPolicy(dom::object obj, const char* key,
                                    std::initializer_list<const char*> allowed,
                                    model::PreemptionPolicy* out) {
  std::string value;
  BERTH_RETURN_IF_ERROR(GetString(obj, key, &value));
  if (value.empty()) return core::OkStatus();
  bool ok = false;
  for (const char* a : allowed) ok = ok || value == a;
  if (!ok) return Unsupported(key, value, allowed);
  if (value == "Never") {
    *out = model::PreemptionPolicy::kNever;
  } else if (value == "LowerPriority") {
    *out = model::PreemptionPolicy::kLowerPriority;
  } else if (value == "LowerOrNewerEqualPriority") {
    *out = model::PreemptionPolicy::kLowerOrNewerEqualPriority;
  } else {
    *out = model::PreemptionPolicy::kAny;
  }
  return core::OkStatus();
}

core::Status DecodeStopPolicy(dom::object spec, model::StopPolicy* out) {
  std::string value;
  BERTH_RETURN_IF_ERROR(GetString(spec, "stopPolicy", &value));
  if (value.empty() || value == "None") {
    *out = model::StopPolicy::kNone;
  } else if (value == "Hold") {
    *out = model::StopPolicy::kHold;
  } else if (value == "HoldAndDrain") {
    *out = model::StopPolicy::kHoldAndDrain;
  } else {
    return Unsupported("stopPolicy", value, {"None", "Hold", "HoldAndDrain"});
  }
  return core::OkStatus();
}

// fairSharing.weight: a Quantity (default 1), held in milli-units.
core::Status DecodeFairSharingWeight(dom::object spec, int64_t* weight_milli) {
  dom::object fair;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "fairSharing", &fair, &found));
  if (!found) return core::OkStatus();
  dom::element e;
  if (!Find(fair, "weight", &e)) return core::OkStatus();
  auto q = ParseQuantityElement(e);
  BERTH_IO_RETURN_IF_ERROR_AT(q, "fairSharing.weight");
  if (q->IsNegative()) {
    return FieldError("fairSharing.weight", "invalid value " + core::Quote(q->ToString()) + ": must be greater than or equal to 0");
  }
  auto milli = q->MilliValue();
  BERTH_IO_RETURN_IF_ERROR_AT(milli, "fairSharing.weight");
  *weight_milli = *milli;
  return core::OkStatus();
}

// A quota amount (nominalQuota, borrowingLimit, lendingLimit) in ResourceVector units.
core::Status DecodeQuota(dom::object obj, const char* key, std::string_view resource,
                         std::optional<int64_t>* out) {
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  auto q = ParseQuantityElement(e);
  BERTH_IO_RETURN_IF_ERROR_AT(q, key);
  if (q->IsNegative()) {
    return FieldError(
        key, "invalid value " + core::Quote(q->ToString()) + ": must be greater than or equal to 0");
  }
  auto units = ResourceUnits(resource, *q);
  BERTH_IO_RETURN_IF_ERROR_AT(units, key);
  *out = *units;
  return core::OkStatus();
}

// One FlavorQuotas: its resources must be the group's covered resources, in that order
// (the webhook's validateFlavorQuotas). `has_parent`: limits are only valid with a cohort.
core::Status DecodeFlavorQuotas(dom::element e, const std::vector<std::string>& covered,
                                bool has_parent, const char* parent_field,
                                model::ResourceCatalog& catalog, model::FlavorQuotas* out) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &out->flavor));
  dom::array resources;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "resources", &resources, &found));
  if (resources.size() != covered.size()) {
    return FieldError("resources", "must have the same number of resources as coveredResources (" +
                                       std::to_string(covered.size()) + ")");
  }
  size_t i = 0;
  for (dom::element item : resources) {
    std::string field = "resources" + IndexField(i);
    auto r = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(r, field);
    std::string name;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*r, "name", &name), field);
    if (name != covered[i]) {
      return FieldError(field + ".name", "must match the name in coveredResources" + IndexField(i) +
                                             " (" + core::Quote(covered[i]) + ")");
    }
    model::ResourceQuota quota;
    quota.resource = catalog.Intern(name);
    std::optional<int64_t> nominal;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuota(*r, "nominalQuota", name, &nominal), field);
    if (!nominal.has_value()) return FieldError(field + ".nominalQuota", "required value");
    quota.nominal = *nominal;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuota(*r, "borrowingLimit", name, &quota.borrowing_limit),
                                field);
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuota(*r, "lendingLimit", name, &quota.lending_limit), field);
    if (!has_parent && quota.borrowing_limit.has_value()) {
      return FieldError(field + ".borrowingLimit",
                        std::string("must be nil when ") + parent_field + " is empty");
    }
    if (!has_parent && quota.lending_limit.has_value()) {
      return FieldError(field + ".lendingLimit",
                        std::string("must be nil when ") + parent_field + " is empty");
    }
    if (quota.lending_limit.has_value() && *quota.lending_limit > quota.nominal) {
      return FieldError(field + ".lendingLimit", "must be less than or equal to the nominalQuota");
    }
    out->resources.push_back(quota);
    ++i;
  }
  return core::OkStatus();
}

// spec.resourceGroups of a ClusterQueue or Cohort. A resource and a flavor may appear in one
// group only.
core::Status DecodeResourceGroups(dom::object spec, bool has_parent, const char* parent_field,
                                  model::ResourceCatalog& catalog,
                                  std::vector<model::ResourceGroup>* out) {
  dom::array groups;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(spec, "resourceGroups", &groups, &found));
  if (!found) return core::OkStatus();
  std::set<std::string> seen_resources;
  std::set<std::string> seen_flavors;
  size_t g = 0;
  for (dom::element item : groups) {
    std::string field = "resourceGroups" + IndexField(g++);
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field);
    std::vector<std::string> covered;
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(*obj, "coveredResources", &covered), field);
    if (covered.empty()) return FieldError(field + ".coveredResources", "required value");
    model::ResourceGroup group;
    for (size_t i = 0; i < covered.size(); ++i) {
      if (!seen_resources.insert(covered[i]).second) {
        return FieldError(field + ".coveredResources" + IndexField(i),
                          "duplicate value " + core::Quote(covered[i]) + ": a resource may belong to one resource group only");
      }
      group.covered_resources.push_back(catalog.Intern(covered[i]));
    }
    dom::array flavors;
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(*obj, "flavors", &flavors, &found), field);
    if (!found || flavors.size() == 0) return FieldError(field + ".flavors", "required value");
    size_t f = 0;
    for (dom::element flavor : flavors) {
      std::string flavor_field = field + ".flavors" + IndexField(f++);
      model::FlavorQuotas quotas;
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeFlavorQuotas(flavor, covered, has_parent, parent_field, catalog, &quotas),
          flavor_field);
      if (!seen_flavors.insert(quotas.flavor).second) {
        return FieldError(flavor_field + ".name",
                          "duplicate value " + core::Quote(quotas.flavor) + ": a flavor may belong to one resource group only");
      }
      group.flavors.push_back(std::move(quotas));
    }
    out->push_back(std::move(group));
  }
  return core::OkStatus();
}

core::Status DecodeFlavorFungibility(dom::object ff, KueueVersion version,
                                     model::FlavorFungibility* out) {
  // v1beta1 spelled MayStopSearch as Borrow / Preempt.
  const bool legacy = version != KueueVersion::kV1beta2;
  std::string value;
  BERTH_RETURN_IF_ERROR(GetString(ff, "whenCanBorrow", &value));
  if (value == "MayStopSearch" || (legacy && value == "Borrow")) {
    out->when_can_borrow = model::FungibilityPolicy::kMayStopSearch;
  } else if (value == "TryNextFlavor") {
    out->when_can_borrow = model::FungibilityPolicy::kTryNextFlavor;
  } else if (!value.empty()) {
    return legacy
               ? Unsupported("whenCanBorrow", value, {"Borrow", "MayStopSearch", "TryNextFlavor"})
               : Unsupported("whenCanBorrow", value, {"MayStopSearch", "TryNextFlavor"});
  }
  value.clear();
  BERTH_RETURN_IF_ERROR(GetString(ff, "whenCanPreempt", &value));
  if (value == "MayStopSearch" || (legacy && value == "Preempt")) {
    out->when_can_preempt = model::FungibilityPolicy::kMayStopSearch;
  } else if (value == "TryNextFlavor") {
    out->when_can_preempt = model::FungibilityPolicy::kTryNextFlavor;
  } else if (!value.empty()) {
    return legacy
               ? Unsupported("whenCanPreempt", value, {"MayStopSearch", "Preempt", "TryNextFlavor"})
               : Unsupported("whenCanPreempt", value, {"MayStopSearch", "TryNextFlavor"});
  }
  value.clear();
  BERTH_RETURN_IF_ERROR(GetString(ff, "preference", &value));
  if (value.empty()) return core::OkStatus();
  if (value == "BorrowingOverPreemption") {
    out->preference = model::FungibilityPreference::kBorrowingOverPreemption;
  } else if (value == "PreemptionOverBorrowing") {
    out->preference = model::FungibilityPreference::kPreemptionOverBorrowing;
  } else {
    return Unsupported("preference", value, {"BorrowingOverPreemption", "PreemptionOverBorrowing"});
  }
  if (out->when_can_borrow != model::FungibilityPolicy::kTryNextFlavor ||
      out->when_can_preempt != model::FungibilityPolicy::kTryNextFlavor) {
    return FieldError("preference",
                      "may only be set when whenCanBorrow and whenCanPreempt are TryNextFlavor");
  }
  return core::OkStatus();
}

core::Status DecodeCqPreemption(dom::object p, model::ClusterQueuePreemption* out) {
  BERTH_RETURN_IF_ERROR(DecodePreemptionPolicy(
      p, "reclaimWithinCohort", {"Never", "LowerPriority", "Any"}, &out->reclaim_within_cohort));
  BERTH_RETURN_IF_ERROR(DecodePreemptionPolicy(
      p, "withinClusterQueue", {"Never", "LowerPriority", "LowerOrNewerEqualPriority"},
      &out->within_cluster_queue));
  dom::object bwc;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(p, "borrowWithinCohort", &bwc, &found));
  if (!found) return core::OkStatus();
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePreemptionPolicy(bwc, "policy", {"Never", "LowerPriority"},
                                                     &out->borrow_within_cohort.policy),
                              "borrowWithinCohort");
  int32_t threshold = 0;
  bool has_threshold = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(bwc, "maxPriorityThreshold", &threshold, &has_threshold),
                              "borrowWithinCohort");
  if (has_threshold) out->borrow_within_cohort.max_priority_threshold = threshold;
  // CEL: reclaimWithinCohort=Never forbids borrowWithinCohort.
  if (out->reclaim_within_cohort == model::PreemptionPolicy::kNever &&
      out->borrow_within_cohort.policy != model::PreemptionPolicy::kNever) {
    return FieldError("borrowWithinCohort.policy",
                      "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never");
  }
  return core::OkStatus();
}

core::Status DecodeAdmissionChecks(dom::object spec, KueueVersion version,
                                   std::vector<model::AdmissionCheckRule>* out) {
  std::vector<std::string> plain;
  if (version == KueueVersion::kV1beta1) {
    BERTH_RETURN_IF_ERROR(GetStringList(spec, "admissionChecks", &plain));
    for (std::string& name : plain) out->push_back({std::move(name), {}});
  } else if (dom::element ignored; Find(spec, "admissionChecks", &ignored)) {
    // v1beta2 dropped the plain list. The API server refuses it under kubectl's strict field
    // validation; read leniently, the ClusterQueue would admit without its checks (a
    // MultiKueue queue would run its jobs on the hub), so it is an error here.
    return FieldError("admissionChecks",
                      "field not declared in schema: Kueue v1beta2 lists checks in "
                      "admissionChecksStrategy.admissionChecks[].name");
  }
  dom::object strategy;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "admissionChecksStrategy", &strategy, &found));
  if (!found) return core::OkStatus();
  if (!plain.empty()) {
    return FieldError("admissionChecksStrategy",
                      "either admissionChecks or admissionChecksStrategy can be set, but not both");
  }
  dom::array checks;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(strategy, "admissionChecks", &checks, &found),
                              "admissionChecksStrategy");
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : checks) {
    std::string field = "admissionChecksStrategy.admissionChecks" + IndexField(i++);
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field);
    model::AdmissionCheckRule rule;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &rule.name), field);
    if (rule.name.empty()) return FieldError(field + ".name", "required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(*obj, "onFlavors", &rule.on_flavors), field);
    out->push_back(std::move(rule));
  }
  return core::OkStatus();
}

}  // namespace

std::optional<KueueVersion> KueueVersionOf(std::string_view api_version) {
  if (api_version == "kueue.x-k8s.io/v1beta2") return KueueVersion::kV1beta2;
  if (api_version == "kueue.x-k8s.io/v1beta1") return KueueVersion::kV1beta1;
  if (api_version == "kueue.x-k8s.io/v1alpha1") return KueueVersion::kV1alpha1;
  return std::nullopt;
}

core::Result<int64_t> ResourceUnits(std::string_view name, const core::Quantity& quantity) {
  return name == "cpu" ? quantity.MilliValue() : quantity.Value();
}

core::Result<model::ResourceFlavor> DecodeResourceFlavor(dom::object obj) {
  model::ResourceFlavor rf;
  BERTH_ASSIGN_OR_RETURN(rf.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                   /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return rf;
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringMap(spec, "nodeLabels", &rf.node_labels), "spec");
  if (rf.node_labels.size() > 8) {
    return FieldError("spec.nodeLabels", "must have at most 8 items");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(spec, "nodeTaints", DecodeTaint, &rf.node_taints, 8), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(spec, "tolerations", DecodeToleration, &rf.tolerations, 8), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "topologyName", &rf.topology_name), "spec");
  if (!rf.topology_name.empty() && rf.node_labels.empty()) {
    return FieldError("spec.nodeLabels", "at least one nodeLabel is required when topology is set");
  }
  return rf;
}

core::Result<model::ClusterQueue> DecodeClusterQueue(dom::object obj, KueueVersion version,
                                                     model::ResourceCatalog& catalog) {
  model::ClusterQueue cq;
  BERTH_ASSIGN_OR_RETURN(cq.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                   /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return cq;
  const char* cohort_key = version == KueueVersion::kV1beta2 ? "cohortName" : "cohort";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, cohort_key, &cq.cohort), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeResourceGroups(spec, !cq.cohort.empty(), cohort_key, catalog, &cq.resource_groups),
      "spec");
  std::string strategy;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "queueingStrategy", &strategy), "spec");
  if (strategy == "StrictFIFO") {
    cq.queueing_strategy = model::QueueingStrategy::kStrictFifo;
  } else if (strategy.empty() || strategy == "BestEffortFIFO") {
    cq.queueing_strategy = model::QueueingStrategy::kBestEffortFifo;
  } else {
    return Unsupported("spec.queueingStrategy", strategy, {"BestEffortFIFO", "StrictFIFO"});
  }
  dom::object part;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "namespaceSelector", &part, &found), "spec");
  if (found) {
    auto selector = DecodeLabelSelector(part);
    BERTH_IO_RETURN_IF_ERROR_AT(selector, "spec.namespaceSelector");
    cq.namespace_selector = std::move(*selector);
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "flavorFungibility", &part, &found), "spec");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeFlavorFungibility(part, version, &cq.flavor_fungibility),
                                "spec.flavorFungibility");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "preemption", &part, &found), "spec");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeCqPreemption(part, &cq.preemption), "spec.preemption");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeAdmissionChecks(spec, version, &cq.admission_checks), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeStopPolicy(spec, &cq.stop_policy), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeFairSharingWeight(spec, &cq.fair_sharing_weight_milli), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "admissionScope", &part, &found), "spec");
  if (found) {
    std::string mode;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "admissionMode", &mode), "spec.admissionScope");
    if (mode == "UsageBasedAdmissionFairSharing") {
      cq.usage_based_admission_fair_sharing = true;
    } else if (!mode.empty() && mode != "NoAdmissionFairSharing") {
      return Unsupported("spec.admissionScope.admissionMode", mode,
                         {"NoAdmissionFairSharing", "UsageBasedAdmissionFairSharing"});
    }
  }
  return cq;
}

core::Result<model::Cohort> DecodeCohort(dom::object obj, KueueVersion version,
                                         model::ResourceCatalog& catalog) {
  model::Cohort cohort;
  BERTH_ASSIGN_OR_RETURN(cohort.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                       /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return cohort;
  const char* parent_key = version == KueueVersion::kV1alpha1 ? "parent" : "parentName";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, parent_key, &cohort.parent), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceGroups(spec, !cohort.parent.empty(), parent_key,
                                                   catalog, &cohort.resource_groups),
                              "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeFairSharingWeight(spec, &cohort.fair_sharing_weight_milli),
                              "spec");
  return cohort;
}

core::Result<model::LocalQueue> DecodeLocalQueue(dom::object obj) {
  model::LocalQueue lq;
  BERTH_ASSIGN_OR_RETURN(lq.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                   /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "clusterQueue", &lq.cluster_queue), "spec");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeStopPolicy(spec, &lq.stop_policy), "spec");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeFairSharingWeight(spec, &lq.fair_sharing_weight_milli),
                                "spec");
  }
  if (lq.cluster_queue.empty()) return FieldError("spec.clusterQueue", "required value");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (!found) return lq;
  dom::object fair;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "fairSharing", &fair, &found), "status");
  if (!found) return lq;
  dom::object afs;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(fair, "admissionFairSharingStatus", &afs, &found),
                              "status.fairSharing");
  if (!found) return lq;
  const std::string prefix = "status.fairSharing.admissionFairSharingStatus";
  // consumedResources in milli-units for every resource: Kueue stores decayed, fractional
  // amounts ("1500m" GPUs), which whole units would round.
  dom::object consumed;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(afs, "consumedResources", &consumed, &found), prefix);
  if (found) {
    for (auto [name, value] : consumed) {
      std::string field = KeyField(prefix + ".consumedResources", name);
      auto q = ParseQuantityElement(value);
      BERTH_IO_RETURN_IF_ERROR_AT(q, field);
      auto milli = q->MilliValue();
      BERTH_IO_RETURN_IF_ERROR_AT(milli, field);
      lq.consumed_resources_milli[std::string(name)] = *milli;
    }
  }
  std::string last_update;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(afs, "lastUpdate", &last_update), prefix);
  if (!last_update.empty()) {
    auto ts = core::Timestamp::Parse(last_update);
    BERTH_IO_RETURN_IF_ERROR_AT(ts, prefix + ".lastUpdate");
    lq.consumed_last_update = *ts;
  }
  return lq;
}

core::Result<model::WorkloadPriorityClass> DecodeWorkloadPriorityClass(dom::object obj) {
  model::WorkloadPriorityClass wpc;
  BERTH_ASSIGN_OR_RETURN(wpc.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                    /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "value", &wpc.value));
  return wpc;
}

core::Result<model::Topology> DecodeTopology(dom::object obj) {
  model::Topology topology;
  BERTH_ASSIGN_OR_RETURN(topology.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                         /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  dom::array levels;
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "levels", &levels, &found), "spec");
  if (!found || levels.size() == 0) return FieldError("spec.levels", "required value");
  if (levels.size() > 16) return FieldError("spec.levels", "must have at most 16 items");
  size_t i = 0;
  std::set<std::string> seen;
  for (dom::element item : levels) {
    std::string field = "spec.levels" + IndexField(i++);
    auto level = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(level, field);
    std::string label;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*level, "nodeLabel", &label), field);
    if (label.empty()) return FieldError(field + ".nodeLabel", "required value");
    if (!seen.insert(label).second) {
      return FieldError(field + ".nodeLabel", "duplicate value " + core::Quote(label));
    }
    topology.levels.push_back(std::move(label));
  }
  for (size_t l = 0; l + 1 < topology.levels.size(); ++l) {
    if (topology.levels[l] == "kubernetes.io/hostname") {
      return FieldError("spec.levels" + IndexField(l) + ".nodeLabel",
                        "kubernetes.io/hostname can only be used at the lowest level");
    }
  }
  return topology;
}

core::Result<model::AdmissionCheck> DecodeAdmissionCheck(dom::object obj) {
  model::AdmissionCheck check;
  BERTH_ASSIGN_OR_RETURN(check.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                      /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "controllerName", &check.controller_name), "spec");
  }
  if (check.controller_name.empty()) return FieldError("spec.controllerName", "required value");
  dom::object params;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "parameters", &params, &found), "spec");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(params, "apiGroup", &check.parameters_api_group),
                                "spec.parameters");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(params, "kind", &check.parameters_kind),
                                "spec.parameters");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(params, "name", &check.parameters_name),
                                "spec.parameters");
  }
  return check;
}

}  // namespace berth::io::internal
