// kubeflow.org/v1: PyTorchJob. One pod set per replica type, named as Kueue names them (the
// type lowercased: "master", "worker"); Master first, then Worker, then any other type in
// document order.
#include <string>
#include <string_view>
#include <vector>

#include "core/ascii.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

int RoleRank(std::string_view type) {
  if (type == "Master") return 0;
  if (type == "Worker") return 1;
  return 2;
}

}  // namespace

core::Result<dom::object> DecodeKubeflowJobHead(dom::object obj, DecodedWorkload* out) {
  BERTH_ASSIGN_OR_RETURN(out->workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  dom::object run_policy;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "runPolicy", &run_policy, &found), "spec");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(run_policy, "suspend", &out->workload.suspended),
                                "spec.runPolicy");
    dom::object scheduling;
    bool has_scheduling = false;
    BERTH_IO_RETURN_IF_ERROR_AT(
        GetObject(run_policy, "schedulingPolicy", &scheduling, &has_scheduling), "spec.runPolicy");
    if (has_scheduling) {
      BERTH_IO_RETURN_IF_ERROR_AT(
          GetString(scheduling, "priorityClass", &out->workload.scheduling_priority_class),
          "spec.runPolicy.schedulingPolicy");
    }
  }
  return spec;
}

core::Result<DecodedWorkload> DecodePyTorchJob(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(dom::object spec, DecodeKubeflowJobHead(obj, &out));
  bool found = false;
  dom::object specs;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "pytorchReplicaSpecs", &specs, &found), "spec");
  if (!found || specs.size() == 0) {
    return core::InvalidArgument("required value",
                                 core::Location{"", "", "spec.pytorchReplicaSpecs"});
  }
  for (int rank = 0; rank <= 2; ++rank) {
    for (auto [type, value] : specs) {
      if (RoleRank(type) != rank) continue;
      std::string field = KeyField("spec.pytorchReplicaSpecs", type);
      auto replica_spec = AsObject(value);
      BERTH_IO_RETURN_IF_ERROR_AT(replica_spec, field);
      model::PodSetTemplate pod_set;
      pod_set.name = core::AsciiLower(type);
      BERTH_RETURN_IF_ERROR(GetReplicas(*replica_spec, field, &pod_set.count));
      BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(*replica_spec, field, "template"));
      PodSetSource source;
      source.pods_per_group = pod_set.count;
      BERTH_RETURN_IF_ERROR(AppendPodSet(tmpl, field + ".template", std::move(pod_set),
                                         std::move(source), catalog, &out));
    }
  }
  return out;
}

}  // namespace berth::io::internal
