// Ported from OCM pkg/work/helper/helpers.go (FindManifestConfiguration, resourceMatch,
// wildcardMatch). Upstream builds a regular expression from the pattern; a glob match on '*'
// alone is the same language and needs no regex engine.
#include "server/work/manifest_config.h"

namespace berth::server::work {

namespace {

std::string ConfigString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> ConfigStrings(const Json& object, const char* key) {
  std::vector<std::string> out;
  if (!object.is_object()) return out;
  auto it = object.find(key);
  if (it == object.end() || !it->is_array()) return out;
  for (const Json& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

bool ConfigNonEmptyArray(const Json& object, const char* key) {
  if (!object.is_object()) return false;
  auto it = object.find(key);
  return it != object.end() && it->is_array() && !it->empty();
}

void ReadUpdateStrategy(const Json& strategy, ManifestConfig* out) {
  const std::string type = ConfigString(strategy, "type");
  out->strategy = type.empty() ? "Update" : type;
  auto ssa = strategy.find("serverSideApply");
  if (ssa == strategy.end() || !ssa->is_object()) return;
  if (auto f = ssa->find("force"); f != ssa->end() && f->is_boolean()) out->force = f->get<bool>();
  if (const std::string manager = ConfigString(*ssa, "fieldManager"); !manager.empty()) {
    out->field_manager = manager;
  }
  auto ignores = ssa->find("ignoreFields");
  if (ignores == ssa->end() || !ignores->is_array()) return;
  for (const Json& i : *ignores) {
    IgnoreField field;
    if (const std::string c = ConfigString(i, "condition"); !c.empty()) field.condition = c;
    field.json_paths = ConfigStrings(i, "jsonPaths");
    field.json_pointers = ConfigStrings(i, "jsonPointers");
    field.jq_path_expressions = ConfigStrings(i, "jqPathExpressions");
    out->ignore_fields.push_back(std::move(field));
  }
}

}  // namespace

bool ResourceIdentifierMatches(const ResourceMeta& meta, const Json& identifier) {
  return meta.group == ConfigString(identifier, "group") &&
         meta.resource == ConfigString(identifier, "resource") &&
         WildcardMatch(meta.namespace_, ConfigString(identifier, "namespace")) &&
         WildcardMatch(meta.name, ConfigString(identifier, "name"));
}

ManifestConfig FindManifestConfig(const ResourceMeta& meta, const Json& manifest_configs) {
  ManifestConfig out;
  if (!manifest_configs.is_array()) return out;
  bool have_strategy = false;
  for (const Json& option : manifest_configs) {
    if (!option.is_object()) continue;
    auto id = option.find("resourceIdentifier");
    if (id == option.end() || !ResourceIdentifierMatches(meta, *id)) continue;
    if (out.condition_rules.is_null() && ConfigNonEmptyArray(option, "conditionRules")) {
      out.condition_rules = option["conditionRules"];
    }
    if (out.feedback_rules.is_null() && ConfigNonEmptyArray(option, "feedbackRules")) {
      out.feedback_rules = option["feedbackRules"];
    }
    if (auto s = option.find("updateStrategy");
        !have_strategy && s != option.end() && s->is_object()) {
      have_strategy = true;
      ReadUpdateStrategy(*s, &out);
    }
  }
  out.matched = have_strategy || !out.feedback_rules.is_null() || !out.condition_rules.is_null();
  return out;
}

}  // namespace berth::server::work
