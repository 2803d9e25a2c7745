// kubescheduler.config.k8s.io/v1: KubeSchedulerConfiguration, reduced to what binding reads:
// per profile the score plugin weights, the disabled filters and the NodeResourcesFit and
// NodeResourcesBalancedAllocation arguments. Plugin sets merge with the defaults as upstream
// mergePluginSet does: "*" in disabled drops every default, an enabled plugin replaces the
// default of the same name, and a score weight of 0 means 1 (framework runtime).
// multiPoint is applied before the score/filter points, which override it.
//
// kube-scheduler refuses to start on a configuration it cannot use, and so does berth: the
// file is decoded strictly (an undeclared field anywhere outside plugin args is
// "strict decoding error: unknown field ..."), and a plugin enabled at any extension point
// must exist in the registry ("ScorePlugin "X" does not exist", the framework's text) and
// implement that point ("plugin "X" does not extend ScorePlugin plugin").
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/strict_fields.h"

namespace berth::io::internal {

namespace {

// The in-tree registry (pkg/scheduler/framework/plugins/registry.go) of the releases that
// serve kubescheduler.config.k8s.io/v1 (1.25 on), including plugins later removed (the
// in-tree volume limits, SelectorSpread) so that an older file still reads.
constexpr std::array<std::string_view, 25> kInTreePlugins = {
    "PrioritySort",
    "DefaultBinder",
    "DefaultPreemption",
    "SchedulingGates",
    "NodeUnschedulable",
    "NodeName",
    "TaintToleration",
    "NodeAffinity",
    "NodePorts",
    "NodeResourcesFit",
    "NodeResourcesBalancedAllocation",
    "VolumeRestrictions",
    "NodeVolumeLimits",
    "VolumeBinding",
    "VolumeZone",
    "PodTopologySpread",
    "InterPodAffinity",
    "ImageLocality",
    "DynamicResources",
    "NodeDeclaredFeatures",
    "GangScheduling",
    "EBSLimits",
    "GCEPDLimits",
    "AzureDiskLimits",
    "CinderLimits",
};

// Out-of-tree plugins carry a domain prefix; berth's own (binding's GPU-sharing score
// plugins) are "berth.dev/...". binding ignores an out-of-tree name it does not implement.
constexpr std::string_view kBerthPluginPrefix = "berth.dev/";

bool PluginExists(std::string_view name) {
  return name.starts_with(kBerthPluginPrefix) ||
         std::find(kInTreePlugins.begin(), kInTreePlugins.end(), name) != kInTreePlugins.end();
}

// The extension points each in-tree plugin implements (its `var _ framework.XPlugin`
// assertions), one bit per kExtensionPoints entry below. Enabling a plugin at a point it
// does not implement stops kube-scheduler: `plugin "X" does not extend ScorePlugin plugin`.
// Plugins whose points changed across the releases v1 covers (DefaultPreemption,
// DynamicResources, NodeDeclaredFeatures, GangScheduling) are not in the table: unchecked.
enum PointBit : uint16_t {
  kPreFilterBit = 1 << 0,
  kFilterBit = 1 << 1,
  kPostFilterBit = 1 << 2,
  kReserveBit = 1 << 3,
  kPreScoreBit = 1 << 4,
  kScoreBit = 1 << 5,
  kPreBindBit = 1 << 6,
  kBindBit = 1 << 7,
  kPostBindBit = 1 << 8,
  kPermitBit = 1 << 9,
  kPreEnqueueBit = 1 << 10,
  kQueueSortBit = 1 << 11,
};
constexpr uint16_t kFilterOnly = kPreFilterBit | kFilterBit;
constexpr uint16_t kFilterAndScore = kPreFilterBit | kFilterBit | kPreScoreBit | kScoreBit;

struct PluginPoints {
  std::string_view name;
  uint16_t points;
};
constexpr PluginPoints kInTreePoints[] = {
    {"PrioritySort", kQueueSortBit},
    {"DefaultBinder", kBindBit},
    {"SchedulingGates", kPreEnqueueBit},
    {"NodeUnschedulable", kFilterBit},
    {"NodeName", kFilterBit},
    {"TaintToleration", kFilterBit | kPreScoreBit | kScoreBit},
    {"NodeAffinity", kFilterAndScore},
    {"NodePorts", kFilterOnly},
    {"NodeResourcesFit", kFilterAndScore},
    {"NodeResourcesBalancedAllocation", kPreScoreBit | kScoreBit},
    {"VolumeRestrictions", kFilterOnly},
    {"NodeVolumeLimits", kFilterOnly},
    {"VolumeBinding", kFilterAndScore | kReserveBit | kPreBindBit},
    {"VolumeZone", kFilterOnly},
    {"PodTopologySpread", kFilterAndScore},
    {"InterPodAffinity", kFilterAndScore},
    {"ImageLocality", kScoreBit},
    {"EBSLimits", kFilterOnly},
    {"GCEPDLimits", kFilterOnly},
    {"AzureDiskLimits", kFilterOnly},
    {"CinderLimits", kFilterOnly},
};

// Whether plugin `name` implements extension point number `point` (kExtensionPoints order).
bool PluginExtends(std::string_view name, size_t point) {
  for (const PluginPoints& p : kInTreePoints) {
    if (p.name == name) return (p.points & (1u << point)) != 0;
  }
  return true;  // berth.dev/ plugins and the unchecked in-tree ones
}

// The extension points of v1's Plugins in the order the framework builds them
// (getExtensionPoints), with the plugin interface each names in its errors.
struct ExtensionPoint {
  std::string_view field;
  std::string_view type;
};
constexpr std::array<ExtensionPoint, 12> kExtensionPoints = {{
    {"preFilter", "PreFilterPlugin"},
    {"filter", "FilterPlugin"},
    {"postFilter", "PostFilterPlugin"},
    {"reserve", "ReservePlugin"},
    {"preScore", "PreScorePlugin"},
    {"score", "ScorePlugin"},
    {"preBind", "PreBindPlugin"},
    {"bind", "BindPlugin"},
    {"postBind", "PostBindPlugin"},
    {"permit", "PermitPlugin"},
    {"preEnqueue", "PreEnqueuePlugin"},
    {"queueSort", "QueueSortPlugin"},
}};

// Every undeclared field of the configuration, in document order (plugin args are typed
// per plugin and not checked here). Two leniencies: `metadata`, which berth's inputs may give
// every object (a name to tell files apart), and v1beta2's healthzBindAddress and
// metricsBindAddress, since the row reads v1beta2 and v1beta3 files as v1.
void CollectUnknownSchedulerFields(dom::object obj, std::vector<std::string>* unknown) {
  CollectUnknownFields(
      obj,
      {"apiVersion", "kind", "metadata", "parallelism", "leaderElection", "clientConnection",
       "healthzBindAddress", "metricsBindAddress", "enableProfiling", "enableContentionProfiling",
       "percentageOfNodesToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds", "profiles",
       "extenders", "delayCacheUntilActive"},
      "", unknown);
  dom::element e;
  dom::array profiles;
  if (!Find(obj, "profiles", &e) || e.get_array().get(profiles)) return;
  size_t i = 0;
  for (dom::element item : profiles) {
    const std::string prefix = "profiles" + IndexField(i++);
    dom::object profile;
    if (item.get_object().get(profile)) continue;
    CollectUnknownFields(profile,
                         {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"},
                         prefix, unknown);
    dom::object plugins;
    if (Find(profile, "plugins", &e) && !e.get_object().get(plugins)) {
      const std::string plugins_prefix = prefix + ".plugins";
      for (auto [key, value] : plugins) {
        const bool known = key == "multiPoint" ||
                           std::any_of(kExtensionPoints.begin(), kExtensionPoints.end(),
                                       [key = key](const ExtensionPoint& p) { return p.field == key; });
        if (!known) {
          unknown->push_back(plugins_prefix + "." + std::string(key));
          continue;
        }
        dom::object set;
        if (value.get_object().get(set)) continue;
        const std::string set_prefix = plugins_prefix + "." + std::string(key);
        CollectUnknownFields(set, {"enabled", "disabled"}, set_prefix, unknown);
        for (std::string_view list_key : {"enabled", "disabled"}) {
          dom::array list;
          if (!Find(set, list_key, &e) || e.get_array().get(list)) continue;
          size_t j = 0;
          for (dom::element plugin : list) {
            dom::object plugin_obj;
            const std::string plugin_prefix =
                set_prefix + "." + std::string(list_key) + IndexField(j++);
            if (!plugin.get_object().get(plugin_obj)) {
              CollectUnknownFields(plugin_obj, {"name", "weight"}, plugin_prefix, unknown);
            }
          }
        }
      }
    }
    dom::array configs;
    if (Find(profile, "pluginConfig", &e) && !e.get_array().get(configs)) {
      size_t j = 0;
      for (dom::element config : configs) {
        dom::object config_obj;
        const std::string config_prefix = prefix + ".pluginConfig" + IndexField(j++);
        if (!config.get_object().get(config_obj)) {
          CollectUnknownFields(config_obj, {"name", "args"}, config_prefix, unknown);
        }
      }
    }
  }
}

// kube-scheduler's default filter plugins (pkg/scheduler/apis/config/v1/default_plugins.go).
constexpr std::array<const char*, 12> kDefaultFilters = {
    "NodeUnschedulable", "NodeName",         "TaintToleration",    "NodeAffinity",
    "NodePorts",         "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits",
    "VolumeBinding",     "VolumeZone",       "PodTopologySpread",  "InterPodAffinity",
};

struct PluginRef {
  std::string name;
  int32_t weight = 0;
};

core::Status DecodePluginList(dom::object set, std::string_view key, std::vector<PluginRef>* out) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(set, key, &array, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : array) {
    std::string field = std::string(key) + IndexField(i++);
    auto obj = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(obj, field);
    PluginRef ref;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*obj, "name", &ref.name), field);
    if (ref.name.empty()) return FieldError(field + ".name", "required value");
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*obj, "weight", &ref.weight), field);
    if (ref.weight < 0) return FieldError(field + ".weight", "must be greater than or equal to 0");
    out->push_back(std::move(ref));
  }
  return core::OkStatus();
}

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<PluginRef> disabled;
  bool DisablesAll() const {
    for (const PluginRef& p : disabled) {
      if (p.name == "*") return true;
    }
    return false;
  }
};

