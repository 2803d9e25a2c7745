// PodGroup of the coscheduling plugin (scheduling.x-k8s.io/v1alpha1) and of Volcano
// (scheduling.volcano.sh/v1beta1): a gang of pods that binds only when spec.minMember of them
// can. Volcano's spec.queue is kept for explanations; neither kind's other fields
// (minResources, scheduleTimeoutSeconds) change a single-pass plan.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

core::Result<model::PodGroup> DecodePodGroup(dom::object obj, std::string_view api_version) {
  model::PodGroup pg;
  pg.api_version = std::string(api_version);
  BERTH_ASSIGN_OR_RETURN(pg.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                   /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return pg;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(spec, "minMember", &pg.min_member), "spec");
  if (pg.min_member < 0) {
    return core::InvalidArgument("must be greater than or equal to 0",
                                 core::Location{"", "", "spec.minMember"});
  }
  if (api_version.starts_with("scheduling.volcano.sh/")) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "queue", &pg.queue), "spec");
    dom::object tasks;
    bool has_tasks = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "minTaskMember", &tasks, &has_tasks), "spec");
    if (has_tasks) {
      for (auto [task, value] : tasks) {
        const std::string field = KeyField("spec.minTaskMember", task);
        int64_t count = 0;
        if (value.get_int64().get(count) != simdjson::SUCCESS) {
          return core::InvalidArgument("must be an integer", core::Location{"", "", field});
        }
        if (count < 0 || count > std::numeric_limits<int32_t>::max()) {
          return core::InvalidArgument("must be between 0 and 2147483647",
                                       core::Location{"", "", field});
        }
        pg.min_task_member.emplace_back(std::string(task), static_cast<int32_t>(count));
      }
    }
  }
  return pg;
}

}  // namespace berth::io::internal
