// The content type comes from the extension because the set of files is fixed and known at
// build time; an unknown extension is not served at all rather than sent as octet-stream, so
// nothing the page does not expect is ever reachable under /ui.
#include "server/ui/ui_assets.h"

namespace berth::server {

namespace {

std::optional<std::string_view> UiContentType(std::string_view name) {
  auto ends_with = [name](std::string_view suffix) {
    return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
  };
  if (ends_with(".html")) return "text/html; charset=utf-8";
  if (ends_with(".js")) return "text/javascript; charset=utf-8";
  if (ends_with(".css")) return "text/css; charset=utf-8";
  return std::nullopt;
}

}  // namespace

std::optional<UiAsset> FindUiAsset(std::string_view path) {
  constexpr std::string_view kPrefix = "/ui";
  if (path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view name = path.substr(kPrefix.size());
  if (name.empty() || name == "/") {
    name = "index.html";
  } else if (name.front() == '/') {
    name.remove_prefix(1);
  } else {
    return std::nullopt;  // "/uix" is not under /ui
  }
  for (const EmbeddedUiFile& file : EmbeddedUiFiles()) {
    if (file.name != name) continue;
    std::optional<std::string_view> type = UiContentType(file.name);
    if (!type) return std::nullopt;
    return UiAsset{*type, file.bytes};
  }
  return std::nullopt;
}

}  // namespace berth::server
