// ConfigFromKubeconfig and InClusterConfig: which fields are read and how (data fields are
// base64, file fields are read relative to the kubeconfig's directory, tokenFile is passed on
// to be re-read), the errors naming their field, and the kubeconfig `berth serve` writes read
// through io's YAML conversion and used against a hub over HTTPS.
#include "server/kube/kubeconfig.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "io/yaml_json.h"
#include "kube/kube_test_hub.h"
#include "server/auth/serving_certificate.h"
#include "server/auth/token_authenticator.h"

namespace berth::server::kube {
namespace BERTH_UNITY_ID {

using testing::TestHub;

std::string Base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
}

// A kubeconfig with one context "main" (cluster "c", user "u"), the cluster and user bodies
// given as JSON text.
Json Kubeconfig(const std::string& cluster, const std::string& user,
                const std::string& extra_context = "") {
  return Json::parse(R"({"apiVersion":"v1","kind":"Config","current-context":"main",
    "clusters":[{"name":"other","cluster":{"server":"https://other:1"}},{"name":"c","cluster":)" +
                     cluster + R"(}],
    "users":[{"name":"u","user":)" + user + R"(}],
    "contexts":[{"name":"main","context":{"cluster":"c","user":"u","namespace":"team-a"}})" +
                     extra_context + "]}");
}

class KubeconfigTest : public ::testing::Test {
 protected:
  store::testing::TempDir dir_;
};

TEST_F(KubeconfigTest, DataFieldsAndToken) {
  const Json config = Kubeconfig(
      R"({"server":"https://10.0.0.1:6443","certificate-authority-data":")" + Base64("CA PEM") +
          R"(","tls-server-name":"api.internal"})",
      R"({"token":"abc","client-certificate-data":")" + Base64("CERT") +
          R"(","client-key-data":")" + Base64("KEY") + R"("})");
  auto got = ConfigFromKubeconfig(config, "", "");
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(got->server, "https://10.0.0.1:6443");
  EXPECT_EQ(got->ca_pem, "CA PEM");
  EXPECT_EQ(got->tls_server_name, "api.internal");
  EXPECT_FALSE(got->insecure_skip_tls_verify);
  EXPECT_EQ(got->bearer_token, "abc");
  EXPECT_EQ(got->client_cert_pem, "CERT");
  EXPECT_EQ(got->client_key_pem, "KEY");
  EXPECT_EQ(got->default_namespace, "team-a");
  EXPECT_EQ(got->token_file, "");
}

TEST_F(KubeconfigTest, FileFieldsAreReadRelativeToTheKubeconfig) {
  std::filesystem::create_directories(dir_.path() + "/pki");
  WriteFile(dir_.path() + "/pki/ca.crt", "CA FROM FILE");
  WriteFile(dir_.path() + "/pki/client.crt", "CERT FROM FILE");
  WriteFile(dir_.path() + "/client.key", "KEY FROM FILE");
  const Json config = Kubeconfig(
      R"({"server":"https://h","certificate-authority":"pki/ca.crt"})",
      R"({"tokenFile":"token","client-certificate":"pki/client.crt","client-key":")" +
          dir_.path() + R"(/client.key"})");
  auto got = ConfigFromKubeconfig(config, "", dir_.path());
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(got->ca_pem, "CA FROM FILE");
  EXPECT_EQ(got->client_cert_pem, "CERT FROM FILE");
  EXPECT_EQ(got->client_key_pem, "KEY FROM FILE") << "an absolute path is taken as it is";
  EXPECT_EQ(got->token_file, dir_.path() + "/token") << "passed on, to be re-read";
  EXPECT_EQ(got->bearer_token, "");
}

