// config.kueue.x-k8s.io (v1beta1, v1beta2): Kueue's manager Configuration, the parts the
// scheduler's decisions depend on (apis/config/v1beta2/configuration_types.go, defaults.go).
// v1beta1 switched fairSharing and waitForPodsReady on with `enable: true`; v1beta2 dropped
// `enable` and a present block means on. Durations are Go time.Duration strings.
//
// Kueue loads its configuration with apimachinery's strict decoder (pkg/config fromFile,
// serializer.EnableStrict) and does not start on an undeclared field; so an unknown field
// at the top level or in a part berth reads is "strict decoding error: unknown field ...".
// The parts berth does not read (integrations, controller settings, ...) are not looked
// into; of `resources`, berth reads deviceClassMappings (the DRA-backed quota).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"
#include "io/internal/strict_fields.h"

namespace berth::io::internal {

namespace {

// resources (type Resources): deviceClassMappings[] and their sources[] (counter,
// capacity), the same in v1beta1 and v1beta2.
void CollectUnknownResourcesFields(dom::object res, std::vector<std::string>* unknown) {
  CollectUnknownFields(
      res,
      {"quotaCheckStrategy", "excludeResourcePrefixes", "transformations", "deviceClassMappings"},
      "resources", unknown);
  dom::element e;
  dom::array mappings;
  if (!Find(res, "deviceClassMappings", &e) || e.get_array().get(mappings)) return;
  size_t i = 0;
  for (dom::element m : mappings) {
    const std::string prefix = "resources.deviceClassMappings" + IndexField(i++);
    dom::object mapping;
    if (m.get_object().get(mapping)) continue;
    CollectUnknownFields(mapping, {"name", "deviceClassNames", "sources"}, prefix, unknown);
    dom::array sources;
    if (!Find(mapping, "sources", &e) || e.get_array().get(sources)) continue;
    size_t j = 0;
    for (dom::element src : sources) {
      const std::string src_prefix = prefix + ".sources" + IndexField(j++);
      dom::object source;
      if (src.get_object().get(source)) continue;
      CollectUnknownFields(source, {"counter", "capacity"}, src_prefix, unknown);
      for (const char* kind : {"counter", "capacity"}) {
        dom::object part;
        if (Find(source, kind, &e) && !e.get_object().get(part)) {
          CollectUnknownFields(part, {"name", "driver", "deviceSelector"}, src_prefix + "." + kind,
                               unknown);
        }
      }
    }
  }
}

// The fields of Configuration (apis/config/<version>/configuration_types.go, its inline
// ControllerManager included) and of the parts berth reads, in document order; plus
// `metadata`, which berth's inputs may give every object.
void CollectUnknownKueueFields(dom::object obj, bool v1beta1, std::vector<std::string>* unknown) {
  std::initializer_list<std::string_view> common = {"apiVersion",
                                                    "kind",
                                                    "metadata",
                                                    "namespace",
                                                    "webhook",
                                                    "leaderElection",
                                                    "metrics",
                                                    "health",
                                                    "pprofBindAddress",
                                                    "controller",
                                                    "tls",
                                                    "manageJobsWithoutQueueName",
                                                    "managedJobsNamespaceSelector",
                                                    "internalCertManagement",
                                                    "waitForPodsReady",
                                                    "clientConnection",
                                                    "integrations",
                                                    "multiKueue",
                                                    "fairSharing",
                                                    "admissionFairSharing",
                                                    "resources",
                                                    "featureGates",
                                                    "objectRetentionPolicies"};
  for (auto [key, value] : obj) {
    if (std::find(common.begin(), common.end(), key) != common.end()) continue;
    if (v1beta1 ? key == "queueVisibility" : key == "visibilityServer") continue;
    unknown->push_back(std::string(key));
  }
  dom::element e;
  dom::object part;
  if (Find(obj, "waitForPodsReady", &e) && !e.get_object().get(part)) {
    if (v1beta1) {
      CollectUnknownFields(
          part, {"enable", "timeout", "blockAdmission", "requeuingStrategy", "recoveryTimeout"},
          "waitForPodsReady", unknown);
    } else {
      CollectUnknownFields(part,
                           {"timeout", "blockAdmission", "requeuingStrategy", "recoveryTimeout"},
                           "waitForPodsReady", unknown);
    }
    dom::object rs;
    if (Find(part, "requeuingStrategy", &e) && !e.get_object().get(rs)) {
      CollectUnknownFields(
          rs, {"timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds"},
          "waitForPodsReady.requeuingStrategy", unknown);
    }
  }
  if (Find(obj, "fairSharing", &e) && !e.get_object().get(part)) {
    if (v1beta1) {
      CollectUnknownFields(part, {"enable", "preemptionStrategies"}, "fairSharing", unknown);
    } else {
      CollectUnknownFields(part, {"preemptionStrategies"}, "fairSharing", unknown);
    }
  }
  if (Find(obj, "admissionFairSharing", &e) && !e.get_object().get(part)) {
    CollectUnknownFields(part, {"usageHalfLifeTime", "usageSamplingInterval", "resourceWeights"},
                         "admissionFairSharing", unknown);
  }
  if (Find(obj, "resources", &e) && !e.get_object().get(part)) {
    CollectUnknownResourcesFields(part, unknown);
  }
  if (Find(obj, "multiKueue", &e) && !e.get_object().get(part)) {
    // v1beta1's MultiKueue ends at externalFrameworks: clusterProfile and the incremental
    // dispatcher's configuration came with v1beta2.
    if (v1beta1) {
      CollectUnknownFields(part,
                           {"gcInterval", "origin", "workerLostTimeout", "dispatcherName",
                            "externalFrameworks"},
                           "multiKueue", unknown);
    } else {
      CollectUnknownFields(part,
                           {"gcInterval", "origin", "workerLostTimeout", "dispatcherName",
                            "externalFrameworks", "clusterProfile", "incrementalDispatcherConfig"},
                           "multiKueue", unknown);
      dom::object idc;
      if (Find(part, "incrementalDispatcherConfig", &e) && !e.get_object().get(idc)) {
        CollectUnknownFields(idc, {"stepSize"}, "multiKueue.incrementalDispatcherConfig", unknown);
      }
    }
  }
}

core::Status GetDuration(dom::object obj, const char* key, int64_t* seconds, bool* found);

// multiKueue (apis/config/v1beta2 MultiKueue; pkg/config/validation.go for the rules on the
// incremental dispatcher's configuration, checked after defaulting as Kueue checks them).
core::Status DecodeMultiKueue(dom::object mk, model::KueueConfig* config) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(mk, "dispatcherName", &config->multikueue_dispatcher, &found));
  config->multikueue_dispatcher_given = found && !config->multikueue_dispatcher.empty();
  if (!config->multikueue_dispatcher_given) {
    config->multikueue_dispatcher = "kueue.x-k8s.io/multikueue-dispatcher-all-at-once";
  }
  BERTH_RETURN_IF_ERROR(
      GetDuration(mk, "workerLostTimeout", &config->multikueue_worker_lost_timeout_s, &found));
  dom::object idc;
  BERTH_RETURN_IF_ERROR(GetObject(mk, "incrementalDispatcherConfig", &idc, &found));
  if (!found) return core::OkStatus();
  if (config->multikueue_dispatcher != "kueue.x-k8s.io/multikueue-dispatcher-incremental") {
    return FieldError("incrementalDispatcherConfig",
                      "incrementalDispatcherConfig is only valid when dispatcherName is set to "
                      "the incremental dispatcher");
  }
  int32_t step = 0;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(idc, "stepSize", &step, &found),
                              "incrementalDispatcherConfig");
  if (!found) return core::OkStatus();
  if (step < 1) {
    return FieldError("incrementalDispatcherConfig.stepSize", "must be greater than or equal to 1");
  }
  config->multikueue_incremental_step_size = step;
  return core::OkStatus();
}

