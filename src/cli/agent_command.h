// `berth agent`: runs beside one member cluster and keeps it in sync with the hub
// (server/agent/agent_runner.h). Reads the member cluster from --kubeconfig (and --context) or
// the pod's service account, the hub from --hub and --token (and --hub-ca, the PEM the hub's
// kubeconfig carries as certificate-authority-data), or from --hub-kubeconfig. Runs until
// SIGTERM or SIGINT. Called by main.cc; returns the process exit code (exit_code.h).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/result.h"
#include "server/kube/http_transport.h"

namespace berth::cli {

struct AgentFlags {
  std::string hub;             // --hub URL
  std::string token;           // --token
  std::string token_file;      // --token-file
  std::string hub_ca;          // --hub-ca FILE (PEM)
  bool hub_insecure = false;   // --hub-insecure-skip-tls-verify
  std::string hub_kubeconfig;  // --hub-kubeconfig FILE: server, CA and token of the hub
  std::string cluster;         // --cluster NAME
  std::string kubeconfig;      // --kubeconfig FILE: the member cluster ("" = in-cluster)
  std::string context;         // --context
  std::string state_dir;       // --state DIR
  std::vector<std::string> claims;  // --claim NAME=VALUE
  std::string orphan_grace = "60s";
  std::string resync = "5m";  // --resync
};

int RunAgentCommand(const AgentFlags& flags, std::ostream& out, std::ostream& err);

// The HttpConfig of a kubeconfig file (YAML or JSON; relative paths against its folder).
core::Result<server::kube::HttpConfig> HttpConfigFromKubeconfigFile(const std::string& path,
                                                                    const std::string& context);

}  // namespace berth::cli
