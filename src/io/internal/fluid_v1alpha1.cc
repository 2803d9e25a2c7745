// data.fluid.io/v1alpha1: Dataset, its cache runtimes (AlluxioRuntime, JuiceFSRuntime,
// JindoRuntime) and DataLoad. The spec is validated as Fluid's CRDs validate it and is an
// error when wrong; the status is Fluid's report in human strings ("140.00GiB", "35.0%",
// "[Calculating]" while it measures), read when it parses and otherwise left unset: a
// status berth cannot read says nothing about the object's validity, and the plan then
// treats the cache as unknown rather than dropping the dataset.
#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <set>
#include <string>
#include <string_view>
#include <tuple>

#include "core/ascii.h"
#include "core/excerpt.h"
#include "core/quantity.h"
#include "io/internal/decoders.h"
#include "io/internal/fluid_decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"
#include "io/internal/storage_uri.h"

namespace berth::io::internal {
namespace {

// A number with an optional unit as Fluid prints sizes (units.BytesSize: "2.50GiB",
// "512.00KiB", "0.00B"), also decimal units; nullopt when it is not one.
std::optional<int64_t> HumanBytes(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || value < 0 || !std::isfinite(value)) return std::nullopt;
  std::string unit = core::AsciiLower(std::string_view(ptr, static_cast<size_t>(end - ptr)));
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  struct Unit {
    std::string_view name;
    double factor;
  };
  constexpr Unit kUnits[] = {{"", 1},           {"b", 1},           {"kib", 1024.0},
                             {"mib", 1048576.0}, {"gib", 1073741824.0}, {"tib", 1099511627776.0},
                             {"pib", 1125899906842624.0}, {"kb", 1e3}, {"mb", 1e6},
                             {"gb", 1e9},       {"tb", 1e12},       {"pb", 1e15}};
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    const double bytes = value * u.factor;
    if (bytes > 9.2e18) return std::nullopt;
    return static_cast<int64_t>(std::llround(bytes));
  }
  return std::nullopt;
}

// "35.0%" as 35.0; nullopt when it is not a percentage from 0 to 100.
std::optional<double> Percentage(std::string_view text) {
  if (text.empty() || text.back() != '%') return std::nullopt;
  text.remove_suffix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0 || value > 100) {
    return std::nullopt;
  }
  return value;
}

// status.cacheStates of a Dataset or runtime (a string map); only the keys berth reads.
core::Status DecodeCacheStates(dom::object status, model::CacheStates* out) {
  core::Labels states;
  BERTH_IO_RETURN_IF_ERROR_AT(GetStringMap(status, "cacheStates", &states), "status");
  if (auto it = states.find("cached"); it != states.end()) out->cached_bytes = HumanBytes(it->second);
  if (auto it = states.find("cacheCapacity"); it != states.end()) {
    out->capacity_bytes = HumanBytes(it->second);
  }
  if (auto it = states.find("cachedPercentage"); it != states.end()) {
    out->cached_percentage = Percentage(it->second);
  }
  return core::OkStatus();
}

// A watermark ratio written as a string ("0.95"), as Fluid's Level.High and Level.Low are;
// errors at `key`.
core::Status Ratio(dom::object level, std::string_view key, double* out) {
  dom::element e;
  if (!Find(level, key, &e)) return core::OkStatus();
  std::string text;
  if (e.is_string()) {
    text = std::string(e.get_string().value_unsafe());
  } else if (e.is_number()) {
    *out = e.get_double().value_unsafe();
  } else {
    return FieldError(std::string(key), "must be a string");
  }
  if (!text.empty()) {
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
      return InvalidValue(std::string(key), text, "must be a number from 0 to 1");
    }
  }
  if (*out < 0 || *out > 1) {
    return InvalidValue(std::string(key), std::to_string(*out),
                        "must be a number from 0 to 1");
  }
  return core::OkStatus();
}

// spec.tieredstore.levels[i]; errors relative to the level.
core::Result<model::DataRuntime::Level> DecodeLevel(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DataRuntime::Level level;
  BERTH_RETURN_IF_ERROR(GetString(obj, "mediumtype", &level.medium));
  if (level.medium != "MEM" && level.medium != "SSD" && level.medium != "HDD") {
    return InvalidValue("mediumtype", level.medium,
                        "supported values: \"MEM\", \"SSD\", \"HDD\"");
  }
  dom::element quota;
  std::string quota_list;
  bool has_list = false;
  BERTH_RETURN_IF_ERROR(GetString(obj, "quotaList", &quota_list, &has_list));
  if (Find(obj, "quota", &quota)) {
    auto q = ParseQuantityElement(quota);
    BERTH_IO_RETURN_IF_ERROR_AT(q, "quota");
    auto bytes = q->Value();
    if (!bytes.has_value() || *bytes < 0) {
      return FieldError("quota", "must be a quantity of bytes, at least 0");
    }
    level.quota_bytes = *bytes;
  } else if (has_list) {
    // One quota per path, comma-separated ("1Gi,2Gi").
    size_t start = 0;
    while (start <= quota_list.size()) {
      const size_t comma = std::min(quota_list.find(',', start), quota_list.size());
      auto q = core::Quantity::Parse(std::string_view(quota_list).substr(start, comma - start));
      if (!q.has_value() || !q->Value().has_value() || *q->Value() < 0) {
        return InvalidValue("quotaList", quota_list,
                            "must be quantities of bytes separated by commas");
      }
      level.quota_bytes += *q->Value();
      start = comma + 1;
    }
  } else {
    return FieldError("quota", "Required value: quota or quotaList");
  }
  BERTH_RETURN_IF_ERROR(Ratio(obj, "high", &level.high));
  BERTH_RETURN_IF_ERROR(Ratio(obj, "low", &level.low));
  if (level.high > 0 && level.low > level.high) {
    return FieldError("low", "must not be greater than high");
  }
  return level;
}

