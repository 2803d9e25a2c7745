// The demo fleet: the files of examples/demo-fleet/ compiled into the binary, so that
// `berth demo` runs anywhere. The definition is generated at build time by
// embed_files.cmake (edits under examples/ rebuild it). Immutable data; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace berth::cli {

struct EmbeddedFile {
  std::string_view path;  // relative to examples/demo-fleet, '/'-separated
  std::string_view text;  // the file's bytes
};

// Every *.yaml, *.yml and *.json file of examples/demo-fleet/, in path order.
std::span<const EmbeddedFile> DemoFleetFiles();

}  // namespace berth::cli
