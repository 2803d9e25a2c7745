// `berth cluster --simulate`: one simulated member cluster (simulated_cluster.h) serving its
// Kubernetes API on --listen until SIGTERM or SIGINT, with the Nodes of --nodes FILE (and any
// other objects in it) or of the compiled-in example cluster --demo NAME (examples/fleet:
// eu-1, us-2, ap-1). Writes DIR/kubeconfig as `berth serve` does. Called by main.cc.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace berth::cli {

struct ClusterFlags {
  bool simulate = false;
  std::vector<std::string> nodes;  // --nodes FILE|DIR (repeatable)
  std::string demo;                // --demo NAME
  std::string name;                // --name (default: --demo's, else "member")
  std::string data_dir;            // --data (default berth-cluster-NAME)
  std::string listen = "127.0.0.1:8081";
  std::string pod_duration = "none";
  uint64_t seed = 1;
};

int RunClusterCommand(const ClusterFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
