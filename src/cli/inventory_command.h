// `berth inventory`: the GPUs of every node, per cluster: model, memory, MIG layout,
// sharing mode, and which pods hold which GPU, MIG instance, replica or fraction once the
// plan has placed the pending pods. Called by main.cc; returns the process exit code
// (exit_code.h). Not thread-safe (may read stdin). Model and assumptions: docs/gpus.md.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/object_filter.h"
#include "engine/inventory.h"
#include "model/snapshot.h"

namespace berth::cli {

struct InventoryFlags {
  std::vector<std::string> files;  // -f: files, directories, "-" for stdin
  std::vector<std::string> clusters;  // --cluster NAME=PATH, repeatable
  std::string output = "table";    // -o: table or json
  bool no_headers = false;         // --no-headers: no column header in the device tables
  ObjectFilterFlags filter;        // -l: nodes by label; -n/-A: whose pods are named
  std::string scoring;             // --scoring, as for plan
  std::string now;                 // --now, as for plan
};

// Prints the inventory to `out` and diagnostics to `err`. Exit codes as for plan: 0 every
// object good; 1 some objects bad, the rest planned and printed; 2 bad flags, an
// unreadable path, or nothing read. A input without GPU nodes prints a sentence saying so
// (table) or no clusters (json), exit 0.
int RunInventoryCommand(const InventoryFlags& flags, std::ostream& out, std::ostream& err);

// What the inventory prints (never what the plan sees): nodes whose labels match the
// filter's -l, pods in its -n namespace (the USED and FREE counts stay whole: a device held
// by another namespace's pod is still used); clusters left with no node are left out.
struct InventoryView {
  ObjectFilter filter;
  bool no_headers = false;
};

// The aligned text: per cluster, per node a header (GPUs, MIG strategy and layout source,
// sharing) and one row per device (GPU, device, resource, used, free, pods), then notes
// and pods that hold no device. Deterministic.
void PrintInventoryTable(const model::Snapshot& snapshot, const engine::Inventory& inventory,
                         std::ostream& out, const InventoryView& view = {});

// The same as JSON with a fixed key order (docs/gpus.md), two-space indented.
void PrintInventoryJson(const model::Snapshot& snapshot, const engine::Inventory& inventory,
                        std::ostream& out, const InventoryView& view = {});

}  // namespace berth::cli