// featureGates: a map of gate names to booleans. Only their values are checked here (Kueue's
// list of gates changes with every release); the gates berth honours are read where used.
core::Status DecodeFeatureGates(dom::object gates, std::map<std::string, bool>* out) {
  for (auto [name, value] : gates) {
    bool enabled = false;
    if (value.get_bool().get(enabled) != simdjson::SUCCESS) {
      return FieldError(KeyField("featureGates", name), "must be a boolean");
    }
    (*out)[std::string(name)] = enabled;
  }
  return core::OkStatus();
}

core::Status GetDuration(dom::object obj, const char* key, int64_t* seconds, bool* found) {
  std::string text;
  BERTH_RETURN_IF_ERROR(GetString(obj, key, &text, found));
  if (!*found) return core::OkStatus();
  auto parsed = ParseDurationSeconds(text);
  BERTH_IO_RETURN_IF_ERROR_AT(parsed, key);
  if (*parsed < 0) return FieldError(key, "must not be negative");
  *seconds = *parsed;
  return core::OkStatus();
}

core::Status DecodeWaitForPodsReady(dom::object w, model::WaitForPodsReadyConfig* out) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetDuration(w, "timeout", &out->timeout_s, &found));
  BERTH_RETURN_IF_ERROR(GetBool(w, "blockAdmission", &out->block_admission));
  int64_t recovery = 0;
  BERTH_RETURN_IF_ERROR(GetDuration(w, "recoveryTimeout", &recovery, &found));
  if (found) out->recovery_timeout_s = recovery;
  dom::object rs;
  BERTH_RETURN_IF_ERROR(GetObject(w, "requeuingStrategy", &rs, &found));
  if (!found) return core::OkStatus();
  const std::string prefix = "requeuingStrategy";
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(rs, "timestamp", &out->requeuing_timestamp), prefix);
  if (out->requeuing_timestamp.empty()) out->requeuing_timestamp = "Eviction";
  if (out->requeuing_timestamp != "Eviction" && out->requeuing_timestamp != "Creation") {
    return Unsupported(prefix + ".timestamp", out->requeuing_timestamp, {"Creation", "Eviction"});
  }
  int32_t value = 0;
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(rs, "backoffLimitCount", &value, &found), prefix);
  if (found) {
    if (value < 0) return FieldError(prefix + ".backoffLimitCount", "must not be negative");
    out->backoff_limit_count = value;
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(rs, "backoffBaseSeconds", &out->backoff_base_s), prefix);
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(rs, "backoffMaxSeconds", &out->backoff_max_s), prefix);
  if (out->backoff_base_s < 0) {
    return FieldError(prefix + ".backoffBaseSeconds", "must not be negative");
  }
  if (out->backoff_max_s < 0) {
    return FieldError(prefix + ".backoffMaxSeconds", "must not be negative");
  }
  return core::OkStatus();
}

