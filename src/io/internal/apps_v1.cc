// apps/v1: Deployment, StatefulSet and ReplicaSet, each `replicas` copies of one template
// (pod set "main"). A ReplicaSet owned by a Deployment read is folded into it, its pods the
// Deployment's (internal/ownership.h). A Deployment's spec.strategy is read for rollouts.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {
namespace {

// An IntOrString of a rolling update scaled to `total` pods as upstream's
// intstr.GetScaledValueFromIntOrPercent: an integer as is; "N%" (N a whole number) N percent
// of total, rounded up or down. Absent: `fallback`. Errors name the field under `field`.
core::Status ScaledIntOrPercent(dom::object obj, const std::string& field, std::string_view key,
                                int32_t total, bool round_up, std::string_view fallback,
                                int32_t* out) {
  dom::element e;
  std::string_view text = fallback;
  if (Find(obj, key, &e)) {
    int64_t number = 0;
    if (e.get_int64().get(number) == simdjson::SUCCESS) {
      if (number < 0 || number > INT32_MAX) {
        return FieldError(field + "." + std::string(key), "must be greater than or equal to 0");
      }
      *out = static_cast<int32_t>(number);
      return core::OkStatus();
    }
    if (e.get_string().get(text) != simdjson::SUCCESS) {
      return FieldError(field + "." + std::string(key), "must be an integer or a string");
    }
  }
  int64_t percent = -1;
  if (text.size() >= 2 && text.back() == '%') {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, percent);
    if (ec != std::errc() || end != text.data() + text.size() - 1) percent = -1;
  }
  if (percent < 0) {
    return FieldError(field + "." + std::string(key),
                      "Invalid value: " + core::Quote(text) + ": a valid percent string must be a numeric string followed by an "
                          "ending '%' (e.g. '1%',  or '93%', regex used for validation is "
                          "'[0-9]+%')");
  }
  const int64_t scaled = percent * total;
  *out = static_cast<int32_t>(round_up ? (scaled + 99) / 100 : scaled / 100);
  return core::OkStatus();
}

// spec.strategy of a Deployment (type default RollingUpdate, maxSurge default 25%).
core::Status DecodeStrategy(dom::object spec, int32_t replicas, PodSetSource* source) {
  dom::object strategy;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "strategy", &strategy, &found), "spec");
  std::string type = "RollingUpdate";
  dom::object rolling;
  bool has_rolling = false;
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(strategy, "type", &type), "spec.strategy");
    if (type.empty()) type = "RollingUpdate";
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(strategy, "rollingUpdate", &rolling, &has_rolling),
                                "spec.strategy");
  }
  if (type == "Recreate") {
    source->recreate = true;
    return core::OkStatus();
  }
  if (type != "RollingUpdate") {
    return Unsupported("spec.strategy.type", type, {"Recreate", "RollingUpdate"});
  }
  if (!has_rolling) {
    // No rollingUpdate: the API server's defaults (25%, 25%).
    source->max_surge = static_cast<int32_t>((25 * static_cast<int64_t>(replicas) + 99) / 100);
    return core::OkStatus();
  }
  BERTH_RETURN_IF_ERROR(ScaledIntOrPercent(rolling, "spec.strategy.rollingUpdate", "maxSurge",
                                           replicas, true, "25%", &source->max_surge));
  // maxUnavailable (rounded down) paces the old ReplicaSets' scale-down, which the controller
  // does only in a sync that could not scale the new one up: read for validation only.
  int32_t max_unavailable = 0;
  BERTH_RETURN_IF_ERROR(ScaledIntOrPercent(rolling, "spec.strategy.rollingUpdate", "maxUnavailable",
                                           replicas, false, "25%", &max_unavailable));
  dom::element surge_given;
  dom::element unavailable_given;
  if (Find(rolling, "maxSurge", &surge_given) &&
      Find(rolling, "maxUnavailable", &unavailable_given)) {
    // The API server's validation compares the values as written, not as scaled.
    int64_t a = -1;
    int64_t b = -1;
    std::string_view sa;
    std::string_view sb;
    const bool surge_zero = (surge_given.get_int64().get(a) == simdjson::SUCCESS && a == 0) ||
                            (surge_given.get_string().get(sa) == simdjson::SUCCESS && sa == "0%");
    const bool unavailable_zero =
        (unavailable_given.get_int64().get(b) == simdjson::SUCCESS && b == 0) ||
        (unavailable_given.get_string().get(sb) == simdjson::SUCCESS && sb == "0%");
    if (surge_zero && unavailable_zero) {
      return FieldError("spec.strategy.rollingUpdate.maxUnavailable",
                        "may not be 0 when `maxSurge` is 0");
    }
  }
  return core::OkStatus();
}

}  // namespace

core::Result<DecodedWorkload> DecodeReplicated(dom::object obj, model::ResourceCatalog& catalog) {
  DecodedWorkload out;
  BERTH_ASSIGN_OR_RETURN(out.workload, DecodeWorkloadHeader(obj));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  int32_t replicas = 1;
  BERTH_RETURN_IF_ERROR(GetReplicas(spec, "spec", &replicas));
  BERTH_ASSIGN_OR_RETURN(dom::object tmpl, GetRequiredObject(spec, "spec", "template"));
  model::PodSetTemplate pod_set;
  pod_set.name = "main";
  pod_set.count = replicas;
  PodSetSource source;
  if (out.workload.kind == "Deployment") {
    BERTH_RETURN_IF_ERROR(DecodeStrategy(spec, replicas, &source));
  }
  BERTH_RETURN_IF_ERROR(
      AppendPodSet(tmpl, "spec.template", std::move(pod_set), std::move(source), catalog, &out));
  return out;
}

}  // namespace berth::io::internal
