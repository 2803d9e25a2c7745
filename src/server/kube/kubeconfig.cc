// The kubeconfig rules follow client-go's clientcmd (k8s.io/client-go/tools/clientcmd:
// loader.go resolves relative paths against the file's directory; validation.go refuses a
// data field beside its file field, a client certificate without a key, and a CA beside
// insecure-skip-tls-verify, which rest.TLSConfigFor refuses). clientcmd merges several files
// and applies overrides; berth reads one kubeconfig, so neither is done here. Exec plugins and
// auth providers run code or speak OAuth on the client's behalf: berth does not, and says so
// instead of sending requests without credentials.
//
// In-cluster: rest.InClusterConfig (k8s.io/client-go/rest/config.go).
#include "server/kube/kubeconfig.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace berth::server::kube {

namespace {

core::Error KubeconfigFieldError(core::ErrorCode code, const std::string& field,
                                 std::string message) {
  return core::Error(code, std::move(message), core::Location{"", "", field});
}

// Go's base64.StdEncoding as encoding/json decodes []byte: '=' padding required, '\r' and
// '\n' skipped; nullopt on any other byte or a bad length.
std::optional<std::string> KubeconfigBase64(std::string_view text) {
  std::string clean;
  clean.reserve(text.size());
  for (char c : text) {
    if (c != '\n' && c != '\r') clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return std::nullopt;
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  out.reserve(clean.size() / 4 * 3);
  for (size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = clean[i + static_cast<size_t>(j)];
      if (c == '=' && last && j >= 2) {
        v[j] = 0;
        ++pad;
        continue;
      }
      if (pad > 0) return std::nullopt;  // data after padding
      v[j] = value(c);
      if (v[j] < 0) return std::nullopt;
    }
    const uint32_t n = (static_cast<uint32_t>(v[0]) << 18) | (static_cast<uint32_t>(v[1]) << 12) |
                       (static_cast<uint32_t>(v[2]) << 6) | static_cast<uint32_t>(v[3]);
    out.push_back(static_cast<char>((n >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((n >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(n & 0xFF));
  }
  return out;
}

core::Result<std::string> KubeconfigReadFile(const std::string& path, const std::string& field) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return KubeconfigFieldError(core::ErrorCode::kNotFound, field, "cannot read " + path);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string KubeconfigResolve(std::string_view path, std::string_view base_dir) {
  std::filesystem::path p{std::string(path)};
  if (p.is_absolute() || base_dir.empty()) return p.string();
  return (std::filesystem::path(std::string(base_dir)) / p).string();
}

// Typed reads of one entry's members; `at` is the entry's field path ("users[0].user").
class KubeconfigFields {
 public:
  KubeconfigFields(const Json& object, std::string at) : object_(object), at_(std::move(at)) {}

  std::string Path(std::string_view key) const { return at_ + "." + std::string(key); }
  bool Has(std::string_view key) const {
    auto it = object_.find(std::string(key));
    return it != object_.end() && !it->is_null();
  }
  // "" when absent or null.
  core::Result<std::string> String(std::string_view key) const {
    auto it = object_.find(std::string(key));
    if (it == object_.end() || it->is_null()) return std::string();
    if (!it->is_string()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, Path(key), "not a string");
    }
    return it->get<std::string>();
  }
  core::Result<bool> Bool(std::string_view key) const {
    auto it = object_.find(std::string(key));
    if (it == object_.end() || it->is_null()) return false;
    if (!it->is_boolean()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, Path(key), "not a boolean");
    }
    return it->get<bool>();
  }
  // A `*-data` field (base64) or its file field; "" when neither is set.
  core::Result<std::string> DataOrFile(std::string_view data_key, std::string_view file_key,
                                       std::string_view base_dir) const {
    BERTH_ASSIGN_OR_RETURN(std::string data, String(data_key));
    BERTH_ASSIGN_OR_RETURN(std::string file, String(file_key));
    if (!data.empty() && !file.empty()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, Path(data_key),
                                  "set together with " + std::string(file_key) + "; give one");
    }
    if (!data.empty()) {
      std::optional<std::string> decoded = KubeconfigBase64(data);
      if (!decoded) {
        return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, Path(data_key),
                                    "not valid base64");
      }
      return std::move(*decoded);
    }
    if (!file.empty()) return KubeconfigReadFile(KubeconfigResolve(file, base_dir), Path(file_key));
    return std::string();
  }

 private:
  const Json& object_;
  std::string at_;
};

// The entry of `list_key` named `name`: its index and its `inner_key` object. NotFound names
// `ref_field`, the reference that asked for it.
core::Result<std::pair<size_t, const Json*>> KubeconfigEntry(const Json& config,
                                                             std::string_view list_key,
                                                             std::string_view inner_key,
                                                             std::string_view name,
                                                             const std::string& ref_field) {
  auto list = config.find(std::string(list_key));
  if (list != config.end() && !list->is_null()) {
    if (!list->is_array()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, std::string(list_key),
                                  "not a list");
    }
    for (size_t i = 0; i < list->size(); ++i) {
      const Json& entry = (*list)[i];
      const std::string at = std::string(list_key) + "[" + std::to_string(i) + "]";
      if (!entry.is_object()) {
        return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, at, "not an object");
      }
      auto n = entry.find("name");
      if (n == entry.end() || !n->is_string() || n->get<std::string>() != name) continue;
      auto inner = entry.find(std::string(inner_key));
      if (inner == entry.end() || !inner->is_object()) {
        return KubeconfigFieldError(core::ErrorCode::kInvalidArgument,
                                    at + "." + std::string(inner_key), "missing or not an object");
      }
      return std::pair<size_t, const Json*>(i, &*inner);
    }
  }
  return KubeconfigFieldError(core::ErrorCode::kNotFound, ref_field,
                              "no " + std::string(list_key) + " entry named \"" +
                                  std::string(name) + "\"");
}