core::Status DecodeFairSharing(dom::object fs, model::FairSharingConfig* out) {
  dom::array strategies;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(fs, "preemptionStrategies", &strategies, &found));
  if (!found || strategies.size() == 0) return core::OkStatus();
  out->preemption_strategies.clear();
  size_t i = 0;
  for (dom::element item : strategies) {
    std::string field = "preemptionStrategies" + IndexField(i++);
    std::string_view s;
    if (item.get_string().get(s) != simdjson::SUCCESS) return FieldError(field, "must be a string");
    if (s == "LessThanOrEqualToFinalShare") {
      out->preemption_strategies.push_back(
          model::FairSharingStrategy::kLessThanOrEqualToFinalShare);
    } else if (s == "LessThanInitialShare") {
      out->preemption_strategies.push_back(model::FairSharingStrategy::kLessThanInitialShare);
    } else {
      return Unsupported(field, std::string(s),
                         {"LessThanInitialShare", "LessThanOrEqualToFinalShare"});
    }
  }
  // The lists upstream's validation allows: [a], [b], [a, b].
  const auto& list = out->preemption_strategies;
  bool allowed =
      list.size() == 1 ||
      (list.size() == 2 && list[0] == model::FairSharingStrategy::kLessThanOrEqualToFinalShare &&
       list[1] == model::FairSharingStrategy::kLessThanInitialShare);
  if (!allowed) {
    return FieldError("preemptionStrategies",
                      "must be [LessThanOrEqualToFinalShare], [LessThanInitialShare] or "
                      "[LessThanOrEqualToFinalShare, LessThanInitialShare]");
  }
  return core::OkStatus();
}

