// jobset.x-k8s.io/v1alpha2: JobSet. One pod set per replicatedJob, named after it, holding
// replicas x (pods of each child Job). JobSet's webhook defaults child Jobs to Indexed
// completion, so their pods carry completion indexes unless NonIndexed is asked for.
#include <limits>
#include <string>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Status DecodeReplicatedJob(dom::element e, const model::WorkloadObject& owner,
                                 model::ResourceCatalog& catalog, model::PodSetTemplate* pod_set,
                                 PodSetSource* source) {
  BERTH_ASSIGN_OR_RETURN(dom::object rj, AsObject(e));
  BERTH_RETURN_IF_ERROR(GetString(rj, "name", &pod_set->name));
  if (pod_set->name.empty()) {
    return core::InvalidArgument("required value", core::Location{"", "", "name"});
  }
  int32_t replicas = 1;
  BERTH_RETURN_IF_ERROR(GetReplicas(rj, "", &replicas));
  dom::object job_template;
  dom::object job_spec;
  dom::object pod_template;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(rj, "template", &job_template, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(job_template, "spec", &job_spec, &found), "template");
  }
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(job_spec, "template", &pod_template, &found),
                                "template.spec");
  }
  if (!found) {
    return core::InvalidArgument("required value",
                                 core::Location{"", "", "template.spec.template"});
  }
  auto shape = DecodeJobShape(job_spec);
  BERTH_IO_RETURN_IF_ERROR_AT(shape, "template.spec");
  std::string mode;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(job_spec, "completionMode", &mode), "template.spec");
  source->indexed = mode != "NonIndexed";
  source->groups = replicas;
  source->pods_per_group = shape->pods;
  int64_t count = static_cast<int64_t>(replicas) * shape->pods;
  if (count > std::numeric_limits<int32_t>::max()) {
    return core::InvalidArgument("replicas times parallelism is too large",
                                 core::Location{"", "", "replicas"});
  }
  pod_set->count = static_cast<int32_t>(count);
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePodTemplate(pod_template, owner, catalog, pod_set, source),
                              "template.spec.template");
  return core::OkStatus();
}

}  // namespace

core::Status DecodeReplicatedJobs(dom::object spec, const std::string& field,
                                  model::ResourceCatalog& catalog, DecodedWorkload* out) {
  dom::array jobs;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "replicatedJobs", &jobs, &found), field);
  if (!found || jobs.size() == 0) {
    return core::InvalidArgument("required value",
                                 core::Location{"", "", field + ".replicatedJobs"});
  }
  size_t i = 0;
  for (dom::element item : jobs) {
    model::PodSetTemplate pod_set;
    PodSetSource source;
    std::string job_field = field + ".replicatedJobs" + IndexField(i++);
    source.template_field = job_field + ".template.spec.template";
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeReplicatedJob(item, out->workload, catalog, &pod_set, &source), job_field);
    out->workload.pod_sets.push_back(std::move(pod_set));
    out->sources.push_back(std::move(source));
  }
  return core::OkStatus();
}

core::Result<DecodedWorkload> DecodeJobSet(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "suspend", &out.workload.suspended), "spec");
  BERTH_RETURN_IF_ERROR(DecodeReplicatedJobs(spec, "spec", catalog, &out));
  return out;
}

}  // namespace berth::io::internal
