// Why a strict reader: a study compares strategies by a few numbers, and a misspelt key
// (maxOriginPull) silently falling back to "no limit" would compare the wrong thing. Every
// unknown key is an error naming the field, like the SimulationScenario reader's.
#include "sim/modelload/study_file.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/trace/values.h"

namespace berth::sim::modelload {
namespace {

// The reader's state: the file and the study's object name for every error.
struct StudyWhere {
  std::string path;
  std::string object = "ModelLoadStudy";

  core::Error Bad(const std::string& field, const std::string& why) const {
    return core::InvalidArgument(why, core::Location{path, object, field});
  }
};

std::string ResolveStudyPath(const std::string& file, const std::string& relative) {
  if (relative.empty() || std::filesystem::path(relative).is_absolute()) return relative;
  return (std::filesystem::path(file).parent_path() / relative).lexically_normal().string();
}

core::Result<std::string> StudyScalar(const YAML::Node& node, const StudyWhere& w,
                                      const std::string& field) {
  if (!node.IsScalar()) return w.Bad(field, "must be a string or number");
  return node.Scalar();
}

core::Result<int32_t> StudyCount(const YAML::Node& node, const StudyWhere& w,
                                 const std::string& field) {
  BERTH_ASSIGN_OR_RETURN(std::string text, StudyScalar(node, w, field));
  auto v = ParseCount(text);
  if (!v) return w.Bad(field, "\"" + text + "\": " + v.error().message());
  return *v;
}

core::Result<bool> StudyBool(const YAML::Node& node, const StudyWhere& w,
                             const std::string& field) {
  BERTH_ASSIGN_OR_RETURN(std::string text, StudyScalar(node, w, field));
  if (text == "true") return true;
  if (text == "false") return false;
  return w.Bad(field, "\"" + text + "\" is not true or false");
}

// A finite decimal number in [lo, hi].
core::Result<double> StudyNumber(const std::string& text, const StudyWhere& w,
                                 const std::string& field, double lo, double hi) {
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) || v < lo ||
      v > hi) {
    std::ostringstream range;
    range << lo << " to " << hi;
    return w.Bad(field, "\"" + text + "\" is not a number from " + range.str());
  }
  return v;
}

core::Result<OriginOverride> StudyOrigin(const YAML::Node& node, const StudyWhere& w,
                                         const std::string& field) {
  if (!node.IsMap()) return w.Bad(field, "must be a map (egressGBps, streamGBps)");
  OriginOverride o;
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    const std::string f = field + "." + key;
    if (key != "egressGBps" && key != "streamGBps") {
      return w.Bad(f, "unknown field (egressGBps, streamGBps)");
    }
    BERTH_ASSIGN_OR_RETURN(std::string text, StudyScalar(kv.second, w, f));
    // Zero would read as "the default" (the data module's 0 rule): say so instead.
    BERTH_ASSIGN_OR_RETURN(double v, StudyNumber(text, w, f, 0, kMaxGBps));
    if (v <= 0) return w.Bad(f, "must be positive (leave it out for the default)");
    (key == "egressGBps" ? o.egress_gbps : o.stream_gbps) = v;
  }
  return o;
}

core::Status StudyWarmNodes(const YAML::Node& node, const StudyWhere& w, const std::string& field,
                            StudyStrategy* s) {
  BERTH_ASSIGN_OR_RETURN(std::string text, StudyScalar(node, w, field));
  if (!text.empty() && text.back() == '%') {
    BERTH_ASSIGN_OR_RETURN(double pct,
                           StudyNumber(text.substr(0, text.size() - 1), w, field, 0, 100));
    s->warm_percent = pct;
    return core::Status();
  }
  auto v = ParseCount(text);
  if (!v) return w.Bad(field, "\"" + text + "\" is neither a node count nor a percent (25%)");
  s->warm_nodes = *v;
  return core::Status();
}

core::Result<StudyStrategy> StudyStrategyAt(const YAML::Node& node, const StudyWhere& w, size_t i) {
  const std::string f = "spec.strategies[" + std::to_string(i) + "]";
  if (!node.IsMap()) return w.Bad(f, "must be a map");
  StudyStrategy s;
  if (!node["name"]) return w.Bad(f + ".name", "is required");
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    const std::string kf = f + "." + key;
    if (key == "name") {
      BERTH_ASSIGN_OR_RETURN(s.name, StudyScalar(kv.second, w, kf));
      if (s.name.empty()) return w.Bad(kf, "must not be empty");
    } else if (key == "maxOriginPulls") {
      BERTH_ASSIGN_OR_RETURN(s.max_origin_pulls, StudyCount(kv.second, w, kf));
    } else if (key == "maxOriginPullsPerCluster") {
      BERTH_ASSIGN_OR_RETURN(s.max_origin_pulls_per_cluster, StudyCount(kv.second, w, kf));
    } else if (key == "p2p") {
      BERTH_ASSIGN_OR_RETURN(s.p2p, StudyBool(kv.second, w, kf));
    } else if (key == "fleetCache") {
      BERTH_ASSIGN_OR_RETURN(s.fleet_cache, StudyBool(kv.second, w, kf));
    } else if (key == "warmNodes") {
      BERTH_RETURN_IF_ERROR(StudyWarmNodes(kv.second, w, kf, &s));
    } else if (key == "warmUp") {
      if (!kv.second.IsMap()) return w.Bad(kf, "must be a map (seedNodes)");
      for (const auto& wk : kv.second) {
        const std::string k2 = wk.first.Scalar();
        if (k2 != "seedNodes") return w.Bad(kf + "." + k2, "unknown field (seedNodes)");
        BERTH_ASSIGN_OR_RETURN(s.warmup_seed_nodes, StudyCount(wk.second, w, kf + "." + k2));
        if (s.warmup_seed_nodes == 0) return w.Bad(kf + "." + k2, "must be at least 1");
      }
      if (!kv.second["seedNodes"]) return w.Bad(kf + ".seedNodes", "is required");
    } else if (key == "origin") {
      BERTH_ASSIGN_OR_RETURN(s.origin, StudyOrigin(kv.second, w, kf));
    } else {
      return w.Bad(kf,
                   "unknown field (name, maxOriginPulls, maxOriginPullsPerCluster, p2p, "
                   "fleetCache, warmNodes, warmUp, origin)");
    }
  }
  return s;
}

