// HttpServer: the hub's HTTP(S) listener (cpp-httplib, the only code that includes it). It
// turns each request into an HttpRequest for the RestHandler and streams watch sessions as
// chunked bodies, serves the probes (/healthz, /livez, /readyz) and /version itself, caps
// what a client may hold (body size, concurrent watches, idle and read timeouts) and writes
// every refusal, its own included, as a Status. Start/Stop from one thread; requests are
// served on the listener's pool.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "core/result.h"
#include "server/auth/token_authenticator.h"
#include "server/metrics/metrics_registry.h"
#include "server/rest/change_feed.h"
#include "server/rest/rest_handler.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace berth::server {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (tests); port() tells which
  // TLS when both are set (PEM files); client certificates are verified against client_ca
  // when it is set.
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string client_ca_file;
  // Connections served at once (one thread each, watches included).
  int threads = 128;
  // Watch streams at once; one more is 429 with Retry-After, so short requests keep threads.
  int max_watches = 96;
  // Bodies past this are 413 before they are read whole.
  int64_t max_body_bytes = 3 * 1024 * 1024;
  // A client that sends nothing for this long is dropped (slowloris).
  std::chrono::seconds read_timeout{30};
  std::chrono::seconds write_timeout{30};
  // An idle kept-alive connection is closed after this (httplib's Stop also waits this long
  // for idle connections, so it bounds a SIGTERM drain).
  std::chrono::seconds keep_alive_timeout{5};
  // Authentication: bearer tokens, and (with client_ca_file) client certificates whose CN is
  // the user and whose O entries are the groups. When both are off, requests are not
  // authenticated and the handler treats them as the hub's own. When either is on, an API
  // request with neither is 401; the probes (/healthz, /livez, /readyz) and /version stay open.
  const TokenAuthenticator* tokens = nullptr;
  // Served at /metrics (to authenticated users when authentication is on), and fed with
  // berth_http_* series; null: no /metrics.
  MetricsRegistry* metrics = nullptr;
  // What /version reports.
  std::string git_version = "v1.32.0-berth";
};

class HttpServer {
 public:
  // Binds and starts serving on a thread of its own. `ready` answers /readyz.
  static core::Result<std::unique_ptr<HttpServer>> Start(RestHandler& handler, ChangeFeed& feed,
                                                         HttpServerOptions options,
                                                         std::function<bool()> ready);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }
  bool tls() const { return tls_; }
  // Stops accepting, ends the watch streams (the feed closes) and joins the listener.
  void Stop();
  int active_watches() const { return watches_.load(); }

 private:
  HttpServer() = default;
  void Route();

  RestHandler* handler_ = nullptr;
  ChangeFeed* feed_ = nullptr;
  HttpServerOptions options_;
  std::function<bool()> ready_;
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  int port_ = 0;
  bool tls_ = false;
  std::atomic<int> watches_{0};
};

}  // namespace berth::server
