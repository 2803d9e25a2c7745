// resource.k8s.io: DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice, and
// DeviceTaintRule (v1alpha3 only).
// v1 and v1beta2 share one shape; v1beta1 (and v1alpha3) put the ExactDeviceRequest fields
// inline in each request instead of under `exactly`, and a device's fields under
// `devices[].basic`. Validation follows the API server's (pkg/apis/resource/validation) where
// a violation would change what the allocator sees: exactly one of `exactly` and
// `firstAvailable`, known allocation modes, exactly one value per attribute, exactly one
// node-selection field per slice, unique request and device names, constraint and config
// entries naming existing requests. Semantic checks that need other objects (does the
// DeviceClass exist, does the selector compile, is the pool consistent) belong to the
// devices module.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

// Upstream limits (pkg/apis/resource/types.go) that bound what a valid object holds.
constexpr size_t kAttributeValueMaxLength = 64;  // DeviceAttributeMaxValueLength

std::string Quote(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += '"';
  return out;
}
// A map of counter name -> {value: quantity} (sharedCounters[].counters, consumesCounters).
core::Status DecodeCounterMap(dom::object obj, std::string_view key,
                              std::map<std::string, core::Quantity>* out) {
  dom::object map;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, key, &map, &found));
  if (!found) return core::OkStatus();
  for (auto [name, value] : map) {
    const std::string field = KeyField(key, name);
    auto counter = AsObject(value);
    BERTH_IO_RETURN_IF_ERROR_AT(counter, field);
    dom::element v;
    if (!Find(*counter, "value", &v)) return FieldError(field + ".value", "required value");
    auto q = ParseQuantityElement(v);
    BERTH_IO_RETURN_IF_ERROR_AT(q, field + ".value");
    out->insert_or_assign(std::string(name), *q);
  }
  return core::OkStatus();
}

core::Result<model::DeviceSelector> DecodeSelector(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  dom::object cel;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "cel", &cel, &found));
  if (!found) return FieldError("cel", "required value");
  model::DeviceSelector selector;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(cel, "expression", &selector.cel_expression), "cel");
  if (selector.cel_expression.empty()) return FieldError("cel.expression", "required value");
  return selector;
}

// `opaque: {driver, parameters}`; parameters are kept as the JSON text read.
core::Status DecodeOpaque(dom::object obj, model::OpaqueDeviceConfig* out) {
  dom::object opaque;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "opaque", &opaque, &found));
  if (!found) return FieldError("opaque", "required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(opaque, "driver", &out->driver), "opaque");
  if (out->driver.empty()) return FieldError("opaque.driver", "required value");
  dom::element parameters;
  if (!Find(opaque, "parameters", &parameters)) {
    return FieldError("opaque.parameters", "required value");
  }
  out->parameters_json = simdjson::minify(parameters);
  return core::OkStatus();
}

core::Result<model::OpaqueDeviceConfig> DecodeClassConfig(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::OpaqueDeviceConfig config;
  BERTH_RETURN_IF_ERROR(DecodeOpaque(obj, &config));
  return config;
}

core::Result<model::DeviceClaimConfig> DecodeClaimConfig(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceClaimConfig config;
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "requests", &config.requests));
  BERTH_RETURN_IF_ERROR(DecodeOpaque(obj, &config.opaque));
  return config;
}

// A device toleration: a pod toleration whose effect may only be NoSchedule or NoExecute
// (device taints have no PreferNoSchedule).
core::Result<core::Toleration> DecodeDeviceToleration(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(core::Toleration t, DecodeToleration(e));
  if (t.effect == core::TaintEffect::kPreferNoSchedule) {
    return Unsupported("effect", "PreferNoSchedule", {"NoExecute", "NoSchedule"});
  }
  return t;
}

core::Result<model::DeviceAllocationMode> ParseAllocationMode(const std::string& mode) {
  if (mode.empty() || mode == "ExactCount") return model::DeviceAllocationMode::kExactCount;
  if (mode == "All") return model::DeviceAllocationMode::kAll;
  return Unsupported("allocationMode", mode, {"All", "ExactCount"});
}

