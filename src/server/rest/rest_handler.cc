// Reads (get, list, watch, discovery) and the dispatch; writes are in rest_writes.cc. The
// order of checks is kube-apiserver's: route, then the verb's parameters, then the store, so
// a client gets the same error for the same mistake.
#include "server/rest/rest_handler.h"

#include "server/api/json_access.h"

#include <span>
#include <utility>

#include "server/api/discovery.h"
#include "server/api/list_watch.h"
#include "server/api/media_type.h"
#include "server/api/openapi.h"
#include "server/api/query.h"
#include "server/api/table.h"
#include "server/rest/stored_json.h"
#include "server/rest/visibility.h"

namespace berth::server {

using Json = nlohmann::ordered_json;

namespace {

constexpr std::string_view kJsonOnly[] = {"application/json"};

// The store cursor a continue token's start key names: "ns/name" plus the '\0' that makes
// it the smallest key after the last one served (ContinueAfter).
store::ListCursor CursorOf(std::string_view start_key) {
  if (!start_key.empty() && start_key.back() == '\0') start_key.remove_suffix(1);
  const size_t slash = start_key.find('/');
  if (slash == std::string_view::npos) return {"", std::string(start_key)};
  return {std::string(start_key.substr(0, slash)), std::string(start_key.substr(slash + 1))};
}

std::string KeyText(const store::ObjectKey& key) { return key.ns + "/" + key.name; }

// A Table's includeObject query parameter (default Metadata); 400 for another value.
ApiResult<IncludeObject> IncludeObjectOf(const QueryParams& query) {
  auto value = query.Get("includeObject");
  if (!value) return IncludeObject::kMetadata;
  auto parsed = ParseIncludeObject(*value);
  if (!parsed) return BadRequestError("invalid includeObject: " + std::string(*value));
  return *parsed;
}

}  // namespace

RestReply ErrorReply(const ApiError& error) {
  RestReply reply;
  reply.response.status = error.code;
  reply.response.body = error.ToJson().dump();
  if (error.retry_after_s() > 0) {
    reply.response.headers.emplace_back("Retry-After", std::to_string(error.retry_after_s()));
  }
  return reply;
}

RestHandler::RestHandler(store::Store& store, ChangeFeed& feed, const ObjectValidator* validator,
                         RestOptions options, RbacAuthorizer* authorizer)
    : store_(store),
      feed_(feed),
      validator_(validator),
      options_(std::move(options)),
      authorizer_(authorizer),
      rng_(std::random_device{}()) {
  const Json index = OpenApiV3Index();
  openapi_index_ = index.dump();
  for (auto it = index["paths"].begin(); it != index["paths"].end(); ++it) {
    if (auto doc = OpenApiV3Document(it.key())) openapi_documents_.emplace(it.key(), doc->dump());
  }
}

RestReply RestHandler::ServeOpenApi(std::string_view path) const {
  RestReply reply;
  if (path == "/openapi/v3" || path == "/openapi/v3/") {
    reply.response.body = openapi_index_;
    return reply;
  }
  auto it = openapi_documents_.find(path.substr(std::string_view("/openapi/v3/").size()));
  if (it == openapi_documents_.end()) return ErrorReply(PathNotFoundError());
  reply.response.body = it->second;
  return reply;
}

core::Timestamp RestHandler::Now() const {
  if (options_.now) return options_.now();
  return core::Timestamp{std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count()};
}

void RestHandler::Mount(std::string prefix, std::function<RestReply(const HttpRequest&)> handler) {
  mounts_.emplace_back(std::move(prefix), std::move(handler));
}

RestReply RestHandler::Serve(const HttpRequest& http) {
  for (const auto& [prefix, handler] : mounts_) {
    if (http.path.starts_with(prefix)) return handler(http);
  }
  if (http.path.starts_with("/openapi/v3") && http.method == "GET") return ServeOpenApi(http.path);
  auto query = ParseQuery(http.raw_query);
  if (!query) return ErrorReply(query.error());
  if (http.path.starts_with(kVisibilityPrefix)) return ServeVisibility(http, *query);
  auto info = ParseRequest(http.method, http.path, *query);
  if (!info) return ErrorReply(info.error());
  // Discovery and the OpenAPI documents are every authenticated user's (upstream's
  // system:discovery role); everything else is RBAC's to decide, before any other check, so
  // a refused user learns nothing about the object.
  if (info->is_discovery()) return ServeDiscovery(http, *info);
  if (auto refused = Refused(http, AuthorizationRequestOf(*info))) return std::move(*refused);
  switch (info->verb) {
    case RequestVerb::kGet:
      return Get(http, *info, *query);
    case RequestVerb::kList:
      return List(http, *info, *query);
    case RequestVerb::kWatch:
      return StartWatch(http, *info, *query);
    case RequestVerb::kCreate:
      return Create(http, *info, *query);
    case RequestVerb::kUpdate:
      return Update(http, *info, *query);
    case RequestVerb::kPatch:
      return Patch(http, *info, *query);
    case RequestVerb::kDelete:
      return Delete(http, *info, *query);
    case RequestVerb::kDeleteCollection:
      return DeleteCollection(http, *info, *query);
  }
  return ErrorReply(MethodNotAllowedError());
}

std::optional<RestReply> RestHandler::Refused(const HttpRequest& http,
                                             const AuthorizationRequest& asked) {
  if (http.user == nullptr || authorizer_ == nullptr) return std::nullopt;
  if (authorizer_->Allowed(*http.user, asked)) return std::nullopt;
  const GroupResource gr{asked.group, asked.resource};
  return ErrorReply(ForbiddenError(
      gr, asked.name, ForbiddenReason(http.user->name, asked.verb, gr, asked.subresource, asked.ns)));
}

RestReply RestHandler::ServeVisibility(const HttpRequest& http, const QueryParams& query) {
  auto request = ParseVisibilityPath(http.path);
  if (!request) return ErrorReply(PathNotFoundError());
  if (http.method != "GET") return ErrorReply(MethodNotAllowedError());
  // As Kueue's RBAC for it: get on clusterqueues/pendingworkloads (cluster-wide: the
  // ClusterQueue view is an admin's) or localqueues/pendingworkloads in the namespace.
  AuthorizationRequest asked;
  asked.verb = "get";
  asked.group = "visibility.kueue.x-k8s.io";
  asked.resource = request->cluster_queue.empty() ? "localqueues" : "clusterqueues";
  asked.subresource = "pendingworkloads";
  asked.ns = request->ns;
  asked.name = request->cluster_queue.empty() ? request->local_queue : request->cluster_queue;
  if (auto refused = Refused(http, asked)) return std::move(*refused);
  auto summary = PendingWorkloads(store_, *request, query);
  if (!summary) return ErrorReply(summary.error());
  RestReply reply;
  reply.response.body = summary->dump();
  return reply;
}

RestReply RestHandler::ServeDiscovery(const HttpRequest& http, const RequestInfo& info) {
  const DiscoveryFormat format = NegotiateDiscovery(http.Header("Accept"));
  const bool aggregated = format != DiscoveryFormat::kLegacy;
  Json body;
  switch (info.discovery) {
    case DiscoveryTarget::kCoreVersions:
      body = aggregated ? AggregatedDiscovery(/*core=*/true, format)
                        : CoreApiVersions(options_.server_address);
      break;
    case DiscoveryTarget::kGroups:
      body = aggregated ? AggregatedDiscovery(/*core=*/false, format) : ApiGroupList();
      break;
    case DiscoveryTarget::kGroup: {
      auto doc = ApiGroupDocument(info.group);
      if (!doc) return ErrorReply(doc.error());
      body = std::move(doc).value();
      break;
    }
    case DiscoveryTarget::kCoreResources:
    case DiscoveryTarget::kGroupResources: {
      auto doc = ApiResourceList(info.group, info.version);
      if (!doc) return ErrorReply(doc.error());
      body = std::move(doc).value();
      break;
    }
    case DiscoveryTarget::kNone:
      return ErrorReply(PathNotFoundError());
  }
  RestReply reply;
  reply.response.body = body.dump();
  const bool top = info.discovery == DiscoveryTarget::kCoreVersions ||
                   info.discovery == DiscoveryTarget::kGroups;
  if (aggregated && top) reply.response.content_type = std::string(DiscoveryContentType(format));
  return reply;
}

RestReply RestHandler::Respond(const HttpRequest& http, const RequestInfo& info,
                               const QueryParams& query, int status, const Json& object) const {
  const std::string_view accept = http.Header("Accept");
  RestReply reply;
  reply.response.status = status;
  if (auto table_version = NegotiateTable(accept); table_version && info.subresource.empty()) {
    TableOptions options;
    options.now = Now();
    auto include = IncludeObjectOf(query);
    if (!include) return ErrorReply(include.error());
    options.include_object = *include;
    std::span<const Json> rows;
    if (auto items = object.find("items"); items != object.end() && object.contains("kind") &&
                                           object["kind"].is_string() &&
                                           object["kind"].get<std::string>().ends_with("List")) {
      rows = std::span<const Json>(items->get_ptr<const Json::array_t*>()->data(), items->size());
      const Json& meta = object["metadata"];
      if (meta.contains("resourceVersion")) {
        options.resource_version = meta["resourceVersion"].get<std::string>();
      }
      if (meta.contains("continue")) options.continue_token = meta["continue"].get<std::string>();
    } else {
      rows = std::span<const Json>(&object, 1);
    }
    reply.response.body = BuildTable(*info.kind, info.version, rows, options).dump();
    return reply;
  }
  if (!accept.empty()) {
    bool json = false;
    for (const MediaRange& range : ParseAccept(accept)) json = json || range.AcceptsJson();
    if (!json) return ErrorReply(NotAcceptableError(kJsonOnly));
  }
  reply.response.body = object.dump();
  return reply;
}

RestReply RestHandler::Get(const HttpRequest& http, const RequestInfo& info,
                           const QueryParams& query) {
  auto stored = store_.Get(StoreKey(*info.kind, info.namespace_, info.name));
  if (!stored) {
    if (stored.error().code() == core::ErrorCode::kNotFound) {
      return ErrorReply(NotFoundError(info.group_resource(), info.name));
    }
    return ErrorReply(InternalApiError(stored.error().ToString()));
  }
  auto served = ServedObject(*stored, info.api_version());
  if (!served) return ErrorReply(served.error());
  if (info.subresource == "scale") return Respond(http, info, query, 200, ScaleOf(*info.kind, *served));
  return Respond(http, info, query, 200, *served);
}

ApiResult<RestHandler::Listed> RestHandler::ListMatching(const RequestInfo& info,
                                                         const ListOptions& options) {
  store::ListOptions so;
  so.group = std::string(info.kind->group);
  so.kind = std::string(info.kind->kind);
  if (info.kind->namespaced() && !info.namespace_.empty()) so.ns = info.namespace_;
  Listed out;
  if (options.continue_token) {
    auto token = CheckContinueNotExpired(*options.continue_token, store_.CompactedResourceVersion());
    if (!token) return token.error();
    so.start_after = CursorOf(token->start_key);
    out.resource_version = token->resource_version;
  }
  const int64_t limit = options.limit;
  so.limit = limit > 0 ? std::min(limit, options_.list_read_page) : options_.list_read_page;
  const std::string api_version = info.api_version();
  while (true) {
    auto page = store_.List(so);
    if (!page) {
      if (page.error().code() == core::ErrorCode::kUnavailable) {
        return TooManyRequestsError(page.error().message(), 1);
      }
      return InternalApiError(page.error().ToString());
    }
    if (out.resource_version <= 0) out.resource_version = page->resource_version;
    for (size_t i = 0; i < page->items.size(); ++i) {
      auto served = ServedObject(page->items[i], api_version);
      if (!served) return served.error();
      if (!options.Matches(*served)) continue;
      out.items.push_back(std::move(served).value());
      const bool more = i + 1 < page->items.size() || page->next.has_value();
      if (limit > 0 && static_cast<int64_t>(out.items.size()) >= limit) {
        if (more) out.continue_token = ContinueAfter(out.resource_version, KeyText(page->items[i].key));
        return out;
      }
    }
    if (!page->next) return out;
    so.start_after = page->next;
  }
}

RestReply RestHandler::List(const HttpRequest& http, const RequestInfo& info,
                            const QueryParams& query) {
  auto options = ParseListOptions(query, *info.kind, /*watch=*/false);
  if (!options) return ErrorReply(options.error());
  if (options->resource_version_match == ResourceVersionMatch::kExact &&
      options->resource_version_number &&
      *options->resource_version_number != store_.CurrentResourceVersion()) {
    // berth keeps no past snapshots to list at: an exact older version is gone.
    return ErrorReply(
        TooOldResourceVersionError(*options->resource_version_number, store_.CurrentResourceVersion()));
  }
  auto listed = ListMatching(info, *options);
  if (!listed) return ErrorReply(listed.error());
  Json doc = ListDocument(*info.kind, info.api_version(), listed->items, listed->resource_version,
                          listed->continue_token);
  return Respond(http, info, query, 200, doc);
}

RestReply RestHandler::StartWatch(const HttpRequest& http, const RequestInfo& info,
                                  const QueryParams& query) {
  auto options = ParseListOptions(query, *info.kind, /*watch=*/true);
  if (!options) return ErrorReply(options.error());
  WatchSettings settings;
  settings.request = info;
  settings.options = *options;
  settings.bookmark_interval = options_.bookmark_interval;
  settings.now = [this] { return Now(); };
  if (auto table_version = NegotiateTable(http.Header("Accept"))) {
    settings.table_version = *table_version;
    auto include = IncludeObjectOf(query);
    if (!include) return ErrorReply(include.error());
    settings.include_object = *include;
  }
  int64_t timeout_s = options_.max_watch_timeout_s;
  if (options->timeout_s && *options->timeout_s > 0) {
    timeout_s = std::min(timeout_s, *options->timeout_s);
  }
  settings.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);

