// leaderworkerset.x-k8s.io/v1: LeaderWorkerSet. `replicas` groups of `size` pods: one leader
// (leaderTemplate, or workerTemplate when absent) and size-1 workers. Two pod sets, "leader"
// (one per group) and "worker" (size-1 per group; left out when size is 1).
#include <limits>
#include <string>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

core::Result<DecodedWorkload> DecodeLeaderWorkerSet(dom::object obj,
                                                    model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  int32_t replicas = 1;
  BERTH_RETURN_IF_ERROR(GetReplicas(spec, "spec", &replicas));
  BERTH_ASSIGN_OR_RETURN(dom::object lwt, GetRequiredObject(spec, "spec", "leaderWorkerTemplate"));
  const std::string prefix = "spec.leaderWorkerTemplate";
  int32_t size = 1;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(lwt, "size", &size), prefix);
  if (size < 1) {
    return core::InvalidArgument("must be greater than or equal to 1",
                                 core::Location{"", "", prefix + ".size"});
  }
  BERTH_ASSIGN_OR_RETURN(dom::object worker_tmpl, GetRequiredObject(lwt, prefix, "workerTemplate"));
  dom::object leader_tmpl;
  bool has_leader = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(lwt, "leaderTemplate", &leader_tmpl, &has_leader), prefix);
  int64_t workers = static_cast<int64_t>(replicas) * (size - 1);
  if (workers > std::numeric_limits<int32_t>::max()) {
    return core::InvalidArgument("replicas times size is too large",
                                 core::Location{"", "", "spec.replicas"});
  }

  model::PodSetTemplate leader;
  leader.name = "leader";
  leader.count = replicas;
  PodSetSource leader_source;
  leader_source.groups = replicas;
  leader_source.pods_per_group = 1;
  BERTH_RETURN_IF_ERROR(AppendPodSet(has_leader ? leader_tmpl : worker_tmpl,
                                     prefix + (has_leader ? ".leaderTemplate" : ".workerTemplate"),
                                     std::move(leader), std::move(leader_source), catalog, &out));
  if (size > 1) {
    model::PodSetTemplate worker;
    worker.name = "worker";
    worker.count = static_cast<int32_t>(workers);
    PodSetSource worker_source;
    worker_source.groups = replicas;
    worker_source.pods_per_group = size - 1;
    BERTH_RETURN_IF_ERROR(AppendPodSet(worker_tmpl, prefix + ".workerTemplate", std::move(worker),
                                       std::move(worker_source), catalog, &out));
  }
  return out;
}

}  // namespace berth::io::internal
