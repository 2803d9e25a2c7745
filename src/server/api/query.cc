#include "server/api/query.h"

namespace berth::server {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::optional<std::string_view> QueryParams::Get(std::string_view key) const {
  for (const auto& [k, v] : pairs) {
    if (k == key) return std::string_view(v);
  }
  return std::nullopt;
}

std::optional<std::string> PercentDecode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = HexValue(s[i + 1]);
      const int lo = HexValue(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

ApiResult<QueryParams> ParseQuery(std::string_view raw) {
  QueryParams q;
  size_t pos = 0;
  while (pos <= raw.size()) {
    size_t amp = raw.find('&', pos);
    if (amp == std::string_view::npos) amp = raw.size();
    const std::string_view part = raw.substr(pos, amp - pos);
    pos = amp + 1;
    if (part.empty()) continue;
    const size_t eq = part.find('=');
    const std::string_view key = part.substr(0, eq);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1);
    auto k = PercentDecode(key, true);
    auto v = PercentDecode(value, true);
    if (!k || !v) {
      return BadRequestError("invalid URL escape in query " + std::string(part));
    }
    q.pairs.emplace_back(std::move(*k), std::move(*v));
  }
  return q;
}

}  // namespace berth::server
