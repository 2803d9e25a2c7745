// trainer.kubeflow.org/v1alpha1 (Kubeflow Trainer v2): TrainJob, TrainingRuntime and
// ClusterTrainingRuntime. A TrainJob holds no pod template: the trainer's controller builds a
// JobSet named after the job from the runtime spec.runtimeRef names, with the job's
// spec.trainer overriding the runtime (trainjob_runtime.h). The runtime may be read after
// the job, so the decoder here only validates the job and Reader::Finish resolves it; a
// runtime is validated whole here (its template decoded as a JobSet spec), so a bad one is
// reported at its own file and object.
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/internal/crd_workload_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

// spec.trainer.resourcesPerNode: {limits, requests}, each a map of quantities, none
// negative (the pod spec's own rule, which the JobSet's pods would be held to).
core::Status CheckResourcesPerNode(dom::object trainer) {
  dom::object resources;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(trainer, "resourcesPerNode", &resources, &found));
  if (!found) return core::OkStatus();
  for (std::string_view key : {std::string_view("limits"), std::string_view("requests")}) {
    std::map<std::string, core::Quantity> amounts;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuantityMap(resources, key, &amounts, /*non_negative=*/true),
                                "resourcesPerNode");
  }
  return core::OkStatus();
}

}  // namespace

core::Result<DecodedWorkload> DecodeTrainJob(dom::object obj) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "suspend", &out.workload.suspended), "spec");
  BERTH_ASSIGN_OR_RETURN(dom::object ref, GetRequiredObject(spec, "spec", "runtimeRef"));
  struct {
    std::string name;
    std::string kind;
  } runtime_ref;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "name", &runtime_ref.name), "spec.runtimeRef");
  if (runtime_ref.name.empty()) return FieldError("spec.runtimeRef.name", "required value");
  std::string api_group = "trainer.kubeflow.org";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "apiGroup", &api_group), "spec.runtimeRef");
  if (api_group != "trainer.kubeflow.org") {
    return Unsupported("spec.runtimeRef.apiGroup", api_group, "\"trainer.kubeflow.org\"");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "kind", &runtime_ref.kind), "spec.runtimeRef");
  if (runtime_ref.kind.empty()) runtime_ref.kind = "ClusterTrainingRuntime";
  if (runtime_ref.kind != "ClusterTrainingRuntime" && runtime_ref.kind != "TrainingRuntime") {
    return Unsupported("spec.runtimeRef.kind", runtime_ref.kind,
                       "\"ClusterTrainingRuntime\", \"TrainingRuntime\"");
  }
  dom::object trainer;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "trainer", &trainer, &found), "spec");
  if (found) {
    int32_t num_nodes = 1;
    bool has_nodes = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(trainer, "numNodes", &num_nodes, &has_nodes),
                                "spec.trainer");
    if (has_nodes && num_nodes < 1) {
      return InvalidValue("spec.trainer.numNodes", std::to_string(num_nodes),
                          "must be greater than or equal to 1");
    }
    std::string image;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(trainer, "image", &image), "spec.trainer");
    std::vector<std::string> words;
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(trainer, "command", &words), "spec.trainer");
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(trainer, "args", &words), "spec.trainer");
    BERTH_IO_RETURN_IF_ERROR_AT(CheckResourcesPerNode(trainer), "spec.trainer");
  }
  return out;
}

core::Result<model::TrainingRuntime> DecodeTrainingRuntime(dom::object obj,
                                                           std::string_view api_version,
                                                           std::string_view kind,
                                                           model::ResourceCatalog& catalog) {
  model::TrainingRuntime out;
  out.api_version = std::string(api_version);
  out.kind = std::string(kind);
  const bool namespaced = kind == "TrainingRuntime";
  BERTH_ASSIGN_OR_RETURN(out.meta, DecodeObjectMeta(obj, namespaced, /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  dom::object ml_policy;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "mlPolicy", &ml_policy, &found), "spec");
  if (found) {
    bool has_nodes = false;
    int32_t num_nodes = 1;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(ml_policy, "numNodes", &num_nodes, &has_nodes),
                                "spec.mlPolicy");
    if (has_nodes && num_nodes < 1) {
      return InvalidValue("spec.mlPolicy.numNodes", std::to_string(num_nodes),
                          "must be greater than or equal to 1");
    }
    if (has_nodes) out.num_nodes = num_nodes;
    dom::object mpi;
    bool has_mpi = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(ml_policy, "mpi", &mpi, &has_mpi), "spec.mlPolicy");
    if (has_mpi) {
      BERTH_IO_RETURN_IF_ERROR_AT(GetBool(mpi, "runLauncherAsNode", &out.run_launcher_as_node),
                                  "spec.mlPolicy.mpi");
    }
  }
  BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(spec, "spec", "template"));
  BERTH_ASSIGN_OR_RETURN(dom::object jobset_spec, GetRequiredObject(tmpl, "spec.template", "spec"));
  // Decoded as the JobSet it becomes, for its errors only: a TrainJob's pods come from the
  // template with the job's overrides applied (trainjob_runtime.h).
  DecodedWorkload check;
  check.workload.meta.namespace_ = namespaced ? out.meta.namespace_ : "default";
  BERTH_RETURN_IF_ERROR(DecodeReplicatedJobs(jobset_spec, "spec.template.spec", catalog, &check));
  return out;
}

}  // namespace berth::io::internal