core::Status DecodeAdmissionFairSharing(dom::object afs, model::AdmissionFairSharingConfig* out) {
  bool found = false;
  BERTH_RETURN_IF_ERROR(
      GetDuration(afs, "usageHalfLifeTime", &out->usage_half_life_time_s, &found));
  BERTH_RETURN_IF_ERROR(
      GetDuration(afs, "usageSamplingInterval", &out->usage_sampling_interval_s, &found));
  dom::object weights;
  BERTH_RETURN_IF_ERROR(GetObject(afs, "resourceWeights", &weights, &found));
  if (!found) return core::OkStatus();
  for (auto [name, value] : weights) {
    std::string field = KeyField("resourceWeights", name);
    double w = 0;
    int64_t i = 0;
    if (value.get_int64().get(i) == simdjson::SUCCESS) {
      w = static_cast<double>(i);
    } else if (value.get_double().get(w) != simdjson::SUCCESS) {
      return FieldError(field, "must be a number");
    }
    if (w < 0 || !std::isfinite(w) || w > 9e15) return FieldError(field, "must not be negative");
    out->resource_weights_milli[std::string(name)] = std::llround(w * 1000);
  }
  return core::OkStatus();
}

// resources.deviceClassMappings, checked as Kueue's validateDeviceClassMappings checks it
// before the manager starts (pkg/config/validation.go): at most 16 mappings, a unique name,
// 1 to 8 unique DeviceClass names, and a DeviceClass in one mapping only (counter sources
// with distinct counters excepted; berth does not count by counters, so it keeps that rule
// whole).
core::Status DecodeDeviceClassMappings(dom::object res,
                                       std::vector<model::DeviceClassMapping>* out) {
  dom::array mappings;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(res, "deviceClassMappings", &mappings, &found));
  if (!found) return core::OkStatus();
  if (mappings.size() > 16) {
    return FieldError("deviceClassMappings",
                      "must have at most 16 items, got " + std::to_string(mappings.size()));
  }
  std::map<std::string, std::string> class_to_resource;
  size_t i = 0;
  for (dom::element item : mappings) {
    const std::string field = "deviceClassMappings" + IndexField(i++);
    auto mapping_obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(mapping_obj, field);
    model::DeviceClassMapping m;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*mapping_obj, "name", &m.name), field);
    if (m.name.empty()) return FieldError(field + ".name", "Required value");
    for (const auto& other : *out) {
      if (other.name == m.name) {
        return FieldError(field + ".name", "Duplicate value: " + core::Quote(m.name));
      }
    }
    BERTH_IO_RETURN_IF_ERROR_AT(
        GetStringList(*mapping_obj, "deviceClassNames", &m.device_class_names), field);
    if (m.device_class_names.empty()) {
      return FieldError(field + ".deviceClassNames",
                        "Required value: at least one device class name is required");
    }
    if (m.device_class_names.size() > 8) {
      return FieldError(field + ".deviceClassNames", "must have at most 8 items");
    }
    for (size_t c = 0; c < m.device_class_names.size(); ++c) {
      const std::string& dc = m.device_class_names[c];
      const std::string dc_field = field + ".deviceClassNames" + IndexField(c);
      if (dc.empty()) return FieldError(dc_field, "must not be empty");
      if (std::find(m.device_class_names.begin(), m.device_class_names.begin() + c, dc) !=
          m.device_class_names.begin() + c) {
        return FieldError(dc_field, "Duplicate value: " + core::Quote(dc));
      }
      auto [it, inserted] = class_to_resource.emplace(dc, m.name);
      if (!inserted) {
        return FieldError(
            dc_field,
            "Invalid value: " + core::Quote(dc) + ": device class already mapped to resource " + it->second);
      }
    }
    dom::array sources;
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(*mapping_obj, "sources", &sources, &found), field);
    m.has_sources = found && sources.size() > 0;
    out->push_back(std::move(m));
  }
  return core::OkStatus();
}

}  // namespace

