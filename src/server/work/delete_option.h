// DeleteOption: a ManifestWork's spec.deleteOption (work.open-cluster-management.io/v1):
// what happens to the applied resources when the work is deleted or drops a manifest.
// Foreground (the default) deletes them all, Orphan none, SelectivelyOrphan all but those its
// orphaningRules name exactly. Owns() is OCM's helper.OwnedByTheWork: the applier marks only
// owned resources as the work's, and the remover deletes only those. Plain value;
// thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace berth::server::work {

using Json = nlohmann::ordered_json;

struct OrphaningRule {
  std::string group;
  std::string resource;
  std::string namespace_;
  std::string name;
};

struct DeleteOption {
  enum class Policy { kForeground, kOrphan, kSelectivelyOrphan };
  Policy policy = Policy::kForeground;
  bool has_selectively_orphans = false;  // selectivelyOrphans was given
  std::vector<OrphaningRule> orphaning_rules;

  // spec.deleteOption (null when absent). An unknown policy string reads as Foreground, the
  // API's default (the CRD refuses it before it reaches an agent).
  static DeleteOption FromJson(const Json& delete_option);

  // Whether the work owns (and so may delete) the resource: always under Foreground, never
  // under Orphan; under SelectivelyOrphan unless an orphaning rule names it exactly.
  bool Owns(std::string_view group, std::string_view resource, std::string_view ns,
            std::string_view name) const;
};

}  // namespace berth::server::work
