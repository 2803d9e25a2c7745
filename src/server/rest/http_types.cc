#include "server/rest/http_types.h"

#include "core/ascii.h"

namespace berth::server {

std::string_view HttpRequest::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < key.size() && same; ++i) {
      same = core::AsciiToLower(key[i]) == core::AsciiToLower(name[i]);
    }
    if (same) return value;
  }
  return {};
}

}  // namespace berth::server
