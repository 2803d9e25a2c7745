// batch/v1: Job. One pod set, "main" (Kueue's name for a Job's pods), of
// min(parallelism, completions) pods: the pods a Job runs at once.
#include <algorithm>
#include <string>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

core::Result<JobShape> DecodeJobShape(dom::object job_spec) {
  JobShape shape;
  int32_t parallelism = 1;
  int32_t completions = 0;
  bool has_completions = false;
  BERTH_RETURN_IF_ERROR(GetInt32(job_spec, "parallelism", &parallelism));
  if (parallelism < 0) {
    return core::InvalidArgument("must be greater than or equal to 0",
                                 core::Location{"", "", "parallelism"});
  }
  BERTH_RETURN_IF_ERROR(GetInt32(job_spec, "completions", &completions, &has_completions));
  if (has_completions && completions < 0) {
    return core::InvalidArgument("must be greater than or equal to 0",
                                 core::Location{"", "", "completions"});
  }
  shape.pods = has_completions ? std::min(parallelism, completions) : parallelism;
  shape.parallelism = parallelism;
  shape.completions = has_completions ? completions : -1;
  std::string mode;
  BERTH_RETURN_IF_ERROR(GetString(job_spec, "completionMode", &mode));
  if (!mode.empty() && mode != "Indexed" && mode != "NonIndexed") {
    return Unsupported("completionMode", mode, {"Indexed", "NonIndexed"});
  }
  shape.indexed = mode == "Indexed";
  BERTH_RETURN_IF_ERROR(GetBool(job_spec, "suspend", &shape.suspend));
  return shape;
}

core::Result<DecodedWorkload> DecodeJob(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  // The API server labels a Job's pod template job-name=<name> (and
  // batch.kubernetes.io/job-name) unless the selector is manual, and then refuses a name that
  // is no label value (upstream's error is on spec.template.labels); berth names the name.
  bool manual_selector = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetBool(spec, "manualSelector", &manual_selector), "spec");
  const std::string& name = out.workload.meta.name;
  if (!manual_selector && name.size() > core::kMaxLabelValueBytes) {
    return InvalidValue("metadata.name", name,
                        "must be no more than 63 characters (its pods' job-name label holds it)");
  }
  BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(spec, "spec", "template"));
  auto shape = DecodeJobShape(spec);
  BERTH_IO_RETURN_IF_ERROR_AT(shape, "spec");
  out.workload.suspended = shape->suspend;
  model::PodSetTemplate pod_set;
  pod_set.name = "main";
  pod_set.count = shape->pods;
  PodSetSource source;
  source.indexed = shape->indexed;
  source.parallelism = shape->parallelism;
  source.completions = shape->completions;
  // What the Job already finished: its missing pods are the ones still to run.
  dom::object status;
  bool has_status = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &has_status));
  if (has_status) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(status, "succeeded", &source.succeeded), "status");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "completedIndexes", &source.completed_indexes),
                                "status");
  }
  BERTH_RETURN_IF_ERROR(
      AppendPodSet(tmpl, "spec.template", std::move(pod_set), std::move(source), catalog, &out));
  return out;
}

}  // namespace berth::io::internal
