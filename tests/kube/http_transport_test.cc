// HttpTransport against the hub's HttpServer on 127.0.0.1: HTTPS verified with the CA the
// hub makes (EnsureServingCertificate) and a bearer token, a wrong CA or server name failing,
// tls-server-name, a token file re-read when it changes, client-certificate authentication
// (a CA and a client certificate made here with OpenSSL), the reply cap, concurrent Sends,
// and construction errors (URLs, PEM text).
#include "server/kube/http_transport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "kube/kube_test_hub.h"
#include "server/auth/serving_certificate.h"
#include "server/auth/token_authenticator.h"

namespace berth::server::kube {
namespace BERTH_UNITY_ID {

using testing::NodeBody;
using testing::TestHub;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteAll(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

struct KeyPair {
  std::string cert_pem;
  std::string key_pem;
};

// A certificate for `cn` (organizations `orgs`), an EC P-256 key, signed by `issuer` (self-
// signed when null): a CA when `ca`, else a client certificate (clientAuth).
KeyPair MakeCertificate(const std::string& cn, const std::vector<std::string>& orgs,
                        const KeyPair* issuer, bool ca, long serial) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), serial);
  X509_gmtime_adj(X509_getm_notBefore(cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  for (const std::string& o : orgs) {
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>(o.c_str()), -1, -1, 0);
  }
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0);
  X509* issuer_cert = cert;
  EVP_PKEY* issuer_key = key;
  if (issuer != nullptr) {
    BIO* cb = BIO_new_mem_buf(issuer->cert_pem.data(), static_cast<int>(issuer->cert_pem.size()));
    issuer_cert = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
    BIO_free(cb);
    BIO* kb = BIO_new_mem_buf(issuer->key_pem.data(), static_cast<int>(issuer->key_pem.size()));
    issuer_key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
    BIO_free(kb);
  }
  X509_set_issuer_name(cert, X509_get_subject_name(issuer_cert));
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer_cert, cert, nullptr, nullptr, 0);
  const std::vector<std::pair<int, std::string>> exts =
      ca ? std::vector<std::pair<int, std::string>>{{NID_basic_constraints, "critical,CA:TRUE"},
                                                    {NID_key_usage, "critical,keyCertSign,cRLSign"}}
         : std::vector<std::pair<int, std::string>>{{NID_basic_constraints, "critical,CA:FALSE"},
                                                    {NID_key_usage, "critical,digitalSignature"},
                                                    {NID_ext_key_usage, "clientAuth"}};
  for (const auto& [nid, value] : exts) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  X509_sign(cert, issuer_key, EVP_sha256());
  KeyPair out;
  BIO* cert_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cert_bio, cert);
  BUF_MEM* mem = nullptr;
  BIO_get_mem_ptr(cert_bio, &mem);
  out.cert_pem.assign(mem->data, mem->length);
  BIO_free(cert_bio);
  BIO* key_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(key_bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  BIO_get_mem_ptr(key_bio, &mem);
  out.key_pem.assign(mem->data, mem->length);
  BIO_free(key_bio);
  if (issuer != nullptr) {
    X509_free(issuer_cert);
    EVP_PKEY_free(issuer_key);
  }
  X509_free(cert);
  EVP_PKEY_free(key);
  return out;
}

Resource Namespaces() {
  auto r = ResourceFor("v1", "Namespace");
  EXPECT_TRUE(r);
  return r ? *r : Resource{};
}

// The status of GET /api/v1/namespaces/default through a transport made from `config`, or -1
// when the transport could not be made or the request got no answer.
int StatusOf(const HttpConfig& config, std::string* error = nullptr) {
  auto made = NewHttpTransport(config);
  if (!made) {
    if (error != nullptr) *error = made.error().ToString();
    return -1;
  }
  Client client(std::move(made).value());
  auto got = client.Get(Namespaces(), "", "default");
  if (!got) {
    if (error != nullptr) *error = got.error().ToString();
    return -1;
  }
  return got->status;
}

class HttpsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(hub_.ok());
    cert_ = hub_.dir() + "/tls.crt";
    key_ = hub_.dir() + "/tls.key";
    ASSERT_TRUE(EnsureServingCertificate(cert_, key_, {}).ok());
    auto tokens = TokenAuthenticator::Parse("good-token,alice,u1,\"system:masters\"\n");
    ASSERT_TRUE(tokens) << tokens.error().ToString();
    tokens_ = std::move(tokens).value();
  }

  std::string Serve(const std::string& client_ca_file = "", bool with_tokens = true) {
    HttpServerOptions options;
    options.tls_cert_file = cert_;
    options.tls_key_file = key_;
    options.client_ca_file = client_ca_file;
    options.tokens = with_tokens ? &tokens_ : nullptr;
    return hub_.Serve(options);
  }

  TestHub hub_;
  std::string cert_, key_;
  TokenAuthenticator tokens_ = TokenAuthenticator::Parse("").value();
};

TEST_F(HttpsTest, VerifiesTheServerAndSendsTheToken) {
  const std::string url = Serve();
  ASSERT_FALSE(url.empty());
  HttpConfig config;
  config.server = url;
  config.ca_pem = ReadAll(cert_);
  config.bearer_token = "good-token";
  std::string error;
  EXPECT_EQ(StatusOf(config, &error), 200) << error;

  HttpConfig no_token = config;
  no_token.bearer_token = "";
  EXPECT_EQ(StatusOf(no_token), 401);
  HttpConfig bad_token = config;
  bad_token.bearer_token = "bad-token";
  EXPECT_EQ(StatusOf(bad_token), 401);

  // Another hub's CA does not sign this server's certificate.
  const std::string other_dir = hub_.dir() + "/other";
  std::filesystem::create_directories(other_dir);
  ASSERT_TRUE(EnsureServingCertificate(other_dir + "/tls.crt", other_dir + "/tls.key", {}).ok());
  HttpConfig wrong_ca = config;
  wrong_ca.ca_pem = ReadAll(other_dir + "/tls.crt");
  error.clear();
  EXPECT_EQ(StatusOf(wrong_ca, &error), -1);
  EXPECT_NE(error.find("SSL"), std::string::npos) << error;
  // Nor do the system's roots.
  HttpConfig system_roots = config;
  system_roots.ca_pem = "";
  EXPECT_EQ(StatusOf(system_roots), -1);
  // Unless verification is off.
  HttpConfig insecure = system_roots;
  insecure.insecure_skip_tls_verify = true;
  EXPECT_EQ(StatusOf(insecure), 200);

  // The certificate names localhost too; it does not name wrong.example.
  HttpConfig by_name = config;
  by_name.tls_server_name = "localhost";
  error.clear();
  EXPECT_EQ(StatusOf(by_name, &error), 200) << error;
  by_name.tls_server_name = "wrong.example";
  EXPECT_EQ(StatusOf(by_name), -1);
  HttpConfig by_host = config;
  by_host.server = "https://localhost:" + url.substr(url.rfind(':') + 1);
  error.clear();
  EXPECT_EQ(StatusOf(by_host, &error), 200) << error;
}

TEST_F(HttpsTest, TokenFileIsReReadWhenItChanges) {
  const std::string url = Serve();
  ASSERT_FALSE(url.empty());
  const std::string token_path = hub_.dir() + "/token";
  WriteAll(token_path, "stale\n");
  HttpConfig config;
  config.server = url;
  config.ca_pem = ReadAll(cert_);
  config.bearer_token = "good-token";  // the file's token wins over this one
  config.token_file = token_path;
  auto made = NewHttpTransport(config);
  ASSERT_TRUE(made) << made.error().ToString();
  Client client(std::move(made).value());
  EXPECT_EQ(client.Get(Namespaces(), "", "default")->status, 401);
  WriteAll(token_path, "good-token\n");  // another size: a change even within one mtime tick
  EXPECT_EQ(client.Get(Namespaces(), "", "default")->status, 200);

  HttpConfig missing = config;
  missing.token_file = hub_.dir() + "/no-such-token";
  auto refused = NewHttpTransport(missing);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), core::ErrorCode::kNotFound);
}

