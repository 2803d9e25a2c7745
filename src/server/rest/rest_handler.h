// RestHandler: the hub's Kubernetes-style API over a Store, one request at a time and without
// sockets: discovery, get, list (selectors, paging, Tables), create, update, patch, delete,
// deletecollection, the status and scale subresources, and watch streams (watch_session.h).
// It strings server/api's pure steps together (ParseRequest -> ParseListOptions or the body
// -> PrepareCreate/PrepareUpdate -> the ObjectValidator -> the store) and turns every refusal
// into a Status. The HTTP binding (server/http) calls Serve from its request threads; the
// handler is thread-safe (the store is, and the handler's own state is the uid generator,
// under a mutex). What is served and every deviation from kube-apiserver: docs/api.md.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "server/api/api_error.h"
#include "server/api/list_options.h"
#include "server/api/request_info.h"
#include "server/auth/rbac_authorizer.h"
#include "server/rest/change_feed.h"
#include "server/rest/http_types.h"
#include "server/rest/object_validator.h"
#include "server/rest/watch_session.h"
#include "store/store.h"

namespace berth::server {

// Limits and settings; the defaults are kube-apiserver's where it has one (docs/limits.md).
struct RestOptions {
  // Request bodies past this are 413 (kube-apiserver's MaxRequestBodyBytes, 3 MiB).
  int64_t max_body_bytes = 3 * 1024 * 1024;
  // JSON nesting past this is 400 before the body is parsed (a body of 3 MiB of '[' must not
  // cost a parse).
  int max_json_depth = 512;
  // A list without limit answers at most this many items per store page read; the answer is
  // still complete (pages are read until the end), this only bounds each read.
  int64_t list_read_page = 1000;
  // What /api reports as serverAddressByClientCIDRs.
  std::string server_address = "127.0.0.1:8080";
  // Watch streams: a BOOKMARK this often when the client allows them, and an end after
  // timeoutSeconds (capped here, as --min-request-timeout bounds upstream's).
  std::chrono::milliseconds bookmark_interval{60'000};
  int64_t max_watch_timeout_s = 1800;
  // The clock of Tables' ages and of the creationTimestamp written into created bodies (the
  // store stamps its own metadata). Empty: the system clock.
  std::function<core::Timestamp()> now;
};

// What Serve answers: a whole response, or (watch == non-null) the status line and headers
// of a stream whose body the caller pulls from `watch` until it ends.
struct RestReply {
  HttpResponse response;
  std::unique_ptr<WatchSession> watch;
};

class RestHandler {
 public:
  // `validator` may be null (nothing beyond the API machinery's checks); so may `authorizer`
  // (every authenticated request allowed). The store and feed outlive the handler; every
  // successful write is published to `feed`.
  RestHandler(store::Store& store, ChangeFeed& feed, const ObjectValidator* validator,
              RestOptions options, RbacAuthorizer* authorizer = nullptr);

  RestReply Serve(const HttpRequest& request);

  // Serves every request whose path starts with `prefix` with `handler` (berth's own APIs
  // beside Kubernetes': the agents' sync, agent/agent_hub.h), which authorizes for itself.
  // Call before serving; not thread-safe against Serve.
  void Mount(std::string prefix, std::function<RestReply(const HttpRequest&)> handler);

  // The namespaces a fresh hub has, as a cluster has them (default, kube-system,
  // kube-public, kube-node-lease): created when absent. Called once at start.
  core::Status EnsureSystemNamespaces();

 private:
  RestReply ServeDiscovery(const HttpRequest& http, const RequestInfo& info);
  // The 403 for `asked` when the authorizer refuses the request's user; nullopt when it may
  // go on (allowed, or the hub's own request, or no authorizer).
  std::optional<RestReply> Refused(const HttpRequest& http, const AuthorizationRequest& asked);
  // Kueue's visibility API (visibility.h), authorized as Kueue's RBAC for it.
  RestReply ServeVisibility(const HttpRequest& http, const QueryParams& query);
  RestReply Get(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  RestReply List(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  RestReply StartWatch(const HttpRequest& http, const RequestInfo& info,
                       const QueryParams& query);
  RestReply Create(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  RestReply Update(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  RestReply Patch(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  RestReply Delete(const HttpRequest& http, const RequestInfo& info, const QueryParams& query);
  // PATCH with application/apply-patch+yaml (server_side_apply.cc).
  RestReply ServerSideApply(const HttpRequest& http, const RequestInfo& info,
                            const QueryParams& query);
  // The create of an object already read from the body (POST, and an apply of a new object).
  RestReply CreateObject(const HttpRequest& http, const RequestInfo& info,
                         const QueryParams& query, nlohmann::ordered_json body);
  RestReply DeleteCollection(const HttpRequest& http, const RequestInfo& info,
                             const QueryParams& query);

  // The body as a JSON object, or 413/400/415.
  ApiResult<nlohmann::ordered_json> ReadBody(const HttpRequest& http) const;
  // The update that marks `stored` as being deleted while finalizers hold it: its
  // deletionTimestamp now, generation + 1, body and labels as they are.
  store::Mutation MarkDeleted(const store::StoredObject& stored) const;
  // The write of `updated` over `stored` (PUT, PATCH, /status, /scale): PrepareUpdate,
  // validation, a conditional store update. `conflict_retryable` is set when the store
  // refused it as stale (the patch path retries then).
  ApiResult<nlohmann::ordered_json> WriteUpdate(const RequestInfo& info,
                                                const store::StoredObject& stored,
                                                const nlohmann::ordered_json& served,
                                                nlohmann::ordered_json updated, bool dry_run,
                                                bool* conflict_retryable);
  // Every object of the request's kind and namespace passing `options`' selectors, read page
  // by page; `limit` > 0 stops there and sets `continue_token` when more may follow.
  struct Listed {
    std::vector<nlohmann::ordered_json> items;
    int64_t resource_version = 0;
    std::string continue_token;
  };
  ApiResult<Listed> ListMatching(const RequestInfo& info, const ListOptions& options);
  // The answer for an object (or list) in the negotiated form: JSON, or a Table when the
  // Accept header asks for one.
  RestReply Respond(const HttpRequest& http, const RequestInfo& info, const QueryParams& query,
                    int status, const nlohmann::ordered_json& object) const;
  std::string NewUid();
  std::string NewNameSuffix();
  core::Timestamp Now() const;
  // Publishes the RV of a commit to the watch streams.
  void Published(const std::vector<store::StoredObject>& written);

  // GET /openapi/v3[/PATH]: the documents are constant for the process, so they are built
  // once and served as bytes.
  RestReply ServeOpenApi(std::string_view path) const;

  store::Store& store_;
  ChangeFeed& feed_;
  std::vector<std::pair<std::string, std::function<RestReply(const HttpRequest&)>>> mounts_;
  std::string openapi_index_;
  std::map<std::string, std::string, std::less<>> openapi_documents_;
  const ObjectValidator* validator_;
  RestOptions options_;
  RbacAuthorizer* authorizer_;
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

// The reply for a refusal: the Status as the body, its code, Retry-After when due.
RestReply ErrorReply(const ApiError& error);

}  // namespace berth::server