// The ExactDeviceRequest fields, wherever they sit: under `exactly` (v1), inline in the
// request (v1beta1), or in a firstAvailable subrequest (both; `admin_access_allowed` false).
core::Status DecodeExactFields(dom::object obj, bool admin_access_allowed,
                               model::ExactDeviceRequest* out) {
  BERTH_RETURN_IF_ERROR(GetString(obj, "deviceClassName", &out->device_class_name));
  if (out->device_class_name.empty()) return FieldError("deviceClassName", "required value");
  BERTH_RETURN_IF_ERROR(DecodeList(obj, "selectors", DecodeSelector, &out->selectors));
  std::string mode;
  BERTH_RETURN_IF_ERROR(GetString(obj, "allocationMode", &mode));
  BERTH_ASSIGN_OR_RETURN(out->allocation_mode, ParseAllocationMode(mode));
  int64_t count = 0;
  bool has_count = false;
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "count", &count, &has_count));
  if (out->allocation_mode == model::DeviceAllocationMode::kAll) {
    if (has_count && count != 0) {
      return FieldError("count", "invalid value " + std::to_string(count) +
                                     ": must not be specified when allocationMode is 'All'");
    }
    out->count = 0;
  } else {
    // The API server defaults an unset count to 1.
    out->count = has_count ? count : 1;
    if (out->count <= 0) {
      return FieldError("count",
                        "invalid value " + std::to_string(count) + ": must be greater than zero");
    }
  }
  if (admin_access_allowed) {
    BERTH_RETURN_IF_ERROR(GetBool(obj, "adminAccess", &out->admin_access));
  }
  BERTH_RETURN_IF_ERROR(DecodeList(obj, "tolerations", DecodeDeviceToleration, &out->tolerations));
  dom::object capacity;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "capacity", &capacity, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuantityMap(capacity, "requests", &out->capacity_requests),
                                "capacity");
  }
  return core::OkStatus();
}

core::Result<model::DeviceSubRequest> DecodeSubRequest(dom::element e) {
  model::DeviceSubRequest sub;
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &sub.name));
  BERTH_RETURN_IF_ERROR(DecodeExactFields(obj, /*admin_access_allowed=*/false, &sub.spec));
  return sub;
}

// The first name `items` repeat, as "duplicate value" at list_field[i].name.
template <typename T>
core::Status CheckUniqueNames(const std::vector<T>& items, const std::string& list_field) {
  std::set<std::string> names;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!names.insert(items[i].name).second) {
      return FieldError(list_field + IndexField(i) + ".name",
                        "duplicate value " + Quote(items[i].name));
    }
  }
  return core::OkStatus();
}

// A DeviceRequest. v1 (and v1beta2) nest the ExactDeviceRequest under `exactly`, against
// firstAvailable; v1beta1 has its fields inline, or firstAvailable and none of them.
core::Result<model::DeviceRequest> DecodeRequest(dom::element e, ResourceApiShape shape) {
  model::DeviceRequest request;
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &request.name));
  const bool v1 = shape == ResourceApiShape::kV1;
  dom::object exactly = obj;
  bool has_exactly = false;
  if (v1) BERTH_RETURN_IF_ERROR(GetObject(obj, "exactly", &exactly, &has_exactly));
  BERTH_RETURN_IF_ERROR(
      DecodeList(obj, "firstAvailable", DecodeSubRequest, &request.first_available));
  if (v1 && has_exactly && !request.first_available.empty()) {
    return FieldError("",
                      "exactly one of `exactly` or `firstAvailable` is required, but "
                      "multiple fields are set");
  }
  if (v1 && !has_exactly && request.first_available.empty()) {
    return FieldError("",
                      "required value: exactly one of `exactly` or `firstAvailable` is "
                      "required");
  }
  if (!v1 && !request.first_available.empty()) {
    for (const char* key : {"deviceClassName", "selectors", "allocationMode", "count",
                            "adminAccess", "tolerations", "capacity"}) {
      dom::element unused;
      if (Find(obj, key, &unused)) {
        return FieldError(key, "must not be specified when firstAvailable is set");
      }
    }
  }
  if (!v1 && request.first_available.empty()) has_exactly = true;
  if (has_exactly) {
    model::ExactDeviceRequest exact;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeExactFields(exactly, /*admin_access_allowed=*/true, &exact),
                                v1 ? "exactly" : "");
    request.exactly = std::move(exact);
  }
  BERTH_RETURN_IF_ERROR(CheckUniqueNames(request.first_available, "firstAvailable"));
  return request;
}

