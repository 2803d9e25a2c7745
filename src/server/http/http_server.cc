// cpp-httplib serves each connection on a pool thread; a watch holds its thread for the
// stream's life, so watches are counted and capped below the pool size (the rest of the pool
// keeps answering short requests). Request paths are taken from the raw request target, not
// httplib's decoded path, because ParseRequest decodes each segment itself (a %2F in a name
// must not become a path separator).
#include "server/http/http_server.h"

#include <httplib.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <sys/socket.h>

#include <utility>

#include "server/api/api_error.h"
#include "server/ui/ui_assets.h"

namespace berth::server {

namespace {

constexpr std::chrono::milliseconds kWatchPoll{1000};

// cpp-httplib 0.11 listens with a backlog of 5: a burst of clients connecting at once (a
// python client pool, a load test) has its SYNs dropped and retried after a second. These
// subclasses reach the listening socket (a protected member) so Start can raise the backlog;
// listen() on a listening socket only updates it.
template <typename Base>
class Listener : public Base {
 public:
  using Base::Base;
  int socket_fd() const { return static_cast<int>(this->svr_sock_.load()); }
};
constexpr int kBacklog = 1024;

void WriteError(httplib::Response& res, const ApiError& error) {
  res.status = error.code;
  res.set_content(error.ToJson().dump(), "application/json");
  if (error.retry_after_s() > 0) res.set_header("Retry-After", std::to_string(error.retry_after_s()));
}

HttpRequest ToRequest(const httplib::Request& req) {
  HttpRequest out;
  out.method = req.method;
  std::string_view target = req.target;
  if (target.empty()) target = req.path;
  const size_t q = target.find('?');
  out.path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) out.raw_query = std::string(target.substr(q + 1));
  for (const auto& [k, v] : req.headers) out.headers.emplace_back(k, v);
  out.body = req.body;
  return out;
}

// The user of a verified client certificate: CN the name, each O a group (kube-apiserver's
// x509 authenticator). nullopt without a certificate.
std::optional<UserInfo> CertificateUser(const httplib::Request& req) {
  if (req.ssl == nullptr) return std::nullopt;
  X509* cert = SSL_get1_peer_certificate(req.ssl);
  if (cert == nullptr) return std::nullopt;
  if (SSL_get_verify_result(req.ssl) != X509_V_OK) {
    X509_free(cert);
    return std::nullopt;
  }
  UserInfo user;
  X509_NAME* subject = X509_get_subject_name(cert);
  for (int i = 0; i < X509_NAME_entry_count(subject); ++i) {
    X509_NAME_ENTRY* entry = X509_NAME_get_entry(subject, i);
    const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
    ASN1_STRING* data = X509_NAME_ENTRY_get_data(entry);
    unsigned char* utf8 = nullptr;
    const int len = ASN1_STRING_to_UTF8(&utf8, data);
    if (len < 0) continue;
    std::string value(reinterpret_cast<char*>(utf8), static_cast<size_t>(len));
    OPENSSL_free(utf8);
    if (nid == NID_commonName) user.name = value;
    if (nid == NID_organizationName) user.groups.push_back(value);
  }
  X509_free(cert);
  if (user.name.empty()) return std::nullopt;
  user.groups.emplace_back(kAuthenticatedGroup);
  return user;
}

}  // namespace

