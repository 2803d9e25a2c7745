// scheduling.k8s.io/v1: PriorityClass.
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

core::Result<model::PriorityClass> DecodePriorityClass(dom::object obj) {
  model::PriorityClass pc;
  BERTH_ASSIGN_OR_RETURN(pc.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                   /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "value", &pc.value));
  BERTH_RETURN_IF_ERROR(GetBool(obj, "globalDefault", &pc.global_default));
  BERTH_RETURN_IF_ERROR(GetString(obj, "preemptionPolicy", &pc.preemption_policy));
  if (pc.preemption_policy.empty()) pc.preemption_policy = "PreemptLowerPriority";
  if (pc.preemption_policy != "PreemptLowerPriority" && pc.preemption_policy != "Never") {
    return core::InvalidArgument("unsupported value " + core::Quote(pc.preemption_policy) +
                                     R"(: supported values: "Never", "PreemptLowerPriority")",
                                 core::Location{"", "", "preemptionPolicy"});
  }
  return pc;
}

}  // namespace berth::io::internal
