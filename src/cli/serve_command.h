// `berth serve`: the long-running hub (issue 15). Opens the store (SQLite in --data by
// default, or --store SPEC), serves the Kubernetes-style API on --listen, loads -f files (or
// the demo fleet) as `kubectl apply` would, writes a kubeconfig kubectl can use, and runs
// until SIGTERM or SIGINT, which drain it: no new requests, streams closed, exit 0. Called
// by main.cc; returns the process exit code (exit_code.h).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/api_server.h"
#include "core/result.h"
#include "server/agent/agent_hub.h"

namespace berth::cli {

struct ServeFlags {
  std::string data_dir = "berth-data";   // --data: the store, the kubeconfig
  std::string store;                     // --store SPEC: "" = SQLite in data_dir
  std::string listen = "127.0.0.1:8080"; // --listen HOST:PORT (port 0: any free port)
  std::string tokens;                    // --tokens: kube-apiserver's token file (CSV)
  std::string tls_cert;                  // --tls-cert, --tls-key: serve HTTPS
  std::string tls_key;
  std::string client_ca;                 // --client-ca: verify client certificates
  std::vector<std::string> files;        // -f: objects to apply at start
  bool demo = false;                     // --demo: apply the built-in demo fleet
  std::string loop_period = "5s";        // --loop-period: a scheduling cycle at least this often
  bool no_loop = false;                  // --no-loop: serve the API only (tests)
  std::string lease = "15s";             // --lease: PostgreSQL leader lease
  int64_t keep_events = 100000;          // --keep-events: the event log's length (compacted each minute)
  std::string agent_lease = "40s";       // --agent-lease: an agent silent this long -> Unknown
  std::string sync_period = "10s";       // --sync-period: how often agents sync (sent to them)
  bool auto_accept = false;              // --auto-accept: accept every registering cluster
};

int RunServeCommand(const ServeFlags& flags, std::ostream& out, std::ostream& err);

struct ListenAddress {
  std::string host;
  int port = 0;
};
// "HOST:PORT" (port 0-65535); errors name --listen.
core::Result<ListenAddress> ParseListen(const std::string& text);

// The hub's ApiServer with the agents' sync mounted (its AgentHub returned in `agents`,
// started; stop it after the server). `berth up` starts its hub through this too.
core::Result<std::unique_ptr<ApiServer>> StartHub(const ServeFlags& flags, const ListenAddress& listen,
                                                  const io::Input* input, std::chrono::seconds loop_period,
                                                  int64_t lease_s, std::chrono::seconds agent_lease,
                                                  std::chrono::seconds sync_period,
                                                  std::function<void(const std::string&)> log,
                                                  std::ostream& err,
                                                  std::unique_ptr<server::agent::AgentHub>* agents);

}  // namespace berth::cli
