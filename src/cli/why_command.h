// `berth why TARGET`: why a pod or workload waits, across every layer (queue, quota,
// cluster, placement, node, device, topology), the smallest verified changes that would let
// it run and the runbook for the cause (diag/why.h computes; this prints text or JSON).
// Called by main.cc; returns the process exit code (exit_code.h). Not thread-safe (stdin).
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "diag/why.h"

namespace berth::cli {

struct WhyFlags {
  std::string target;                 // pod/NS/NAME, workload/NS/NAME, job/NS/NAME, KIND/NS/NAME
  std::vector<std::string> files;     // -f, as for plan
  std::vector<std::string> clusters;  // --cluster NAME=PATH, repeatable
  bool demo = false;                  // --demo: the built-in demo fleet instead of -f
  std::string scoring;                // --scoring, as for plan
  std::string now;                    // --now, as for plan
  std::string output = "text";        // -o text|json
};

// Prints the answer to `out`, diagnostics to `err`. Exit codes: 0 answered; 1 answered, but
// some objects were bad; 2 bad flags, unreadable input or an unknown target (named with the
// closest existing one of that kind).
int RunWhyCommand(const WhyFlags& flags, std::ostream& out, std::ostream& err);

// KIND/[NS/]NAME: pod (pods, po), workload (workloads, wl), or any kind berth turns into
// pods (its kind, plural or short name, any case: job, jobs, deploy, PyTorchJob, lws).
// InvalidArgument for anything else. The one place why's target grammar lives.
core::Result<diag::WhyTarget> ParseWhyTarget(const std::string& target);

}  // namespace berth::cli
