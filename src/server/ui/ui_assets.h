// The dashboard's static files (index.html, app.js, style.css from src/server/ui), compiled
// into the binary by cmake/embed_files.cmake and served by HttpServer under /ui. They hold no data:
// the page reads the API with the caller's token. Immutable; safe from any thread.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace berth::server {

struct UiAsset {
  std::string_view content_type;  // e.g. "text/html; charset=utf-8"
  std::string_view bytes;         // static storage; valid for the program's life
};

// The asset a request path names: "/ui" and "/ui/" are index.html, "/ui/app.js" app.js, and
// so on. nullopt for any other path (the caller answers 404). O(number of files).
std::optional<UiAsset> FindUiAsset(std::string_view path);

// One embedded file, by name relative to src/server/ui. Defined in the generated source.
struct EmbeddedUiFile {
  std::string_view name;
  std::string_view bytes;
};
std::span<const EmbeddedUiFile> EmbeddedUiFiles();

}  // namespace berth::server
