// HttpServer over real sockets on 127.0.0.1: what a client may hold is bounded (watch streams,
// body size, a client that sends nothing), refusals are Status objects, and authentication
// answers 401 before anything else. Raw sockets, so the test controls every byte it sends.
#include "server/http/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

using Clock = std::chrono::steady_clock;

// A TCP connection to 127.0.0.1:port; every read is bounded by `timeout`.
class Conn {
 public:
  explicit Conn(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~Conn() { ::close(fd_); }
  bool connected() const { return connected_; }
  void Send(const std::string& data) { (void)!::send(fd_, data.data(), data.size(), MSG_NOSIGNAL); }
  // What arrives until `until` returns true for it, the peer closes, or `timeout` passes.
  std::string Read(std::chrono::milliseconds timeout, bool (*until)(const std::string&) = nullptr) {
    std::string out;
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      const int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count());
      if (::poll(&p, 1, std::max(1, left)) <= 0) break;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      out.append(buf, static_cast<size_t>(n));
      if (until != nullptr && until(out)) break;
    }
    return out;
  }
  bool closed() const { return closed_; }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
};

bool HasHeaders(const std::string& s) { return s.find("\r\n\r\n") != std::string::npos; }
bool HasStatusBody(const std::string& s) { return s.find("\"kind\":\"Status\"") != std::string::npos; }

std::string Get(const std::string& path, const std::string& extra = "") {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
}

class HttpServerTest : public ::testing::Test {
 protected:
  // `prepare` mounts handlers before the server starts serving.
  void Start(HttpServerOptions options, const std::function<void(RestHandler&)>& prepare = {}) {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
    handler_ = std::make_unique<RestHandler>(*store_, feed_, nullptr, RestOptions{});
    ASSERT_TRUE(handler_->EnsureSystemNamespaces().ok());
    if (prepare) prepare(*handler_);
    options.port = 0;
    auto started = HttpServer::Start(*handler_, feed_, options, [] { return true; });
    ASSERT_TRUE(started) << started.error().ToString();
    http_ = std::move(started).value();
  }
  void TearDown() override {
    if (http_) http_->Stop();
  }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  ChangeFeed feed_;
  std::unique_ptr<RestHandler> handler_;
  std::unique_ptr<HttpServer> http_;
};

TEST_F(HttpServerTest, WatchStreamsAreCappedWith429) {
  HttpServerOptions o;
  o.threads = 8;
  o.max_watches = 2;
  Start(o);
  const std::string watch = Get("/api/v1/namespaces?watch=1");
  Conn a(http_->port()), b(http_->port()), c(http_->port());
  a.Send(watch);
  EXPECT_NE(a.Read(std::chrono::seconds(5), HasHeaders).find("200 OK"), std::string::npos);
  b.Send(watch);
  EXPECT_NE(b.Read(std::chrono::seconds(5), HasHeaders).find("200 OK"), std::string::npos);
  c.Send(watch);
  const std::string refused = c.Read(std::chrono::seconds(5), HasStatusBody);
  EXPECT_NE(refused.find("429"), std::string::npos) << refused;
  EXPECT_NE(refused.find("Retry-After: 1"), std::string::npos) << refused;
  EXPECT_NE(refused.find("\"reason\":\"TooManyRequests\""), std::string::npos) << refused;
  // Short requests still get threads while the watches hold theirs.
  Conn d(http_->port());
  d.Send(Get("/api/v1/namespaces/default"));
  EXPECT_NE(d.Read(std::chrono::seconds(5), [](const std::string& s) {
               return s.find("\"kind\":\"Namespace\"") != std::string::npos;
             }).find("200 OK"),
            std::string::npos);
  EXPECT_EQ(http_->active_watches(), 2);
}

