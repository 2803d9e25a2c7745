// `berth demo`: `berth plan` over the demo fleet built into the binary (examples/demo-fleet:
// CPU, A100 and H100 nodes, MIG partitions, training and inference workloads), followed by
// why one pod could not be placed, so a new user sees the point in one command. Called by
// main.cc; returns the process exit code (exit_code.h).
#pragma once

#include <ostream>
#include <string>

namespace berth::cli {

struct DemoFlags {
  std::string output =
      "table";          // -o: table adds the explanation; yaml and json print the List only
  std::string scoring;  // --scoring, as for plan
};

int RunDemoCommand(const DemoFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
