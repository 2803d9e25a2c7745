// Why the TLS set-up is done by hand rather than through httplib's own checks: httplib 0.11
// adds the system's roots to whatever store it is given (SSL_CTX_set_default_verify_paths on
// first use) and compares host names itself; client-go trusts only the kubeconfig's CA when
// one is given and verifies names as Go's crypto/tls does. So httplib's verification is off
// and the SSL_CTX verifies the peer itself (SSL_VERIFY_PEER, a store holding only our CAs,
// X509_VERIFY_PARAM's host or IP check): a failed check fails the handshake.
//
// Certificates and keys are parsed once from PEM text in memory (no temporary files); every
// pooled client shares them by reference count (the CA store is up-ref'd because
// SSL_CTX_set_cert_store takes ownership of one reference).
//
// Bounding what a reply may cost: the body is read through a content receiver that counts
// bytes (after decompression, so a compressed bomb is caught too) and cancels the read past
// max_reply_bytes; a Content-Length over the cap is refused before any body is read.
//
// Token files: kubelet rotates projected service-account tokens by swapping a symlink, so the
// file is stat'ed on each request and re-read when its inode, size or mtime changed (client-go
// re-reads on a one-minute timer instead; a stat is cheaper than a stale token's 401).
#include "server/kube/http_transport.h"

#include <httplib.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <arpa/inet.h>

#include <cctype>
#include <charconv>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

namespace berth::server::kube {

namespace {

// At most this many idle connections are kept for Send; more concurrent Sends open more.
constexpr size_t kKubeMaxIdleClients = 8;
// How often a watch checks Request::cancel while its connection is quiet.
constexpr std::chrono::milliseconds kKubeCancelPoll{50};

struct KubeX509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct KubeX509StoreFree {
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
};
struct KubeEvpPkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct KubeBioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
using KubeX509Ptr = std::unique_ptr<X509, KubeX509Free>;
using KubeX509StorePtr = std::unique_ptr<X509_STORE, KubeX509StoreFree>;
using KubeEvpPkeyPtr = std::unique_ptr<EVP_PKEY, KubeEvpPkeyFree>;
using KubeBioPtr = std::unique_ptr<BIO, KubeBioFree>;

core::Error HttpTransportError(core::ErrorCode code, std::string message) {
  return core::Error(code, std::move(message));
}

struct KubeServerUrl {
  bool tls = true;
  std::string host;       // without brackets
  std::string authority;  // as written: "host:port", "[::1]:6443"
  int port = 443;
  std::string prefix;  // "" or "/k8s"
};

core::Result<KubeServerUrl> ParseKubeServerUrl(std::string_view url) {
  auto bad = [&](std::string_view why) {
    return core::InvalidArgument("server \"" + std::string(url) + "\": " + std::string(why),
                                 core::Location{"", "", "server"});
  };
  KubeServerUrl out;
  std::string_view rest = url;
  if (rest.starts_with("https://")) {
    rest.remove_prefix(8);
  } else if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
    out.tls = false;
    out.port = 80;
  } else {
    return bad("want https://HOST[:PORT] or http://HOST[:PORT]");
  }
  const size_t end = rest.find_first_of("/?#");
  std::string_view authority = rest.substr(0, end);
  std::string_view path = end == std::string_view::npos ? "" : rest.substr(end);
  if (path.find_first_of("?#") != std::string_view::npos) return bad("a query or fragment");
  if (authority.find('@') != std::string_view::npos) return bad("user information in the URL");
  out.authority = std::string(authority);
  std::string_view port_text;
  if (authority.starts_with("[")) {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return bad("unclosed '[' in the host");
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return bad("junk after the IPv6 host");
      port_text = after.substr(1);
      if (port_text.empty()) return bad("empty port");
    }
    in6_addr addr{};
    if (inet_pton(AF_INET6, out.host.c_str(), &addr) != 1) return bad("not an IPv6 address");
  } else {
    const size_t colon = authority.find(':');
    if (colon != std::string_view::npos && authority.find(':', colon + 1) != std::string_view::npos) {
      return bad("an IPv6 host must be in brackets");
    }
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port_text = authority.substr(colon + 1);
      if (port_text.empty()) return bad("empty port");
    }
  }
  if (out.host.empty()) return bad("no host");
  if (!port_text.empty()) {
    int port = 0;
    auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || p != port_text.data() + port_text.size() || port < 1 ||
        port > 65535) {
      return bad("port is not a number in 1..65535");
    }
    out.port = port;
  }
  while (path.ends_with('/')) path.remove_suffix(1);
  out.prefix = std::string(path);
  return out;
}

