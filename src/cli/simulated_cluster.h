// A simulated member cluster (`berth cluster --simulate`, and each cluster of `berth up
// --demo`): an ApiServer serving the cluster's Kubernetes API over its own store, whose
// scheduling loop is the cluster's Kueue and kube-scheduler (workloads are not expanded into
// pods: the cluster's controllers make them) and, after each cycle, its workload controllers
// and simulated kubelet (cli/member_controllers.h). The loop runs each second so pods finish on
// time. Objects given at start (its Nodes, queues, namespaces) are applied first.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "cli/api_server.h"
#include "core/result.h"
#include "io/reader.h"

namespace berth::cli {

struct SimulatedClusterOptions {
  std::string name;                  // the cluster's name (kubeconfig context)
  std::string data_dir;
  std::string host = "127.0.0.1";
  int port = 0;
  const io::Input* input = nullptr;  // applied at start
  std::string default_duration = "none";  // pods without berth.dev/simulated-duration
  uint64_t seed = 1;
  std::function<void(const std::string&)> log;
};

core::Result<std::unique_ptr<ApiServer>> StartSimulatedCluster(const SimulatedClusterOptions& options,
                                                               std::ostream& err);

}  // namespace berth::cli
