// node.k8s.io/v1 RuntimeClass (and the removed v1beta1, same fields), for berth doctor's
// GPU stack rules (the nvidia RuntimeClass pods name) and for the RuntimeClass admission
// Reader::Finish applies to pods (internal/runtime_class_admission.h). Validated as
// kube-apiserver's ValidateRuntimeClass validates what is read: the handler a DNS-1123
// label, overhead.podFixed a resource list, the scheduling.nodeSelector a label map and its
// tolerations well formed.
#include <string>
#include <vector>

#include "core/labels.h"
#include "core/taint.h"
#include "io/internal/decoders.h"
#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

core::Result<model::RuntimeClass> DecodeRuntimeClass(dom::object obj,
                                                     model::ResourceCatalog& catalog) {
  model::RuntimeClass rc;
  BERTH_ASSIGN_OR_RETURN(rc.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/false, /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(GetString(obj, "handler", &rc.handler));
  if (rc.handler.empty()) return FieldError("handler", "Required value");
  if (std::string problem = core::Dns1123LabelProblem(rc.handler); !problem.empty()) {
    return InvalidValue("handler", rc.handler, problem);
  }
  dom::object overhead;
  bool has_overhead = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "overhead", &overhead, &has_overhead));
  if (has_overhead) {
    model::ResourceVector pod_fixed;
    bool given = false;
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeResourceListAt(overhead, "podFixed", catalog, &pod_fixed, &given), "overhead");
    // An overhead without podFixed adds nothing, as upstream's nil PodFixed.
    if (given) rc.overhead = std::move(pod_fixed);
  }
  dom::object scheduling;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "scheduling", &scheduling));
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringMap(scheduling, "nodeSelector", &rc.node_selector),
                              "scheduling");
  BERTH_RETURN_IF_ERROR(ValidateLabelMap(rc.node_selector, "scheduling.nodeSelector"));
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(scheduling, "tolerations", DecodeToleration, &rc.tolerations), "scheduling");
  return rc;
}

}  // namespace berth::io::internal
