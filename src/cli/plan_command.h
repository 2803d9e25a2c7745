// `berth plan`: read objects, run one scheduling cycle, print the objects with the decisions
// written back (DESIGN.md, the plan contract). Called by main.cc with the flag values as
// given; returns the process exit code (exit_code.h). Not thread-safe (may read stdin).
#pragma once

#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/object_filter.h"

namespace berth::cli {

struct PlanFlags {
  std::vector<std::string> files;  // -f: files, directories, "-" for stdin
  std::vector<std::string> clusters;  // --cluster NAME=PATH, repeatable
  std::string output = "yaml";     // -o: yaml, json, table, wide or name
  bool no_headers = false;         // --no-headers (table, wide)
  ObjectFilterFlags filter;        // -n, -A, -l: what is printed, not what is planned
  std::string scoring;             // --scoring; empty: the configuration's strategy
  std::string now;                 // --now (RFC 3339); empty: unset
  std::optional<std::string> cycles;  // --cycles N as given; unset: the settled plan
  // Check the plan's invariants (engine/invariants.h) before printing it: main.cc turns it on
  // in debug builds and when BERTH_CHECK_INVARIANTS=1.
  bool check_invariants = false;
};

// Prints the plan to `out` and diagnostics to `err` (the reader's, then the device
// allocator's). Exit codes: 0 every object good; 1 some objects bad (unreadable, or DRA
// objects the allocator cannot use), the rest planned and printed; 2 bad flags, an
// unreadable path, or nothing read (stdout stays empty); 70 when invariant checks are on and
// the plan breaks one ("berth: internal error: invariant ... violated: ..." per violation,
// stdout empty).
int RunPlanCommand(const PlanFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
