// Ported from OCM pkg/work/spoke/statusfeedback (reader.go GetValuesByRule and
// getValueByJsonPath, rules/rule.go DefaultWellKnownStatusRule) and the StatusFeedbackSynced
// condition of statuscontroller/availablestatus_controller.go getFeedbackValues. Messages
// keep upstream's wording so a hub reading them sees what OCM's agent would have written.
// JsonRaw strings are compact JSON with object keys sorted, as Go's json.Marshal writes a
// map[string]interface{}.
#include "server/work/status_feedback.h"

#include <cstdint>
#include <limits>

#include "server/work/feedback_json_path.h"
#include "server/work/work_conditions.h"

namespace berth::server::work {

namespace {

std::string FeedbackString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// (group, version, kind) of an object's apiVersion and kind.
struct FeedbackGvk {
  std::string group;
  std::string version;
  std::string kind;
  // Go's schema.GroupVersionKind.String(): "apps/v1, Kind=Deployment", "/v1, Kind=Pod".
  std::string ToString() const { return group + "/" + version + ", Kind=" + kind; }
};

FeedbackGvk FeedbackGvkOf(const Json& object) {
  FeedbackGvk gvk;
  const std::string api_version = FeedbackString(object, "apiVersion");
  const size_t slash = api_version.find('/');
  if (slash == std::string::npos) {
    gvk.version = api_version;
  } else {
    gvk.group = api_version.substr(0, slash);
    gvk.version = api_version.substr(slash + 1);
  }
  gvk.kind = FeedbackString(object, "kind");
  return gvk;
}

// Compact JSON with sorted object keys (Go's json.Marshal of unstructured content).
std::string FeedbackGoJson(const Json& value) {
  const std::string ordered = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  const nlohmann::json sorted = nlohmann::json::parse(ordered, nullptr, /*allow_exceptions=*/false);
  return sorted.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Json FeedbackValueEntry(const std::string& name, Json field_value) {
  Json v = Json::object();
  v["name"] = name;
  v["fieldValue"] = std::move(field_value);
  return v;
}

// The value of one path, or nothing (Json null) when it selects nothing or only null; the
// error is upstream's sentence for the failure.
struct FeedbackPathValue {
  Json value;  // null: no value
  std::string error;
};

FeedbackPathValue FeedbackValueAt(const std::string& name, const std::string& path,
                                  const Json& object, const FeedbackOptions& options) {
  FeedbackPathValue out;
  auto parsed = FeedbackJsonPath::Parse(path);
  if (!parsed) {
    out.error = "failed to parse json path " + path + " of " + name +
                " with error: " + parsed.error().message();
    return out;
  }
  auto found = parsed->Find(object);
  if (!found) {
    out.error = "failed to find value for " + name + " with error: " + found.error().message();
    return out;
  }
  if (found->empty()) return out;
  // Without the gate only the first selected value counts (upstream's backward-compatible
  // behaviour); with it, several values are reported together as a list.
  Json value;
  if (found->size() == 1 || !options.raw_json) {
    value = *found->front();
  } else {
    value = Json::array();
    for (const Json* v : *found) value.push_back(*v);
  }
  if (value.is_null()) return out;
  Json field = Json::object();
  // An unsigned integer past int64 would not decode as Go's int64 either.
  const bool fits_int64 =
      !value.is_number_unsigned() ||
      value.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (value.is_number_integer() && fits_int64) {
    field["type"] = "Integer";
    field["integer"] = value.get<int64_t>();
  } else if (value.is_string()) {
    field["type"] = "String";
    field["string"] = value;
  } else if (value.is_boolean()) {
    field["type"] = "Boolean";
    field["boolean"] = value;
  } else if (options.raw_json) {
    std::string raw = FeedbackGoJson(value);
    if (raw.size() > options.max_json_raw_length) {
      out.error = "the length of returned json raw string for " + name +
                  " is larger than the maximum length " +
                  std::to_string(options.max_json_raw_length);
      return out;
    }
    field["type"] = "JsonRaw";
    field["jsonRaw"] = std::move(raw);
  } else {
    const char* go_type = value.is_object()  ? "map[string]interface {}"
                          : value.is_array() ? "[]interface {}"
                                             : "float64";
    out.error = std::string("the type ") + go_type + " of the value for " + name + " is not found";
    return out;
  }
  out.value = FeedbackValueEntry(name, std::move(field));
  return out;
}

}  // namespace

std::span<const WellKnownStatusPath> WellKnownStatusPaths(std::string_view group,
                                                          std::string_view version,
                                                          std::string_view kind) {
  return model::WellKnownStatusPaths(group, version, kind);
}

FeedbackRuleResult EvaluateFeedbackRule(const Json& object, const Json& rule,
                                        const FeedbackOptions& options) {
  FeedbackRuleResult out;
  const std::string type = FeedbackString(rule, "type");
  const FeedbackGvk gvk = FeedbackGvkOf(object);
  auto add = [&](const std::string& name, const std::string& path) {
    FeedbackPathValue v = FeedbackValueAt(name, path, object, options);
    if (!v.error.empty()) {
      out.errors.push_back(std::move(v.error));
    } else if (!v.value.is_null()) {
      out.values.push_back(std::move(v.value));
    }
  };
  if (type == "WellKnownStatus") {
    const auto paths = WellKnownStatusPaths(gvk.group, gvk.version, gvk.kind);
    if (paths.empty()) {
      out.errors.push_back("cannot find the wellknown statuses for resource with gvk " +
                           gvk.ToString());
      return out;
    }
    for (const WellKnownStatusPath& p : paths) add(std::string(p.name), std::string(p.path));
  } else if (type == "JSONPaths") {
    auto paths = rule.is_object() ? rule.find("jsonPaths") : rule.end();
    if (paths == rule.end() || !paths->is_array()) return out;
    for (const Json& p : *paths) {
      const std::string name = FeedbackString(p, "name");
      const std::string version = FeedbackString(p, "version");
      if (!version.empty() && version != gvk.version) {
        out.errors.push_back("version set in the path " + name +
                             " is not matched for the related resource");
        continue;
      }
      add(name, FeedbackString(p, "path"));
    }
  }
  // Another type: upstream's switch has no case for it, so it reads nothing and fails nothing.
  return out;
}

StatusFeedback EvaluateStatusFeedback(const Json& object, const Json& feedback_rules,
                                      const FeedbackOptions& options) {
  StatusFeedback out;
  if (!feedback_rules.is_array() || feedback_rules.empty()) {
    out.condition = MakeCondition("StatusFeedbackSynced", "True", "NoStatusFeedbackSynced", "");
    return out;
  }
  std::vector<std::string> errors;
  for (const Json& rule : feedback_rules) {
    FeedbackRuleResult r = EvaluateFeedbackRule(object, rule, options);
    for (Json& v : r.values) out.values.push_back(std::move(v));
    for (std::string& e : r.errors) errors.push_back(std::move(e));
  }
  if (errors.empty()) {
    out.condition = MakeCondition("StatusFeedbackSynced", "True", "StatusFeedbackSynced", "");
    return out;
  }
  // utilerrors.NewAggregate's Error(): the message alone, or "[a, b]" for several.
  std::string aggregate = errors.front();
  if (errors.size() > 1) {
    aggregate = "[";
    for (size_t i = 0; i < errors.size(); ++i) aggregate += (i ? ", " : "") + errors[i];
    aggregate += "]";
  }
  out.condition = MakeCondition("StatusFeedbackSynced", "False", "StatusFeedbackSyncFailed",
                                "Sync status feedback failed with error " + aggregate);
  return out;
}

}  // namespace berth::server::work
