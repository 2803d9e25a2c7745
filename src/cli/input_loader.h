// Input loading for the commands: every -f path (files, directories, "-" for stdin), or the
// demo fleet compiled into the binary, read through io::Reader into one snapshot. Called by
// plan, explain and demo; not thread-safe (stdin).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/result.h"
#include "io/reader.h"

namespace berth::cli {

// Reads every path in order. A path that cannot be read (missing, unreadable) is reported to
// `diags` and makes the result nullopt: a plan over part of what the user named would be
// misleading, so the commands stop (exit 2). Problems inside documents are reported too but
// do not stop reading.
// `clusters` are --cluster flags, NAME=PATH: every object read from PATH lives in member
// cluster NAME (io::ReadOptions::cluster). A malformed flag is reported like an unreadable
// path.
std::optional<io::Input> LoadPaths(const std::vector<std::string>& paths, core::Diagnostics& diags,
                                   const std::vector<std::string>& clusters = {});

struct ClusterPath {
  std::string name;
  std::string path;
};

// Parses one --cluster value: NAME=PATH with NAME a DNS label. InvalidArgument otherwise.
core::Result<ClusterPath> ParseClusterFlag(const std::string& flag);

// Reads the demo fleet (demo_fleet.h); files are named "<demo>/<path>".
io::Input LoadDemoFleet(core::Diagnostics& diags);

// A copy of `diags` in which each entry that names an object ("Kind/ns/name") but no file
// gets the file that object was read from: the engine reports problems in objects it
// knows by name, and users look for them by file. Linear in entries plus documents.
core::Diagnostics WithSourceFiles(const core::Diagnostics& diags,
                                  const io::DocumentStore& documents);

}  // namespace berth::cli
