// kubeflow.org/v2beta1: MPIJob (mpi-operator v2). Two pod sets, named as Kueue's mpijob
// integration names them (the replica type lowercased): "launcher" first, then "worker";
// only these two replica types exist. Replicas default to 1, as Kueue counts an unset one;
// mpi-operator's validation wants exactly one launcher, which is checked here too.
#include <string>
#include <string_view>

#include "io/internal/crd_workload_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

core::Result<DecodedWorkload> DecodeMPIJob(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(dom::object spec, DecodeKubeflowJobHead(obj, &out));
  bool found = false;
  dom::object specs;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "mpiReplicaSpecs", &specs, &found), "spec");
  if (!found || specs.size() == 0) {
    return FieldError("spec.mpiReplicaSpecs", "required value: must have replica specs");
  }
  for (auto [type, value] : specs) {
    if (type != "Launcher" && type != "Worker") {
      return Unsupported(KeyField("spec.mpiReplicaSpecs", type), std::string(type),
                         {"Launcher", "Worker"});
    }
  }
  dom::element launcher;
  if (!Find(specs, "Launcher", &launcher)) {
    return FieldError("spec.mpiReplicaSpecs[Launcher]",
                      "required value: must have Launcher replica spec");
  }
  for (std::string_view type : {std::string_view("Launcher"), std::string_view("Worker")}) {
    dom::element value;
    if (!Find(specs, type, &value)) continue;
    const std::string field = "spec.mpiReplicaSpecs[" + std::string(type) + "]";
    auto replica_spec = AsObject(value);
    BERTH_IO_RETURN_IF_ERROR_AT(replica_spec, field);
    model::PodSetTemplate pod_set;
    pod_set.name = type == "Launcher" ? "launcher" : "worker";
    BERTH_RETURN_IF_ERROR(GetReplicas(*replica_spec, field, &pod_set.count));
    if (type == "Launcher" && pod_set.count != 1) {
      return FieldError(field + ".replicas", "must be 1");
    }
    BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(*replica_spec, field, "template"));
    PodSetSource source;
    source.pods_per_group = pod_set.count;
    BERTH_RETURN_IF_ERROR(AppendPodSet(tmpl, field + ".template", std::move(pod_set),
                                       std::move(source), catalog, &out));
  }
  return out;
}

}  // namespace berth::io::internal
