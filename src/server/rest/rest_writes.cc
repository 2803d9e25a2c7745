// Writes: create, update (PUT, /status, /scale), patch, delete and deletecollection. Every
// write is one store commit, published to the watch streams after it is durable; a refusal
// leaves the store untouched. Store errors map as store.h's table says.
#include <algorithm>
#include <utility>

#include "server/api/json_access.h"
#include "server/api/list_watch.h"
#include "server/api/object_meta.h"
#include "server/api/patch.h"
#include "server/api/protobuf_meta.h"
#include "server/api/strategic_merge.h"
#include "server/rest/rest_handler.h"
#include "server/api/json_depth.h"
#include "server/rest/stored_json.h"
#include "server/rest/uuid.h"

namespace berth::server {

using Json = nlohmann::ordered_json;

namespace {

// metadata.finalizers, in order (non-strings skipped: validation refuses them first).
std::vector<std::string> FinalizersOf(const Json& object) {
  std::vector<std::string> out;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return out;
  auto list = meta->find("finalizers");
  if (list == meta->end() || !list->is_array()) return out;
  for (const Json& f : *list) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

constexpr std::string_view kJsonBody[] = {"application/json"};
// A patch that loses a race with another write is re-applied to the newer object this many
// times before the Conflict reaches the client (upstream's GuaranteedUpdate retries too).
constexpr int kPatchAttempts = 5;

bool DryRun(const QueryParams& query) {
  auto v = query.Get("dryRun");
  return v.has_value() && *v == "All";
}

ApiError StoreError(const core::Error& error, const RequestInfo& info, std::string_view name) {
  switch (error.code()) {
    case core::ErrorCode::kNotFound:
      return NotFoundError(info.group_resource(), name);
    case core::ErrorCode::kAlreadyExists:
      return AlreadyExistsError(info.group_resource(), name);
    case core::ErrorCode::kFailedPrecondition:
      return StaleResourceVersionError(info.group_resource(), name);
    case core::ErrorCode::kUnavailable:
      return TooManyRequestsError("the hub's store is unavailable: " + error.message(), 1);
    default:
      return InternalApiError(error.ToString());
  }
}

int64_t GenerationOf(const Json& object) {
  auto m = object.find("metadata");
  if (m == object.end() || !m->is_object()) return 0;
  auto g = m->find("generation");
  return g != m->end() && g->is_number_integer() ? g->get<int64_t>() : 0;
}

}  // namespace

std::string RestHandler::NewUid() {
  std::lock_guard lock(rng_mu_);
  return NewUuid(rng_);
}

std::string RestHandler::NewNameSuffix() {
  // apiserver's SimpleNameGenerator alphabet: no vowels, no look-alike digits.
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::lock_guard lock(rng_mu_);
  std::string out;
  for (int i = 0; i < 5; ++i) out += kAlphabet[rng_() % (sizeof kAlphabet - 1)];
  return out;
}

void RestHandler::Published(const std::vector<store::StoredObject>& written) {
  int64_t rv = 0;
  for (const auto& o : written) rv = std::max(rv, o.meta.resource_version);
  if (rv > 0) feed_.Publish(rv);
}

ApiResult<Json> RestHandler::ReadBody(const HttpRequest& http) const {
  if (static_cast<int64_t>(http.body.size()) > options_.max_body_bytes) {
    return RequestEntityTooLargeError(options_.max_body_bytes);
  }
  const std::string_view type = http.Header("Content-Type");
  const std::string_view media = type.substr(0, type.find(';'));
  if (media == "application/vnd.kubernetes.protobuf") {
    // Typed clients (kubectl create namespace) send protobuf; berth reads it for objects that
    // are only metadata and refuses the rest (protobuf_meta.h).
    return MetadataObjectFromProtobuf(http.body);
  }
  if (!media.empty() && media != "application/json" && media != "*/*") {
    return UnsupportedMediaTypeError(kJsonBody);
  }
  if (JsonNestingDepth(http.body, options_.max_json_depth) > options_.max_json_depth) {
    return BadRequestError("the request body nests deeper than " +
                           std::to_string(options_.max_json_depth) + " levels");
  }
  Json body = Json::parse(http.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return BadRequestError("the request body is not valid JSON");
  if (!body.is_object()) return BadRequestError("the request body is not a JSON object");
  return body;
}

RestReply RestHandler::Create(const HttpRequest& http, const RequestInfo& info,
                              const QueryParams& query) {
  auto body = ReadBody(http);
  if (!body) return ErrorReply(body.error());
  return CreateObject(http, info, query, std::move(body).value());
}

RestReply RestHandler::CreateObject(const HttpRequest& http, const RequestInfo& info,
                                    const QueryParams& query, Json body) {
  CreateContext context;
  context.uid = NewUid();
  context.now = Now();
  context.generate_suffix = NewNameSuffix();
  auto prepared = PrepareCreate(info, std::move(body), context);
  if (!prepared) return ErrorReply(prepared.error());
  Json object = std::move(prepared).value();
  const std::string name = StringAt(object, {"metadata", "name"});
  if (info.kind->group.empty() && info.kind->kind == "Namespace" &&
      StringAt(object, {"status", "phase"}).empty()) {
    // The namespace strategy's PrepareForCreate: a new namespace is Active.
    object["status"] = Json{{"phase", "Active"}};
  }
  if (validator_ != nullptr) {
    auto errors = validator_->Validate(*info.kind, object);
    if (!errors.empty()) {
      return ErrorReply(InvalidError(info.kind->group, info.kind->kind, name, errors));
    }
  }
  if (info.kind->namespaced()) {
    auto ns = store_.Get(store::ObjectKey{"", "Namespace", "", info.namespace_});
    if (!ns) {
      if (ns.error().code() == core::ErrorCode::kNotFound) {
        return ErrorReply(NotFoundError(GroupResource{"", "namespaces"}, info.namespace_));
      }
      return ErrorReply(InternalApiError(ns.error().ToString()));
    }
    if (ns->meta.deletion_unix_s != 0) {
      return ErrorReply(ForbiddenError(info.group_resource(), name,
                                       "unable to create new content in namespace " +
                                           info.namespace_ + " because it is being terminated"));
    }
  }
  const store::ObjectKey key = StoreKey(*info.kind, info.namespace_, name);
  if (DryRun(query)) {
    if (auto existing = store_.Get(key); existing) {
      return ErrorReply(AlreadyExistsError(info.group_resource(), name));
    }
    return Respond(http, info, query, 201, object);
  }
  store::Mutation m = store::Mutation::Create(key, StoredBody(object), LabelMap(object));
  m.uid = context.uid;
  auto written = store_.Commit({std::move(m)});
  if (!written) return ErrorReply(StoreError(written.error(), info, name));
  Published(*written);
  auto served = ServedObject(written->front(), info.api_version());
  if (!served) return ErrorReply(served.error());
  return Respond(http, info, query, 201, *served);
}

store::Mutation RestHandler::MarkDeleted(const store::StoredObject& stored) const {
  store::Mutation mark = store::Mutation::Update(stored.key, stored.json, stored.meta.resource_version,
                                                 stored.meta.labels);
  mark.deletion_unix_s = Now().unix_s;
  mark.bump_generation = true;
  return mark;
}

ApiResult<Json> RestHandler::WriteUpdate(const RequestInfo& info, const store::StoredObject& stored,
                                         const Json& served, Json updated, bool dry_run,
                                         bool* conflict_retryable) {
  *conflict_retryable = false;
  auto prepared = PrepareUpdate(info, served, std::move(updated), stored.meta.resource_version + 1);
  if (!prepared) return prepared.error();
  if (!prepared->changed) return served;
  Json object = std::move(prepared).value().object;
  if (validator_ != nullptr) {
    auto errors = validator_->Validate(*info.kind, object);
    if (!errors.empty()) return InvalidError(info.kind->group, info.kind->kind, info.name, errors);
  }
  // An object being deleted waits for its finalizers: none may be added, and the update
  // that removes the last one completes the deletion (the API server's graceful deletion).
  if (stored.meta.deletion_unix_s != 0) {
    const std::vector<std::string> before = FinalizersOf(served);
    const std::vector<std::string> after = FinalizersOf(object);
    std::string added;
    for (const std::string& f : after) {
      if (std::find(before.begin(), before.end(), f) != before.end()) continue;
      added += (added.empty() ? "\"" : ", \"") + f + "\"";
    }
    if (!added.empty()) {
      const core::Error error = core::InvalidArgument(
          "Forbidden: no new finalizers can be added if the object is being deleted, found new "
          "finalizers []string{" + added + "}",
          core::Location{"", "", "metadata.finalizers"});
      return InvalidError(info.kind->group, info.kind->kind, info.name, std::span(&error, 1));
    }
    if (after.empty()) {
      if (dry_run) return object;
      auto deleted = store_.Commit({store::Mutation::Delete(stored.key, stored.meta.resource_version)});
      if (!deleted) {
        *conflict_retryable = deleted.error().code() == store::kConflict;
        return StoreError(deleted.error(), info, info.name);
      }
      Published(*deleted);
      return ServedObject(deleted->front(), info.api_version());
    }
  }
  if (dry_run) return object;
  store::Mutation m = store::Mutation::Update(stored.key, StoredBody(object),
                                              stored.meta.resource_version, LabelMap(object));
  m.bump_generation = GenerationOf(object) > stored.meta.generation;
  auto written = store_.Commit({std::move(m)});
  if (!written) {
    *conflict_retryable = written.error().code() == store::kConflict;
    return StoreError(written.error(), info, info.name);
  }
  Published(*written);
  return ServedObject(written->front(), info.api_version());
}

RestReply RestHandler::Update(const HttpRequest& http, const RequestInfo& info,
                              const QueryParams& query) {
  auto body = ReadBody(http);
  if (!body) return ErrorReply(body.error());
  auto stored = store_.Get(StoreKey(*info.kind, info.namespace_, info.name));
  if (!stored) return ErrorReply(StoreError(stored.error(), info, info.name));
  auto served = ServedObject(*stored, info.api_version());
  if (!served) return ErrorReply(served.error());
  Json updated = std::move(body).value();
  if (info.subresource == "scale") {
    auto scaled = ApplyScale(*info.kind, *served, updated);
    if (!scaled) return ErrorReply(scaled.error());
    const std::string scale_rv = StringAt(updated, {"metadata", "resourceVersion"});
    updated = std::move(scaled).value();
    // The Scale's resourceVersion is the object's: it guards the write the same way.
    if (!scale_rv.empty()) updated["metadata"]["resourceVersion"] = scale_rv;
  }
  bool retryable = false;
  RequestInfo main_info = info;
  if (info.subresource == "scale") main_info.subresource.clear();
  auto result = WriteUpdate(main_info, *stored, *served, std::move(updated), DryRun(query), &retryable);
  if (!result) return ErrorReply(result.error());
  if (info.subresource == "scale") return Respond(http, info, query, 200, ScaleOf(*info.kind, *result));
  return Respond(http, info, query, 200, *result);
}

RestReply RestHandler::Patch(const HttpRequest& http, const RequestInfo& info,
                             const QueryParams& query) {
  if (static_cast<int64_t>(http.body.size()) > options_.max_body_bytes) {
    return ErrorReply(RequestEntityTooLargeError(options_.max_body_bytes));
  }
  const std::string_view content_type = http.Header("Content-Type");
  if (content_type.substr(0, content_type.find(';')) == "application/apply-patch+yaml") {
    return ServerSideApply(http, info, query);
  }
  auto type = PatchTypeOf(http.Header("Content-Type"), info.group);
  if (!type) return ErrorReply(type.error());
  if (JsonNestingDepth(http.body, options_.max_json_depth) > options_.max_json_depth) {
    return ErrorReply(BadRequestError("the patch nests deeper than " +
                                      std::to_string(options_.max_json_depth) + " levels"));
  }
  // A patch that names a resourceVersion is a precondition and is never re-applied.
  const bool may_retry = http.body.find("resourceVersion") == std::string::npos;
  RequestInfo main_info = info;
  if (info.subresource == "scale") main_info.subresource.clear();
  for (int attempt = 0;; ++attempt) {
    auto stored = store_.Get(StoreKey(*info.kind, info.namespace_, info.name));
    if (!stored) return ErrorReply(StoreError(stored.error(), info, info.name));
    auto served = ServedObject(*stored, info.api_version());
    if (!served) return ErrorReply(served.error());
    const Json target = info.subresource == "scale" ? ScaleOf(*info.kind, *served) : *served;
    ApiResult<Json> patched = BadRequestError("unsupported patch");
    switch (*type) {
      case PatchType::kJsonPatch:
        patched = ApplyJsonPatch(target, http.body);
        break;
      case PatchType::kMergePatch:
        patched = ApplyMergePatch(target, http.body);
        break;
      case PatchType::kStrategicMergePatch:
        patched = ApplyStrategicMergePatch(target, http.body);
        break;
      case PatchType::kApplyPatch:
        break;
    }
    if (!patched) return ErrorReply(patched.error());
    Json updated = std::move(patched).value();
    if (info.subresource == "scale") {
      auto scaled = ApplyScale(*info.kind, *served, updated);
      if (!scaled) return ErrorReply(scaled.error());
      updated = std::move(scaled).value();
    }
    bool retryable = false;
    auto result = WriteUpdate(main_info, *stored, *served, std::move(updated), DryRun(query),
                              &retryable);
    if (!result) {
      if (retryable && may_retry && attempt + 1 < kPatchAttempts) continue;
      return ErrorReply(result.error());
    }
    if (info.subresource == "scale") {
      return Respond(http, info, query, 200, ScaleOf(*info.kind, *result));
    }
    return Respond(http, info, query, 200, *result);
  }
}

RestReply RestHandler::Delete(const HttpRequest& http, const RequestInfo& info,
                              const QueryParams& query) {
  int64_t expected_rv = 0;
  std::string expected_uid;
  bool dry_run = DryRun(query);
  if (!http.body.empty()) {
    auto options = ReadBody(http);
    if (!options) return ErrorReply(options.error());
    if (auto pre = options->find("preconditions"); pre != options->end() && pre->is_object()) {
      if (auto rv = pre->find("resourceVersion"); rv != pre->end() && rv->is_string()) {
        char* end = nullptr;
        expected_rv = std::strtoll(rv->get<std::string>().c_str(), &end, 10);
        if (end == nullptr || *end != '\0' || expected_rv <= 0) {
          return ErrorReply(BadRequestError("invalid preconditions.resourceVersion"));
        }
      }
      if (auto uid = pre->find("uid"); uid != pre->end() && uid->is_string()) {
        expected_uid = uid->get<std::string>();
      }
    }
    if (auto d = options->find("dryRun"); d != options->end() && d->is_array()) {
      for (const Json& v : *d) dry_run = dry_run || (v.is_string() && v.get<std::string>() == "All");
    }
  }
  const store::ObjectKey key = StoreKey(*info.kind, info.namespace_, info.name);
  auto stored = store_.Get(key);
  if (!stored) return ErrorReply(StoreError(stored.error(), info, info.name));
  if (!expected_uid.empty() && expected_uid != stored->meta.uid) {
    return ErrorReply(ConflictError(info.group_resource(), info.name,
                                    "Precondition failed: UID in precondition: " + expected_uid +
                                        ", UID in object meta: " + stored->meta.uid));
  }
  if (expected_rv != 0 && expected_rv != stored->meta.resource_version) {
    return ErrorReply(ConflictError(
        info.group_resource(), info.name,
        "Precondition failed: ResourceVersion in precondition: " + std::to_string(expected_rv) +
            ", ResourceVersion in object meta: " + std::to_string(stored->meta.resource_version)));
  }
  auto served = ServedObject(*stored, info.api_version());
  if (!served) return ErrorReply(served.error());
  const bool is_namespace =
      !info.kind->namespaced() && info.kind->group.empty() && info.kind->kind == "Namespace";
  // Finalizers hold the object: it is marked (deletionTimestamp, generation + 1) and stays
  // until an update removes the last of them; deleting it again changes nothing.
  if (!is_namespace && !FinalizersOf(*served).empty()) {
    if (stored->meta.deletion_unix_s != 0) return Respond(http, info, query, 200, *served);
    if (dry_run) {
      Json marked = *served;
      marked["metadata"]["deletionTimestamp"] = Now().ToString();
      return Respond(http, info, query, 200, marked);
    }
    auto marked = store_.Commit({MarkDeleted(*stored)});
    if (!marked) return ErrorReply(StoreError(marked.error(), info, info.name));
    Published(*marked);
    auto pending = ServedObject(marked->front(), info.api_version());
    if (!pending) return ErrorReply(pending.error());
    return Respond(http, info, query, 200, *pending);
  }
  std::vector<store::Mutation> batch;
  // A namespace takes its contents with it (upstream's namespace controller does this after
  // a Terminating phase; berth deletes in the same commit).
  if (is_namespace) {
    for (const model::KindInfo& kind : model::AllKinds()) {
      if (!kind.served() || !kind.namespaced()) continue;
      store::ListOptions so;
      so.group = std::string(kind.group);
      so.kind = std::string(kind.kind);
      so.ns = info.name;
      while (true) {
        auto page = store_.List(so);
        if (!page) return ErrorReply(InternalApiError(page.error().ToString()));
        for (const auto& o : page->items) batch.push_back(store::Mutation::Delete(o.key));
        if (!page->next) break;
        so.start_after = page->next;
      }
    }
  }
  store::Mutation del = store::Mutation::Delete(key, stored->meta.resource_version);
  del.expected_uid = expected_uid;
  batch.push_back(std::move(del));
  if (dry_run) return Respond(http, info, query, 200, *served);
  auto written = store_.Commit(std::move(batch));
  if (!written) return ErrorReply(StoreError(written.error(), info, info.name));
  Published(*written);
  auto deleted = ServedObject(written->back(), info.api_version());
  if (!deleted) return ErrorReply(deleted.error());
  return Respond(http, info, query, 200, *deleted);
}

RestReply RestHandler::DeleteCollection(const HttpRequest& http, const RequestInfo& info,
                                        const QueryParams& query) {
  auto options = ParseListOptions(query, *info.kind, /*watch=*/false);
  if (!options) return ErrorReply(options.error());
  ListOptions all = *options;
  all.limit = 0;
  all.continue_token.reset();
  auto listed = ListMatching(info, all);
  if (!listed) return ErrorReply(listed.error());
  std::vector<store::Mutation> batch;
  for (const Json& item : listed->items) {
    const std::string ns = StringAt(item, {"metadata", "namespace"});
    const store::ObjectKey key = StoreKey(*info.kind, ns, StringAt(item, {"metadata", "name"}));
    if (FinalizersOf(item).empty()) {
      batch.push_back(store::Mutation::Delete(key));
      continue;
    }
    // Held by finalizers: marked, as a single delete marks it (Delete above).
    auto stored = store_.Get(key);
    if (!stored || stored->meta.deletion_unix_s != 0) continue;
    batch.push_back(MarkDeleted(*stored));
  }
  std::vector<Json> deleted;
  int64_t rv = listed->resource_version;
  if (!DryRun(query) && !batch.empty()) {
    auto written = store_.Commit(std::move(batch));
    if (!written) return ErrorReply(StoreError(written.error(), info, ""));
    Published(*written);
    for (const auto& o : *written) {
      auto served = ServedObject(o, info.api_version());
      if (served) deleted.push_back(std::move(served).value());
      rv = std::max(rv, o.meta.resource_version);
    }
  } else {
    deleted = std::move(listed).value().items;
  }
  return Respond(http, info, query, 200, ListDocument(*info.kind, info.api_version(), deleted, rv, ""));
}

core::Status RestHandler::EnsureSystemNamespaces() {
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    const store::ObjectKey key{"", "Namespace", "", name};
    if (store_.Get(key)) continue;
    Json ns = Json::object();
    ns["apiVersion"] = "v1";
    ns["kind"] = "Namespace";
    ns["metadata"] = Json{{"name", name}};
    ns["spec"] = Json{{"finalizers", Json::array({"kubernetes"})}};
    ns["status"] = Json{{"phase", "Active"}};
    store::Mutation m = store::Mutation::Create(key, ns.dump());
    m.uid = NewUid();
    auto written = store_.Commit({std::move(m)});
    if (!written && written.error().code() != core::ErrorCode::kAlreadyExists) {
      return written.error();
    }
    if (written) Published(*written);
  }
  return {};
}

}  // namespace berth::server
