// ManifestConfig: what a ManifestWork's spec.manifestConfigs[] says about one manifest,
// resolved as OCM's helper.FindManifestConfiguration resolves it: configs whose
// resourceIdentifier {group, resource, name, namespace} matches the manifest ('*' in name and
// namespace matches any run of characters) are walked in order, and the first one giving
// feedbackRules, conditionRules or updateStrategy supplies that part. Read by the work
// applier before it applies a manifest and when it reads status back. Plain values;
// thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/wildcard.h"
#include "server/work/resource_meta.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

// updateStrategy.serverSideApply.ignoreFields[] entry.
struct IgnoreField {
  std::string condition = "OnSpokePresent";  // or "OnSpokeChange"
  std::vector<std::string> json_paths;
  std::vector<std::string> json_pointers;
  std::vector<std::string> jq_path_expressions;  // not supported by berth (an apply error)
};

struct ManifestConfig {
  bool matched = false;  // some config matched with a rule or a strategy
  // updateStrategy.type: "Update" (default, also when empty), "CreateOnly",
  // "ServerSideApply", "ReadOnly"; anything else is refused when applying.
  std::string strategy = "Update";
  // updateStrategy.serverSideApply.
  bool force = false;
  std::string field_manager = "work-agent";  // upstream's DefaultFieldManager
  std::vector<IgnoreField> ignore_fields;
  Json feedback_rules;   // the matched feedbackRules array, or null
  Json condition_rules;  // the matched conditionRules array, or null
};

// '*' in `pattern` matches any run of characters; otherwise the strings must be equal.
using core::WildcardMatch;

// Whether a resourceIdentifier object matches the manifest (group and resource exactly, name
// and namespace with wildcards).
bool ResourceIdentifierMatches(const ResourceMeta& meta, const Json& identifier);

// The configuration of the manifest `meta` from spec.manifestConfigs (null or an array).
ManifestConfig FindManifestConfig(const ResourceMeta& meta, const Json& manifest_configs);

}  // namespace berth::server::work