core::Result<model::DeviceConstraint> DecodeConstraint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceConstraint c;
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "requests", &c.requests));
  BERTH_RETURN_IF_ERROR(GetString(obj, "matchAttribute", &c.match_attribute));
  BERTH_RETURN_IF_ERROR(GetString(obj, "distinctAttribute", &c.distinct_attribute));
  if (c.match_attribute.empty() == c.distinct_attribute.empty()) {
    return FieldError("", c.match_attribute.empty()
                              ? "required value: exactly one of `matchAttribute` or "
                                "`distinctAttribute` is required"
                              : "exactly one of `matchAttribute` or `distinctAttribute` is "
                                "required, but multiple fields are set");
  }
  return c;
}

// Constraint and config entries name a request, or "request/subrequest".
core::Status CheckRequestReferences(const model::ResourceClaimSpec& spec) {
  std::set<std::string> names;
  for (const model::DeviceRequest& r : spec.requests) {
    names.insert(r.name);
    for (const model::DeviceSubRequest& sub : r.first_available) {
      names.insert(r.name + "/" + sub.name);
    }
  }
  auto check = [&](const std::vector<std::string>& refs, const std::string& field) -> core::Status {
    for (size_t i = 0; i < refs.size(); ++i) {
      if (names.count(refs[i]) == 0) {
        return FieldError(field + ".requests" + IndexField(i),
                          "invalid value " + Quote(refs[i]) +
                              ": must be the name of a request in the claim or the name of a "
                              "request and a subrequest separated by '/'");
      }
    }
    return core::OkStatus();
  };
  for (size_t i = 0; i < spec.constraints.size(); ++i) {
    BERTH_RETURN_IF_ERROR(check(spec.constraints[i].requests, "constraints" + IndexField(i)));
  }
  for (size_t i = 0; i < spec.config.size(); ++i) {
    BERTH_RETURN_IF_ERROR(check(spec.config[i].requests, "config" + IndexField(i)));
  }
  return core::OkStatus();
}

// A ResourceClaimSpec (`spec` of a claim, `spec.spec` of a template); errors name fields
// from "devices".
core::Status DecodeClaimSpec(dom::object spec, ResourceApiShape shape,
                             model::ResourceClaimSpec* out) {
  dom::object devices;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "devices", &devices, &found));
  if (!found) return core::OkStatus();
  auto decode_request = [shape](dom::element e) { return DecodeRequest(e, shape); };
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(devices, "requests", decode_request, &out->requests),
                              "devices");
  BERTH_RETURN_IF_ERROR(CheckUniqueNames(out->requests, "devices.requests"));
  BERTH_IO_RETURN_IF_ERROR_AT(
      DecodeList(devices, "constraints", DecodeConstraint, &out->constraints), "devices");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(devices, "config", DecodeClaimConfig, &out->config),
                              "devices");
  BERTH_IO_RETURN_IF_ERROR_AT(CheckRequestReferences(*out), "devices");
  return core::OkStatus();
}

core::Result<model::DeviceRequestAllocationResult> DecodeAllocationResult(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceRequestAllocationResult r;
  BERTH_RETURN_IF_ERROR(GetString(obj, "request", &r.request));
  BERTH_RETURN_IF_ERROR(GetString(obj, "driver", &r.driver));
  BERTH_RETURN_IF_ERROR(GetString(obj, "pool", &r.pool));
  BERTH_RETURN_IF_ERROR(GetString(obj, "device", &r.device));
  for (auto [key, value] : {std::pair<const char*, std::string*>{"request", &r.request},
                            {"driver", &r.driver},
                            {"pool", &r.pool},
                            {"device", &r.device}}) {
    if (value->empty()) return FieldError(key, "required value");
  }
  BERTH_RETURN_IF_ERROR(GetBool(obj, "adminAccess", &r.admin_access));
  BERTH_RETURN_IF_ERROR(DecodeList(obj, "tolerations", DecodeDeviceToleration, &r.tolerations));
  BERTH_RETURN_IF_ERROR(GetString(obj, "shareID", &r.share_id));
  BERTH_RETURN_IF_ERROR(DecodeQuantityMap(obj, "consumedCapacity", &r.consumed_capacity));
  return r;
}