core::Result<std::unique_ptr<HttpServer>> HttpServer::Start(RestHandler& handler, ChangeFeed& feed,
                                                            HttpServerOptions options,
                                                            std::function<bool()> ready) {
  std::unique_ptr<HttpServer> s(new HttpServer());
  s->handler_ = &handler;
  s->feed_ = &feed;
  s->options_ = std::move(options);
  s->ready_ = std::move(ready);
  const HttpServerOptions& o = s->options_;
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    return core::InvalidArgument("--tls-cert and --tls-key go together");
  }
  if (!o.tls_cert_file.empty()) {
    auto ssl = std::make_unique<Listener<httplib::SSLServer>>(
        o.tls_cert_file.c_str(), o.tls_key_file.c_str(),
        o.client_ca_file.empty() ? nullptr : o.client_ca_file.c_str());
    if (!ssl->is_valid()) {
      return core::InvalidArgument("cannot load the TLS certificate " + o.tls_cert_file +
                                   " and key " + o.tls_key_file);
    }
    s->server_ = std::move(ssl);
    s->tls_ = true;
  } else {
    s->server_ = std::make_unique<Listener<httplib::Server>>();
  }
  const int threads = o.threads;
  s->server_->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s->server_->set_payload_max_length(static_cast<size_t>(o.max_body_bytes));
  // Headers and body go out as separate writes: with Nagle's algorithm the body waits for the
  // client's delayed ACK of the headers (40 ms on Linux) on every kept-alive request.
  s->server_->set_tcp_nodelay(true);
  s->server_->set_read_timeout(o.read_timeout);
  s->server_->set_write_timeout(o.write_timeout);
  // httplib's Stop waits for idle keep-alive connections to time out, so this bounds how
  // long a SIGTERM drain takes while clients hold connections open.
  s->server_->set_keep_alive_timeout(o.keep_alive_timeout.count());
  s->server_->set_keep_alive_max_count(1000);
  if (o.metrics != nullptr) {
    o.metrics->Describe("berth_http_requests_total", MetricType::kCounter,
                        "API requests answered, by method and HTTP status code");
    o.metrics->Describe("berth_http_request_duration_seconds", MetricType::kHistogram,
                        "API request latency (watch streams excluded), by method");
    o.metrics->Describe("berth_watch_streams", MetricType::kGauge, "Watch streams open now");
  }
  s->Route();
  int port = o.port;
  if (port == 0) {
    port = s->server_->bind_to_any_port(o.host);
    if (port < 0) return core::Error(core::ErrorCode::kUnavailable, "cannot bind " + o.host);
  } else if (!s->server_->bind_to_port(o.host, port)) {
    return core::Error(core::ErrorCode::kUnavailable,
                       "cannot listen on " + o.host + ":" + std::to_string(port) +
                           " (in use, or not an address of this machine)");
  }
  s->port_ = port;
  const int fd = s->tls_ ? static_cast<Listener<httplib::SSLServer>*>(s->server_.get())->socket_fd()
                         : static_cast<Listener<httplib::Server>*>(s->server_.get())->socket_fd();
  ::listen(fd, kBacklog);
  httplib::Server* server = s->server_.get();
  s->listener_ = std::thread([server] { server->listen_after_bind(); });
  return s;
}

HttpServer::~HttpServer() { Stop(); }

void HttpServer::Stop() {
  if (!server_) return;
  feed_->Close();
  server_->stop();
  if (listener_.joinable()) listener_.join();
}