core::Result<ModelLoadStudy> ParseStudy(const YAML::Node& root, const std::string& path) {
  StudyWhere w{path};
  if (!root.IsMap()) return w.Bad("", "not a YAML map");
  const std::string kind = root["kind"] && root["kind"].IsScalar() ? root["kind"].Scalar() : "";
  if (kind != "ModelLoadStudy") {
    return w.Bad("kind", "must be ModelLoadStudy, got \"" + kind + "\"");
  }
  ModelLoadStudy out;
  out.path = path;
  out.name = std::filesystem::path(path).stem().string();
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    if (key == "apiVersion") {
      BERTH_ASSIGN_OR_RETURN(std::string v, StudyScalar(kv.second, w, key));
      if (v != "berth.dev/v1alpha1") return w.Bad(key, "must be berth.dev/v1alpha1");
    } else if (key == "metadata") {
      if (!kv.second.IsMap()) return w.Bad(key, "must be a map");
      for (const auto& m : kv.second) {
        const std::string mk = m.first.Scalar();
        if (mk != "name") return w.Bad("metadata." + mk, "unknown field (name)");
        BERTH_ASSIGN_OR_RETURN(out.name, StudyScalar(m.second, w, "metadata.name"));
      }
    } else if (key != "kind" && key != "spec") {
      return w.Bad(key, "unknown field (apiVersion, kind, metadata, spec)");
    }
  }
  w.object = "ModelLoadStudy/" + out.name;
  const YAML::Node spec = root["spec"];
  if (!spec || !spec.IsMap()) return w.Bad("spec", "is required (a map)");
  for (const auto& kv : spec) {
    const std::string key = kv.first.Scalar();
    const std::string f = "spec." + key;
    if (key == "fleet") {
      BERTH_ASSIGN_OR_RETURN(std::string v, StudyScalar(kv.second, w, f));
      out.fleet = ResolveStudyPath(path, v);
    } else if (key == "inferenceService") {
      BERTH_ASSIGN_OR_RETURN(out.inference_service, StudyScalar(kv.second, w, f));
    } else if (key == "replicas") {
      BERTH_ASSIGN_OR_RETURN(int32_t n, StudyCount(kv.second, w, f));
      if (n < 1 || n > kMaxStudyReplicas) {
        return w.Bad(f, std::to_string(n) + " is not a replica count from 1 to " +
                            std::to_string(kMaxStudyReplicas));
      }
      out.replicas = n;
    } else if (key == "origin") {
      BERTH_ASSIGN_OR_RETURN(out.origin, StudyOrigin(kv.second, w, f));
    } else if (key == "strategies") {
      if (!kv.second.IsSequence()) return w.Bad(f, "must be a list");
      std::set<std::string> names;
      for (size_t i = 0; i < kv.second.size(); ++i) {
        BERTH_ASSIGN_OR_RETURN(StudyStrategy s, StudyStrategyAt(kv.second[i], w, i));
        if (!names.insert(s.name).second) {
          return w.Bad(f + "[" + std::to_string(i) + "].name",
                       "\"" + s.name + "\" names another strategy already");
        }
        out.strategies.push_back(std::move(s));
      }
    } else {
      return w.Bad(f, "unknown field (fleet, inferenceService, replicas, origin, strategies)");
    }
  }
  if (out.fleet.empty()) return w.Bad("spec.fleet", "is required");
  if (out.inference_service.empty()) return w.Bad("spec.inferenceService", "is required");
  if (out.strategies.empty()) return w.Bad("spec.strategies", "needs at least one strategy");
  if (out.strategies.size() > static_cast<size_t>(kMaxStudyStrategies)) {
    return w.Bad("spec.strategies", "at most " + std::to_string(kMaxStudyStrategies) +
                                        " strategies, got " +
                                        std::to_string(out.strategies.size()));
  }
  return out;
}

}  // namespace

bool IsModelLoadStudy(const std::string& text) {
  try {
    const YAML::Node root = YAML::Load(text);
    return root.IsMap() && root["kind"] && root["kind"].IsScalar() &&
           root["kind"].Scalar() == "ModelLoadStudy";
  } catch (const YAML::Exception&) {
    return false;
  }
}

core::Result<ModelLoadStudy> ParseModelLoadStudy(const std::string& text, const std::string& path) {
  // yaml-cpp throws on malformed text and on some conversions: caught here, the edge.
  try {
    return ParseStudy(YAML::Load(text), path);
  } catch (const YAML::Exception& e) {
    return core::InvalidArgument(
        "line " + std::to_string(e.mark.line + 1) + ": malformed YAML: " + e.msg,
        core::Location{path, "", ""});
  }
}

core::Result<ModelLoadStudy> ReadModelLoadStudyFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::NotFound("cannot open the study file", core::Location{path, "", ""});
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseModelLoadStudy(buffer.str(), path);
}

}  // namespace berth::sim::modelload