core::Result<model::DeviceAllocationConfiguration> DecodeAllocationConfig(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceAllocationConfiguration c;
  std::string source;
  BERTH_RETURN_IF_ERROR(GetString(obj, "source", &source));
  if (source == "FromClass") {
    c.source = model::AllocationConfigSource::kFromClass;
  } else if (source == "FromClaim") {
    c.source = model::AllocationConfigSource::kFromClaim;
  } else {
    if (source.empty()) return FieldError("source", "required value");
    return Unsupported("source", source, {"FromClaim", "FromClass"});
  }
  BERTH_RETURN_IF_ERROR(GetStringList(obj, "requests", &c.requests));
  BERTH_RETURN_IF_ERROR(DecodeOpaque(obj, &c.opaque));
  return c;
}

core::Status DecodeClaimStatus(dom::object status, model::ResourceClaim* claim) {
  dom::object allocation;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(status, "allocation", &allocation, &found));
  if (found) {
    model::AllocationResult result;
    dom::object devices;
    bool has_devices = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(allocation, "devices", &devices, &has_devices),
                                "allocation");
    if (has_devices) {
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeList(devices, "results", DecodeAllocationResult, &result.results),
          "allocation.devices");
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeList(devices, "config", DecodeAllocationConfig, &result.config),
          "allocation.devices");
    }
    dom::object selector;
    bool has_selector = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(allocation, "nodeSelector", &selector, &has_selector),
                                "allocation");
    if (has_selector) {
      auto decoded = DecodeNodeSelector(selector);
      BERTH_IO_RETURN_IF_ERROR_AT(decoded, "allocation.nodeSelector");
      result.node_selector = std::move(*decoded);
    }
    claim->allocation = std::move(result);
  }
  dom::array reserved;
  BERTH_RETURN_IF_ERROR(GetArray(status, "reservedFor", &reserved, &found));
  if (found) {
    size_t i = 0;
    for (dom::element item : reserved) {
      const std::string field = "reservedFor" + IndexField(i++);
      auto ref = AsObject(item);
      BERTH_IO_RETURN_IF_ERROR_AT(ref, field);
      std::string api_group;
      std::string resource;
      std::string name;
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "apiGroup", &api_group), field);
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "resource", &resource), field);
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(*ref, "name", &name), field);
      if (name.empty()) return FieldError(field + ".name", "required value");
      // Only pods consume claims in a plan; other consumers stay in the document as read.
      if (api_group.empty() && resource == "pods") claim->reserved_for.push_back(name);
    }
  }
  return core::OkStatus();
}