core::Status DecodePluginSet(dom::object plugins, std::string_view key, PluginSet* out) {
  dom::object set;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(plugins, key, &set, &found));
  if (!found) return core::OkStatus();
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePluginList(set, "enabled", &out->enabled), std::string(key));
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePluginList(set, "disabled", &out->disabled), std::string(key));
  return core::OkStatus();
}

void ApplyScore(const PluginSet& set, model::SchedulerProfile* profile) {
  if (set.DisablesAll()) profile->score_weights.clear();
  for (const PluginRef& p : set.disabled) profile->score_weights.erase(p.name);
  for (const PluginRef& p : set.enabled)
    profile->score_weights[p.name] = p.weight == 0 ? 1 : p.weight;
}

void ApplyFilter(const PluginSet& set, model::SchedulerProfile* profile) {
  if (set.DisablesAll()) {
    for (const char* name : kDefaultFilters) profile->disabled_filters.insert(name);
  }
  for (const PluginRef& p : set.disabled) {
    if (p.name != "*") profile->disabled_filters.insert(p.name);
  }
  for (const PluginRef& p : set.enabled) profile->disabled_filters.erase(p.name);
}

core::Status DecodeResourceWeights(dom::object obj, std::string_view key,
                                   std::vector<model::ResourceWeight>* out) {
  dom::array array;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, key, &array, &found));
  if (!found || array.size() == 0) return core::OkStatus();
  std::vector<model::ResourceWeight> weights;
  size_t i = 0;
  for (dom::element item : array) {
    std::string field = std::string(key) + IndexField(i++);
    auto r = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(r, field);
    model::ResourceWeight w;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*r, "name", &w.name), field);
    if (w.name.empty()) return FieldError(field + ".name", "required value");
    w.weight = 0;
    BERTH_IO_RETURN_IF_ERROR_AT(GetInt64(*r, "weight", &w.weight), field);
    if (w.weight == 0) w.weight = 1;  // upstream defaulting
    if (w.weight < 1 || w.weight > 100) {
      return FieldError(field + ".weight", "must be in the range [1, 100]");
    }
    weights.push_back(std::move(w));
  }
  *out = std::move(weights);
  return core::OkStatus();
}

