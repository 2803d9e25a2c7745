// The hub's process: everything long-lived is built here and torn down in reverse order on
// a signal. Signals are blocked before any thread starts and taken with sigwait on the main
// thread, so no handler runs inside a request thread and shutdown is ordinary code.
#include "cli/serve_command.h"

#include <pthread.h>
#include <signal.h>
#include <memory>
#include <mutex>
#include <utility>

#include "cli/api_server.h"
#include "cli/exit_code.h"
#include "cli/hub_loop.h"
#include "cli/input_loader.h"
#include "core/diagnostics.h"
#include "server/agent/agent_hub.h"
#include "sim/trace/values.h"

namespace berth::cli {

core::Result<ListenAddress> ParseListen(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return core::InvalidArgument("--listen " + text + ": want HOST:PORT, e.g. 127.0.0.1:8080");
  }
  ListenAddress out;
  out.host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535) {
    return core::InvalidArgument("--listen " + text + ": the port must be 0-65535");
  }
  out.port = std::stoi(port);
  return out;
}

int RunServeCommand(const ServeFlags& flags, std::ostream& out, std::ostream& err) {
  auto listen = ParseListen(flags.listen);
  if (!listen) {
    PrintError(listen.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  auto period_s = sim::ParseDuration(flags.loop_period);
  if (!period_s || *period_s <= 0 || *period_s > 3600) {
    PrintError(core::InvalidArgument("--loop-period " + flags.loop_period +
                                     ": want a duration from 1s to 1h (5s, 30s, 2m)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto lease_s = sim::ParseDuration(flags.lease);
  if (!lease_s || *lease_s <= 0 || *lease_s > 600) {
    PrintError(core::InvalidArgument("--lease " + flags.lease + ": want a duration from 1s to 10m"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto agent_lease_s = sim::ParseDuration(flags.agent_lease);
  if (!agent_lease_s || *agent_lease_s <= 0 || *agent_lease_s > 3600) {
    PrintError(core::InvalidArgument("--agent-lease " + flags.agent_lease +
                                     ": want a duration from 1s to 1h (40s, 5m)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto sync_s = sim::ParseDuration(flags.sync_period);
  if (!sync_s || *sync_s <= 0 || *sync_s >= *agent_lease_s) {
    PrintError(core::InvalidArgument("--sync-period " + flags.sync_period +
                                     ": want a duration from 1s to under --agent-lease (10s)"),
               err);
    return ToInt(ExitCode::kFailed);
  }

  // Read the files before anything starts, so a typo in a path stops the hub at once.
  std::optional<io::Input> input;
  core::Diagnostics diags;
  if (flags.demo) {
    input = LoadDemoFleet(diags, /*with_hub_layer=*/true);
  } else if (!flags.files.empty()) {
    input = LoadPaths(flags.files, diags);
    if (!input) {
      PrintDiagnostics(diags, err);
      return ToInt(ExitCode::kFailed);
    }
  }
  PrintDiagnostics(diags, err);

  // Block the stop signals in every thread started from here on; the main thread waits for
  // them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::mutex log_mu;  // the server's lines stay whole
  auto log = [&err, &log_mu](const std::string& line) {
    std::lock_guard lock(log_mu);
    err << "berth serve: " << line << '\n';
  };
  std::unique_ptr<server::agent::AgentHub> agents;
  auto server = StartHub(flags, *listen, input ? &*input : nullptr, std::chrono::seconds(*period_s), *lease_s,
                         std::chrono::seconds(*agent_lease_s), std::chrono::seconds(*sync_s), log, err, &agents);
  if (!server) {
    PrintError(server.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  ApiServer& hub = **server;
  out << "berth serve: listening on " << hub.url() << " (store: "
      << (flags.store.empty() ? "sqlite:" + flags.data_dir : flags.store) << ")\n"
      << "  kubectl --kubeconfig " << hub.kubeconfig_path() << " get clusterqueues,workloads -A\n"
      << "  dashboard: " << hub.url() << "/ui/ (it asks for the token in " << hub.kubeconfig_path() << ")\n"
      << "  agents: berth agent --hub " << hub.url() << " --token TOKEN --cluster NAME --kubeconfig CLUSTER-KUBECONFIG\n";
  if (hub.refused() > 0) out << "  " << hub.refused() << " object(s) of -f were refused (above)\n";
  out.flush();

  int signal = 0;
  sigwait(&stop_signals, &signal);
  out << "berth serve: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
      << ": draining (no new requests, streams closed)\n";
  out.flush();
  hub.Stop();
  if (agents) agents->Stop();
  return ToInt(ExitCode::kOk);
}

core::Result<std::unique_ptr<ApiServer>> StartHub(const ServeFlags& flags, const ListenAddress& listen,
                                                  const io::Input* input, std::chrono::seconds loop_period,
                                                  int64_t lease_s, std::chrono::seconds agent_lease,
                                                  std::chrono::seconds sync_period,
                                                  std::function<void(const std::string&)> log,
                                                  std::ostream& err,
                                                  std::unique_ptr<server::agent::AgentHub>* agents) {
  ApiServerOptions options;
  options.log_prefix = "berth serve";
  options.data_dir = flags.data_dir;
  options.store = flags.store;
  options.host = listen.host;
  options.port = listen.port;
  options.tokens = flags.tokens;
  options.tls_cert = flags.tls_cert;
  options.tls_key = flags.tls_key;
  options.client_ca = flags.client_ca;
  options.input = input;
  options.loop_period = loop_period;
  options.no_loop = flags.no_loop;
  options.lease_s = lease_s;
  options.keep_events = flags.keep_events;
  options.loop.log = log;
  options.before_serving = [&](server::RestHandler& handler, store::Store& store, server::ChangeFeed& feed,
                               server::RbacAuthorizer& authorizer, server::MetricsRegistry& metrics) -> core::Status {
    server::agent::AgentHubOptions hub_options;
    hub_options.lease_duration = agent_lease;
    hub_options.sync_period = sync_period;
    hub_options.auto_accept = flags.auto_accept;
    hub_options.metrics = &metrics;
    hub_options.log = log;
    *agents = std::make_unique<server::agent::AgentHub>(store, feed, &authorizer, hub_options);
    BERTH_RETURN_IF_ERROR((*agents)->Load());
    server::agent::AgentHub* hub = agents->get();
    handler.Mount(std::string(server::agent::kSyncPathPrefix),
                  [hub](const server::HttpRequest& http) { return hub->Serve(http); });
    hub->Start();
    return {};
  };
  return ApiServer::Start(std::move(options), err);
}

}  // namespace berth::cli
