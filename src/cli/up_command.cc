// Everything runs in this one process (four API servers, three agents) so that one signal
// stops it all in order; the agents still talk to the hub and to their clusters over HTTPS
// on loopback, exactly as separate processes would.
#include "cli/up_command.h"

#include <pthread.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "cli/agent_command.h"
#include "cli/exit_code.h"
#include "cli/input_loader.h"
#include "cli/serve_command.h"
#include "cli/simulated_cluster.h"
#include "cli/up_try_files.h"
#include "server/agent/agent_runner.h"
#include "server/kube/http_transport.h"
#include "sim/trace/values.h"

namespace berth::cli {

namespace {

core::Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return core::NotFound("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A client of one of this process's servers: HTTPS with its CA, its admin token.
core::Result<std::unique_ptr<server::kube::Transport>> TransportTo(const ApiServer& server,
                                                                   const std::string& data_dir) {
  server::kube::HttpConfig config;
  config.server = server.url();
  config.bearer_token = server.admin_token();
  BERTH_ASSIGN_OR_RETURN(config.ca_pem, ReadText((std::filesystem::path(data_dir) / "tls.crt").string()));
  return server::kube::NewHttpTransport(std::move(config));
}

}  // namespace

int RunUpCommand(const UpFlags& flags, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  auto fail = [&err](const core::Error& e) {
    PrintError(e, err);
    return ToInt(ExitCode::kFailed);
  };
  if (!flags.demo) {
    return fail(core::InvalidArgument("berth up runs the example fleet: give --demo"));
  }
  if (flags.port < 0 || flags.port > 65532) return fail(core::InvalidArgument("--port: want 0-65532"));
  auto sync_s = sim::ParseDuration(flags.sync_period);
  auto lease_s = sim::ParseDuration(flags.agent_lease);
  if (!lease_s || *lease_s <= 0 || *lease_s > 3600) {
    return fail(core::InvalidArgument("--agent-lease " + flags.agent_lease + ": want a duration from 1s to 1h"));
  }
  if (!sync_s || *sync_s <= 0 || *sync_s >= *lease_s) {
    return fail(core::InvalidArgument("--sync-period " + flags.sync_period + ": want a duration under --agent-lease"));
  }
  std::error_code ec;
  fs::create_directories(flags.data_dir, ec);
  if (ec) return fail(core::InvalidArgument("cannot create --data " + flags.data_dir + ": " + ec.message()));

  core::Diagnostics diags;
  io::Input hub_input = LoadFleetExample(diags, {"hub/"}, {"jobs.yaml"});
  const std::vector<std::string> names = FleetExampleClusters();
  io::ExpansionLimits no_pods;
  no_pods.create_missing_pods = false;
  std::vector<io::Input> cluster_inputs;
  for (const std::string& name : names) {
    cluster_inputs.push_back(LoadFleetExample(diags, {"clusters/" + name + "/", "hub/namespaces.yaml"}, {}, no_pods));
  }
  PrintDiagnostics(diags, err);
  if (diags.has_errors()) return ToInt(ExitCode::kFailed);

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::mutex log_mu;
  auto logger = [&err, &log_mu](std::string prefix) {
    return [&err, &log_mu, prefix = std::move(prefix)](const std::string& line) {
      std::lock_guard lock(log_mu);
      err << prefix << ": " << line << '\n';
    };
  };

  // The hub.
  ServeFlags hub_flags;
  hub_flags.data_dir = (fs::path(flags.data_dir) / "hub").string();
  hub_flags.auto_accept = true;  // the demo's own clusters
  std::unique_ptr<server::agent::AgentHub> agent_hub;
  auto hub = StartHub(hub_flags, ListenAddress{"127.0.0.1", flags.port}, &hub_input, std::chrono::seconds(2),
                      15, std::chrono::seconds(*lease_s), std::chrono::seconds(*sync_s), logger("berth up: hub"),
                      err, &agent_hub);
  if (!hub) return fail(hub.error());

  // The member clusters.
  std::vector<std::unique_ptr<ApiServer>> clusters;
  for (size_t i = 0; i < names.size(); ++i) {
    SimulatedClusterOptions options;
    options.name = names[i];
    options.data_dir = (fs::path(flags.data_dir) / names[i]).string();
    options.port = flags.port == 0 ? 0 : flags.port + 1 + static_cast<int>(i);
    options.input = &cluster_inputs[i];
    options.seed = i + 1;
    options.log = logger("berth up: " + names[i]);
    auto cluster = StartSimulatedCluster(options, err);
    if (!cluster) {
      for (auto& c : clusters) c->Stop();
      (*hub)->Stop();
      agent_hub->Stop();
      return fail(cluster.error());
    }
    clusters.push_back(std::move(cluster).value());
  }

  // Their agents.
  std::vector<std::unique_ptr<server::agent::AgentRunner>> agents;
  auto stop_all = [&] {
    for (auto& a : agents) a->Stop();
    for (auto& c : clusters) c->Stop();
    (*hub)->Stop();
    agent_hub->Stop();
  };
  for (size_t i = 0; i < names.size(); ++i) {
    auto to_hub = TransportTo(**hub, hub_flags.data_dir);
    auto to_member = TransportTo(*clusters[i], (fs::path(flags.data_dir) / names[i]).string());
    if (!to_hub || !to_member) {
      stop_all();
      return fail(!to_hub ? to_hub.error() : to_member.error());
    }
    server::agent::AgentOptions options;
    options.cluster = names[i];
    options.hub_server = (*hub)->url();
    options.state_dir = (fs::path(flags.data_dir) / names[i] / "agent").string();
    options.sync_period = std::chrono::seconds(*sync_s);
    options.log = logger("berth up: agent");
    auto agent = std::make_unique<server::agent::AgentRunner>(
        std::move(to_hub).value(), std::make_unique<server::kube::Client>(std::move(to_member).value()), options);
    if (auto st = agent->Load(); !st.ok()) {
      stop_all();
      return fail(st.error());
    }
    agent->Start();
    agents.push_back(std::move(agent));
  }

  // One kubeconfig for the whole fleet, and a job to try.
  std::vector<KubeconfigEntry> entries{{"hub", (*hub)->url(), (*hub)->admin_token(), (*hub)->ca_data()}};
  for (size_t i = 0; i < names.size(); ++i) {
    entries.push_back({names[i], clusters[i]->url(), clusters[i]->admin_token(), clusters[i]->ca_data()});
  }
  const std::string kubeconfig = (fs::path(flags.data_dir) / "kubeconfig").string();
  if (auto st = WriteKubeconfigFile(kubeconfig, entries); !st.ok()) {
    stop_all();
    return fail(st.error());
  }
  auto tries = WriteTryFiles(flags.data_dir);
  if (!tries) {
    stop_all();
    return fail(tries.error());
  }
  out << "berth up: a demo fleet is running (data in " << flags.data_dir << ")\n"
      << "  hub   " << (*hub)->url() << "  queues team-a/training, team-eu/training, serving/inference\n";
  for (size_t i = 0; i < names.size(); ++i) {
    out << "  " << names[i] << std::string(names[i].size() < 6 ? 6 - names[i].size() : 1, ' ') << clusters[i]->url()
        << "  a simulated cluster with its agent\n";
  }
  out << "Try:\n"
      << "  export KUBECONFIG=" << kubeconfig << "\n"
      << "  kubectl --context hub get managedclusters          # the clusters joined and Available\n"
      << "  kubectl --context hub create -f " << tries->job << "   # a 2-pod training job, 5 s per pod\n"
      << "  kubectl --context hub get workloads -A -w           # admitted, placed, Finished\n"
      << "  kubectl --context hub get manifestworks -A          # what the hub sent each cluster\n"
      << "  kubectl --context us-2 get jobs,pods -A             # the job running on its cluster\n"
      << "  kubectl --context hub apply -f " << tries->rollout << "   # an inference service, canary eu-1 first\n"
      << "  berth rollout status mwrs/llm-serve -n serving --context hub\n"
      << "  kubectl --context hub apply -f " << tries->rollout_bad << "   # a revision that crash-loops\n"
      << "  berth rollout history mwrs/llm-serve -n serving --context hub   # rolled back, and why\n"
      << "Stop with Ctrl-C.\n";
  out.flush();

  int signal = 0;
  sigwait(&stop_signals, &signal);
  out << "berth up: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT") << ": stopping the agents, clusters and hub\n";
  out.flush();
  stop_all();
  out << "berth up: stopped\n";
  return ToInt(ExitCode::kOk);
}

}  // namespace berth::cli
