// The demo fleet: the files of examples/demo-fleet/ (and the hub layer, examples/demo-hub/)
// compiled into the binary, so that `berth demo` and `berth serve --demo` run anywhere. The definition is generated at build time by
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

// The same for examples/demo-hub/: the Kueue queues and queued jobs `berth serve --demo` adds
// to the demo fleet (paths relative to examples/demo-hub).
std::span<const EmbeddedFile> DemoHubFiles();

// The same for examples/fleet/ (hub/ and clusters/NAME/): `berth up --demo`'s fleet.
std::span<const EmbeddedFile> FleetExampleFiles();

}  // namespace berth::cli
