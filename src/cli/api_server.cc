// The hub's process parts: everything long-lived is built in Build and torn down in reverse
// order by Stop. Moved out of serve_command.cc so `berth cluster --simulate` and `berth up`
// start the same server (one home for the API server's process).
#include "cli/api_server.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string_view>
#include <utility>

#include "cli/event_compactor.h"
#include "cli/serve_validator.h"
#include "model/kind_info.h"
#include "server/auth/serving_certificate.h"

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string CollectionPath(const model::KindInfo& kind, std::string_view version,
                           std::string_view ns) {
  std::string path = kind.group.empty()
                         ? std::string("/api/") + std::string(version)
                         : "/apis/" + std::string(kind.group) + "/" + std::string(version);
  if (kind.namespaced()) path += "/namespaces/" + std::string(ns);
  return path + "/" + std::string(kind.resource);
}

server::HttpResponse Call(server::RestHandler& handler, std::string method, std::string path,
                          std::string body, std::string content_type = "application/json") {
  server::HttpRequest req;
  req.method = std::move(method);
  req.path = std::move(path);
  req.body = std::move(body);
  req.headers.emplace_back("Content-Type", std::move(content_type));
  return handler.Serve(req).response;
}

std::string StatusMessage(const server::HttpResponse& response) {
  Json status = Json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (status.is_object() && status.contains("message") && status["message"].is_string()) {
    return status["message"].get<std::string>();
  }
  return "HTTP " + std::to_string(response.status);
}

// Creates or replaces each of the first `count` documents' objects (the ones read from the
// files; the reader's Finish appends what it makes itself, such as the pods a job would
// create, which are the scheduling loop's to create), as `kubectl apply` would, then writes
// the status it came with (a cluster dump's pods stay Running). Namespaces the objects name
// are created first. Returns the number of objects refused (each reported to `err` with its
// file).
int ApplyDocuments(server::RestHandler& handler, const io::DocumentStore& documents, size_t count,
                   std::ostream& err) {
  int refused = 0;
  std::set<std::string> namespaces;  // created (or found) already
  for (size_t i = 0; i < std::min(count, documents.size()); ++i) {
    const io::Document& doc = documents.Get(model::SourceRef{static_cast<int32_t>(i)});
    const model::KindInfo* kind = model::FindKindForApiVersion(doc.api_version, doc.kind);
    if (kind == nullptr || !kind->served()) continue;  // component configuration files
    std::string_view version = model::ApiVersionOf(doc.api_version);
    bool served_version = false;
    for (std::string_view v : kind->versions) served_version = served_version || v == version;
    if (!served_version) version = kind->versions.front();
    const std::string ns = kind->namespaced() ? (doc.namespace_.empty() ? "default" : doc.namespace_) : "";
    const std::string where = doc.file + ": " + doc.kind + "/" + (ns.empty() ? "" : ns + "/") + doc.name;
    Json body = Json::parse(doc.json.view(), nullptr, /*allow_exceptions=*/false);
    if (!body.is_object()) continue;
    body["apiVersion"] = kind->group.empty() ? std::string(version)
                                             : std::string(kind->group) + "/" + std::string(version);
    Json status = body.contains("status") ? body["status"] : Json();
    if (body.contains("metadata") && body["metadata"].is_object()) {
      for (const char* owned : {"resourceVersion", "uid", "creationTimestamp", "generation",
                                "managedFields", "selfLink"}) {
        body["metadata"].erase(owned);
      }
    }
    if (kind->namespaced() && namespaces.insert(ns).second) {
      Json namespace_object = {{"apiVersion", "v1"}, {"kind", "Namespace"},
                               {"metadata", {{"name", ns}}}};
      (void)Call(handler, "POST", "/api/v1/namespaces", namespace_object.dump());
    }
    const std::string collection = CollectionPath(*kind, version, ns);
    const std::string item = collection + "/" + doc.name;
    server::HttpResponse r = Call(handler, "POST", collection, body.dump());
    if (r.status == 409) {
      server::HttpResponse current = Call(handler, "GET", item, "");
      Json stored = Json::parse(current.body, nullptr, /*allow_exceptions=*/false);
      if (stored.is_object() && stored.contains("metadata")) {
        body["metadata"]["resourceVersion"] = stored["metadata"]["resourceVersion"];
      }
      r = Call(handler, "PUT", item, body.dump());
    }
    if (r.status >= 300) {
      err << where << ": " << StatusMessage(r) << '\n';
      ++refused;
      continue;
    }
    if (kind->status_subresource && status.is_object() && !status.empty()) {
      Json patch = {{"status", status}};
      server::HttpResponse s =
          Call(handler, "PATCH", item + "/status", patch.dump(), "application/merge-patch+json");
      if (s.status >= 300) {
        err << where << ": status: " << StatusMessage(s) << '\n';
        ++refused;
      }
    }
  }
  return refused;
}

