// TrainingRuntime and ClusterTrainingRuntime (trainer.kubeflow.org/v1alpha1): the blueprint a
// TrainJob names in spec.runtimeRef. Its template is a JobSet spec; io keeps the document and
// expands a TrainJob from it once every file is read (the runtime may come after the job).
// Plain data, owned by Snapshot.
#pragma once

#include <cstdint>
#include <string>

#include "model/object_meta.h"

namespace berth::model {

struct TrainingRuntime {
  std::string api_version;
  std::string kind;  // "TrainingRuntime" (namespaced) or "ClusterTrainingRuntime"
  ObjectMeta meta;
  // spec.mlPolicy.numNodes, the trainer's node count when the TrainJob names none; -1 unset.
  int32_t num_nodes = -1;
  // spec.mlPolicy.mpi.runLauncherAsNode: the launcher container takes the TrainJob's
  // resourcesPerNode too.
  bool run_launcher_as_node = false;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
