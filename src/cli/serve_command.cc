// The hub's process: everything long-lived is built here and torn down in reverse order on
// a signal. Signals are blocked before any thread starts and taken with sigwait on the main
// thread, so no handler runs inside a request thread and shutdown is ordinary code.
#include "cli/serve_command.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string_view>
#include <utility>

#include "cli/event_compactor.h"
#include "cli/exit_code.h"
#include "cli/hub_loop.h"
#include "cli/input_loader.h"
#include "cli/serve_validator.h"
#include "core/diagnostics.h"
#include "model/kind_info.h"
#include "server/auth/rbac_authorizer.h"
#include "server/auth/serving_certificate.h"
#include "server/auth/token_authenticator.h"
#include "server/http/http_server.h"
#include "server/rest/change_feed.h"
#include "server/rest/rest_handler.h"
#include "sim/trace/values.h"
#include "store/store.h"

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

struct ListenAddress {
  std::string host;
  int port = 0;
};

core::Result<ListenAddress> ParseListen(const std::string& text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return core::InvalidArgument("--listen " + text + ": want HOST:PORT, e.g. 127.0.0.1:8080");
  }
  ListenAddress out;
  out.host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535) {
    return core::InvalidArgument("--listen " + text + ": the port must be 0-65535");
  }
  out.port = std::stoi(port);
  return out;
}

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

core::Status WriteKubeconfig(const std::string& path, const std::string& server_url,
                             const std::string& token, const std::string& ca_data) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return core::InvalidArgument("cannot write " + path);
  out << "apiVersion: v1\n"
         "kind: Config\n"
         "clusters:\n"
         "- name: berth\n"
         "  cluster:\n"
         "    server: "
      << server_url << "\n";
  if (!ca_data.empty()) out << "    certificate-authority-data: " << ca_data << "\n";
  out <<
         "contexts:\n"
         "- name: berth\n"
         "  context:\n"
         "    cluster: berth\n"
         "    user: berth-admin\n"
         "current-context: berth\n"
         "users:\n"
         "- name: berth-admin\n"
         "  user:\n"
         "    token: "
      << token << "\n";
  out.close();
  ::chmod(path.c_str(), 0600);
  if (!out) return core::InvalidArgument("cannot write " + path);
  return {};
}

}  // namespace

