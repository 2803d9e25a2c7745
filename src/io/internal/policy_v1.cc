// policy/v1 PodDisruptionBudget (and the removed policy/v1beta1), for berth doctor's rule on
// budgets that block every drain of a GPU pool. Validated as kube-apiserver's
// ValidatePodDisruptionBudgetSpec validates it: minAvailable and maxUnavailable not both set,
// each a non-negative integer or a percent string of at most 100%.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {
namespace {

// obj[key] into *out when present; errors at `key` worded as upstream's
// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent word them.
core::Status DecodeBudgetValue(dom::object obj, std::string_view key,
                               std::optional<model::CountOrPercent>* out) {
  dom::element e;
  if (!Find(obj, key, &e)) return core::OkStatus();
  const std::string field(key);
  int64_t number = 0;
  if (e.get_int64().get(number) == simdjson::SUCCESS) {
    if (number < 0) {
      return FieldError(field, "Invalid value: " + std::to_string(number) +
                                   ": must be greater than or equal to 0");
    }
    if (number > INT32_MAX) return FieldError(field, "must fit in 32 bits");
    *out = model::CountOrPercent{static_cast<int32_t>(number), false};
    return core::OkStatus();
  }
  std::string_view text;
  if (e.get_string().get(text) != simdjson::SUCCESS) {
    return FieldError(field, "must be an integer or a string");
  }
  const std::string_view digits = text.empty() ? text : text.substr(0, text.size() - 1);
  bool percent_form = text.size() >= 2 && text.back() == '%';
  for (char c : digits) percent_form = percent_form && c >= '0' && c <= '9';
  if (!percent_form) {
    return InvalidValue(field, text,
                        "a valid percent string must be a numeric string followed by an ending "
                        "'%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')");
  }
  int64_t percent = 0;
  const std::errc ec = std::from_chars(digits.data(), digits.data() + digits.size(), percent).ec;
  if (ec != std::errc() || percent > 100) {  // out of range: far above 100 too
    return InvalidValue(field, text, "must not be greater than 100%");
  }
  *out = model::CountOrPercent{static_cast<int32_t>(percent), true};
  return core::OkStatus();
}

std::string BudgetText(const model::CountOrPercent& v) {
  return std::to_string(v.value) + (v.percent ? "%" : "");
}

}  // namespace

core::Result<model::PodDisruptionBudget> DecodePodDisruptionBudget(dom::object obj, bool v1beta1) {
  model::PodDisruptionBudget pdb;
  BERTH_ASSIGN_OR_RETURN(pdb.meta,
                         DecodeObjectMeta(obj, /*namespaced=*/true, /*name_required=*/true));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  dom::object selector;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "selector", &selector, &found), "spec");
  if (found) {
    auto decoded = DecodeLabelSelector(selector);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "spec.selector");
    // policy/v1beta1 read an empty selector as matching no pod; v1 as matching every pod.
    const bool empty = decoded->match_labels.empty() && decoded->match_expressions.empty();
    if (!(v1beta1 && empty)) pdb.selector = std::move(*decoded);
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeBudgetValue(spec, "minAvailable", &pdb.min_available), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeBudgetValue(spec, "maxUnavailable", &pdb.max_unavailable),
                              "spec");
  if (pdb.min_available.has_value() && pdb.max_unavailable.has_value()) {
    return InvalidValue("spec",
                        "minAvailable: " + BudgetText(*pdb.min_available) +
                            ", maxUnavailable: " + BudgetText(*pdb.max_unavailable),
                        "minAvailable and maxUnavailable cannot be both set");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(
      GetString(spec, "unhealthyPodEvictionPolicy", &pdb.unhealthy_pod_eviction_policy), "spec");
  // Unset behaves as IfHealthyBudget (the eviction API's default), so rules read one value.
  if (pdb.unhealthy_pod_eviction_policy.empty()) pdb.unhealthy_pod_eviction_policy = "IfHealthyBudget";
  if (pdb.unhealthy_pod_eviction_policy != "IfHealthyBudget" &&
      pdb.unhealthy_pod_eviction_policy != "AlwaysAllow") {
    return Unsupported("spec.unhealthyPodEvictionPolicy", pdb.unhealthy_pod_eviction_policy,
                       {"AlwaysAllow", "IfHealthyBudget"});
  }
  // status: what the disruption controller last computed, which DefaultPreemption reads.
  dom::object status;
  found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) {
    int32_t allowed = 0;
    bool has_allowed = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(status, "disruptionsAllowed", &allowed, &has_allowed),
                                "status");
    if (has_allowed) pdb.disruptions_allowed = allowed;
    dom::object disrupted;
    bool has_disrupted = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(status, "disruptedPods", &disrupted, &has_disrupted),
                                "status");
    if (has_disrupted) {
      for (auto field : disrupted) pdb.disrupted_pods.emplace_back(field.key);
    }
  }
  return pdb;
}

}  // namespace berth::io::internal
