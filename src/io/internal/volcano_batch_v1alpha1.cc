// batch.volcano.sh/v1alpha1: Volcano's Job. One pod set per task, named after the task
// (Volcano's webhook names an unnamed one "default<index>"); pods are
// `<job>-<task>-<index>`. The Job is one gang: Volcano makes a PodGroup `<job>-<uid>` whose
// minMember is spec.minAvailable, defaulted by the webhook to the sum over tasks of their
// minAvailable (else replicas). Pods take spec.schedulerName (default "volcano") and
// spec.priorityClassName when their template names none, and spec.queue (default "default")
// as the volcano.sh/queue-name label and annotation, which the PodGroup carries as spec.queue.
#include <limits>
#include <set>
#include <string>

#include "io/internal/crd_workload_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

core::Result<DecodedWorkload> DecodeVolcanoJob(
    dom::object obj, model::ResourceCatalog& catalog, int32_t* min_available_out,
    std::vector<std::pair<std::string, int32_t>>* min_task_member) {
  min_task_member->clear();
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  std::string scheduler = "volcano";
  std::string priority_class;
  int32_t min_available = 0;
  bool has_min = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "schedulerName", &scheduler), "spec");
  if (scheduler.empty()) scheduler = "volcano";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "priorityClassName", &priority_class), "spec");
  std::string queue;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "queue", &queue), "spec");
  if (queue.empty()) queue = "default";  // the mutating webhook's patchDefaultQueue
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(spec, "minAvailable", &min_available, &has_min), "spec");
  if (min_available < 0) {
    return FieldError("spec.minAvailable", "must be greater than or equal to 0");
  }
  dom::array tasks;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(spec, "tasks", &tasks, &found), "spec");
  if (!found || tasks.size() == 0) {
    return FieldError("spec.tasks", "required value: no task specified in job spec");
  }
  std::set<std::string> names;
  int64_t total = 0;
  int64_t task_min_sum = 0;
  size_t i = 0;
  for (dom::element e : tasks) {
    const std::string field = "spec.tasks" + IndexField(i);
    auto task = AsObject(e);
    BERTH_IO_RETURN_IF_ERROR_AT(task, field);
    model::PodSetTemplate pod_set;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*task, "name", &pod_set.name), field);
    if (pod_set.name.empty()) pod_set.name = "default" + std::to_string(i);
    ++i;
    if (!names.insert(pod_set.name).second) {
      return FieldError(field + ".name",
                        "duplicate value " + core::Quote(pod_set.name) + ": task names must be unique");
    }
    pod_set.count = 0;
    BERTH_RETURN_IF_ERROR(GetReplicas(*task, field, &pod_set.count));
    int32_t task_min = pod_set.count;
    bool has_task_min = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*task, "minAvailable", &task_min, &has_task_min), field);
    if (task_min < 0 || task_min > pod_set.count) {
      return FieldError(field + ".minAvailable", "must be between 0 and the task's replicas (" +
                                                     std::to_string(pod_set.count) + ")");
    }
    total += pod_set.count;
    task_min_sum += task_min;
    min_task_member->emplace_back(pod_set.name, task_min);
    BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(*task, field, "template"));
    // Whether the template names its scheduler: the pod spec's default would hide it.
    std::string own_scheduler;
    dom::object tmpl_spec;
    bool has_spec = false;
    if (GetObject(tmpl, "spec", &tmpl_spec, &has_spec).has_value() && has_spec) {
      (void)GetString(tmpl_spec, "schedulerName", &own_scheduler);
    }
    PodSetSource source;
    source.queue = queue;
    BERTH_RETURN_IF_ERROR(AppendPodSet(tmpl, field + ".template", std::move(pod_set),
                                       std::move(source), catalog, &out));
    model::Pod& pod = out.workload.pod_sets.back().pod_template;
    if (own_scheduler.empty()) pod.scheduler_name = scheduler;
    if (pod.priority_class_name.empty()) pod.priority_class_name = priority_class;
  }
  if (total > std::numeric_limits<int32_t>::max()) {
    return FieldError("spec.tasks", "the tasks' replicas add up to too many pods");
  }
  if (!has_min || min_available == 0) min_available = static_cast<int32_t>(task_min_sum);
  if (min_available > total) {
    return FieldError(
        "spec.minAvailable",
        "must not be greater than the total replicas in tasks (" + std::to_string(total) + ")");
  }
  *min_available_out = min_available;
  return out;
}

}  // namespace berth::io::internal