int RunServeCommand(const ServeFlags& flags, std::ostream& out, std::ostream& err) {
  auto listen = ParseListen(flags.listen);
  if (!listen) {
    PrintError(listen.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  auto period_s = sim::ParseDuration(flags.loop_period);
  if (!period_s || *period_s <= 0 || *period_s > 3600) {
    PrintError(core::InvalidArgument("--loop-period " + flags.loop_period +
                                     ": want a duration from 1s to 1h (5s, 30s, 2m)"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  auto lease_s = sim::ParseDuration(flags.lease);
  if (!lease_s || *lease_s <= 0 || *lease_s > 600) {
    PrintError(core::InvalidArgument("--lease " + flags.lease + ": want a duration from 1s to 10m"),
               err);
    return ToInt(ExitCode::kFailed);
  }
  std::error_code ec;
  std::filesystem::create_directories(flags.data_dir, ec);
  if (ec) {
    PrintError(core::InvalidArgument("cannot create --data " + flags.data_dir + ": " + ec.message()),
               err);
    return ToInt(ExitCode::kFailed);
  }

  // Read the files before anything starts, so a typo in a path stops the hub at once.
  std::optional<io::Input> input;
  core::Diagnostics diags;
  if (flags.demo) {
    input = LoadDemoFleet(diags, /*with_hub_layer=*/true);
  } else if (!flags.files.empty()) {
    input = LoadPaths(flags.files, diags);
    if (!input) {
      PrintDiagnostics(diags, err);
      return ToInt(ExitCode::kFailed);
    }
  }
  PrintDiagnostics(diags, err);

  const bool shared_store = flags.store.rfind("postgres", 0) == 0;
  store::OpenOptions open_options;
  open_options.standby = true;  // PostgreSQL: serve reads while another hub leads
  open_options.lease_ms = *lease_s * 1000;
  auto store = store::OpenStore(flags.store, flags.data_dir, open_options);
  if (!store) {
    PrintError(store.error(), err);
    return ToInt(ExitCode::kFailed);
  }

  // Block the stop signals in every thread started from here on; the main thread waits for
  // them below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  // Who may call: the --tokens file, or the generated admin token.
  server::TokenAuthenticator tokens;
  std::optional<AdminToken> admin;
  if (!flags.tokens.empty()) {
    std::ifstream in(flags.tokens);
    if (!in) {
      PrintError(core::NotFound("cannot read --tokens " + flags.tokens), err);
      return ToInt(ExitCode::kFailed);
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto parsed = server::TokenAuthenticator::Parse(text);
    if (!parsed) {
      PrintError(core::InvalidArgument("--tokens " + flags.tokens + ": " + parsed.error().message()),
                 err);
      return ToInt(ExitCode::kFailed);
    }
    tokens = std::move(parsed).value();
  } else {
    auto made = LoadOrMakeAdminToken(flags.data_dir);
    if (!made) {
      PrintError(made.error(), err);
      return ToInt(ExitCode::kFailed);
    }
    admin = *made;
    tokens.AddHashed(admin->hash, server::UserInfo{"berth-admin", "berth-admin",
                                                   {std::string(server::kMastersGroup)}});
  }

  server::ChangeFeed feed;
  feed.Publish((*store)->CurrentResourceVersion());
  IoValidator validator;
  server::RestOptions rest_options;
  rest_options.server_address = flags.listen;
  server::RbacAuthorizer authorizer(**store);
  server::RestHandler handler(**store, feed, &validator, rest_options, &authorizer);
  if (auto st = handler.EnsureSystemNamespaces(); !st.ok()) {
    PrintError(st.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  int refused = 0;
  if (input) refused = ApplyDocuments(handler, input->documents, input->objects_read, err);

  server::MetricsRegistry metrics;
  // The scheduling loop logs to stderr; the mutex keeps lines whole.
  std::mutex log_mu;
  LoopOptions loop_options;
  loop_options.period = std::chrono::seconds(*period_s);
  loop_options.metrics = &metrics;
  loop_options.replica_role = shared_store ? "" : "standalone";
  loop_options.log = [&err, &log_mu](const std::string& line) {
    std::lock_guard lock(log_mu);
    err << "berth serve: " << line << '\n';
  };
  SchedulingLoop loop(**store, feed, loop_options);
  if (!flags.no_loop) loop.Start();
  EventCompactor compactor(**store, flags.keep_events, std::chrono::minutes(1), loop_options.log);
  compactor.Start();

  server::HttpServerOptions http_options;
  http_options.host = listen->host;
  http_options.port = listen->port;
  http_options.tls_cert_file = flags.tls_cert;
  http_options.tls_key_file = flags.tls_key;
  std::string ca_data;
  if (flags.tls_cert.empty() && flags.tls_key.empty()) {
    // kubectl sends tokens only over TLS: without a certificate of the operator's, the hub
    // makes its own and the kubeconfig trusts it.
    namespace fs = std::filesystem;
    http_options.tls_cert_file = (fs::path(flags.data_dir) / "tls.crt").string();
    http_options.tls_key_file = (fs::path(flags.data_dir) / "tls.key").string();
    if (auto st = server::EnsureServingCertificate(http_options.tls_cert_file,
                                                   http_options.tls_key_file, {listen->host});
        !st.ok()) {
      PrintError(st.error(), err);
      return ToInt(ExitCode::kFailed);
    }
    auto data = server::Base64File(http_options.tls_cert_file);
    if (!data) {
      PrintError(data.error(), err);
      return ToInt(ExitCode::kFailed);
    }
    ca_data = *data;
  }
  http_options.client_ca_file = flags.client_ca;
  http_options.tokens = &tokens;
  http_options.metrics = &metrics;
  std::atomic<bool> ready{false};
  // Ready: serving, and (with a shared store) leading, so a load balancer sends writes here.
  store::Store& store_ref = **store;
  auto http = server::HttpServer::Start(handler, feed, http_options, [&ready, &store_ref] {
    return ready.load() && store_ref.Leading();
  });
  if (!http) {
    PrintError(http.error(), err);
    return ToInt(ExitCode::kFailed);
  }
  const std::string host = listen->host == "0.0.0.0" ? "127.0.0.1" : listen->host;
  const std::string url = std::string((*http)->tls() ? "https://" : "http://") + host + ":" +
                          std::to_string((*http)->port());
  const std::string kubeconfig = (std::filesystem::path(flags.data_dir) / "kubeconfig").string();
  if (admin) {
    if (auto st = WriteKubeconfig(kubeconfig, url, admin->token, ca_data); !st.ok()) {
      PrintError(st.error(), err);
      return ToInt(ExitCode::kFailed);
    }
  }
  ready = true;
  out << "berth serve: listening on " << url << " (store: "
      << (flags.store.empty() ? "sqlite:" + flags.data_dir : flags.store) << ")\n"
      << "  kubectl --kubeconfig " << kubeconfig << " get clusterqueues,workloads -A\n"
      << "  dashboard: " << url << "/ui/ (it asks for the token in " << kubeconfig << ")\n";
  if (refused > 0) out << "  " << refused << " object(s) of -f were refused (above)\n";
  out.flush();

  int signal = 0;
  sigwait(&stop_signals, &signal);
  ready = false;
  out << "berth serve: " << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
      << ": draining (no new requests, streams closed)\n";
  out.flush();
  (*http)->Stop();
  loop.Stop();  // finishes the cycle in progress
  compactor.Stop();
  return ToInt(ExitCode::kOk);
}

}  // namespace berth::cli