TEST_F(HttpsTest, ClientCertificateAuthenticates) {
  const KeyPair ca = MakeCertificate("test-ca", {}, nullptr, true, 1);
  const KeyPair client_cert = MakeCertificate("agent-1", {"system:masters"}, &ca, false, 2);
  const std::string ca_file = hub_.dir() + "/client-ca.crt";
  WriteAll(ca_file, ca.cert_pem);
  const std::string url = Serve(ca_file, /*with_tokens=*/false);
  ASSERT_FALSE(url.empty());

  HttpConfig config;
  config.server = url;
  config.ca_pem = ReadAll(cert_);
  config.client_cert_pem = client_cert.cert_pem;
  config.client_key_pem = client_cert.key_pem;
  std::string error;
  EXPECT_EQ(StatusOf(config, &error), 200) << error;

  HttpConfig anonymous = config;
  anonymous.client_cert_pem.clear();
  anonymous.client_key_pem.clear();
  EXPECT_NE(StatusOf(anonymous), 200) << "no certificate: refused (handshake or 401)";

  // A certificate from another CA is not accepted.
  const KeyPair other_ca = MakeCertificate("other-ca", {}, nullptr, true, 3);
  const KeyPair stranger = MakeCertificate("agent-2", {}, &other_ca, false, 4);
  HttpConfig strange = config;
  strange.client_cert_pem = stranger.cert_pem;
  strange.client_key_pem = stranger.key_pem;
  EXPECT_NE(StatusOf(strange), 200);

  // A key that is not the certificate's is refused when the transport is made.
  HttpConfig mismatched = config;
  mismatched.client_key_pem = stranger.key_pem;
  auto made = NewHttpTransport(mismatched);
  ASSERT_FALSE(made);
  EXPECT_EQ(made.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(made.error().location().field, "client_key_pem");
}

TEST(HttpTransportTest, ConstructionErrors) {
  for (const char* bad : {"ftp://h", "h:443", "https://", "https://h:99999", "https://h:x",
                          "https://::1:443", "https://[::1", "https://[nothex]:1", "https://u@h",
                          "https://h:"}) {
    HttpConfig config;
    config.server = bad;
    auto made = NewHttpTransport(config);
    ASSERT_FALSE(made) << bad;
    EXPECT_EQ(made.error().code(), core::ErrorCode::kInvalidArgument) << bad;
    EXPECT_EQ(made.error().location().field, "server") << bad;
  }
  for (const char* good : {"https://[::1]:6443", "https://h", "http://h:8080/prefix/", "https://10.0.0.1"}) {
    HttpConfig config;
    config.server = good;
    EXPECT_TRUE(NewHttpTransport(config)) << good;
  }
  HttpConfig config;
  config.server = "https://127.0.0.1:6443";
  config.ca_pem = "not a certificate";
  auto bad_ca = NewHttpTransport(config);
  ASSERT_FALSE(bad_ca);
  EXPECT_EQ(bad_ca.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_ca.error().location().field, "ca_pem");

  const KeyPair pair = MakeCertificate("x", {}, nullptr, false, 9);
  config.ca_pem = "";
  config.client_cert_pem = pair.cert_pem;
  auto no_key = NewHttpTransport(config);
  ASSERT_FALSE(no_key);
  EXPECT_EQ(no_key.error().location().field, "client_key_pem");
  config.client_key_pem = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n";
  auto bad_key = NewHttpTransport(config);
  ASSERT_FALSE(bad_key);
  EXPECT_EQ(bad_key.error().location().field, "client_key_pem");
}

// A port bound and closed again: nothing listens there.
int ClosedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  const bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
                     ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  ::close(fd);
  return bound ? ntohs(addr.sin_port) : 1;
}

