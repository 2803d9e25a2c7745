#include "sim/replay/scenario_file.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/virtual_clock.h"
#include "sim/trace/values.h"

namespace berth::sim {
namespace {

core::Error FieldError(const std::string& path, const std::string& field, const std::string& why) {
  return core::InvalidArgument(path + ": " + field + ": " + why);
}

std::string Resolve(const std::string& file, const std::string& relative) {
  if (relative.empty() || std::filesystem::path(relative).is_absolute()) return relative;
  return (std::filesystem::path(file).parent_path() / relative).lexically_normal().string();
}

core::Result<std::string> Scalar(const YAML::Node& node, const std::string& path,
                                 const std::string& field) {
  if (!node.IsScalar()) return FieldError(path, field, "must be a string");
  return node.as<std::string>();
}

core::Result<int64_t> DurationMs(const YAML::Node& node, const std::string& path,
                                 const std::string& field) {
  auto text = Scalar(node, path, field);
  if (!text) return text.error();
  auto s = ParseDuration(*text);
  if (!s) return FieldError(path, field, s.error().message());
  // ParseDuration caps at kMaxDurationSeconds, so this never saturates on valid input.
  return SecondsToMs(*s);
}

core::Result<int32_t> Count(const YAML::Node& node, const std::string& path,
                            const std::string& field) {
  auto text = Scalar(node, path, field);
  if (!text) return text.error();
  auto v = ParseCount(*text);
  if (!v) return FieldError(path, field, v.error().message());
  return *v;
}

core::Result<core::LabelSelector> Selector(const YAML::Node& node, const std::string& path,
                                           const std::string& field) {
  if (!node.IsMap()) return FieldError(path, field, "must be a label selector");
  core::LabelSelector sel;
  for (const auto& kv : node) {
    const std::string key = kv.first.as<std::string>();
    if (key == "matchLabels") {
      if (!kv.second.IsMap()) return FieldError(path, field + ".matchLabels", "must be a map");
      for (const auto& l : kv.second) {
        auto value = Scalar(l.second, path, field + ".matchLabels." + l.first.Scalar());
        if (!value) return value.error();
        sel.match_labels[l.first.Scalar()] = *value;
      }
    } else if (key == "matchExpressions") {
      if (!kv.second.IsSequence()) {
        return FieldError(path, field + ".matchExpressions", "must be a list");
      }
      for (size_t i = 0; i < kv.second.size(); ++i) {
        const YAML::Node e = kv.second[i];
        const std::string f = field + ".matchExpressions[" + std::to_string(i) + "]";
        core::SelectorRequirement req;
        if (!e["key"] || !e["operator"]) return FieldError(path, f, "needs key and operator");
        auto key_text = Scalar(e["key"], path, f + ".key");
        if (!key_text) return key_text.error();
        auto op_text = Scalar(e["operator"], path, f + ".operator");
        if (!op_text) return op_text.error();
        req.key = *key_text;
        const std::string op = *op_text;
        if (op == "In") {
          req.op = core::SelectorOp::kIn;
        } else if (op == "NotIn") {
          req.op = core::SelectorOp::kNotIn;
        } else if (op == "Exists") {
          req.op = core::SelectorOp::kExists;
        } else if (op == "DoesNotExist") {
          req.op = core::SelectorOp::kDoesNotExist;
        } else {
          return FieldError(path, f + ".operator",
                            "unknown operator \"" + op + "\" (In, NotIn, Exists, DoesNotExist)");
        }
        if (e["values"]) {
          if (!e["values"].IsSequence()) return FieldError(path, f + ".values", "must be a list");
          for (size_t k = 0; k < e["values"].size(); ++k) {
            auto v = Scalar(e["values"][k], path, f + ".values[" + std::to_string(k) + "]");
            if (!v) return v.error();
            req.values.push_back(*v);
          }
        }
        sel.match_expressions.push_back(std::move(req));
      }
    } else {
      return FieldError(path, field + "." + key, "unknown field (matchLabels, matchExpressions)");
    }
  }
  if (core::Status s = sel.Validate(); !s.ok()) return FieldError(path, field, s.error().message());
  return sel;
}

core::Result<ScenarioAction> Action(const YAML::Node& node, const std::string& path, size_t i) {
  const std::string f = "spec.events[" + std::to_string(i) + "]";
  if (!node.IsMap()) return FieldError(path, f, "must be a map");
  ScenarioAction a;
  a.line = "events[" + std::to_string(i) + "]";
  a.field_path = path + ": " + f;
  if (!node["action"]) return FieldError(path, f + ".action", "is required");
  auto kind_text = Scalar(node["action"], path, f + ".action");
  if (!kind_text) return kind_text.error();
  const std::string kind = *kind_text;
  if (kind == "NodeFailure") {
    a.kind = ActionKind::kNodeFailure;
  } else if (kind == "GpuFailure") {
    a.kind = ActionKind::kGpuFailure;
  } else if (kind == "Drain") {
    a.kind = ActionKind::kDrain;
  } else if (kind == "ScaleUp") {
    a.kind = ActionKind::kScaleUp;
  } else {
    return FieldError(path, f + ".action",
                      "unknown action \"" + kind + "\" (NodeFailure, GpuFailure, Drain, ScaleUp)");
  }
  if (!node["at"]) return FieldError(path, f + ".at", "is required");
  for (const auto& kv : node) {
    const std::string key = kv.first.as<std::string>();
    const std::string kf = f + "." + key;
    core::Status st;
    auto dur = [&](int64_t* out) -> core::Status {
      auto v = DurationMs(kv.second, path, kf);
      if (!v) return v.error();
      *out = *v;
      return core::Status();
    };
    auto cnt = [&](int32_t* out) -> core::Status {
      auto v = Count(kv.second, path, kf);
      if (!v) return v.error();
      *out = *v;
      return core::Status();
    };
    if (key == "action") continue;
    if (key == "at") {
      st = dur(&a.at_ms);
    } else if (key == "nodes") {
      if (!kv.second.IsSequence()) return FieldError(path, kf, "must be a list of node names");
      for (size_t k = 0; k < kv.second.size(); ++k) {
        auto name = Scalar(kv.second[k], path, kf + "[" + std::to_string(k) + "]");
        if (!name) return name.error();
        a.node_names.push_back(*name);
      }
    } else if (key == "selector") {
      auto sel = Selector(kv.second, path, kf);
      if (!sel) return sel.error();
      a.selector = std::move(*sel);
    } else if (key == "gpus" && a.kind == ActionKind::kGpuFailure) {
      st = cnt(&a.gpus);
    } else if (key == "recoverAfter" &&
               (a.kind == ActionKind::kNodeFailure || a.kind == ActionKind::kGpuFailure)) {
      st = dur(&a.recover_after_ms);
    } else if (key == "duration" && a.kind == ActionKind::kDrain) {
      st = dur(&a.duration_ms);
    } else if (key == "maxUnavailable" && a.kind == ActionKind::kDrain) {
      st = cnt(&a.max_unavailable);
    } else if (key == "waveInterval" && a.kind == ActionKind::kDrain) {
      st = dur(&a.wave_interval_ms);
    } else if (key == "count" && a.kind == ActionKind::kScaleUp) {
      st = cnt(&a.count);
    } else if (key == "coldStart" && a.kind == ActionKind::kScaleUp) {
      st = dur(&a.cold_start_ms);
    } else {
      return FieldError(path, kf, std::string("unknown field for action ") + ActionKindName(a.kind));
    }
    if (!st.ok()) return st.error();
  }
  if (a.node_names.empty() && !a.selector) {
    return FieldError(path, f, "names no nodes (give nodes or selector)");
  }
  if (a.kind == ActionKind::kDrain && a.wave_interval_ms <= 0) {
    return FieldError(path, f + ".waveInterval", "must be positive");
  }
  if (a.kind == ActionKind::kGpuFailure && a.gpus < 1) {
    return FieldError(path, f + ".gpus", "must be at least 1");
  }
  return a;
}

}  // namespace

core::Result<ScenarioFile> ParseScenario(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return core::InvalidArgument(path + ": line " + std::to_string(e.mark.line + 1) +
                                 ": malformed YAML: " + e.msg);
  }
  try {
    if (!root.IsMap()) return core::InvalidArgument(path + ": not a YAML map");
    std::string kind;
    if (root["kind"]) {
      auto k = Scalar(root["kind"], path, "kind");
      if (!k) return k.error();
      kind = *k;
    }
    if (kind != "SimulationScenario") {
      return FieldError(path, "kind", "must be SimulationScenario, got \"" + kind + "\"");
    }
    ScenarioFile out;
    if (root["metadata"] && root["metadata"]["name"]) {
      auto name = Scalar(root["metadata"]["name"], path, "metadata.name");
      if (!name) return name.error();
      out.name = *name;
    }
    const YAML::Node spec = root["spec"];
    if (!spec || !spec.IsMap()) return FieldError(path, "spec", "is required");
    for (const auto& kv : spec) {
      const std::string key = kv.first.as<std::string>();
      const std::string f = "spec." + key;
      if (key == "fleet" || key == "trace" || key == "tenantQueues") {
        auto v = Scalar(kv.second, path, f);
        if (!v) return v.error();
        (key == "fleet" ? out.fleet : key == "trace" ? out.trace : out.tenant_queues) =
            Resolve(path, *v);
      } else if (key == "format" || key == "cluster") {
        auto v = Scalar(kv.second, path, f);
        if (!v) return v.error();
        (key == "format" ? out.format : out.cluster) = *v;
      } else if (key == "tenantQueue") {
        if (!kv.second.IsSequence()) return FieldError(path, f, "must be a list");
        for (size_t k = 0; k < kv.second.size(); ++k) {
          auto v = Scalar(kv.second[k], path, f + "[" + std::to_string(k) + "]");
          if (!v) return v.error();
          out.tenant_queue.push_back(*v);
        }
      } else if (key == "until" || key == "metricsInterval") {
        auto v = DurationMs(kv.second, path, f);
        if (!v) return v.error();
        // Zero would mean "no end" to the replay and "every instant" to the metrics (which
        // the CLI used to round up to one second): say so instead of guessing.
        if (*v < 1000) return FieldError(path, f, "must be at least 1s");
        (key == "until" ? out.until_s : out.metrics_interval_s) = *v / 1000;
      } else if (key == "maxGpusPerPod") {
        auto v = Count(kv.second, path, f);
        if (!v) return v.error();
        if (*v == 0) return FieldError(path, f, "must be positive");
        out.max_gpus_per_pod = *v;
      } else if (key == "events") {
        if (!kv.second.IsSequence()) return FieldError(path, f, "must be a list");
        for (size_t i = 0; i < kv.second.size(); ++i) {
          auto a = Action(kv.second[i], path, i);
          if (!a) return a.error();
          out.actions.push_back(std::move(*a));
        }
      } else {
        return FieldError(path, f,
                          "unknown field (fleet, trace, format, tenantQueues, tenantQueue, "
                          "cluster, until, metricsInterval, maxGpusPerPod, events)");
      }
    }
    return out;
  } catch (const YAML::Exception& e) {
    return core::InvalidArgument(path + ": line " + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
}

core::Result<ScenarioFile> ReadScenarioFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::NotFound(path + ": cannot open the scenario file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseScenario(buffer.str(), path);
}

}  // namespace berth::sim