  std::deque<Json> initial;
  int64_t since = 0;
  const bool selects = !options->label_selector.empty() || !options->field_selector.empty();
  if (selects) settings.matching.emplace();
  auto key_of = [](const Json& item) {
    return StringAt(item, {"metadata", "namespace"}) + "/" + StringAt(item, {"metadata", "name"});
  };
  const bool from_rv = options->resource_version_number && *options->resource_version_number > 0;
  if (from_rv) since = *options->resource_version_number;
  // "" or "0": the current state first, then what follows it. From a resourceVersion with a
  // selector, what the selection holds now stands for what it held then: a client lists,
  // then watches from the list's RV, so the two differ only by the events the stream replays.
  if (!from_rv || selects) {
    ListOptions all = *options;
    all.limit = 0;
    all.continue_token.reset();
    auto listed = ListMatching(info, all);
    if (!listed) return ErrorReply(listed.error());
    Listed current = std::move(listed).value();
    for (Json& item : current.items) {
      if (selects) settings.matching->insert(key_of(item));
      if (!from_rv) initial.push_back(std::move(item));
    }
    if (!from_rv) since = current.resource_version;
  }
  RestReply reply;
  // The stream parameter keeps cpp-httplib from gzipping the stream (it compresses only the
  // exact type "application/json", and a gzip stream holds events back until its buffer
  // fills); clients parse the media type without parameters.
  reply.response.content_type = "application/json;stream=watch";
  reply.watch = std::make_unique<WatchSession>(store_, feed_, std::move(settings),
                                               std::move(initial), since);
  return reply;
}

}  // namespace berth::server