TEST_F(HttpServerTest, ASilentClientIsDropped) {
  HttpServerOptions o;
  o.read_timeout = std::chrono::seconds(1);
  Start(o);
  Conn slow(http_->port());
  ASSERT_TRUE(slow.connected());
  slow.Send("GET /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\n");  // never finished
  const auto start = Clock::now();
  slow.Read(std::chrono::seconds(10));
  EXPECT_TRUE(slow.closed());
  // Dropped within the idle keep-alive wait (5 s) plus the read timeout (1 s), before the 10 s
  // this test would wait.
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(8))
      << std::chrono::duration<double>(Clock::now() - start).count() << " s";
}

TEST_F(HttpServerTest, OversizedBodyIs413Status) {
  HttpServerOptions o;
  o.max_body_bytes = 1024;
  Start(o);
  Conn c(http_->port());
  const std::string body(4096, 'x');
  std::string request =
      "POST /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  request += body;
  c.Send(request);
  const std::string reply = c.Read(std::chrono::seconds(5), HasStatusBody);
  EXPECT_NE(reply.find("413"), std::string::npos) << reply;
  EXPECT_NE(reply.find("\"reason\":\"RequestEntityTooLarge\""), std::string::npos) << reply;
}

// A body whose size is not known before it is read is never read: cpp-httplib 0.11 caps only
// bodies with a Content-Length, so a chunked one (of any size, unauthenticated) used to be
// read whole and handed to the handler; a handler mounted beside the API (the agents' sync)
// has no cap of its own. A request with neither header has no body and is answered at once
// (httplib used to read on until the client closed).
TEST_F(HttpServerTest, BodiesOfUnknownLengthAreNotRead) {
  HttpServerOptions o;
  o.max_body_bytes = 1024;
  std::vector<size_t> served;  // body sizes the mounted handler saw
  Start(o, [&served](RestHandler& handler) {
    handler.Mount("/apis/agent.berth.dev/", [&served](const HttpRequest& http) {
      served.push_back(http.body.size());
      RestReply r;
      r.response.body = "{}";
      return r;
    });
  });
  const std::string head =
      "POST /apis/agent.berth.dev/v1/clusters/eu-1/sync HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      "Content-Type: application/json\r\n";
  for (size_t size : {size_t{4096}, size_t{10}}) {
    Conn c(http_->port());
    const std::string body(size, 'x');
    char chunk_size[32];
    std::snprintf(chunk_size, sizeof chunk_size, "%zx", size);
    c.Send(head + "Transfer-Encoding: chunked\r\n\r\n" + chunk_size + "\r\n" + body + "\r\n0\r\n\r\n");
    const std::string reply = c.Read(std::chrono::seconds(5), HasStatusBody);
    EXPECT_NE(reply.find("HTTP/1.1 411"), std::string::npos) << reply;
    EXPECT_NE(reply.find("must have a Content-Length (at most 1024 bytes)"), std::string::npos) << reply;
  }
  EXPECT_TRUE(served.empty());
  // Over the cap with a Content-Length: 413 before the mounted handler, as for the API.
  {
    Conn c(http_->port());
    c.Send(head + "Content-Length: 4096\r\n\r\n" + std::string(4096, 'x'));
    const std::string reply = c.Read(std::chrono::seconds(5), HasStatusBody);
    EXPECT_NE(reply.find("\"reason\":\"RequestEntityTooLarge\""), std::string::npos) << reply;
  }
  EXPECT_TRUE(served.empty());
  // Neither header: no body, answered without waiting for the client to close.
  {
    Conn c(http_->port());
    const auto start = Clock::now();
    c.Send(head + "\r\n");
    const std::string reply = c.Read(std::chrono::seconds(5), [](const std::string& s) {
      return s.find("\r\n\r\n{}") != std::string::npos;
    });
    EXPECT_NE(reply.find("HTTP/1.1 200"), std::string::npos) << reply;
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(4));
  }
  ASSERT_EQ(served.size(), 1u);
  EXPECT_EQ(served[0], 0u);
  // The API's own writes the same way: a chunked create is refused, no namespace made.
  {
    Conn c(http_->port());
    const std::string ns = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"chunked"}})";
    char chunk_size[32];
    std::snprintf(chunk_size, sizeof chunk_size, "%zx", ns.size());
    c.Send("POST /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
           "Transfer-Encoding: chunked\r\n\r\n" + std::string(chunk_size) + "\r\n" + ns + "\r\n0\r\n\r\n");
    EXPECT_NE(c.Read(std::chrono::seconds(5), HasStatusBody).find("HTTP/1.1 411"), std::string::npos);
  }
  EXPECT_FALSE(store_->Get({"", "Namespace", "", "chunked"}));
}