bool KubeIsIpLiteral(const std::string& host) {
  in_addr v4{};
  in6_addr v6{};
  return inet_pton(AF_INET, host.c_str(), &v4) == 1 || inet_pton(AF_INET6, host.c_str(), &v6) == 1;
}

// The first OpenSSL error queued, for messages; clears the queue.
std::string KubeOpenSslReason() {
  const unsigned long code = ERR_peek_last_error();
  ERR_clear_error();
  if (code == 0) return "";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

// Every certificate in `pem`; InvalidArgument naming `field` when there is none.
core::Result<std::vector<KubeX509Ptr>> KubeParseCertificates(const std::string& pem,
                                                     std::string_view field) {
  KubeBioPtr bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  std::vector<KubeX509Ptr> out;
  while (true) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (cert == nullptr) break;
    out.emplace_back(cert);
  }
  ERR_clear_error();  // the end of the text reads as an error
  if (out.empty()) {
    return core::InvalidArgument("no PEM certificate found", core::Location{"", "", std::string(field)});
  }
  return out;
}

// Holds the current token: the fixed one, or the file's, re-read when the file changes.
class KubeTokenSource {
 public:
  KubeTokenSource(std::string fixed, std::string path) : fixed_(std::move(fixed)), path_(std::move(path)) {}

  // Reads the file now: a missing token file is a configuration error worth failing on.
  core::Status Prime() {
    if (path_.empty()) return core::OkStatus();
    std::lock_guard<std::mutex> lock(mu_);
    if (!RefreshLocked()) {
      return core::NotFound("cannot read the token file " + path_, core::Location{"", "", "token_file"});
    }
    return core::OkStatus();
  }

  std::string Token() {
    if (path_.empty()) return fixed_;
    std::lock_guard<std::mutex> lock(mu_);
    RefreshLocked();
    return have_file_token_ ? file_token_ : fixed_;
  }

 private:
  // False when the file cannot be read (the last token read stays in use).
  bool RefreshLocked() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return false;
    if (have_file_token_ && st.st_ino == ino_ && st.st_size == size_ &&
        st.st_mtim.tv_sec == mtime_.tv_sec && st.st_mtim.tv_nsec == mtime_.tv_nsec) {
      return true;
    }
    std::ifstream in(path_, std::ios::binary);
    if (!in) return false;
    std::ostringstream text;
    text << in.rdbuf();
    std::string token = text.str();
    // Trailing whitespace is not part of the token (files written by `echo` end in '\n').
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
    while (!token.empty() && std::isspace(static_cast<unsigned char>(token.front()))) token.erase(0, 1);
    file_token_ = std::move(token);
    have_file_token_ = true;
    ino_ = st.st_ino;
    size_ = st.st_size;
    mtime_ = st.st_mtim;
    return true;
  }

  const std::string fixed_;
  const std::string path_;
  std::mutex mu_;
  bool have_file_token_ = false;
  std::string file_token_;
  ino_t ino_ = 0;
  off_t size_ = 0;
  timespec mtime_{};
};

// Splits a streamed body into lines, bounded by `max_line`.
class KubeLineSplitter {
 public:
  explicit KubeLineSplitter(int64_t max_line) : max_line_(max_line) {}

  // False when on_line asked to stop or a line grew past the cap (then overflowed() is true).
  bool Feed(const char* data, size_t n, const std::function<bool(std::string_view)>& on_line) {
    std::string_view chunk(data, n);
    while (!chunk.empty()) {
      const size_t nl = chunk.find('\n');
      const std::string_view piece = chunk.substr(0, nl);
      if (static_cast<int64_t>(pending_.size() + piece.size()) > max_line_) {
        overflowed_ = true;
        return false;
      }
      pending_.append(piece);
      if (nl == std::string_view::npos) break;
      chunk.remove_prefix(nl + 1);
      std::string line = std::move(pending_);
      pending_.clear();
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty() && !on_line(line)) {
        stopped_ = true;
        return false;
      }
    }
    return true;
  }
  // The last line when the body did not end in '\n'.
  void Flush(const std::function<bool(std::string_view)>& on_line) {
    if (!pending_.empty() && !stopped_ && !overflowed_) on_line(pending_);
    pending_.clear();
  }
  bool overflowed() const { return overflowed_; }
  bool stopped() const { return stopped_; }

 private:
  int64_t max_line_;
  std::string pending_;
  bool overflowed_ = false;
  bool stopped_ = false;
};

