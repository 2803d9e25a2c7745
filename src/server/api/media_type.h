// Media ranges of an Accept header ("application/json;as=Table;v=v1;g=meta.k8s.io, */*"),
// split and lower-cased as Go's mime parsing leaves them for kube-apiserver's negotiation.
// Called by discovery and table negotiation. Pure.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace berth::server {

struct MediaRange {
  std::string type;  // "application/json", lower case
  std::map<std::string, std::string, std::less<>> params;  // keys lower case, values as sent

  // The parameter's value, or "" when absent.
  std::string_view Param(std::string_view key) const;
  // Whether the range accepts JSON ("application/json", "application/*", "*/*").
  bool AcceptsJson() const;
};

// The ranges in the header's order, without those of q=0. O(header length).
std::vector<MediaRange> ParseAccept(std::string_view accept);

}  // namespace berth::server