// True for a semantic version (semver.org 2.0.0): MAJOR.MINOR.PATCH without leading zeros,
// then optional -prerelease and +build of dot-separated [0-9A-Za-z-] identifiers.
bool IsSemver(std::string_view s) {
  auto is_ident_char = [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
  };
  auto numeric = [](std::string_view p) {
    if (p.empty()) return false;
    for (char c : p) {
      if (c < '0' || c > '9') return false;
    }
    return p.size() == 1 || p[0] != '0';
  };
  auto identifiers = [&](std::string_view part, bool prerelease) {
    if (part.empty()) return false;
    size_t start = 0;
    while (start <= part.size()) {
      size_t dot = part.find('.', start);
      std::string_view id =
          part.substr(start, dot == std::string_view::npos ? part.size() - start : dot - start);
      if (id.empty()) return false;
      bool all_digits = true;
      for (char c : id) {
        if (!is_ident_char(c)) return false;
        all_digits = all_digits && c >= '0' && c <= '9';
      }
      if (prerelease && all_digits && !numeric(id)) return false;
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    return true;
  };
  size_t plus = s.find('+');
  std::string_view core_pre = s.substr(0, plus);
  if (plus != std::string_view::npos && !identifiers(s.substr(plus + 1), false)) return false;
  size_t dash = core_pre.find('-');
  std::string_view version = core_pre.substr(0, dash);
  if (dash != std::string_view::npos && !identifiers(core_pre.substr(dash + 1), true)) {
    return false;
  }
  size_t first = version.find('.');
  if (first == std::string_view::npos) return false;
  size_t second = version.find('.', first + 1);
  if (second == std::string_view::npos) return false;
  return numeric(version.substr(0, first)) &&
         numeric(version.substr(first + 1, second - first - 1)) &&
         numeric(version.substr(second + 1));
}

core::Result<model::DeviceAttribute> DecodeAttribute(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  for (const char* key : {"ints", "bools", "strings", "versions"}) {
    dom::element unused;
    if (Find(obj, key, &unused)) {
      return core::Unimplemented(
          std::string("list-typed attribute values (") + key + ") are not supported",
          core::Location{"", "", key});
    }
  }
  model::DeviceAttribute a;
  std::vector<std::string> set;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "int", &a.int_value, &found));
  if (found) {
    set.emplace_back("int");
    a.type = model::DeviceAttribute::Type::kInt;
  }
  BERTH_RETURN_IF_ERROR(GetBool(obj, "bool", &a.bool_value, &found));
  if (found) {
    set.emplace_back("bool");
    a.type = model::DeviceAttribute::Type::kBool;
  }
  std::string text;
  BERTH_RETURN_IF_ERROR(GetString(obj, "string", &text, &found));
  if (found) {
    set.emplace_back("string");
    a.type = model::DeviceAttribute::Type::kString;
    a.string_value = text;
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "version", &text, &found));
  if (found) {
    set.emplace_back("version");
    a.type = model::DeviceAttribute::Type::kVersion;
    a.string_value = text;
  }
  if (set.size() != 1) {
    std::string message = "exactly one of int, bool, string or version must be set";
    if (!set.empty()) {
      message += "; found ";
      for (size_t i = 0; i < set.size(); ++i) {
        if (i > 0) message += i + 1 == set.size() ? " and " : ", ";
        message += set[i];
      }
    }
    return FieldError("", message);
  }
  if (a.type == model::DeviceAttribute::Type::kString ||
      a.type == model::DeviceAttribute::Type::kVersion) {
    const char* key = a.type == model::DeviceAttribute::Type::kString ? "string" : "version";
    if (a.string_value.size() > kAttributeValueMaxLength) {
      return FieldError(key, "may not be longer than " + std::to_string(kAttributeValueMaxLength) +
                                 " characters");
    }
    if (a.type == model::DeviceAttribute::Type::kVersion && !IsSemver(a.string_value)) {
      return FieldError(key, "invalid value " + Quote(a.string_value) +
                                 ": must be a string compatible with semver.org spec 2.0.0");
    }
  }
  return a;
}

core::Result<model::DeviceCapacity> DecodeCapacity(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceCapacity c;
  dom::element value;
  if (!Find(obj, "value", &value)) return FieldError("value", "required value");
  auto q = ParseQuantityElement(value);
  BERTH_IO_RETURN_IF_ERROR_AT(q, "value");
  c.value = *q;
  dom::object policy_obj;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "requestPolicy", &policy_obj, &found));
  if (!found) return c;
  const std::string prefix = "requestPolicy";
  model::CapacityRequestPolicy policy;
  dom::element item;
  if (Find(policy_obj, "default", &item)) {
    auto d = ParseQuantityElement(item);
    BERTH_IO_RETURN_IF_ERROR_AT(d, prefix + ".default");
    policy.default_value = *d;
  }
  dom::array values;
  BERTH_IO_RETURN_IF_ERROR_AT(GetArray(policy_obj, "validValues", &values, &found), prefix);
  if (found) {
    size_t i = 0;
    for (dom::element v : values) {
      auto parsed = ParseQuantityElement(v);
      BERTH_IO_RETURN_IF_ERROR_AT(parsed, prefix + ".validValues" + IndexField(i));
      if (!policy.valid_values.empty() && !(policy.valid_values.back() < *parsed)) {
        return FieldError(prefix + ".validValues" + IndexField(i),
                          "must be sorted in ascending order without duplicates");
      }
      policy.valid_values.push_back(*parsed);
      ++i;
    }
  }
  dom::object range_obj;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(policy_obj, "validRange", &range_obj, &found), prefix);
  if (found) {
    const std::string range_field = prefix + ".validRange";
    model::CapacityRequestPolicyRange range;
    if (!Find(range_obj, "min", &item)) return FieldError(range_field + ".min", "required value");
    auto min = ParseQuantityElement(item);
    BERTH_IO_RETURN_IF_ERROR_AT(min, range_field + ".min");
    range.min = *min;
    if (Find(range_obj, "max", &item)) {
      auto max = ParseQuantityElement(item);
      BERTH_IO_RETURN_IF_ERROR_AT(max, range_field + ".max");
      range.max = *max;
    }
    if (Find(range_obj, "step", &item)) {
      auto step = ParseQuantityElement(item);
      BERTH_IO_RETURN_IF_ERROR_AT(step, range_field + ".step");
      range.step = *step;
    }
    policy.valid_range = std::move(range);
  }
  if (!policy.valid_values.empty() && policy.valid_range.has_value()) {
    return FieldError(prefix, "exactly one of `validValues` or `validRange` may be set");
  }
  c.request_policy = std::move(policy);
  return c;
}

