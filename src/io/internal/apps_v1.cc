// apps/v1: Deployment and StatefulSet, both `replicas` copies of one template (pod set
// "main"). A Deployment's ReplicaSet layer is not modelled: its pods belong to the Deployment.
#include <string>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

core::Result<DecodedWorkload> DecodeReplicated(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  int32_t replicas = 1;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(spec, "replicas", &replicas), "spec");
  if (replicas < 0) {
    return core::InvalidArgument("must be greater than or equal to 0",
                                 core::Location{"", "", "spec.replicas"});
  }
  dom::object tmpl;
  bool has_template = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "template", &tmpl, &has_template), "spec");
  if (!has_template) {
    return core::InvalidArgument("required value", core::Location{"", "", "spec.template"});
  }
  model::PodSetTemplate pod_set;
  pod_set.name = "main";
  pod_set.count = replicas;
  PodSetSource source;
  source.template_field = "spec.template";
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodTemplate(tmpl, out.workload, catalog, &pod_set, &source),
                              "spec.template");
  out.workload.pod_sets.push_back(std::move(pod_set));
  out.sources.push_back(std::move(source));
  return out;
}

}  // namespace berth::io::internal
