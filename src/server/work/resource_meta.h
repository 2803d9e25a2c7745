// ResourceMeta: which object one manifest of a ManifestWork is, as OCM's ManifestResourceMeta
// (work.open-cluster-management.io/v1) names it in status.resourceStatus.manifests[]: its
// ordinal in spec.workload.manifests and its group, version, kind, resource, name and
// namespace (empty for a cluster-scoped kind). Built by the work applier, read by the
// status and feedback steps. Plain value; thread-compatible.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace berth::server::work {

using Json = nlohmann::ordered_json;

struct ResourceMeta {
  int32_t ordinal = 0;
  std::string group;
  std::string version;
  std::string kind;
  std::string resource;  // "" when the member cluster does not serve the kind
  std::string name;
  std::string namespace_;

  bool operator==(const ResourceMeta&) const = default;

  // Whether the object can be read back: resource, version and name are all known (OCM's
  // object reader reports IncompleteResourceMeta otherwise).
  bool Complete() const { return !resource.empty() && !version.empty() && !name.empty(); }

  // {ordinal, group, version, kind, resource, name, namespace}: every field, as upstream's
  // JSON tags (none omitempty) write them.
  Json ToJson() const;
  // The fields of a resourceMeta object; missing or mistyped members stay empty (a status
  // written by another agent is read leniently: it only seeds the merge of conditions).
  static ResourceMeta FromJson(const Json& meta);
};

}  // namespace berth::server::work
