// Decoders of the workload CRDs issues 13 and 18 added, one file per API group:
// kubeflow_v2beta1.cc (MPIJob), ray_v1.cc (RayCluster, RayJob), volcano_batch_v1alpha1.cc
// (Volcano's Job), trainer_v1alpha1.cc (TrainJob and its runtimes). Same contract as decoders.h: the decoded value or the first error with
// the field path relative to the object. Reached only through the table of kinds. Internal
// to io; stateless apart from the ResourceCatalog.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.h"
#include "io/internal/decoders.h"
#include "model/data_objects.h"
#include "model/resources.h"
#include "model/training_runtime.h"

namespace berth::io::internal {

// kubeflow.org/v2beta1: MPIJob, pod sets "launcher" and "worker".
core::Result<DecodedWorkload> DecodeMPIJob(dom::object obj, model::ResourceCatalog& catalog);

// ray.io/v1: RayCluster (pod sets "head", then each worker group lowercased) and RayJob (the
// same from spec.rayClusterSpec, then "submitter" in K8sJobMode). The head and worker pod
// templates carry the labels KubeRay gives their pods (ray.io/cluster, ray.io/node-type,
// ray.io/group), which name the expanded pods.
core::Result<DecodedWorkload> DecodeRayCluster(dom::object obj, model::ResourceCatalog& catalog);
core::Result<DecodedWorkload> DecodeRayJob(dom::object obj, model::ResourceCatalog& catalog);

// The submitter pod template a RayJob in K8sJobMode gets when it names none, as JSON text:
// one container "ray-job-submitter" running `head_image` (limits 1 cpu, 1Gi; requests 500m,
// 200Mi), restartPolicy Never (KubeRay's default, which Kueue copies). The decoder counts
// it; dispatch writes it into the manifest when it injects a flavor (pod_templates.h).
std::string DefaultRaySubmitterTemplate(std::string_view head_image);

// batch.volcano.sh/v1alpha1: Volcano's Job, one pod set per task; *min_available its gang
// (spec.minAvailable, defaulted as Volcano's webhook does), the minMember of the PodGroup
// Volcano makes for it, and *min_task_member that PodGroup's minTaskMember (each task's
// minAvailable, else its replicas, as Volcano's job controller writes it).
core::Result<DecodedWorkload> DecodeVolcanoJob(
    dom::object obj, model::ResourceCatalog& catalog, int32_t* min_available,
    std::vector<std::pair<std::string, int32_t>>* min_task_member);

// trainer.kubeflow.org/v1alpha1 (trainer_v1alpha1.cc). A TrainJob validated, with no pod
// sets yet: Reader::Finish builds them from its runtime (trainjob_runtime.h).
core::Result<DecodedWorkload> DecodeTrainJob(dom::object obj);
// TrainingRuntime (namespaced) or ClusterTrainingRuntime (`kind`): mlPolicy read, the
// template validated as a JobSet spec.
core::Result<model::TrainingRuntime> DecodeTrainingRuntime(dom::object obj,
                                                           std::string_view api_version,
                                                           std::string_view kind,
                                                           model::ResourceCatalog& catalog);

// serving.kserve.io/v1beta1 (kserve_v1beta1.cc): an InferenceService, as a workload of one
// pod set "predictor" (spec.predictor.minReplicas pods of the template KServe's controller
// makes: the predictor's PodSpec and kserve-container with the model's resources) and the
// model it serves (storageUri parsed; size and region from berth.dev/ annotations).
struct DecodedInferenceService {
  DecodedWorkload workload;
  model::InferenceServiceModel model;
};
core::Result<DecodedInferenceService> DecodeInferenceService(dom::object obj,
                                                             model::ResourceCatalog& catalog);
// serving.kserve.io/v1alpha1 ClusterServingRuntime (cluster_scoped) or ServingRuntime: its
// supported model formats.
core::Result<model::ServingRuntime> DecodeServingRuntime(dom::object obj, bool cluster_scoped);

}  // namespace berth::io::internal
