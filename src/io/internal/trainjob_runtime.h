// A Kubeflow TrainJob's pods come from the runtime its spec.runtimeRef names: the trainer's
// controller makes a JobSet named after the job from the runtime's template with the job's
// spec.trainer applied. Reader::Finish calls ResolveTrainJob for each TrainJob once every
// file is read (a runtime may come after the job), before pods are expanded. Internal to io;
// stateless.
#pragma once

#include <vector>

#include "core/result.h"
#include "io/document_store.h"
#include "io/internal/decoders.h"
#include "model/resources.h"
#include "model/training_runtime.h"
#include "model/workload_object.h"

namespace berth::io::internal {

// Whether `workload` is a trainer.kubeflow.org TrainJob.
bool IsTrainJob(const model::WorkloadObject& workload);

// Fills job->pod_sets and *sources (one per replicatedJob of the JobSet the trainer would
// make, named after it) from the runtime in `runtimes` that spec.runtimeRef names (kind
// ClusterTrainingRuntime by default, or TrainingRuntime in the job's namespace; same member
// cluster), with the trainer's overrides: the replicatedJob labelled
// trainer.kubeflow.org/trainjob-ancestor-step=trainer gets replicas 1 and parallelism =
// completions = spec.trainer.numNodes (else the runtime's mlPolicy.numNodes, else its own
// parallelism); initializer jobs get replicas 1; every container named "node" (and
// "launcher" when mlPolicy.mpi.runLauncherAsNode) takes spec.trainer's image, command, args
// and resourcesPerNode. NotFound at field spec.runtimeRef.name when there is no such
// runtime; the job is then left without pod sets.
core::Status ResolveTrainJob(const DocumentStore& documents,
                             const std::vector<model::TrainingRuntime>& runtimes,
                             model::ResourceCatalog& catalog, model::WorkloadObject* job,
                             std::vector<PodSetSource>* sources);

}  // namespace berth::io::internal