// The admin credential of a hub started without --tokens: a random token whose SHA-256 is
// kept in DATA/admin-token.sha256 and whose text is written only into DATA/kubeconfig. A
// restart reuses the token while the kubeconfig holds the one the hash names (the
// kubeconfig is rewritten each start: the address may have changed); otherwise a new token
// replaces the old one.
struct AdminToken {
  std::string token;
  std::string hash;
};

std::string TokenInKubeconfig(const std::filesystem::path& kubeconfig) {
  std::ifstream in(kubeconfig);
  std::string line;
  constexpr std::string_view kKey = "token: ";
  while (std::getline(in, line)) {
    const size_t at = line.find(kKey);
    if (at != std::string::npos) return line.substr(at + kKey.size());
  }
  return "";
}

core::Result<AdminToken> LoadOrMakeAdminToken(const std::string& data_dir) {
  namespace fs = std::filesystem;
  const fs::path hash_path = fs::path(data_dir) / "admin-token.sha256";
  const fs::path kubeconfig = fs::path(data_dir) / "kubeconfig";
  std::error_code ec;
  if (fs::exists(hash_path, ec) && fs::exists(kubeconfig, ec)) {
    std::ifstream in(hash_path);
    std::string hash;
    std::getline(in, hash);
    const std::string token = TokenInKubeconfig(kubeconfig);
    if (hash.size() == 64 && !token.empty() && server::Sha256Hex(token) == hash) {
      return AdminToken{token, hash};
    }
  }
  auto token = server::RandomHex(32);
  if (!token) return token.error();
  AdminToken out{*token, server::Sha256Hex(*token)};
  std::ofstream hash_out(hash_path, std::ios::trunc);
  hash_out << out.hash << '\n';
  hash_out.close();
  ::chmod(hash_path.c_str(), 0600);
  if (!hash_out) return core::InvalidArgument("cannot write " + hash_path.string());
  return out;
}

}  // namespace

core::Status WriteKubeconfigFile(const std::string& path, const std::vector<KubeconfigEntry>& entries) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return core::InvalidArgument("cannot write " + path);
  out << "apiVersion: v1\nkind: Config\nclusters:\n";
  for (const KubeconfigEntry& e : entries) {
    out << "- name: " << e.context << "\n  cluster:\n    server: " << e.server_url << "\n";
    if (!e.ca_data.empty()) out << "    certificate-authority-data: " << e.ca_data << "\n";
  }
  out << "contexts:\n";
  for (const KubeconfigEntry& e : entries) {
    out << "- name: " << e.context << "\n  context:\n    cluster: " << e.context << "\n    user: "
        << e.context << "-admin\n";
  }
  if (!entries.empty()) out << "current-context: " << entries.front().context << "\n";
  out << "users:\n";
  for (const KubeconfigEntry& e : entries) {
    out << "- name: " << e.context << "-admin\n  user:\n    token: " << e.token << "\n";
  }
  out.close();
  ::chmod(path.c_str(), 0600);
  if (!out) return core::InvalidArgument("cannot write " + path);
  return {};
}

core::Result<std::unique_ptr<ApiServer>> ApiServer::Start(ApiServerOptions options, std::ostream& err) {
  std::unique_ptr<ApiServer> s(new ApiServer());
  s->options_ = std::move(options);
  if (auto st = s->Build(err); !st.ok()) {
    s->Stop();
    return st.error();
  }
  return s;
}

ApiServer::~ApiServer() { Stop(); }

void ApiServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  ready_ = false;
  if (http_) http_->Stop();
  if (loop_) loop_->Stop();  // finishes the cycle in progress
  if (compactor_) compactor_->Stop();
}

