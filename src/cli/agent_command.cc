// Signals are blocked before any thread starts and taken with sigwait on the main thread, as
// `berth serve` does, so stopping is ordinary code: the sync loop and the watches end, and
// the cluster keeps running what it holds.
#include "cli/agent_command.h"

#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "cli/exit_code.h"
#include "io/yaml_json.h"
#include "server/agent/agent_runner.h"
#include "server/kube/kubeconfig.h"
#include "sim/trace/values.h"

namespace berth::cli {

namespace {

core::Result<std::string> ReadFile(const std::string& path, const char* flag) {
  std::ifstream in(path);
  if (!in) return core::NotFound(std::string(flag) + " " + path + ": cannot read it");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A DNS label, as a ManagedCluster's name must be (and a namespace on the hub).
bool ValidClusterName(const std::string& name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

core::Result<server::kube::HttpConfig> HttpConfigFromKubeconfigFile(const std::string& path,
                                                                    const std::string& context) {
  BERTH_ASSIGN_OR_RETURN(std::string text, ReadFile(path, "kubeconfig"));
  auto json = io::YamlDocumentAsJson(text);
  if (!json) return core::InvalidArgument(path + ": " + json.error().message());
  const server::kube::Json parsed = server::kube::Json::parse(*json, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return core::InvalidArgument(path + ": not a kubeconfig (not a mapping)");
  const std::string base = std::filesystem::path(path).parent_path().string();
  auto config = server::kube::ConfigFromKubeconfig(parsed, context, base.empty() ? "." : base);
  if (!config) {
    core::Error e = config.error();
    return e.WithFile(path);
  }
  return config;
}

int RunAgentCommand(const AgentFlags& flags, std::ostream& out, std::ostream& err) {
  auto fail = [&err](const core::Error& e) {
    PrintError(e, err);
    return ToInt(ExitCode::kFailed);
  };
  if (!ValidClusterName(flags.cluster)) {
    return fail(core::InvalidArgument("--cluster " + flags.cluster +
                                      ": want the cluster's name, a DNS label (eu-1, gpu-west)"));
  }
  auto grace = sim::ParseDuration(flags.orphan_grace);
  if (!grace || *grace < 0 || *grace > 30 * 86400) {
    return fail(core::InvalidArgument("--orphan-grace " + flags.orphan_grace + ": want a duration (0s to 30d)"));
  }
  auto resync = sim::ParseDuration(flags.resync);
  if (!resync || *resync < 1 || *resync > 86400) {
    return fail(core::InvalidArgument("--resync " + flags.resync + ": want a duration (1s to 24h)"));
  }
  // The hub.
  server::kube::HttpConfig hub;
  if (!flags.hub_kubeconfig.empty()) {
    auto config = HttpConfigFromKubeconfigFile(flags.hub_kubeconfig, "");
    if (!config) return fail(config.error());
    hub = std::move(config).value();
  }
  if (!flags.hub.empty()) hub.server = flags.hub;
  if (hub.server.empty()) return fail(core::InvalidArgument("--hub URL (or --hub-kubeconfig) is required"));
  if (!flags.token.empty()) hub.bearer_token = flags.token;
  if (!flags.token_file.empty()) hub.token_file = flags.token_file;
  if (!flags.hub_ca.empty()) {
    auto pem = ReadFile(flags.hub_ca, "--hub-ca");
    if (!pem) return fail(pem.error());
    hub.ca_pem = std::move(pem).value();
  }
  hub.insecure_skip_tls_verify = hub.insecure_skip_tls_verify || flags.hub_insecure;
  auto hub_transport = server::kube::NewHttpTransport(hub);
  if (!hub_transport) return fail(hub_transport.error());
  // The member cluster.
  core::Result<server::kube::HttpConfig> member =
      flags.kubeconfig.empty() ? server::kube::InClusterConfig()
                               : HttpConfigFromKubeconfigFile(flags.kubeconfig, flags.context);
  if (!member) {
    core::Error e = member.error();
    if (flags.kubeconfig.empty()) {
      return fail(core::Error(e.code(), "no --kubeconfig and not in a cluster: " + e.message()));
    }
    return fail(e);
  }
  auto member_transport = server::kube::NewHttpTransport(*member);
  if (!member_transport) return fail(member_transport.error());

  server::agent::AgentOptions options;
  options.cluster = flags.cluster;
  options.hub_server = hub.server;
  options.state_dir = flags.state_dir;
  options.orphan_grace = std::chrono::seconds(*grace);
  options.resync = std::chrono::seconds(*resync);
  for (const std::string& claim : flags.claims) {
    const size_t eq = claim.find('=');
    if (eq == std::string::npos || eq == 0) {
      return fail(core::InvalidArgument("--claim " + claim + ": want NAME=VALUE (region.open-cluster-management.io=eu-west)"));
    }
    options.claims.emplace_back(claim.substr(0, eq), claim.substr(eq + 1));
  }
  std::mutex log_mu;
  options.log = [&err, &log_mu](const std::string& line) {
    std::lock_guard lock(log_mu);
    err << "berth agent: " << line << '\n';
  };

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  server::agent::AgentRunner runner(std::move(hub_transport).value(),
                                    std::make_unique<server::kube::Client>(std::move(member_transport).value()),
                                    options);
  if (auto st = runner.Load(); !st.ok()) return fail(st.error());
  runner.Start();
  out << "berth agent: cluster " << flags.cluster << " syncing with " << hub.server << " (member API "
      << member->server << ")\n";
  out.flush();
  int signal = 0;
  sigwait(&stop_signals, &signal);
  out << "berth agent: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT") << ": stopping (the cluster keeps what it runs)\n";
  out.flush();
  runner.Stop();
  return ToInt(ExitCode::kOk);
}

}  // namespace berth::cli
