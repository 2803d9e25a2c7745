// Why the controllers run after the scheduling cycle on the loop's own thread: a cycle and a
// controller round then never write at once, and each sees the other's writes at its next
// turn, the way a cluster's controllers meet through the API server.
#include "cli/simulated_cluster.h"

#include <memory>

#include "cli/member_controllers.h"
#include "server/member/durations.h"

namespace berth::cli {

core::Result<std::unique_ptr<ApiServer>> StartSimulatedCluster(const SimulatedClusterOptions& o,
                                                               std::ostream& err) {
  auto duration = server::member::DurationDistribution::Parse(o.default_duration);
  if (!duration) {
    return core::InvalidArgument("--pod-duration " + o.default_duration + ": " + duration.error().message() +
                                 " (want none, 30s, fixed:30s, uniform:10s-60s or exp:30s)");
  }
  server::member::ControllerOptions controller_options;
  controller_options.seed = o.seed;
  controller_options.default_duration = *duration;
  // Built once the store exists (before_serving), used by the loop after each cycle.
  auto controllers = std::make_shared<std::unique_ptr<MemberControllers>>();

  ApiServerOptions options;
  options.log_prefix = "berth cluster " + o.name;
  options.data_dir = o.data_dir;
  options.host = o.host;
  options.port = o.port;
  options.kubeconfig_context = o.name;
  options.input = o.input;
  options.loop_period = std::chrono::seconds(1);
  options.loop.debounce = std::chrono::milliseconds(50);
  options.loop.log = o.log;
  options.loop.expansion.create_missing_pods = false;
  options.loop.after_cycle = [controllers] {
    if (*controllers) {
      (*controllers)->RunRound(std::chrono::duration_cast<std::chrono::seconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count());
    }
  };
  options.before_serving = [controllers, controller_options, log = o.log](
                               server::RestHandler&, store::Store& store, server::ChangeFeed& feed,
                               server::RbacAuthorizer&, server::MetricsRegistry&) -> core::Status {
    *controllers = std::make_unique<MemberControllers>(store, feed, controller_options, log);
    return {};
  };
  return ApiServer::Start(std::move(options), err);
}

}  // namespace berth::cli
