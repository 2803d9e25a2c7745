#include "server/api/media_type.h"

#include "core/ascii.h"

namespace berth::server {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsZeroQ(std::string_view q) {
  if (q.empty() || q[0] != '0') return false;
  for (char c : q.substr(1)) {
    if (c != '.' && c != '0') return false;
  }
  return true;
}

}  // namespace

std::string_view MediaRange::Param(std::string_view key) const {
  auto it = params.find(key);
  return it == params.end() ? std::string_view() : std::string_view(it->second);
}

bool MediaRange::AcceptsJson() const {
  return type == "application/json" || type == "application/*" || type == "*/*";
}

std::vector<MediaRange> ParseAccept(std::string_view accept) {
  std::vector<MediaRange> out;
  size_t pos = 0;
  while (pos <= accept.size()) {
    size_t comma = accept.find(',', pos);
    if (comma == std::string_view::npos) comma = accept.size();
    const std::string_view text = accept.substr(pos, comma - pos);
    pos = comma + 1;
    MediaRange r;
    size_t semi = text.find(';');
    r.type = core::AsciiLower(Trim(text.substr(0, semi)));
    if (r.type.empty()) continue;
    while (semi != std::string_view::npos) {
      const size_t start = semi + 1;
      semi = text.find(';', start);
      const std::string_view param = Trim(text.substr(start, semi - start));
      const size_t eq = param.find('=');
      if (eq == std::string_view::npos) continue;
      r.params[core::AsciiLower(Trim(param.substr(0, eq)))] =
          std::string(Trim(param.substr(eq + 1)));
    }
    if (IsZeroQ(r.Param("q"))) continue;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace berth::server