TEST_F(HttpServerTest, TokensAreRequiredExceptForProbes) {
  auto tokens = TokenAuthenticator::Parse("secret-token,alice,1,\"system:masters\"\n");
  ASSERT_TRUE(tokens);
  MetricsRegistry metrics;
  HttpServerOptions o;
  o.tokens = &*tokens;
  o.metrics = &metrics;
  Start(o);
  {
    Conn c(http_->port());
    c.Send(Get("/api/v1/namespaces"));
    const std::string r = c.Read(std::chrono::seconds(5), HasStatusBody);
    EXPECT_NE(r.find("401"), std::string::npos) << r;
  }
  {
    Conn c(http_->port());
    c.Send(Get("/api/v1/namespaces", "Authorization: Bearer wrong\r\n"));
    EXPECT_NE(c.Read(std::chrono::seconds(5), HasStatusBody).find("401"), std::string::npos);
  }
  {
    Conn c(http_->port());
    c.Send(Get("/api/v1/namespaces", "Authorization: Bearer secret-token\r\n"));
    EXPECT_NE(c.Read(std::chrono::seconds(5), [](const std::string& s) {
                 return s.find("NamespaceList") != std::string::npos;
               }).find("200 OK"),
              std::string::npos);
  }
  for (const char* probe : {"/healthz", "/readyz", "/livez", "/version"}) {
    Conn c(http_->port());
    c.Send(Get(probe));
    EXPECT_NE(c.Read(std::chrono::seconds(5), HasHeaders).find("200 OK"), std::string::npos) << probe;
  }
  {
    Conn c(http_->port());
    c.Send(Get("/metrics"));
    EXPECT_NE(c.Read(std::chrono::seconds(5), HasStatusBody).find("401"), std::string::npos);
  }
  {
    Conn c(http_->port());
    c.Send(Get("/metrics", "Authorization: Bearer secret-token\r\n"));
    const std::string r = c.Read(std::chrono::seconds(5), [](const std::string& s) {
      return s.find("berth_http_requests_total{") != std::string::npos;
    });
    EXPECT_NE(r.find("berth_http_requests_total{method=\"GET\",code=\"200\"}"), std::string::npos) << r;
  }
}

TEST(TokenAuthenticatorTest, ParsesKubeApiserverTokenFiles) {
  auto t = TokenAuthenticator::Parse(
      "# comment\n\ntok1,alice,uid-1\ntok2,bob,uid-2,\"dev,ops\"\r\n\"tok,3\",carol,3,admins\n");
  ASSERT_TRUE(t) << t.error().ToString();
  EXPECT_EQ(t->size(), 3u);
  auto bob = t->Authenticate("Bearer tok2");
  ASSERT_TRUE(bob);
  EXPECT_EQ(bob->name, "bob");
  EXPECT_TRUE(bob->InGroup("dev"));
  EXPECT_TRUE(bob->InGroup("ops"));
  EXPECT_TRUE(bob->InGroup(kAuthenticatedGroup));
  EXPECT_EQ(t->Authenticate("Bearer tok,3")->name, "carol");
  EXPECT_FALSE(t->Authenticate("Bearer nope"));
  EXPECT_FALSE(t->Authenticate("Basic tok1"));
  EXPECT_FALSE(t->Authenticate(""));
  EXPECT_FALSE(TokenAuthenticator::Parse("a,b\n"));
  EXPECT_FALSE(TokenAuthenticator::Parse("a,b,c\na,d,e\n"));
  EXPECT_FALSE(TokenAuthenticator::Parse("\"unterminated,b,c\n"));
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
