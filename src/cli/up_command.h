// `berth up --demo`: a whole fleet on one machine, to see berth's loop end to end: a hub
// holding examples/fleet's hub objects (namespaces, Kueue queues with placement checks,
// ManagedClusters, Placements), one simulated member cluster per example cluster (eu-1,
// us-2, ap-1, with their Nodes and queues) and one agent per cluster, all on loopback ports,
// the agents registered and accepted within seconds. Writes DATA/kubeconfig with the
// contexts hub, eu-1, us-2 and ap-1 and DATA/try-job.yaml, prints what to try next, and
// stops everything on SIGTERM or Ctrl-C (agents, then clusters, then the hub). Called by
// main.cc; returns the exit code.
#pragma once

#include <ostream>
#include <string>

namespace berth::cli {

struct UpFlags {
  bool demo = false;
  std::string data_dir = "berth-data";
  int port = 8080;  // the hub's; clusters take the next ones; 0: any free ports
  std::string sync_period = "2s";
  std::string agent_lease = "10s";
};

int RunUpCommand(const UpFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