core::Result<model::DeviceCounterConsumption> DecodeCounterConsumption(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceCounterConsumption c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "counterSet", &c.counter_set));
  if (c.counter_set.empty()) return FieldError("counterSet", "required value");
  BERTH_RETURN_IF_ERROR(DecodeCounterMap(obj, "counters", &c.counters));
  if (c.counters.empty()) return FieldError("counters", "required value");
  return c;
}

core::Result<model::DeviceTaint> DecodeDeviceTaint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DeviceTaint t;
  BERTH_RETURN_IF_ERROR(GetString(obj, "key", &t.key));
  if (t.key.empty()) return FieldError("key", "required value");
  BERTH_RETURN_IF_ERROR(GetString(obj, "value", &t.value));
  std::string effect;
  BERTH_RETURN_IF_ERROR(GetString(obj, "effect", &effect));
  if (effect == "NoSchedule") {
    t.effect = model::DeviceTaintEffect::kNoSchedule;
  } else if (effect == "NoExecute") {
    t.effect = model::DeviceTaintEffect::kNoExecute;
  } else if (effect == "None") {
    t.effect = model::DeviceTaintEffect::kNone;
  } else {
    if (effect.empty()) return FieldError("effect", "required value");
    return Unsupported("effect", effect, {"NoExecute", "NoSchedule", "None"});
  }
  return t;
}

// The fields of one device: inline (v1) or under `basic` (v1beta1); `fields` is the object
// holding them, `prefix` its path relative to the device ("" or "basic").
core::Status DecodeDeviceFields(dom::object fields, model::Device* d) {
  dom::object map;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(fields, "attributes", &map, &found));
  if (found) {
    for (auto [name, value] : map) {
      auto attribute = DecodeAttribute(value);
      BERTH_IO_RETURN_IF_ERROR_AT(attribute, KeyField("attributes", name));
      d->attributes.insert_or_assign(std::string(name), std::move(*attribute));
    }
  }
  BERTH_RETURN_IF_ERROR(GetObject(fields, "capacity", &map, &found));
  if (found) {
    for (auto [name, value] : map) {
      auto capacity = DecodeCapacity(value);
      BERTH_IO_RETURN_IF_ERROR_AT(capacity, KeyField("capacity", name));
      d->capacity.insert_or_assign(std::string(name), std::move(*capacity));
    }
  }
  BERTH_RETURN_IF_ERROR(
      DecodeList(fields, "consumesCounters", DecodeCounterConsumption, &d->consumes_counters));
  BERTH_RETURN_IF_ERROR(DecodeList(fields, "taints", DecodeDeviceTaint, &d->taints));
  BERTH_RETURN_IF_ERROR(
      GetBool(fields, "allowMultipleAllocations", &d->allow_multiple_allocations));
  BERTH_RETURN_IF_ERROR(GetString(fields, "nodeName", &d->node_name));
  dom::object selector;
  BERTH_RETURN_IF_ERROR(GetObject(fields, "nodeSelector", &selector, &found));
  if (found) {
    auto decoded = DecodeNodeSelector(selector);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "nodeSelector");
    d->node_selector = std::move(*decoded);
  }
  BERTH_RETURN_IF_ERROR(GetBool(fields, "allNodes", &d->all_nodes));
  BERTH_RETURN_IF_ERROR(GetStringList(fields, "bindingConditions", &d->binding_conditions));
  BERTH_RETURN_IF_ERROR(
      GetStringList(fields, "bindingFailureConditions", &d->binding_failure_conditions));
  return core::OkStatus();
}

