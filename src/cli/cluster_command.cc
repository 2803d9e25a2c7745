#include "cli/cluster_command.h"

#include <pthread.h>
#include <signal.h>

#include <mutex>

#include "cli/exit_code.h"
#include "cli/input_loader.h"
#include "cli/serve_command.h"
#include "cli/simulated_cluster.h"

namespace berth::cli {

int RunClusterCommand(const ClusterFlags& flags, std::ostream& out, std::ostream& err) {
  auto fail = [&err](const core::Error& e) {
    PrintError(e, err);
    return ToInt(ExitCode::kFailed);
  };
  if (!flags.simulate) {
    return fail(core::InvalidArgument(
        "berth cluster serves a simulated member cluster: give --simulate (with --nodes FILE or --demo NAME)"));
  }
  if (flags.nodes.empty() == flags.demo.empty()) {
    return fail(core::InvalidArgument("give exactly one of --nodes FILE and --demo NAME"));
  }
  auto listen = ParseListen(flags.listen);
  if (!listen) return fail(listen.error());
  core::Diagnostics diags;
  io::ExpansionLimits no_pods;
  no_pods.create_missing_pods = false;
  std::optional<io::Input> input;
  std::string name = flags.name;
  if (!flags.demo.empty()) {
    const std::vector<std::string> known = FleetExampleClusters();
    if (std::find(known.begin(), known.end(), flags.demo) == known.end()) {
      std::string names;
      for (const std::string& n : known) names += (names.empty() ? "" : ", ") + n;
      return fail(core::InvalidArgument("--demo " + flags.demo + ": the example fleet's clusters are " + names));
    }
    // The cluster's own objects and the namespaces the example's work runs in.
    input = LoadFleetExample(diags, {"clusters/" + flags.demo + "/", "hub/namespaces.yaml"}, {}, no_pods);
    if (name.empty()) name = flags.demo;
  } else {
    input = LoadPaths(flags.nodes, diags);
    if (!input) {
      PrintDiagnostics(diags, err);
      return ToInt(ExitCode::kFailed);
    }
  }
  PrintDiagnostics(diags, err);
  if (name.empty()) name = "member";

  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::mutex log_mu;
  SimulatedClusterOptions options;
  options.name = name;
  options.data_dir = flags.data_dir.empty() ? "berth-cluster-" + name : flags.data_dir;
  options.host = listen->host;
  options.port = listen->port;
  options.input = input ? &*input : nullptr;
  options.default_duration = flags.pod_duration;
  options.seed = flags.seed;
  options.log = [&err, &log_mu, name](const std::string& line) {
    std::lock_guard lock(log_mu);
    err << "berth cluster " << name << ": " << line << '\n';
  };
  auto cluster = StartSimulatedCluster(options, err);
  if (!cluster) return fail(cluster.error());
  out << "berth cluster " << name << ": a simulated member cluster on " << (*cluster)->url() << " (seed "
      << flags.seed << ", pods without berth.dev/simulated-duration run " << flags.pod_duration << ")\n"
      << "  kubectl --kubeconfig " << (*cluster)->kubeconfig_path() << " get nodes,pods -A\n"
      << "  join a hub: berth agent --hub-kubeconfig HUB-KUBECONFIG --cluster " << name << " --kubeconfig "
      << (*cluster)->kubeconfig_path() << "\n";
  if ((*cluster)->refused() > 0) out << "  " << (*cluster)->refused() << " object(s) were refused (above)\n";
  out.flush();
  int signal = 0;
  sigwait(&stop_signals, &signal);
  out << "berth cluster " << name << ": " << (signal == SIGTERM ? "SIGTERM" : "SIGINT") << ": stopping\n";
  out.flush();
  (*cluster)->Stop();
  return ToInt(ExitCode::kOk);
}

}  // namespace berth::cli
