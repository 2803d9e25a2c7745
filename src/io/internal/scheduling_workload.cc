// scheduling.k8s.io Workload (KEP-4671 gang scheduling, v1alpha1 in Kubernetes 1.35): the
// scheduler's own gang API. A Workload lists up to 8 pod groups (spec.podGroups[]), each with
// exactly one policy: `basic` (its pods schedule one by one) or `gang` (minCount of them, or
// none, bind). Pods name their group in spec.workloadRef; a replica key splits one group
// into independent gangs of the same minCount. Each entry becomes a model::PodGroup with the
// Workload's metadata, so binding's all-or-nothing path (engine/pod_groups.h) serves it
// exactly as it serves coscheduling's PodGroups. Validated as the API server validates it.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/labels.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

// The API server's bound on spec.podGroups (WorkloadMaxPodGroups).
constexpr size_t kMaxWorkloadPodGroups = 8;

// One spec.podGroups[] entry; errors relative to it.
core::Status DecodeWorkloadPodGroup(dom::element e, model::PodGroup* out) {
  BERTH_ASSIGN_OR_RETURN(dom::object pg, AsObject(e));
  BERTH_RETURN_IF_ERROR(GetString(pg, "name", &out->workload_pod_group));
  if (out->workload_pod_group.empty()) return FieldError("name", "required value");
  if (std::string problem = core::Dns1123LabelProblem(out->workload_pod_group);
      !problem.empty()) {
    return InvalidValue("name", out->workload_pod_group, problem);
  }
  BERTH_ASSIGN_OR_RETURN(dom::object policy, GetRequiredObject(pg, "", "policy"));
  dom::object basic;
  dom::object gang;
  bool has_basic = false;
  bool has_gang = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(policy, "basic", &basic, &has_basic), "policy");
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(policy, "gang", &gang, &has_gang), "policy");
  if (has_basic == has_gang) {
    return FieldError("policy", "must specify exactly one of: `basic`, `gang`");
  }
  out->gang = has_gang;
  out->min_member = 1;
  if (has_gang) {
    bool has_min = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(gang, "minCount", &out->min_member, &has_min),
                                "policy.gang");
    if (!has_min) return FieldError("policy.gang.minCount", "required value");
    if (out->min_member <= 0) {
      return InvalidValue("policy.gang.minCount", std::to_string(out->min_member),
                          "must be greater than zero");
    }
  }
  return core::OkStatus();
}

}  // namespace

core::Result<std::vector<model::PodGroup>> DecodeSchedulingWorkload(dom::object obj,
                                                                    std::string_view api_version) {
  model::PodGroup head;
  head.api_version = std::string(api_version);
  BERTH_ASSIGN_OR_RETURN(head.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                     /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  dom::array groups;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "podGroups", &groups, &found), "spec");
  if (!found || groups.size() == 0) return FieldError("spec.podGroups", "required value");
  if (groups.size() > kMaxWorkloadPodGroups) {
    return FieldError("spec.podGroups", "Too many: " + std::to_string(groups.size()) +
                                            ": must have at most " +
                                            std::to_string(kMaxWorkloadPodGroups) + " items");
  }
  std::vector<model::PodGroup> out;
  std::set<std::string> names;
  size_t i = 0;
  for (dom::element e : groups) {
    const std::string field = "spec.podGroups" + IndexField(i++);
    model::PodGroup group = head;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeWorkloadPodGroup(e, &group), field);
    if (!names.insert(group.workload_pod_group).second) {
      return FieldError(field + ".name", "Duplicate value: " + core::Quote(group.workload_pod_group));
    }
    out.push_back(std::move(group));
  }
  return out;
}

}  // namespace berth::io::internal