core::Result<model::Device> DecodeDevice(dom::element e, ResourceApiShape shape) {
  model::Device d;
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &d.name));
  if (shape == ResourceApiShape::kV1) {
    BERTH_RETURN_IF_ERROR(DecodeDeviceFields(obj, &d));
  } else {
    dom::object basic;
    bool found = false;
    BERTH_RETURN_IF_ERROR(GetObject(obj, "basic", &basic, &found));
    if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeDeviceFields(basic, &d), "basic");
  }
  return d;
}

core::Result<model::CounterSet> DecodeCounterSet(dom::element e) {
  model::CounterSet set;
  BERTH_ASSIGN_OR_RETURN(dom::object obj, GetNamedObject(e, &set.name));
  BERTH_RETURN_IF_ERROR(DecodeCounterMap(obj, "counters", &set.counters));
  if (set.counters.empty()) return FieldError("counters", "required value");
  return set;
}

// How many of a slice's or a device's node-selection fields are set, by name.
std::vector<std::string> NodeSelectionFields(const std::string& node_name,
                                             const std::optional<core::NodeSelector>& selector,
                                             bool all_nodes, bool per_device) {
  std::vector<std::string> set;
  if (!node_name.empty()) set.emplace_back("nodeName");
  if (selector.has_value()) set.emplace_back("nodeSelector");
  if (all_nodes) set.emplace_back("allNodes");
  if (per_device) set.emplace_back("perDeviceNodeSelection");
  return set;
}

core::Status DecodeSliceSpec(dom::object spec, ResourceApiShape shape, model::ResourceSlice* s) {
  BERTH_RETURN_IF_ERROR(GetString(spec, "driver", &s->driver));
  if (s->driver.empty()) return FieldError("driver", "required value");
  dom::object pool;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "pool", &pool, &found));
  if (!found) return FieldError("pool", "required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(pool, "name", &s->pool_name), "pool");
  if (s->pool_name.empty()) return FieldError("pool.name", "required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(pool, "generation", &s->pool_generation), "pool");
  if (s->pool_generation < 0) {
    return FieldError("pool.generation", "must be greater than or equal to 0");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(pool, "resourceSliceCount", &s->resource_slice_count),
                              "pool");
  if (s->resource_slice_count <= 0) {
    return FieldError("pool.resourceSliceCount", "must be greater than zero");
  }
  BERTH_RETURN_IF_ERROR(GetString(spec, "nodeName", &s->node_name));
  dom::object selector;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "nodeSelector", &selector, &found));
  if (found) {
    auto decoded = DecodeNodeSelector(selector);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "nodeSelector");
    if (decoded->terms.size() != 1) {
      return FieldError("nodeSelector.nodeSelectorTerms",
                        "must have exactly one node selector term");
    }
    s->node_selector = std::move(*decoded);
  }
  BERTH_RETURN_IF_ERROR(GetBool(spec, "allNodes", &s->all_nodes));
  BERTH_RETURN_IF_ERROR(GetBool(spec, "perDeviceNodeSelection", &s->per_device_node_selection));
  std::vector<std::string> selection = NodeSelectionFields(
      s->node_name, s->node_selector, s->all_nodes, s->per_device_node_selection);
  if (selection.size() != 1) {
    return FieldError("", selection.empty()
                              ? "required value: exactly one of `nodeName`, `nodeSelector`, "
                                "`allNodes`, `perDeviceNodeSelection` is required"
                              : "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                                "`perDeviceNodeSelection` is required, but multiple fields "
                                "are set");
  }
  auto decode_device = [shape](dom::element e) { return DecodeDevice(e, shape); };
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "devices", decode_device, &s->devices));
  std::set<std::string> names;
  for (size_t i = 0; i < s->devices.size(); ++i) {
    const model::Device& d = s->devices[i];
    const std::string field = "devices" + IndexField(i);
    if (!names.insert(d.name).second) {
      return FieldError(field + ".name", "duplicate value " + Quote(d.name));
    }
    std::vector<std::string> own =
        NodeSelectionFields(d.node_name, d.node_selector, d.all_nodes, false);
    const std::string where = shape == ResourceApiShape::kV1 ? field : field + ".basic";
    if (s->per_device_node_selection && own.size() != 1) {
      return FieldError(where, own.empty()
                                   ? "required value: exactly one of `nodeName`, "
                                     "`nodeSelector`, `allNodes` is required when "
                                     "`perDeviceNodeSelection` is set"
                                   : "exactly one of `nodeName`, `nodeSelector`, `allNodes` "
                                     "is required, but multiple fields are set");
    }
    if (!s->per_device_node_selection && !own.empty()) {
      return FieldError(where + "." + own.front(),
                        "may only be set when the slice sets `perDeviceNodeSelection`");
    }
  }
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "sharedCounters", DecodeCounterSet, &s->shared_counters));
  names.clear();
  for (size_t i = 0; i < s->shared_counters.size(); ++i) {
    if (!names.insert(s->shared_counters[i].name).second) {
      return FieldError("sharedCounters" + IndexField(i) + ".name",
                        "duplicate value " + Quote(s->shared_counters[i].name));
    }
  }
  return core::OkStatus();
}

}  // namespace