void HttpServer::Route() {
  auto probe = [this](bool need_ready) {
    return [this, need_ready](const httplib::Request&, httplib::Response& res) {
      const bool ok = !need_ready || (ready_ && ready_());
      res.status = ok ? 200 : 503;
      res.set_content(ok ? "ok" : "not ready", "text/plain; charset=utf-8");
    };
  };
  server_->Get("/healthz", probe(false));
  server_->Get("/livez", probe(false));
  server_->Get("/readyz", probe(true));
  server_->Get("/version", [this](const httplib::Request&, httplib::Response& res) {
    nlohmann::ordered_json v = {{"major", "1"},
                                {"minor", "32"},
                                {"gitVersion", options_.git_version},
                                {"gitCommit", ""},
                                {"gitTreeState", "clean"},
                                {"buildDate", ""},
                                {"goVersion", ""},
                                {"compiler", "berth"},
                                {"platform", "linux/amd64"}};
    res.set_content(v.dump(), "application/json");
  });

  // The dashboard's static files need no token: they hold no data, and the page asks the API
  // with the token the user gives it. The policy forbids inline scripts and styles and every
  // origin but the hub's, so an injected string in an object cannot run as code in the page.
  auto ui = [](const httplib::Request& req, httplib::Response& res) {
    std::optional<UiAsset> asset = FindUiAsset(req.path);
    if (!asset) {
      WriteError(res, PathNotFoundError());
      return;
    }
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header(
        "Content-Security-Policy",
        "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_content(std::string(asset->bytes), std::string(asset->content_type));
  };
  // Before the catch-all below: httplib takes the first pattern that matches.
  server_->Get(R"(/ui(/[A-Za-z0-9._-]*)?)", ui);

  // The caller, when authentication is on: false (and a 401 written) when it fails.
  auto authenticate = [this](const httplib::Request& req, HttpRequest& request,
                             std::optional<UserInfo>& user, httplib::Response& res) {
    if (options_.tokens == nullptr && options_.client_ca_file.empty()) return true;
    if (options_.tokens != nullptr) user = options_.tokens->Authenticate(request.Header("Authorization"));
    if (!user) user = CertificateUser(req);
    if (!user) {
      WriteError(res, UnauthorizedError());
      return false;
    }
    request.user = &*user;
    return true;
  };
  server_->Get("/metrics", [this, authenticate](const httplib::Request& req, httplib::Response& res) {
    HttpRequest request = ToRequest(req);
    std::optional<UserInfo> user;
    if (!authenticate(req, request, user, res)) return;
    if (options_.metrics == nullptr) {
      WriteError(res, PathNotFoundError());
      return;
    }
    options_.metrics->Set("berth_watch_streams", {}, watches_.load());
    res.set_content(options_.metrics->Text(), "text/plain; version=0.0.4; charset=utf-8");
  });

  auto api = [this, authenticate](const httplib::Request& req, httplib::Response& res) {
    const auto started = std::chrono::steady_clock::now();
    HttpRequest request = ToRequest(req);
    std::optional<UserInfo> user;
    if (!authenticate(req, request, user, res)) return;
    RestReply reply = handler_->Serve(request);
    if (options_.metrics != nullptr) {
      const int code = reply.watch ? 200 : reply.response.status;
      options_.metrics->Add("berth_http_requests_total",
                            {{"method", req.method}, {"code", std::to_string(code)}});
      if (!reply.watch) {
        options_.metrics->Observe(
            "berth_http_request_duration_seconds", {{"method", req.method}},
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      }
    }
    if (reply.watch) {
      if (watches_.fetch_add(1) >= options_.max_watches) {
        watches_.fetch_sub(1);
        WriteError(res, TooManyRequestsError("too many watch streams; retry", 1));
        return;
      }
      std::shared_ptr<WatchSession> session = std::move(reply.watch);
      res.status = 200;
      res.set_chunked_content_provider(
          reply.response.content_type,
          [session](size_t, httplib::DataSink& sink) {
            std::optional<std::string> chunk = session->Next(kWatchPoll);
            if (!chunk) {
              sink.done();
              return true;
            }
            if (!chunk->empty() && !sink.write(chunk->data(), chunk->size())) return false;
            return sink.is_writable();
          },
          [this](bool) { watches_.fetch_sub(1); });
      return;
    }
    res.status = reply.response.status;
    for (const auto& [k, v] : reply.response.headers) res.set_header(k, v);
    res.set_content(std::move(reply.response.body), reply.response.content_type);
  };
  server_->Get(".*", api);
  server_->Post(".*", api);
  server_->Put(".*", api);
  server_->Patch(".*", api);
  server_->Delete(".*", api);
  // cpp-httplib 0.11 holds a request body to set_payload_max_length only when it has a
  // Content-Length: a chunked body, or one with neither header (read until the client
  // closes), was read whole, before authentication, whatever its size (a 4 MiB chunked agent
  // sync was served; the API's own writes refused it only once it was in memory). Here,
  // before any body is read: one of unknown length is refused (411, and the connection
  // closed rather than read on), and a request with neither header has no body (RFC 9112
  // 6.3), so it is served without reading on. The methods are those httplib reads a body of.
  server_->set_pre_routing_handler([this, api](const httplib::Request& req, httplib::Response& res) {
    const bool reads_body =
        req.method == "POST" || req.method == "PUT" || req.method == "PATCH" || req.method == "DELETE";
    if (!reads_body || req.has_header("Content-Length")) return httplib::Server::HandlerResponse::Unhandled;
    if (req.has_header("Transfer-Encoding")) {
      WriteError(res, LengthRequiredError(options_.max_body_bytes));
      res.set_header("Connection", "close");
    } else {
      api(req, res);
    }
    return httplib::Server::HandlerResponse::Handled;
  });

  // httplib's own refusals (a body past the cap, an unknown method) as Status objects.
  server_->set_error_handler([this](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413) {
      WriteError(res, RequestEntityTooLargeError(options_.max_body_bytes));
    } else if (res.status == 404) {
      WriteError(res, PathNotFoundError());
    } else if (res.status == 405) {
      WriteError(res, MethodNotAllowedError());
    }
  });
  server_->set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        WriteError(res, InternalApiError("the server failed to answer the request"));
      });
}

}  // namespace berth::server
