// Ported from OCM pkg/work/helper/helpers.go OwnedByTheWork: orphaning rules match group,
// resource, namespace and name exactly (no wildcards, unlike manifestConfigs), and a
// SelectivelyOrphan option without selectivelyOrphans orphans nothing.
#include "server/work/delete_option.h"

namespace berth::server::work {

namespace {

std::string DeleteOptionString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

DeleteOption DeleteOption::FromJson(const Json& delete_option) {
  DeleteOption out;
  if (!delete_option.is_object()) return out;
  const std::string policy = DeleteOptionString(delete_option, "propagationPolicy");
  if (policy == "Orphan") out.policy = Policy::kOrphan;
  if (policy == "SelectivelyOrphan") out.policy = Policy::kSelectivelyOrphan;
  auto selective = delete_option.find("selectivelyOrphans");
  if (selective == delete_option.end() || !selective->is_object()) return out;
  out.has_selectively_orphans = true;
  auto rules = selective->find("orphaningRules");
  if (rules == selective->end() || !rules->is_array()) return out;
  for (const Json& r : *rules) {
    out.orphaning_rules.push_back(
        OrphaningRule{DeleteOptionString(r, "group"), DeleteOptionString(r, "resource"),
                      DeleteOptionString(r, "namespace"), DeleteOptionString(r, "name")});
  }
  return out;
}

bool DeleteOption::Owns(std::string_view group, std::string_view resource, std::string_view ns,
                        std::string_view name) const {
  if (policy == Policy::kForeground) return true;
  if (policy == Policy::kOrphan) return false;
  if (!has_selectively_orphans) return true;
  for (const OrphaningRule& r : orphaning_rules) {
    if (r.group == group && r.resource == resource && r.namespace_ == ns && r.name == name) {
      return false;
    }
  }
  return true;
}

}  // namespace berth::server::work