core::Status DecodeFitArgs(dom::object args, model::ScoringStrategy* strategy) {
  dom::object ss;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(args, "scoringStrategy", &ss, &found));
  if (!found) return core::OkStatus();
  std::string type;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ss, "type", &type), "scoringStrategy");
  if (type.empty() || type == "LeastAllocated") {
    strategy->type = model::ScoringStrategyType::kLeastAllocated;
  } else if (type == "MostAllocated") {
    strategy->type = model::ScoringStrategyType::kMostAllocated;
  } else if (type == "RequestedToCapacityRatio") {
    strategy->type = model::ScoringStrategyType::kRequestedToCapacityRatio;
  } else {
    return FieldError("scoringStrategy.type",
                      "unsupported value " + core::Quote(type) + ": supported values: \"LeastAllocated\", \"MostAllocated\", "
                          "\"RequestedToCapacityRatio\"");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeResourceWeights(ss, "resources", &strategy->resources),
                              "scoringStrategy");
  dom::object rtc;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(ss, "requestedToCapacityRatio", &rtc, &found),
                              "scoringStrategy");
  if (found) {
    dom::array shape;
    const std::string prefix = "scoringStrategy.requestedToCapacityRatio";
    BERTH_IO_RETURN_IF_ERROR_AT(GetArray(rtc, "shape", &shape), prefix);
    size_t i = 0;
    for (dom::element item : shape) {
      std::string field = prefix + ".shape" + IndexField(i++);
      auto p = AsObject(item);
      BERTH_IO_RETURN_IF_ERROR_AT(p, field);
      model::UtilizationShapePoint point;
      BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*p, "utilization", &point.utilization), field);
      BERTH_IO_RETURN_IF_ERROR_AT(GetInt32(*p, "score", &point.score), field);
      if (point.utilization < 0 || point.utilization > 100) {
        return FieldError(field + ".utilization", "must be in the range [0, 100]");
      }
      if (point.score < 0 || point.score > 10) {
        return FieldError(field + ".score", "must be in the range [0, 10]");
      }
      if (!strategy->shape.empty() && point.utilization <= strategy->shape.back().utilization) {
        return FieldError(field + ".utilization", "values must be sorted in increasing order");
      }
      strategy->shape.push_back(point);
    }
  }
  if (strategy->type == model::ScoringStrategyType::kRequestedToCapacityRatio &&
      strategy->shape.empty()) {
    // Upstream SetDefaults_NodeResourcesFitArgs.
    strategy->shape = {{0, 10}, {100, 0}};
  }
  return core::OkStatus();
}

