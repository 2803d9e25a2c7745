// UserInfo: who a request comes from, as kube-apiserver's authenticators establish it (user
// name, uid, groups). Every authenticated user is also in system:authenticated. Plain value.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace berth::server {

inline constexpr std::string_view kMastersGroup = "system:masters";
inline constexpr std::string_view kAuthenticatedGroup = "system:authenticated";

struct UserInfo {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;

  bool InGroup(std::string_view group) const {
    return std::find(groups.begin(), groups.end(), group) != groups.end();
  }
};

}  // namespace berth::server