TEST(HttpTransportTest, ConnectionRefusedIsUnavailable) {
  HttpConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(ClosedPort());
  config.connect_timeout = std::chrono::milliseconds(1000);
  auto made = NewHttpTransport(config);
  ASSERT_TRUE(made);
  Client client(std::move(made).value());
  auto refused = client.Get(Namespaces(), "", "default");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), core::ErrorCode::kUnavailable);
  EXPECT_NE(refused.error().message().find("GET http://127.0.0.1:"), std::string::npos)
      << refused.error().message();
  WatchQuery query;
  auto watch = client.Watch(Namespaces(), "", query, [](std::string_view) { return true; });
  ASSERT_FALSE(watch);
  EXPECT_EQ(watch.error().code(), core::ErrorCode::kUnavailable);
}

TEST(HttpTransportTest, RepliesOverTheCapAreErrors) {
  TestHub hub;
  ASSERT_TRUE(hub.ok());
  const std::string url = hub.Serve();
  ASSERT_FALSE(url.empty());
  auto nodes = ResourceFor("v1", "Node");
  ASSERT_TRUE(nodes);
  Client writer(hub.InProcess());
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(writer.Create(*nodes, "", NodeBody("node-" + std::to_string(i)))->status, 201);
  }
  HttpConfig config;
  config.server = url;
  config.max_reply_bytes = 2000;
  auto made = NewHttpTransport(config);
  ASSERT_TRUE(made);
  Client client(std::move(made).value());
  auto one = client.Get(*nodes, "", "node-1");
  ASSERT_TRUE(one) << one.error().ToString();
  EXPECT_EQ(one->status, 200);
  auto all = client.List(*nodes, "");
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error().code(), core::ErrorCode::kResourceExhausted);
  // The transport still works after refusing a reply.
  EXPECT_EQ(client.Get(*nodes, "", "node-2")->status, 200);

  // A watch line over the cap.
  HttpConfig tiny = config;
  tiny.max_reply_bytes = 50;
  auto tiny_made = NewHttpTransport(tiny);
  ASSERT_TRUE(tiny_made);
  Client tiny_client(std::move(tiny_made).value());
  WatchQuery query;
  query.resource_version = "0";
  query.timeout_s = 5;
  int lines = 0;
  auto watched = tiny_client.Watch(*nodes, "", query, [&](std::string_view) {
    ++lines;
    return true;
  });
  ASSERT_FALSE(watched);
  EXPECT_EQ(watched.error().code(), core::ErrorCode::kResourceExhausted);
  EXPECT_EQ(lines, 0);
}

// The agent syncs every 10 s and the hub drops idle connections after 5 s: a pooled
// connection the server closed is replaced, not reported as a failed request.
TEST(HttpTransportTest, AConnectionTheServerClosedWhileIdleIsReplaced) {
  TestHub hub;
  ASSERT_TRUE(hub.ok());
  HttpServerOptions options;
  options.keep_alive_timeout = std::chrono::seconds(1);
  const std::string url = hub.Serve(options);
  ASSERT_FALSE(url.empty());
  HttpConfig config;
  config.server = url;
  auto made = NewHttpTransport(config);
  ASSERT_TRUE(made);
  Client client(std::move(made).value());
  for (int i = 0; i < 3; ++i) {
    auto got = client.Get(Namespaces(), "", "default");
    ASSERT_TRUE(got) << "request " << i << ": " << got.error().ToString();
    EXPECT_EQ(got->status, 200);
    // Past the server's keep-alive timeout: it closes the pooled connection.
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  }
}

TEST(HttpTransportTest, ConcurrentSends) {
  TestHub hub;
  ASSERT_TRUE(hub.ok());
  const std::string url = hub.Serve();
  ASSERT_FALSE(url.empty());
  HttpConfig config;
  config.server = url + "/";
  auto made = NewHttpTransport(config);
  ASSERT_TRUE(made);
  Client client(std::move(made).value());
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 15; ++i) {
        auto got = client.Get(Namespaces(), "", "default");
        if (got && got->status == 200 && got->Parsed()["metadata"]["name"] == "default") ++ok;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 90);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::kube
