// ApiServer: one Kubernetes-style API server process part, as `berth serve` runs it and as
// `berth cluster --simulate` and `berth up` reuse it: the store (SQLite in a data folder or
// a --store SPEC), bearer-token authentication (a token file, or an admin token the server
// makes and writes into DATA/kubeconfig), RBAC, the REST handler, the objects given at start
// applied as `kubectl apply` would, the scheduling loop, the event-log compactor, HTTPS with a
// certificate of its own unless one is given, and the kubeconfig. Hooks let a caller mount
// more endpoints (the agents' sync) and run more controllers beside the loop (a simulated
// cluster's kubelet). Start builds everything or nothing; Stop tears it down in reverse
// order. Not copyable; Stop from one thread.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "cli/hub_loop.h"
#include "core/result.h"
#include "io/reader.h"
#include "server/auth/rbac_authorizer.h"
#include "server/auth/token_authenticator.h"
#include "server/http/http_server.h"
#include "server/metrics/metrics_registry.h"
#include "server/rest/change_feed.h"
#include "server/rest/rest_handler.h"
#include "store/store.h"

namespace berth::cli {

struct ApiServerOptions {
  std::string log_prefix = "berth serve";
  std::string data_dir = "berth-data";
  std::string store;                    // "" = SQLite in data_dir
  std::string host = "127.0.0.1";
  int port = 8080;                      // 0: any free port
  std::string tokens;                   // token file; "" = a generated admin token
  std::string tls_cert, tls_key, client_ca;
  std::string kubeconfig_context = "berth";  // the names in DATA/kubeconfig
  const io::Input* input = nullptr;     // objects to apply at start (their first objects_read)
  std::chrono::seconds loop_period{5};
  bool no_loop = false;
  int64_t lease_s = 15;                 // PostgreSQL leader lease
  int64_t keep_events = 100000;
  LoopOptions loop;                     // period, metrics, log and role are set by Start
  // Called once the handler exists and before the server listens: mount endpoints here.
  std::function<core::Status(server::RestHandler&, store::Store&, server::ChangeFeed&,
                             server::RbacAuthorizer&, server::MetricsRegistry&)>
      before_serving;
};

class ApiServer {
 public:
  // Errors name what failed (the store, the certificate, the listen address); objects of
  // `input` the API refuses are reported to `err` and counted in refused(), not errors.
  static core::Result<std::unique_ptr<ApiServer>> Start(ApiServerOptions options, std::ostream& err);
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Stops listening (streams end), then the loop (its cycle in progress finishes), then the
  // compactor. Idempotent.
  void Stop();

  const std::string& url() const { return url_; }
  const std::string& kubeconfig_path() const { return kubeconfig_; }
  const std::string& ca_data() const { return ca_data_; }          // base64 PEM; "" without TLS
  const std::string& admin_token() const { return admin_token_; }  // "" with a --tokens file
  int refused() const { return refused_; }
  store::Store& store() { return *store_; }
  server::ChangeFeed& feed() { return feed_; }
  server::MetricsRegistry& metrics() { return metrics_; }
  SchedulingLoop* loop() { return loop_.get(); }

 private:
  ApiServer() = default;
  core::Status Build(std::ostream& err);

  ApiServerOptions options_;
  std::unique_ptr<store::Store> store_;
  server::TokenAuthenticator tokens_;
  server::ChangeFeed feed_;
  std::unique_ptr<server::ObjectValidator> validator_;
  std::unique_ptr<server::RbacAuthorizer> authorizer_;
  std::unique_ptr<server::RestHandler> handler_;
  server::MetricsRegistry metrics_;
  std::unique_ptr<SchedulingLoop> loop_;
  std::unique_ptr<class EventCompactor> compactor_;
  std::unique_ptr<server::HttpServer> http_;
  std::atomic<bool> ready_{false};
  std::string url_, kubeconfig_, ca_data_, admin_token_;
  int refused_ = 0;
  bool stopped_ = false;
};

// Writes a kubeconfig with one context per entry (cluster and user named after the
// context), current-context the first. Mode 0600.
struct KubeconfigEntry {
  std::string context;
  std::string server_url;
  std::string token;
  std::string ca_data;
};
core::Status WriteKubeconfigFile(const std::string& path, const std::vector<KubeconfigEntry>& entries);

}  // namespace berth::cli