core::Status KubeconfigReadCluster(const Json& cluster, const std::string& at, std::string_view base_dir,
                         HttpConfig& out) {
  KubeconfigFields f(cluster, at);
  BERTH_ASSIGN_OR_RETURN(out.server, f.String("server"));
  if (out.server.empty()) {
    return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, f.Path("server"),
                                "no server given");
  }
  BERTH_ASSIGN_OR_RETURN(out.ca_pem,
                         f.DataOrFile("certificate-authority-data", "certificate-authority", base_dir));
  BERTH_ASSIGN_OR_RETURN(out.insecure_skip_tls_verify, f.Bool("insecure-skip-tls-verify"));
  if (out.insecure_skip_tls_verify && !out.ca_pem.empty()) {
    return KubeconfigFieldError(core::ErrorCode::kInvalidArgument,
                                f.Path("insecure-skip-tls-verify"),
                                "a certificate authority cannot be given with the insecure flag");
  }
  BERTH_ASSIGN_OR_RETURN(out.tls_server_name, f.String("tls-server-name"));
  if (f.Has("proxy-url")) {
    return KubeconfigFieldError(core::ErrorCode::kUnimplemented, f.Path("proxy-url"),
                                "proxies are not supported");
  }
  return core::OkStatus();
}

core::Status KubeconfigReadUser(const Json& user, const std::string& at, std::string_view base_dir,
                      HttpConfig& out) {
  KubeconfigFields f(user, at);
  for (std::string_view unsupported : {"exec", "auth-provider", "username", "password"}) {
    if (f.Has(unsupported)) {
      return KubeconfigFieldError(core::ErrorCode::kUnimplemented, f.Path(unsupported),
                                  "this authentication method is not supported by berth");
    }
  }
  BERTH_ASSIGN_OR_RETURN(out.bearer_token, f.String("token"));
  BERTH_ASSIGN_OR_RETURN(std::string token_file, f.String("tokenFile"));
  if (!token_file.empty()) out.token_file = KubeconfigResolve(token_file, base_dir);
  BERTH_ASSIGN_OR_RETURN(out.client_cert_pem,
                         f.DataOrFile("client-certificate-data", "client-certificate", base_dir));
  BERTH_ASSIGN_OR_RETURN(out.client_key_pem,
                         f.DataOrFile("client-key-data", "client-key", base_dir));
  if (!out.client_cert_pem.empty() && out.client_key_pem.empty()) {
    return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, f.Path("client-key-data"),
                                "a client certificate needs client-key-data or client-key");
  }
  if (out.client_cert_pem.empty() && !out.client_key_pem.empty()) {
    return KubeconfigFieldError(core::ErrorCode::kInvalidArgument,
                                f.Path("client-certificate-data"),
                                "a client key needs client-certificate-data or client-certificate");
  }
  return core::OkStatus();
}

}  // namespace

