// A list in one annotation rather than one annotation per owner: an owner name is a 64-hex
// hub hash plus the work's name, longer than an annotation key's 63-character name part.
// Work names are DNS subdomains, so ',' never occurs inside one.
#include "server/work/owner_mark.h"

#include <algorithm>

namespace berth::server::work {

namespace {

std::vector<std::string> OwnerMarkSplit(std::string_view list) {
  std::vector<std::string> out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace

std::vector<std::string> MarkedOwners(const Json& object) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto annotations = meta->find("annotations");
  if (annotations == meta->end() || !annotations->is_object()) return {};
  auto mark = annotations->find(std::string(kAppliedByAnnotation));
  if (mark == annotations->end() || !mark->is_string()) return {};
  return OwnerMarkSplit(mark->get<std::string>());
}

bool IsMarkedBy(const Json& object, std::string_view owner) {
  const std::vector<std::string> owners = MarkedOwners(object);
  return std::find(owners.begin(), owners.end(), owner) != owners.end();
}

bool SetOwnerMark(Json& annotations, std::string_view owner, bool owned) {
  if (!annotations.is_object()) annotations = Json::object();
  const std::string key(kAppliedByAnnotation);
  std::vector<std::string> owners;
  if (auto it = annotations.find(key); it != annotations.end() && it->is_string()) {
    owners = OwnerMarkSplit(it->get<std::string>());
  }
  std::vector<std::string> next = owners;
  auto found = std::find(next.begin(), next.end(), owner);
  if (owned && found == next.end()) next.emplace_back(owner);
  if (!owned && found != next.end()) next.erase(found);
  std::sort(next.begin(), next.end());
  next.erase(std::unique(next.begin(), next.end()), next.end());
  std::string joined;
  for (const std::string& o : next) joined += (joined.empty() ? "" : ",") + o;
  const bool present = annotations.contains(key);
  if (next.empty()) {
    if (!present) return false;
    annotations.erase(key);
    return true;
  }
  if (present && annotations[key].is_string() && annotations[key].get<std::string>() == joined) {
    return false;
  }
  annotations[key] = joined;
  return true;
}

}  // namespace berth::server::work