core::Status DecodePluginConfig(dom::object profile_obj, model::SchedulerProfile* profile) {
  dom::array configs;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(profile_obj, "pluginConfig", &configs, &found));
  if (!found) return core::OkStatus();
  size_t i = 0;
  for (dom::element item : configs) {
    std::string field = "pluginConfig" + IndexField(i++);
    auto pc = AsObject(item);
    BERTH_IO_RETURN_IF_ERROR_AT(pc, field);
    std::string name;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(*pc, "name", &name), field);
    dom::object args;
    bool has_args = false;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(*pc, "args", &args, &has_args), field);
    if (!has_args) continue;
    if (name == "NodeResourcesFit") {
      BERTH_IO_RETURN_IF_ERROR_AT(DecodeFitArgs(args, &profile->fit_strategy), field + ".args");
    } else if (name == "NodeResourcesBalancedAllocation") {
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeResourceWeights(args, "resources", &profile->balanced_resources), field + ".args");
    }
  }
  return core::OkStatus();
}

// Every plugin enabled at an extension point must exist, checked in the framework's order:
// the explicit points first (updatePluginList), then multiPoint, whose error names the
// first point not disabled with "*" (expandMultiPointPlugins).
core::Status CheckPluginsExist(dom::object plugins) {
  std::string_view multi_point_type;
  for (size_t p = 0; p < kExtensionPoints.size(); ++p) {
    const ExtensionPoint& point = kExtensionPoints[p];
    PluginSet set;
    BERTH_RETURN_IF_ERROR(DecodePluginSet(plugins, point.field, &set));
    for (size_t i = 0; i < set.enabled.size(); ++i) {
      const std::string& name = set.enabled[i].name;
      const std::string field = std::string(point.field) + ".enabled" + IndexField(i) + ".name";
      if (!PluginExists(name)) {
        return FieldError(field, std::string(point.type) + " " + core::Quote(name) + " does not exist");
      }
      // multiPoint only places a plugin at the points it implements; an explicit point
      // must be one of them.
      if (!PluginExtends(name, p)) {
        return FieldError(field, "plugin " + core::Quote(name) + " does not extend " +
                                     std::string(point.type) + " plugin");
      }
    }
    if (multi_point_type.empty() && !set.DisablesAll()) multi_point_type = point.type;
  }
  PluginSet multi_point;
  BERTH_RETURN_IF_ERROR(DecodePluginSet(plugins, "multiPoint", &multi_point));
  if (multi_point_type.empty()) return core::OkStatus();  // every point disables "*"
  for (size_t i = 0; i < multi_point.enabled.size(); ++i) {
    if (!PluginExists(multi_point.enabled[i].name)) {
      return FieldError("multiPoint.enabled" + IndexField(i) + ".name",
                        std::string(multi_point_type) + " " + core::Quote(multi_point.enabled[i].name) + " does not exist");
    }
  }
  return core::OkStatus();
}