core::Result<HttpConfig> ConfigFromKubeconfig(const Json& kubeconfig, std::string_view context,
                                              std::string_view base_dir) {
  if (!kubeconfig.is_object()) {
    return core::InvalidArgument("a kubeconfig is a mapping (apiVersion: v1, kind: Config)");
  }
  std::string context_name(context);
  if (context_name.empty()) {
    auto current = kubeconfig.find("current-context");
    if (current != kubeconfig.end() && !current->is_null() && !current->is_string()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, "current-context",
                                  "not a string");
    }
    if (current != kubeconfig.end() && current->is_string()) context_name = current->get<std::string>();
    if (context_name.empty()) {
      return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, "current-context",
                                  "not set, and no context was named");
    }
  }
  const std::string context_ref = context.empty() ? "current-context" : "context";
  BERTH_ASSIGN_OR_RETURN(auto ctx,
                         KubeconfigEntry(kubeconfig, "contexts", "context", context_name, context_ref));
  const std::string ctx_at = "contexts[" + std::to_string(ctx.first) + "].context";
  KubeconfigFields cf(*ctx.second, ctx_at);
  BERTH_ASSIGN_OR_RETURN(std::string cluster_name, cf.String("cluster"));
  BERTH_ASSIGN_OR_RETURN(std::string user_name, cf.String("user"));
  HttpConfig out;
  BERTH_ASSIGN_OR_RETURN(out.default_namespace, cf.String("namespace"));
  if (cluster_name.empty()) {
    return KubeconfigFieldError(core::ErrorCode::kInvalidArgument, cf.Path("cluster"),
                                "no cluster given");
  }
  BERTH_ASSIGN_OR_RETURN(auto cluster, KubeconfigEntry(kubeconfig, "clusters", "cluster",
                                                       cluster_name, cf.Path("cluster")));
  BERTH_RETURN_IF_ERROR(KubeconfigReadCluster(*cluster.second,
                                    "clusters[" + std::to_string(cluster.first) + "].cluster",
                                    base_dir, out));
  if (!user_name.empty()) {
    BERTH_ASSIGN_OR_RETURN(auto user, KubeconfigEntry(kubeconfig, "users", "user", user_name,
                                                      cf.Path("user")));
    BERTH_RETURN_IF_ERROR(KubeconfigReadUser(*user.second,
                                   "users[" + std::to_string(user.first) + "].user", base_dir, out));
  }
  return out;
}

EnvLookup ProcessEnv() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());  // NOLINT(concurrency-mt-unsafe)
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
}

core::Result<HttpConfig> InClusterConfig(std::string_view root, const EnvLookup& env) {
  const std::optional<std::string> host = env("KUBERNETES_SERVICE_HOST");
  const std::optional<std::string> port = env("KUBERNETES_SERVICE_PORT");
  if (!host || !port || host->empty() || port->empty()) {
    return core::FailedPrecondition(
        "not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be "
        "set");
  }
  const std::filesystem::path dir{std::string(root)};
  HttpConfig out;
  const bool ipv6 = host->find(':') != std::string::npos;
  out.server = "https://" + (ipv6 ? "[" + *host + "]" : *host) + ":" + *port;
  out.token_file = (dir / "token").string();
  BERTH_ASSIGN_OR_RETURN(std::string token, KubeconfigReadFile(out.token_file, "token"));
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) {
    token.pop_back();
  }
  out.bearer_token = std::move(token);
  const std::string ca_path = (dir / "ca.crt").string();
  std::error_code ec;
  if (std::filesystem::exists(ca_path, ec)) {
    BERTH_ASSIGN_OR_RETURN(out.ca_pem, KubeconfigReadFile(ca_path, "ca.crt"));
  }
  const std::string ns_path = (dir / "namespace").string();
  if (std::filesystem::exists(ns_path, ec)) {
    BERTH_ASSIGN_OR_RETURN(std::string ns, KubeconfigReadFile(ns_path, "namespace"));
    while (!ns.empty() && (ns.back() == '\n' || ns.back() == '\r' || ns.back() == ' ')) ns.pop_back();
    out.default_namespace = std::move(ns);
  }
  return out;
}

}  // namespace berth::server::kube