// spec.mounts[i]: its mountPoint parsed.
core::Result<model::StorageLocation> DecodeMount(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object mount, AsObject(e));
  std::string point;
  BERTH_RETURN_IF_ERROR(GetString(mount, "mountPoint", &point));
  auto parsed = ParseStorageUri(point, UriSchemes::kFluid);
  BERTH_IO_RETURN_IF_ERROR_AT(parsed, "mountPoint");
  return std::move(*parsed);
}

// A DataLoad's spec.target[i]: its path, required.
core::Result<std::string> DecodeTargetPath(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object target, AsObject(e));
  std::string path;
  BERTH_RETURN_IF_ERROR(GetString(target, "path", &path));
  if (path.empty()) return FieldError("path", "Required value");
  return path;
}

}  // namespace

core::Result<model::Dataset> DecodeDataset(dom::object obj) {
  model::Dataset d;
  BERTH_ASSIGN_OR_RETURN(d.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                  /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "mounts", DecodeMount, &d.mounts), "spec");
  dom::object affinity;
  bool has_affinity = false;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "nodeAffinity", &affinity, &has_affinity), "spec");
  if (has_affinity) {
    dom::object required;
    bool has_required = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(affinity, "required", &required, &has_required),
                                "spec.nodeAffinity");
    if (has_required) {
      auto selector = DecodeNodeSelector(required);
      BERTH_IO_RETURN_IF_ERROR_AT(selector, "spec.nodeAffinity.required");
      d.node_affinity = std::move(*selector);
    }
  }
  dom::object status;
  bool has_status = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &has_status));
  if (has_status) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "phase", &d.phase), "status");
    std::string ufs_total;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "ufsTotal", &ufs_total), "status");
    d.ufs_total_bytes = HumanBytes(ufs_total);
    BERTH_RETURN_IF_ERROR(DecodeCacheStates(status, &d.cache));
  }
  return d;
}

core::Result<model::DataRuntime> DecodeDataRuntime(dom::object obj, std::string_view kind) {
  model::DataRuntime rt;
  rt.kind = std::string(kind);
  BERTH_ASSIGN_OR_RETURN(rt.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                   /*name_required=*/true));
  dom::object spec;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec));
  BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(spec, "replicas", &rt.replicas), "spec");
  if (rt.replicas < 0) return FieldError("spec.replicas", "must be greater than or equal to 0");
  dom::object tiered;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "tieredstore", &tiered), "spec");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(tiered, "levels", DecodeLevel, &rt.levels),
                              "spec.tieredstore");
  dom::object status;
  bool has_status = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &has_status));
  if (has_status) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(status, "workerNumberReady", &rt.workers_ready),
                                "status");
    BERTH_RETURN_IF_ERROR(DecodeCacheStates(status, &rt.cache));
  }
  return rt;
}

core::Result<model::DataLoad> DecodeDataLoad(dom::object obj) {
  model::DataLoad load;
  BERTH_ASSIGN_OR_RETURN(load.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                     /*name_required=*/true));
  BERTH_ASSIGN_OR_RETURN(dom::object spec, GetRequiredObject(obj, "", "spec"));
  BERTH_ASSIGN_OR_RETURN(dom::object dataset, GetRequiredObject(spec, "spec", "dataset"));
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(dataset, "name", &load.dataset_name), "spec.dataset");
  if (load.dataset_name.empty()) return FieldError("spec.dataset.name", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(dataset, "namespace", &load.dataset_namespace),
                              "spec.dataset");
  if (load.dataset_namespace.empty()) load.dataset_namespace = load.meta.namespace_;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "policy", &load.policy), "spec");
  if (load.policy.empty()) load.policy = "Once";
  if (load.policy != "Once" && load.policy != "Cron" && load.policy != "OnEvent") {
    return InvalidValue("spec.policy", load.policy,
                        "supported values: \"Once\", \"Cron\", \"OnEvent\"");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(spec, "target", DecodeTargetPath, &load.paths), "spec");
  if (load.paths.empty()) load.paths.push_back("/");
  dom::object status;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status));
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(status, "phase", &load.phase), "status");
  return load;
}

std::vector<std::pair<size_t, core::Error>> DatasetsWithoutRuntime(const model::Snapshot& snap) {
  std::set<std::tuple<std::string_view, std::string_view, std::string_view>> served;
  for (const model::DataRuntime& rt : snap.data_runtimes) {
    served.emplace(rt.cluster, rt.meta.namespace_, rt.meta.name);
  }
  std::vector<std::pair<size_t, core::Error>> out;
  for (size_t i = 0; i < snap.datasets.size(); ++i) {
    const model::Dataset& d = snap.datasets[i];
    if (served.count({d.cluster, d.meta.namespace_, d.meta.name}) != 0) continue;
    out.emplace_back(
        i, core::InvalidArgument("no AlluxioRuntime, JuiceFSRuntime or JindoRuntime named " +
                                     core::Quote(d.meta.name) + " in namespace " +
                                     core::Quote(d.meta.namespace_) +
                                     ": Fluid binds a Dataset to the runtime of its name, so "
                                     "this one caches nothing (berth reads those three kinds)",
                                 core::Location{"", "", "metadata.name"}));
  }
  return out;
}

}  // namespace berth::io::internal
