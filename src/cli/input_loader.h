// Input loading for the commands: every -f path (files, directories, "-" for stdin), or the
// demo fleet compiled into the binary, read through io::Reader into one snapshot; and the
// one load preamble plan, explain and inventory share (LoadInput, ExitCodeAfterPlan).
// Called by the commands; not thread-safe (stdin).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/exit_code.h"
#include "core/diagnostics.h"
#include "core/result.h"
#include "engine/plan.h"
#include "io/reader.h"

namespace berth::cli {

// The input flags every planning command takes.
struct LoadFlags {
  std::vector<std::string> files;     // -f: files, directories, "-" for stdin
  std::vector<std::string> clusters;  // --cluster NAME=PATH, repeatable
  bool demo = false;                  // read the demo fleet instead of files
  std::string scoring;                // --scoring; empty: the configuration's strategy
  std::string now;                    // --now (RFC 3339); empty: unset
  std::optional<std::string> cycles;  // --cycles N as given; unset: the settled plan
};

struct LoadedInput {
  io::Input input;
  engine::PlanOptions options;
  ExitCode code = ExitCode::kOk;  // kPartial when the reader dropped bad objects
  core::Diagnostics read_diagnostics;  // the reader's, already printed (doctor names what it missed)
};

// The preamble of plan, explain and inventory, after each checked its own flags: parses
// --scoring, --now and --cycles, reads the input (LoadPaths or LoadDemoFleet), prints the reader's
// diagnostics to `err` and computes the exit code so far. nullopt when the command must
// stop with kFailed (bad option, unreadable path, nothing read); the reason is printed
// (for an input without objects: "no Kubernetes objects found in PATHS").
std::optional<LoadedInput> LoadInput(const LoadFlags& flags, std::ostream& err);

// The end of a planning command: prints the engine's diagnostics (problems in objects it
// read, e.g. DRA objects the allocator could not use) with their source files filled in,
// and returns the command's exit code: kPartial when either the reader or the engine
// reported an error, else loaded.code.
int ExitCodeAfterPlan(const LoadedInput& loaded, const core::Diagnostics& engine_diagnostics,
                      std::ostream& err);

// Reads every path in order. A path that cannot be read (missing, unreadable) is reported to
// `diags` and makes the result nullopt: a plan over part of what the user named would be
// misleading, so the commands stop (exit 2). Problems inside documents are reported too but
// do not stop reading.
// `clusters` are --cluster flags, NAME=PATH: every object read from PATH lives in member
// cluster NAME (io::ReadOptions::cluster). A malformed flag, or a NAME given twice, is
// reported like an unreadable path. A NAME no ManagedCluster names is a warning when PATH
// held no objects or the input has ManagedClusters (a typo's objects would be planned on
// no cluster of the fleet).
std::optional<io::Input> LoadPaths(const std::vector<std::string>& paths, core::Diagnostics& diags,
                                   const std::vector<std::string>& clusters = {});

struct ClusterPath {
  std::string name;
  std::string path;
};

// Parses one --cluster value: NAME=PATH with NAME a DNS label. InvalidArgument otherwise.
core::Result<ClusterPath> ParseClusterFlag(const std::string& flag);

// Reads the demo fleet (demo_fleet.h); files are named "<demo>/<path>". With
// `with_hub_layer` (berth serve --demo) also the hub layer's, named "<demo-hub>/<path>".
io::Input LoadDemoFleet(core::Diagnostics& diags, bool with_hub_layer = false);

// Files of examples/fleet (compiled in) whose path starts with one of `prefixes` ("hub/",
// "clusters/eu-1/"), except those whose name is in `skip` ("jobs.yaml"), read as one input.
// `expansion` as the reader's Finish takes it.
io::Input LoadFleetExample(core::Diagnostics& diags, const std::vector<std::string>& prefixes,
                           const std::vector<std::string>& skip = {},
                           const io::ExpansionLimits& expansion = {});
// The member cluster names examples/fleet holds (clusters/NAME/), in name order.
std::vector<std::string> FleetExampleClusters();

// A copy of `diags` in which each entry that names an object ("Kind/ns/name") but no file
// gets the file that object was read from: the engine reports problems in objects it
// knows by name, and users look for them by file. Linear in entries plus documents.
core::Diagnostics WithSourceFiles(const core::Diagnostics& diags,
                                  const io::DocumentStore& documents);

}  // namespace berth::cli