TEST_F(KubeconfigTest, ContextsAreChosenByName) {
  const Json config = Kubeconfig(R"({"server":"https://h"})", R"({"token":"t"})",
                                 R"(,{"name":"second","context":{"cluster":"other"}})");
  auto second = ConfigFromKubeconfig(config, "second", "");
  ASSERT_TRUE(second) << second.error().ToString();
  EXPECT_EQ(second->server, "https://other:1");
  EXPECT_EQ(second->bearer_token, "") << "a context without a user sends no credentials";
  EXPECT_EQ(second->default_namespace, "");

  auto missing = ConfigFromKubeconfig(config, "nope", "");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(missing.error().ToString(), "context: no contexts entry named \"nope\"");

  Json no_current = config;
  no_current.erase("current-context");
  auto unnamed = ConfigFromKubeconfig(no_current, "", "");
  ASSERT_FALSE(unnamed);
  EXPECT_EQ(unnamed.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(unnamed.error().location().field, "current-context");

  Json dangling = config;
  dangling["current-context"] = "gone";
  EXPECT_EQ(ConfigFromKubeconfig(dangling, "", "").error().ToString(),
            "current-context: no contexts entry named \"gone\"");
}

struct ErrorCase {
  const char* name;
  std::string cluster;
  std::string user;
  core::ErrorCode code;
  std::string message;  // Error::ToString()
};

TEST_F(KubeconfigTest, ErrorsNameTheirField) {
  const std::string ok_cluster = R"({"server":"https://h"})";
  const std::string b64 = Base64("x");
  const std::vector<ErrorCase> cases = {
      {"bad base64", ok_cluster,
       R"({"client-certificate-data":")" + b64 + R"(","client-key-data":"not*base64"})",
       core::ErrorCode::kInvalidArgument, "users[0].user.client-key-data: not valid base64"},
      {"bad padding", R"({"server":"https://h","certificate-authority-data":"QUJD="})", "{}",
       core::ErrorCode::kInvalidArgument,
       "clusters[1].cluster.certificate-authority-data: not valid base64"},
      {"exec", ok_cluster, R"({"exec":{"command":"aws","apiVersion":"client.authentication.k8s.io/v1"}})",
       core::ErrorCode::kUnimplemented,
       "users[0].user.exec: this authentication method is not supported by berth"},
      {"auth-provider", ok_cluster, R"({"auth-provider":{"name":"oidc"}})",
       core::ErrorCode::kUnimplemented,
       "users[0].user.auth-provider: this authentication method is not supported by berth"},
      {"basic auth", ok_cluster, R"({"username":"a","password":"b"})",
       core::ErrorCode::kUnimplemented,
       "users[0].user.username: this authentication method is not supported by berth"},
      {"data and file", R"({"server":"https://h","certificate-authority":"/ca","certificate-authority-data":")" + b64 + R"("})",
       "{}", core::ErrorCode::kInvalidArgument,
       "clusters[1].cluster.certificate-authority-data: set together with certificate-authority; give one"},
      {"cert without key", ok_cluster, R"({"client-certificate-data":")" + b64 + R"("})",
       core::ErrorCode::kInvalidArgument,
       "users[0].user.client-key-data: a client certificate needs client-key-data or client-key"},
      {"missing file", R"({"server":"https://h","certificate-authority":"nope.crt"})", "{}",
       core::ErrorCode::kNotFound, ""},
      {"no server", R"({"certificate-authority-data":")" + b64 + R"("})", "{}",
       core::ErrorCode::kInvalidArgument, "clusters[1].cluster.server: no server given"},
      {"server not a string", R"({"server":6443})", "{}", core::ErrorCode::kInvalidArgument,
       "clusters[1].cluster.server: not a string"},
      {"insecure with a CA", R"({"server":"https://h","insecure-skip-tls-verify":true,"certificate-authority-data":")" + b64 + R"("})",
       "{}", core::ErrorCode::kInvalidArgument,
       "clusters[1].cluster.insecure-skip-tls-verify: a certificate authority cannot be given with "
       "the insecure flag"},
  };
  for (const ErrorCase& c : cases) {
    auto got = ConfigFromKubeconfig(Kubeconfig(c.cluster, c.user), "", "/nowhere");
    ASSERT_FALSE(got) << c.name;
    EXPECT_EQ(got.error().code(), c.code) << c.name << ": " << got.error().ToString();
    if (!c.message.empty()) {
      EXPECT_EQ(got.error().ToString(), c.message) << c.name;
    }
  }
  auto missing_file = ConfigFromKubeconfig(
      Kubeconfig(R"({"server":"https://h","certificate-authority":"nope.crt"})", "{}"), "", "/nowhere");
  EXPECT_EQ(missing_file.error().location().field, "clusters[1].cluster.certificate-authority");
  EXPECT_NE(missing_file.error().message().find("/nowhere/nope.crt"), std::string::npos);

  Json no_user = Kubeconfig(R"({"server":"https://h"})", "{}");
  no_user["contexts"][0]["context"]["user"] = "ghost";
  EXPECT_EQ(ConfigFromKubeconfig(no_user, "", "").error().ToString(),
            "contexts[0].context.user: no users entry named \"ghost\"");
  Json no_cluster = Kubeconfig(R"({"server":"https://h"})", "{}");
  no_cluster["contexts"][0]["context"]["cluster"] = "ghost";
  EXPECT_EQ(ConfigFromKubeconfig(no_cluster, "", "").error().code(), core::ErrorCode::kNotFound);
  EXPECT_FALSE(ConfigFromKubeconfig(Json::array(), "", ""));

  // Base64 as Go reads it: padding, and line breaks skipped.
  auto wrapped = ConfigFromKubeconfig(
      Kubeconfig(R"({"server":"https://h","certificate-authority-data":"QUJD\nREVG\r\nRw=="})", "{}"), "", "");
  ASSERT_TRUE(wrapped) << wrapped.error().ToString();
  EXPECT_EQ(wrapped->ca_pem, "ABCDEFG");
}

TEST(YamlJsonTest, FirstDocumentAsJson) {
  auto one = io::YamlDocumentAsJson("a: 1\nb: [x, \"2\"]\n");
  ASSERT_TRUE(one) << one.error().ToString();
  EXPECT_EQ(Json::parse(*one), Json::parse(R"({"a":1,"b":["x","2"]})"));
  auto first = io::YamlDocumentAsJson("a: 1\n---\na: 2\n");
  ASSERT_TRUE(first);
  EXPECT_EQ(Json::parse(*first)["a"], 1);
  auto bad = io::YamlDocumentAsJson("a: [1\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), core::ErrorCode::kInvalidArgument);
  auto duplicate = io::YamlDocumentAsJson("a: 1\na: 2\n");
  EXPECT_FALSE(duplicate) << "duplicate keys are refused, as kubectl refuses them";
}

// The kubeconfig `berth serve` writes (cli/serve_command.cc WriteKubeconfig), read as the cli
// will read it (file -> io's YAML -> ConfigFromKubeconfig) and used against an HTTPS hub.
TEST(ServeKubeconfigTest, ReadAndUsedAgainstTheHub) {
  TestHub hub;
  ASSERT_TRUE(hub.ok());
  const std::string cert = hub.dir() + "/tls.crt";
  const std::string key = hub.dir() + "/tls.key";
  ASSERT_TRUE(EnsureServingCertificate(cert, key, {"127.0.0.1"}).ok());
  auto ca_data = Base64File(cert);
  ASSERT_TRUE(ca_data);
  auto tokens = TokenAuthenticator::Parse("s3cret,admin,1,\"system:masters\"\n");
  ASSERT_TRUE(tokens);
  HttpServerOptions options;
  options.tls_cert_file = cert;
  options.tls_key_file = key;
  options.tokens = &*tokens;
  const std::string url = hub.Serve(options);
  ASSERT_FALSE(url.empty());

  const std::string yaml = "apiVersion: v1\n"
                           "kind: Config\n"
                           "clusters:\n"
                           "- name: berth\n"
                           "  cluster:\n"
                           "    server: " + url + "\n"
                           "    certificate-authority-data: " + *ca_data + "\n"
                           "contexts:\n"
                           "- name: berth\n"
                           "  context:\n"
                           "    cluster: berth\n"
                           "    user: berth-admin\n"
                           "current-context: berth\n"
                           "users:\n"
                           "- name: berth-admin\n"
                           "  user:\n"
                           "    token: s3cret\n";
  auto json = io::YamlDocumentAsJson(yaml);
  ASSERT_TRUE(json) << json.error().ToString();
  auto config = ConfigFromKubeconfig(Json::parse(*json), "", hub.dir());
  ASSERT_TRUE(config) << config.error().ToString();
  EXPECT_EQ(config->server, url);
  EXPECT_EQ(config->bearer_token, "s3cret");
  auto transport = NewHttpTransport(*config);
  ASSERT_TRUE(transport) << transport.error().ToString();
  Client client(std::move(transport).value());
  auto namespaces = ResourceFor("v1", "Namespace");
  ASSERT_TRUE(namespaces);
  auto listed = client.ListAll(*namespaces, "");
  ASSERT_TRUE(listed) << listed.error().ToString();
  ASSERT_EQ(listed->status, 200) << listed->body;
  EXPECT_EQ(listed->Parsed()["items"].size(), 4u) << "the hub's system namespaces";
}

class InClusterTest : public ::testing::Test {
 protected:
  EnvLookup Env() const {
    return [this](std::string_view name) -> std::optional<std::string> {
      auto it = env_.find(std::string(name));
      if (it == env_.end()) return std::nullopt;
      return it->second;
    };
  }
  store::testing::TempDir dir_;
  std::map<std::string, std::string> env_ = {{"KUBERNETES_SERVICE_HOST", "10.96.0.1"},
                                             {"KUBERNETES_SERVICE_PORT", "443"}};
};

TEST_F(InClusterTest, ReadsTheServiceAccount) {
  WriteFile(dir_.path() + "/token", "sa-token\n");
  WriteFile(dir_.path() + "/ca.crt", "CLUSTER CA");
  WriteFile(dir_.path() + "/namespace", "berth-system");
  auto got = InClusterConfig(dir_.path(), Env());
  ASSERT_TRUE(got) << got.error().ToString();
  EXPECT_EQ(got->server, "https://10.96.0.1:443");
  EXPECT_EQ(got->token_file, dir_.path() + "/token");
  EXPECT_EQ(got->bearer_token, "sa-token");
  EXPECT_EQ(got->ca_pem, "CLUSTER CA");
  EXPECT_EQ(got->default_namespace, "berth-system");

  env_["KUBERNETES_SERVICE_HOST"] = "fd00:10:96::1";
  env_["KUBERNETES_SERVICE_PORT"] = "6443";
  auto v6 = InClusterConfig(dir_.path(), Env());
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->server, "https://[fd00:10:96::1]:6443");
  HttpConfig usable = *v6;
  usable.ca_pem.clear();  // not a real CA; the URL is what is checked here
  EXPECT_TRUE(NewHttpTransport(usable)) << "the bracketed URL parses";

  std::filesystem::remove(dir_.path() + "/ca.crt");
  auto no_ca = InClusterConfig(dir_.path(), Env());
  ASSERT_TRUE(no_ca);
  EXPECT_EQ(no_ca->ca_pem, "") << "the system's roots, as upstream goes on without ca.crt";
}

TEST_F(InClusterTest, Errors) {
  env_.erase("KUBERNETES_SERVICE_PORT");
  auto outside = InClusterConfig(dir_.path(), Env());
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().code(), core::ErrorCode::kFailedPrecondition);
  env_["KUBERNETES_SERVICE_PORT"] = "443";
  auto no_token = InClusterConfig(dir_.path(), Env());
  ASSERT_FALSE(no_token);
  EXPECT_EQ(no_token.error().code(), core::ErrorCode::kNotFound);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::kube