core::Result<model::SchedulerProfile> DecodeProfile(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::SchedulerProfile profile;
  BERTH_RETURN_IF_ERROR(GetString(obj, "schedulerName", &profile.scheduler_name));
  if (profile.scheduler_name.empty()) profile.scheduler_name = "default-scheduler";
  dom::object plugins;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "plugins", &plugins, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(CheckPluginsExist(plugins), "plugins");
    PluginSet multi_point;
    PluginSet score;
    PluginSet filter;
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePluginSet(plugins, "multiPoint", &multi_point), "plugins");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePluginSet(plugins, "score", &score), "plugins");
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePluginSet(plugins, "filter", &filter), "plugins");
    // multiPoint.enabled registers a plugin at every point it implements; only the known
    // score plugins (those with a default weight) are given a weight here.
    PluginSet multi_score = multi_point;
    std::erase_if(multi_score.enabled,
                  [&](const PluginRef& p) { return profile.score_weights.count(p.name) == 0; });
    ApplyScore(multi_score, &profile);
    PluginSet multi_filter = multi_point;
    multi_filter.enabled.clear();
    ApplyFilter(multi_filter, &profile);
    ApplyScore(score, &profile);
    ApplyFilter(filter, &profile);
  }
  BERTH_RETURN_IF_ERROR(DecodePluginConfig(obj, &profile));
  return profile;
}

}  // namespace

core::Result<model::SchedulerConfig> DecodeSchedulerConfig(dom::object obj) {
  std::vector<std::string> unknown;
  CollectUnknownSchedulerFields(obj, &unknown);
  if (!unknown.empty()) return StrictDecodingError(unknown);
  model::SchedulerConfig config;
  dom::array profiles;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetArray(obj, "profiles", &profiles, &found));
  if (!found || profiles.size() == 0) return config;
  config.profiles.clear();
  std::set<std::string> names;
  size_t i = 0;
  for (dom::element item : profiles) {
    std::string field = "profiles" + IndexField(i++);
    auto profile = DecodeProfile(item);
    BERTH_IO_RETURN_IF_ERROR_AT(profile, field);
    if (!names.insert(profile->scheduler_name).second) {
      return FieldError(field + ".schedulerName",
                        "duplicate value " + core::Quote(profile->scheduler_name));
    }
    config.profiles.push_back(std::move(*profile));
  }
  return config;
}

}  // namespace berth::io::internal