core::Status ApiServer::Build(std::ostream& err) {
  const ApiServerOptions& o = options_;
  std::error_code ec;
  std::filesystem::create_directories(o.data_dir, ec);
  if (ec) return core::InvalidArgument("cannot create --data " + o.data_dir + ": " + ec.message());
  const bool shared_store = o.store.rfind("postgres", 0) == 0;
  store::OpenOptions open_options;
  open_options.standby = true;  // PostgreSQL: serve reads while another hub leads
  open_options.lease_ms = o.lease_s * 1000;
  auto store = store::OpenStore(o.store, o.data_dir, open_options);
  if (!store) return store.error();
  store_ = std::move(store).value();

  // Who may call: the token file, or the generated admin token.
  if (!o.tokens.empty()) {
    std::ifstream in(o.tokens);
    if (!in) return core::NotFound("cannot read --tokens " + o.tokens);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto parsed = server::TokenAuthenticator::Parse(text);
    if (!parsed) return core::InvalidArgument("--tokens " + o.tokens + ": " + parsed.error().message());
    tokens_ = std::move(parsed).value();
  } else {
    auto made = LoadOrMakeAdminToken(o.data_dir);
    if (!made) return made.error();
    admin_token_ = made->token;
    tokens_.AddHashed(made->hash, server::UserInfo{"berth-admin", "berth-admin",
                                                   {std::string(server::kMastersGroup)}});
  }

  feed_.Publish(store_->CurrentResourceVersion());
  validator_ = std::make_unique<IoValidator>();
  server::RestOptions rest_options;
  rest_options.server_address = o.host + ":" + std::to_string(o.port);
  authorizer_ = std::make_unique<server::RbacAuthorizer>(*store_);
  handler_ = std::make_unique<server::RestHandler>(*store_, feed_, validator_.get(), rest_options,
                                                   authorizer_.get());
  BERTH_RETURN_IF_ERROR(handler_->EnsureSystemNamespaces());
  if (o.input != nullptr) refused_ = ApplyDocuments(*handler_, o.input->documents, o.input->objects_read, err);
  if (o.before_serving) {
    BERTH_RETURN_IF_ERROR(o.before_serving(*handler_, *store_, feed_, *authorizer_, metrics_));
  }

  LoopOptions loop_options = o.loop;
  // Component configuration among the files (Kueue's Configuration, the scheduler's): not
  // API objects, read by every cycle instead.
  if (o.input != nullptr) {
    for (size_t i = 0; i < std::min(o.input->objects_read, o.input->documents.size()); ++i) {
      const io::Document& doc = o.input->documents.Get(model::SourceRef{static_cast<int32_t>(i)});
      const model::KindInfo* kind = model::FindKindForApiVersion(doc.api_version, doc.kind);
      if (kind != nullptr && !kind->served()) loop_options.configuration.emplace_back(doc.json.view());
    }
  }
  loop_options.period = o.loop_period;
  loop_options.metrics = &metrics_;
  loop_options.replica_role = shared_store ? "" : "standalone";
  loop_ = std::make_unique<SchedulingLoop>(*store_, feed_, loop_options);
  if (!o.no_loop) loop_->Start();
  compactor_ = std::make_unique<EventCompactor>(*store_, o.keep_events, std::chrono::minutes(1), loop_options.log);
  compactor_->Start();

  server::HttpServerOptions http_options;
  http_options.host = o.host;
  http_options.port = o.port;
  http_options.tls_cert_file = o.tls_cert;
  http_options.tls_key_file = o.tls_key;
  if (o.tls_cert.empty() && o.tls_key.empty()) {
    // kubectl sends tokens only over TLS: without a certificate of the operator's, the
    // server makes its own and the kubeconfig trusts it.
    namespace fs = std::filesystem;
    http_options.tls_cert_file = (fs::path(o.data_dir) / "tls.crt").string();
    http_options.tls_key_file = (fs::path(o.data_dir) / "tls.key").string();
    BERTH_RETURN_IF_ERROR(server::EnsureServingCertificate(http_options.tls_cert_file,
                                                           http_options.tls_key_file, {o.host}));
    auto data = server::Base64File(http_options.tls_cert_file);
    if (!data) return data.error();
    ca_data_ = *data;
  }
  http_options.client_ca_file = o.client_ca;
  http_options.tokens = &tokens_;
  http_options.metrics = &metrics_;
  // Ready: serving, and (with a shared store) leading, so a load balancer sends writes here.
  store::Store* store_ptr = store_.get();
  auto http = server::HttpServer::Start(*handler_, feed_, http_options, [this, store_ptr] {
    return ready_.load() && store_ptr->Leading();
  });
  if (!http) return http.error();
  http_ = std::move(http).value();
  const std::string host = o.host == "0.0.0.0" ? "127.0.0.1" : o.host;
  url_ = std::string(http_->tls() ? "https://" : "http://") + host + ":" + std::to_string(http_->port());
  kubeconfig_ = (std::filesystem::path(o.data_dir) / "kubeconfig").string();
  if (!admin_token_.empty()) {
    BERTH_RETURN_IF_ERROR(WriteKubeconfigFile(kubeconfig_, {{o.kubeconfig_context, url_, admin_token_, ca_data_}}));
  }
  ready_ = true;
  return {};
}

}  // namespace berth::cli
