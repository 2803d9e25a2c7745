// QueryParams: a URL query string ("limit=5&labelSelector=app%3Dx") decoded into ordered
// (key, value) pairs, looked up as Go's url.Values.Get does (the first value of a key).
// Called by the HTTP layer before ParseRequest and ParseListOptions. Plain value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/api/api_error.h"

namespace berth::server {

struct QueryParams {
  std::vector<std::pair<std::string, std::string>> pairs;  // in the order given

  // The first value of `key`; nullopt when absent. O(pairs).
  std::optional<std::string_view> Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key).has_value(); }
};

// Splits on '&', then the first '='; percent-escapes and '+' (a space) are decoded in keys and
// values. A malformed escape ("%zz", "%4") is a 400, as Go's url.ParseQuery refuses it.
ApiResult<QueryParams> ParseQuery(std::string_view raw);

// Percent-decodes `s` ('+' left alone, as in a path); nullopt on a malformed escape.
std::optional<std::string> PercentDecode(std::string_view s, bool plus_is_space);

}  // namespace berth::server