core::Result<int64_t> ParseDurationSeconds(std::string_view text) {
  // Go's time.ParseDuration: [-+]? then one or more <decimal><unit>, or "0".
  auto invalid = [&] {
    return core::InvalidArgument("invalid duration " + core::Quote(text) + ": expected a Go duration such as \"300ms\", \"5m\", \"1h30m\"");
  };
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return invalid();
  long double total_ns = 0;
  while (!s.empty()) {
    size_t n = 0;
    while (n < s.size() && ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')) ++n;
    if (n == 0) return invalid();
    std::string number(s.substr(0, n));
    if (number == "." || number.find('.') != number.rfind('.')) return invalid();
    s.remove_prefix(n);
    size_t u = 0;
    while (u < s.size() && !((s[u] >= '0' && s[u] <= '9') || s[u] == '.')) ++u;
    std::string_view unit = s.substr(0, u);
    s.remove_prefix(u);
    long double scale = 0;
    if (unit == "ns") {
      scale = 1;
    } else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") {
      scale = 1e3L;
    } else if (unit == "ms") {
      scale = 1e6L;
    } else if (unit == "s") {
      scale = 1e9L;
    } else if (unit == "m") {
      scale = 60e9L;
    } else if (unit == "h") {
      scale = 3600e9L;
    } else {
      return invalid();
    }
    total_ns += std::strtold(number.c_str(), nullptr) * scale;
  }
  // time.Duration is an int64 of nanoseconds.
  if (total_ns > static_cast<long double>(std::numeric_limits<int64_t>::max())) {
    return core::OutOfRange("duration " + core::Quote(text) + " is out of range");
  }
  auto seconds = static_cast<int64_t>(total_ns / 1e9L);
  return negative ? -seconds : seconds;
}

core::Result<model::KueueConfig> DecodeKueueConfig(dom::object obj, std::string_view api_version) {
  model::KueueConfig config;
  const bool v1beta1 = api_version == "config.kueue.x-k8s.io/v1beta1";
  std::vector<std::string> unknown;
  CollectUnknownKueueFields(obj, v1beta1, &unknown);
  if (!unknown.empty()) return StrictDecodingError(unknown);
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "fairSharing", &part, &found));
  if (found) {
    bool enabled = !v1beta1;
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(part, "enable", &enabled), "fairSharing");
    model::FairSharingConfig fs;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeFairSharing(part, &fs), "fairSharing");
    if (enabled) config.fair_sharing = std::move(fs);
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "admissionFairSharing", &part, &found));
  if (found) {
    model::AdmissionFairSharingConfig afs;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeAdmissionFairSharing(part, &afs), "admissionFairSharing");
    config.admission_fair_sharing = std::move(afs);
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "waitForPodsReady", &part, &found));
  if (found) {
    bool enabled = !v1beta1;
    BERTH_IO_RETURN_IF_ERROR_AT(GetBool(part, "enable", &enabled), "waitForPodsReady");
    model::WaitForPodsReadyConfig w;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeWaitForPodsReady(part, &w), "waitForPodsReady");
    if (enabled) config.wait_for_pods_ready = std::move(w);
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "resources", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeDeviceClassMappings(part, &config.device_class_mappings),
                                "resources");
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "multiKueue", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeMultiKueue(part, &config), "multiKueue");
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "featureGates", &part, &found));
  if (found) {
    BERTH_RETURN_IF_ERROR(DecodeFeatureGates(part, &config.feature_gates));
  }
  return config;
}

}  // namespace berth::io::internal
