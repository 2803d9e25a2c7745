// apps/v1: Deployment, StatefulSet and ReplicaSet, each `replicas` copies of one template
// (pod set "main"). A ReplicaSet owned by a Deployment read is folded into it, its pods the
// Deployment's (internal/ownership.h).
#include <string>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

core::Result<DecodedWorkload> DecodeReplicated(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  int32_t replicas = 1;
  BERTH_RETURN_IF_ERROR(GetReplicas(spec, "spec", &replicas));
  BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(spec, "spec", "template"));
  model::PodSetTemplate pod_set;
  pod_set.name = "main";
  pod_set.count = replicas;
  BERTH_RETURN_IF_ERROR(
      AppendPodSet(tmpl, "spec.template", std::move(pod_set), PodSetSource{}, catalog, &out));
  return out;
}

}  // namespace berth::io::internal
