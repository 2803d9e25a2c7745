// The files `berth up --demo` writes next to its kubeconfig for a new user to try: a
// training Job for the hub's team-a/training queue, and an inference Deployment rolled out
// across the demo's clusters by a ManifestWorkReplicaSet (canary eu-1 first), with a second
// revision that crash-loops so berth rolls it back. Pure text; written by WriteTryFiles.
#pragma once

#include <string>

#include "core/result.h"

namespace berth::cli {

struct TryFiles {
  std::string job;           // DIR/try-job.yaml
  std::string rollout;       // DIR/try-rollout.yaml
  std::string rollout_bad;   // DIR/try-rollout-bad.yaml
};

// Writes the three files into `dir` (which exists). NotFound when one cannot be written.
core::Result<TryFiles> WriteTryFiles(const std::string& dir);

}  // namespace berth::cli