class KubeHttpTransport : public Transport {
 public:
  KubeHttpTransport(HttpConfig config, KubeServerUrl url)
      : config_(std::move(config)), url_(std::move(url)), tokens_(config_.bearer_token, config_.token_file) {}

  core::Status Init() {
    BERTH_RETURN_IF_ERROR(tokens_.Prime());
    if (!url_.tls) return core::OkStatus();
    if (!config_.ca_pem.empty()) {
      BERTH_ASSIGN_OR_RETURN(std::vector<KubeX509Ptr> cas, KubeParseCertificates(config_.ca_pem, "ca_pem"));
      ca_store_.reset(X509_STORE_new());
      for (const KubeX509Ptr& ca : cas) {
        if (X509_STORE_add_cert(ca_store_.get(), ca.get()) != 1) {
          // The same CA twice is harmless; anything else is not.
          const unsigned long code = ERR_peek_last_error();
          if (ERR_GET_REASON(code) != X509_R_CERT_ALREADY_IN_HASH_TABLE) {
            return core::InvalidArgument("cannot use the CA certificate: " + KubeOpenSslReason(),
                                         core::Location{"", "", "ca_pem"});
          }
          ERR_clear_error();
        }
      }
    }
    if (config_.client_cert_pem.empty() != config_.client_key_pem.empty()) {
      return core::InvalidArgument("a client certificate needs its key and the key its certificate",
                                   core::Location{"", "", config_.client_cert_pem.empty()
                                                              ? "client_cert_pem"
                                                              : "client_key_pem"});
    }
    if (!config_.client_cert_pem.empty()) {
      BERTH_ASSIGN_OR_RETURN(std::vector<KubeX509Ptr> certs,
                             KubeParseCertificates(config_.client_cert_pem, "client_cert_pem"));
      client_cert_ = std::move(certs.front());
      for (size_t i = 1; i < certs.size(); ++i) client_chain_.push_back(std::move(certs[i]));
      KubeBioPtr bio(BIO_new_mem_buf(config_.client_key_pem.data(),
                                 static_cast<int>(config_.client_key_pem.size())));
      client_key_.reset(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
      if (!client_key_) {
        ERR_clear_error();
        return core::InvalidArgument("no PEM private key found",
                                     core::Location{"", "", "client_key_pem"});
      }
      if (X509_check_private_key(client_cert_.get(), client_key_.get()) != 1) {
        ERR_clear_error();
        return core::InvalidArgument("the private key does not match the client certificate",
                                     core::Location{"", "", "client_key_pem"});
      }
    }
    // A client now, so a TLS set-up problem shows at construction rather than on first use.
    auto probe = NewClient();
    if (!probe) return std::move(probe).error();
    Release(std::move(probe).value());
    return core::OkStatus();
  }

  core::Result<Reply> Send(const Request& request) override {
    bool reused = false;
    BERTH_ASSIGN_OR_RETURN(std::unique_ptr<httplib::ClientImpl> client, Acquire(&reused));
    auto result = SendOn(*client, request);
    // A pooled connection the server closed while it sat idle fails at once, before any
    // reply byte; the request never reached a handler, so it is sent again on a new
    // connection, as Go's transport does for a reused connection's first read failing
    // (client-go sees none of these errors).
    if (reused && !result.sent && result.received == 0 &&
        (result.error == httplib::Error::Read || result.error == httplib::Error::Write)) {
      BERTH_ASSIGN_OR_RETURN(client, NewClient());
      result = SendOn(*client, request);
    }
    if (result.exhausted) {
      return HttpTransportError(core::ErrorCode::kResourceExhausted,
                                request.method + " " + request.path + ": the reply is larger than " +
                                    std::to_string(config_.max_reply_bytes) + " bytes");
    }
    if (!result.sent) return TransportFailure(request, result.error, *client);
    Release(std::move(client));
    return std::move(result.reply);
  }

  struct Attempt {
    bool sent = false;
    bool exhausted = false;
    httplib::Error error = httplib::Error::Success;
    uint64_t received = 0;  // reply bytes seen (headers or body)
    Reply reply;
  };

  Attempt SendOn(httplib::ClientImpl& client, const Request& request) {
    Attempt out;
    httplib::Request req = ToHttplib(request);
    bool exhausted = false;
    std::string body;
    const auto max = static_cast<uint64_t>(std::max<int64_t>(config_.max_reply_bytes, 0));
    req.response_handler = [&](const httplib::Response& res) {
      out.received = std::max<uint64_t>(out.received, 1);
      const std::string length = res.get_header_value("Content-Length");
      uint64_t declared = 0;
      auto [p, ec] = std::from_chars(length.data(), length.data() + length.size(), declared);
      if (ec == std::errc() && p == length.data() + length.size() && declared > max) {
        exhausted = true;
        return false;
      }
      return true;
    };
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
      if (body.size() + n > max) {
        exhausted = true;
        return false;
      }
      body.append(data, n);
      return true;
    };
    httplib::Response res;
    out.sent = client.send(req, res, out.error);
    out.exhausted = exhausted;
    out.received += body.size();
    if (out.sent && !exhausted) {
      out.reply.status = res.status;
      out.reply.body = std::move(body);
      for (const auto& [name, value] : res.headers) out.reply.headers.emplace(Lower(name), value);
    }
    return out;
  }

  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override {
    BERTH_ASSIGN_OR_RETURN(std::unique_ptr<httplib::ClientImpl> client, NewClient());
    httplib::Request req = ToHttplib(request);
    int status = 0;
    KubeLineSplitter lines(config_.max_reply_bytes);
    req.response_handler = [&](const httplib::Response& res) {
      status = res.status;
      return true;
    };
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
      if (request.cancel != nullptr && request.cancel->load()) return false;
      return lines.Feed(data, n, on_line);
    };
    // A quiet watch blocks in a read; the only way to end it early is to shut its socket from
    // another thread (httplib's stop() is the one thread-safe call on a busy client).
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::thread canceller;
    if (request.cancel != nullptr) {
      canceller = std::thread([&] {
        std::unique_lock<std::mutex> lock(mu);
        while (!done) {
          cv.wait_for(lock, kKubeCancelPoll);
          if (!done && request.cancel->load()) client->stop();
        }
      });
    }
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    const bool sent = client->send(req, res, error);
    if (canceller.joinable()) {
      {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
      }
      cv.notify_all();
      canceller.join();
    }
    if (lines.overflowed()) {
      return HttpTransportError(core::ErrorCode::kResourceExhausted,
                                "GET " + request.path + ": a streamed line is larger than " +
                                    std::to_string(config_.max_reply_bytes) + " bytes");
    }
    if (sent) lines.Flush(on_line);
    // Once the status line came, the stream's end (the server's, the caller's, a read timeout,
    // a cancel) is an ordinary end: the caller resumes from what it saw.
    if (status != 0) return status;
    return TransportFailure(request, error, *client).error();
  }

 private:
  static std::string Lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  }

  httplib::Request ToHttplib(const Request& request) {
    httplib::Request req;
    req.method = request.method;
    req.path = url_.prefix + request.path;
    if (!request.query.empty()) req.path += "?" + request.query;
    req.headers.emplace("Host", url_.authority);
    req.headers.emplace("User-Agent", config_.user_agent);
    if (!request.accept.empty()) req.headers.emplace("Accept", request.accept);
    if (!request.content_type.empty()) req.headers.emplace("Content-Type", request.content_type);
    const std::string token = tokens_.Token();
    if (!token.empty()) req.headers.emplace("Authorization", "Bearer " + token);
    req.body = request.body;
    return req;
  }

  core::Result<Reply> TransportFailure(const Request& request, httplib::Error error,
                                       const httplib::ClientImpl& client) {
    std::string message = request.method + " " + config_.server + request.path + ": " +
                          httplib::to_string(error);
    if (error == httplib::Error::SSLConnection || error == httplib::Error::SSLServerVerification) {
      const std::string reason = KubeOpenSslReason();
      if (!reason.empty()) message += " (" + reason + ")";
      if (url_.tls) {
        const long verify = static_cast<const httplib::SSLClient&>(client).get_openssl_verify_result();
        if (verify != X509_V_OK) {
          message += std::string(" (certificate: ") + X509_verify_cert_error_string(verify) + ")";
        }
      }
    }
    return HttpTransportError(core::ErrorCode::kUnavailable, std::move(message));
  }

  // A pooled client (its connection kept alive: `*reused` true) or a new one.
  core::Result<std::unique_ptr<httplib::ClientImpl>> Acquire(bool* reused = nullptr) {
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      if (!idle_.empty()) {
        std::unique_ptr<httplib::ClientImpl> client = std::move(idle_.back());
        idle_.pop_back();
        if (reused != nullptr) *reused = true;
        return client;
      }
    }
    if (reused != nullptr) *reused = false;
    return NewClient();
  }

  void Release(std::unique_ptr<httplib::ClientImpl> client) {
    std::lock_guard<std::mutex> lock(pool_mu_);
    if (idle_.size() < kKubeMaxIdleClients) idle_.push_back(std::move(client));
  }

  // The address httplib connects to when the certificate's name (and SNI) is not the URL's
  // host: httplib maps a host to a numeric address only, so a DNS name is resolved here.
  core::Result<std::string> NumericAddressOf(const std::string& host) {
    if (KubeIsIpLiteral(host)) return host;
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
      return HttpTransportError(core::ErrorCode::kUnavailable, "cannot resolve " + host);
    }
    char text[INET6_ADDRSTRLEN] = {0};
    const void* addr = found->ai_family == AF_INET6
                           ? static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(found->ai_addr)->sin6_addr)
                           : static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr);
    inet_ntop(found->ai_family, addr, text, sizeof(text));
    freeaddrinfo(found);
    return std::string(text);
  }

  core::Result<std::unique_ptr<httplib::ClientImpl>> NewClient() {
    std::unique_ptr<httplib::ClientImpl> client;
    if (url_.tls) {
      const std::string name = config_.tls_server_name.empty() ? url_.host : config_.tls_server_name;
      auto ssl = std::make_unique<httplib::SSLClient>(name, url_.port, client_cert_.get(),
                                                      client_key_.get());
      if (!ssl->is_valid()) {
        return HttpTransportError(core::ErrorCode::kInvalidArgument,
                                  "cannot set up TLS: " + KubeOpenSslReason());
      }
      if (name != url_.host) {
        BERTH_ASSIGN_OR_RETURN(std::string address, NumericAddressOf(url_.host));
        ssl->set_hostname_addr_map({{name, address}});
      }
      SSL_CTX* ctx = ssl->ssl_context();
      for (const KubeX509Ptr& extra : client_chain_) SSL_CTX_add1_chain_cert(ctx, extra.get());
      ssl->enable_server_certificate_verification(false);
      if (!config_.insecure_skip_tls_verify) {
        if (ca_store_) {
          X509_STORE_up_ref(ca_store_.get());
          SSL_CTX_set_cert_store(ctx, ca_store_.get());
        } else {
          SSL_CTX_set_default_verify_paths(ctx);
        }
        X509_VERIFY_PARAM* param = SSL_CTX_get0_param(ctx);
        if (KubeIsIpLiteral(name)) {
          X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str());
        } else {
          X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
          X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
      }
      client = std::move(ssl);
    } else {
      client = std::make_unique<httplib::ClientImpl>(url_.host, url_.port);
    }
    client->set_url_encode(false);  // paths and queries arrive escaped (kube_client.cc)
    client->set_keep_alive(true);
    client->set_tcp_nodelay(true);
    client->set_connection_timeout(config_.connect_timeout);
    client->set_read_timeout(config_.read_timeout);
    client->set_write_timeout(config_.read_timeout);
    return client;
  }

  const HttpConfig config_;
  const KubeServerUrl url_;
  KubeTokenSource tokens_;
  KubeX509StorePtr ca_store_;
  KubeX509Ptr client_cert_;
  std::vector<KubeX509Ptr> client_chain_;
  KubeEvpPkeyPtr client_key_;
  std::mutex pool_mu_;
  std::vector<std::unique_ptr<httplib::ClientImpl>> idle_;
};

}  // namespace

core::Result<std::unique_ptr<Transport>> NewHttpTransport(HttpConfig config) {
  BERTH_ASSIGN_OR_RETURN(KubeServerUrl url, ParseKubeServerUrl(config.server));
  auto transport = std::make_unique<KubeHttpTransport>(std::move(config), std::move(url));
  BERTH_RETURN_IF_ERROR(transport->Init());
  return std::unique_ptr<Transport>(std::move(transport));
}

}  // namespace berth::server::kube
