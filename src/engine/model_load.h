// ModelLoad: how the model a KServe InferenceService serves reaches the nodes the plan gave
// its pods: the data module's transfer model per pod and its fetch schedule for all of them
// (docs/data.md). The snapshot's nodes become the data module's topology (one cluster per
// member cluster, its region the topology.kubernetes.io/region label of its nodes) and its
// node labels models.cache.berth.dev/<name>=true the copies. For `berth explain
// isvc/NAME`. Takes the input over (the plan is written into it); thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "data/artifact.h"
#include "data/copies.h"
#include "data/topology.h"
#include "engine/plan.h"
#include "model/data_objects.h"
#include "model/snapshot.h"

namespace berth::engine {

// The nodes of `snapshot` as the data module's topology and copies; a node's bandwidth.berth.dev/
// {nic,disk-read,host-to-gpu} labels override the default table for it.
struct DataInputs {
  data::Topology topology;
  data::Copies copies;
  // Labels that could not be read (a bandwidth that is not a positive quantity): their
  // default is used.
  std::vector<std::string> warnings;
};
DataInputs BuildDataInputs(const model::Snapshot& snapshot);


// The model as the data module's artifact, its allowed regions from berth.dev/data-regions
// (so EstimateLoad and the fetch schedule mark nodes elsewhere forbidden).
// FailedPrecondition when its size is unknown (nothing upstream carries it: annotate
// berth.dev/model-size); InvalidArgument naming the annotation when the region list does
// not parse.
core::Result<data::Artifact> ArtifactOf(const model::InferenceServiceModel& model);

// Finds an InferenceService by "namespace/name" or "name" (unique); NotFound or
// InvalidArgument (ambiguous) as FindPod.
core::Result<int32_t> FindInferenceService(const model::Snapshot& snapshot,
                                           const std::string& name);

struct ReplicaLoad {
  std::string pod;
  std::string node;    // "" while the pod waits
  std::string source;  // "node cache", "origin (same region)", ...; "" while it waits
  std::string source_id;  // the same as data::LoadSourceName: "node-cache", "origin", ...
  std::string peer;    // the node copied from, for a peer copy
  double start_s = 0;
  double end_s = 0;    // in GPU memory
  int64_t origin_bytes = 0;
  std::string forbidden;  // residency: why this node may not hold the model
};

// A predictor pod the input already runs: its model is loaded.
struct RunningReplica {
  std::string pod;
  std::string node;
};

// The model load of one InferenceService in a plan.
struct ModelLoad {
  int32_t service = -1;  // index into plan.planned.inference_services
  std::vector<model::PodDecision> pods;  // the predictor pods' decisions
  // Predictor pods bound in the input (not decided by the plan): their nodes count as
  // holding the model, serving peers when sharing is on.
  std::vector<RunningReplica> running;
  std::string cache_name;                // ModelCacheName
  // The fetch schedule of the bound pods; empty with `no_schedule` saying why.
  std::vector<ReplicaLoad> loads;
  std::string no_schedule;
  std::vector<std::string> warnings;  // DataInputs::warnings
  int32_t max_origin_pulls = 0;  // the limit used (berth.dev/max-origin-pulls, default 4)
  bool share_in_cluster = false;  // berth.dev/model-p2p: "true"
  double all_ready_s = 0;
  int64_t origin_bytes = 0;
  int32_t peak_origin_pulls = 0;
};

// Schedules the fetches of the model of plan.planned.inference_services[service] to the
// nodes `plan` bound its predictor pods to. What cannot be scheduled (no pod bound, the
// size unknown) is said in `no_schedule`. O(nodes + pods + the schedule's cost).
ModelLoad ScheduleModelLoad(const Plan& plan, int32_t service);

// The InferenceService (index into snapshot.inference_services) whose predictor `pod` is:
// the serving.kserve.io/inferenceservice label, in the pod's namespace and cluster.
std::optional<int32_t> InferenceServiceOfPod(const model::Snapshot& snapshot, const model::Pod& pod);

struct ModelLoadExplanation {
  Plan plan;
  ModelLoad load;
};

// Plans `snapshot`, then schedules the model's fetches to the nodes its pods were bound to.
// Errors: those of FindInferenceService.
core::Result<ModelLoadExplanation> ExplainInferenceService(model::Snapshot&& snapshot,
                                                           const std::string& name,
                                                           const PlanOptions& options);

}  // namespace berth::engine