std::optional<ResourceApiShape> ResourceApiShapeOf(std::string_view api_version) {
  if (api_version == "resource.k8s.io/v1" || api_version == "resource.k8s.io/v1beta2") {
    return ResourceApiShape::kV1;
  }
  if (api_version == "resource.k8s.io/v1beta1" || api_version == "resource.k8s.io/v1alpha3") {
    return ResourceApiShape::kV1beta1;
  }
  return std::nullopt;
}

core::Result<model::DeviceClass> DecodeDeviceClass(dom::object obj) {
  model::DeviceClass c;
  BERTH_ASSIGN_OR_RETURN(c.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                  /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return c;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "selectors", DecodeSelector, &c.selectors), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "config", DecodeClassConfig, &c.config), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "extendedResourceName", &c.extended_resource_name),
                              "spec");
  return c;
}

core::Result<model::ResourceClaim> DecodeResourceClaim(dom::object obj, ResourceApiShape shape) {
  model::ResourceClaim claim;
  BERTH_ASSIGN_OR_RETURN(claim.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                      /*name_required=*/true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeClaimSpec(spec, shape, &claim.spec), "spec");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeClaimStatus(status, &claim), "status");
  return claim;
}

core::Result<model::ResourceClaimTemplate> DecodeResourceClaimTemplate(dom::object obj,
                                                                       ResourceApiShape shape) {
  model::ResourceClaimTemplate tmpl;
  BERTH_ASSIGN_OR_RETURN(tmpl.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                     /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  dom::object claim_spec;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "spec", &claim_spec, &found), "spec");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeClaimSpec(claim_spec, shape, &tmpl.spec), "spec.spec");
  }
  return tmpl;
}

core::Result<model::ResourceSlice> DecodeResourceSlice(dom::object obj, ResourceApiShape shape) {
  model::ResourceSlice slice;
  BERTH_ASSIGN_OR_RETURN(slice.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                      /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeSliceSpec(spec, shape, &slice), "spec");
  return slice;
}

// spec.deviceSelector's string fields are pointers upstream: set (even to "") or not.
core::Result<model::DeviceTaintRule> DecodeDeviceTaintRule(dom::object obj) {
  model::DeviceTaintRule rule;
  BERTH_ASSIGN_OR_RETURN(rule.meta, DecodeObjectMeta(obj, /*namespaced=*/false,
                                                     /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  dom::object selector;
  bool found = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "deviceSelector", &selector, &found), "spec");
  if (found) {
    model::DeviceTaintSelector& sel = rule.selector.emplace();
    const std::pair<std::string_view, std::optional<std::string>*> fields[] = {
        {"deviceClassName", &sel.device_class_name},
        {"driver", &sel.driver},
        {"pool", &sel.pool},
        {"device", &sel.device}};
    for (const auto& [key, out] : fields) {
      if (selector[key].error() != simdjson::SUCCESS) continue;
      std::string value;
      BERTH_IO_RETURN_IF_ERROR_AT(GetString(selector, key, &value), "spec.deviceSelector");
      *out = std::move(value);
    }
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(selector, "selectors", DecodeSelector, &sel.selectors),
                                "spec.deviceSelector");
  }
  dom::element taint;
  if (spec["taint"].get(taint) != simdjson::SUCCESS) {
    return core::InvalidArgument("required value", core::Location{"", "", "spec.taint"});
  }
  auto decoded = DecodeDeviceTaint(taint);
  BERTH_IO_RETURN_IF_ERROR_AT(decoded, "spec.taint");
  rule.taint = std::move(*decoded);
  return rule;
}

}  // namespace berth::io::internal
