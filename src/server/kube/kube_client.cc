// The client mirrors client-go's REST client where berth talks to an API server: paths built
// from the resource's group, version and scope (k8s.io/client-go/rest/request.go), query
// values percent-escaped as url.Values.Encode does (selectors carry '=', ',', '!', '(' and
// spaces), and ListAll following client-go's ListPager (k8s.io/client-go/tools/pager/pager.go):
// pages of `limit` until no continue token, falling back to one unpaged list when a continue
// token expired (410) mid-way. HTTP errors stay in the Reply: a controller needs the server's
// own reason (AlreadyExists, Conflict) to decide what to do next.
#include "server/kube/kube_client.h"

#include <string>
#include <utility>

#include "model/kind_info.h"

namespace berth::server::kube {

namespace {

constexpr int64_t kKubeDefaultListPage = 500;
constexpr size_t kKubeMessageBodyBytes = 200;

bool KubeUnreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

}  // namespace

// A space becomes %20, which the server decodes as it decodes '+'.
std::string QueryEscape(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (KubeUnreserved(c)) {
      out.push_back(c);
    } else {
      const auto b = static_cast<unsigned char>(c);
      out.push_back('%');
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
    }
  }
  return out;
}

namespace {

// "a=b&c=d" built from pairs, each value escaped; empty values are left out.
class KubeQuery {
 public:
  KubeQuery& Add(std::string_view key, std::string_view value) {
    if (value.empty()) return *this;
    if (!text_.empty()) text_.push_back('&');
    text_.append(key);
    text_.push_back('=');
    text_.append(QueryEscape(value));
    return *this;
  }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

std::string KubeListQueryString(const ListQuery& query) {
  KubeQuery q;
  q.Add("labelSelector", query.label_selector).Add("fieldSelector", query.field_selector);
  if (query.limit > 0) q.Add("limit", std::to_string(query.limit));
  q.Add("continue", query.continue_token).Add("resourceVersion", query.resource_version);
  return q.Take();
}

std::string_view KubePatchContentType(std::string_view patch_type) {
  if (patch_type == "merge") return "application/merge-patch+json";
  if (patch_type == "json") return "application/json-patch+json";
  if (patch_type == "strategic") return "application/strategic-merge-patch+json";
  if (patch_type == "apply") return "application/apply-patch+yaml";
  return "";
}

Json KubeParsedStatus(const Reply& reply) {
  Json parsed = reply.Parsed();
  if (!parsed.is_object() || parsed.value("kind", "") != "Status") return Json();
  return parsed;
}

}  // namespace

Json Reply::Parsed() const {
  return Json::parse(body, nullptr, /*allow_exceptions=*/false);
}

std::string Reply::Message() const {
  const Json status = KubeParsedStatus(*this);
  if (status.is_object()) {
    auto it = status.find("message");
    if (it != status.end() && it->is_string() && !it->get<std::string>().empty()) {
      return it->get<std::string>();
    }
  }
  std::string out = "HTTP " + std::to_string(this->status);
  if (!body.empty()) out += ": " + body.substr(0, kKubeMessageBodyBytes);
  return out;
}

std::string Reply::Reason() const {
  const Json status = KubeParsedStatus(*this);
  if (!status.is_object()) return "";
  auto it = status.find("reason");
  return it != status.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string Resource::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string Resource::Path(std::string_view ns, std::string_view name,
                           std::string_view subresource) const {
  std::string out = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !ns.empty()) {
    out += "/namespaces/";
    out += QueryEscape(ns);
  }
  out += "/";
  out += resource;
  if (!name.empty()) {
    out += "/";
    out += QueryEscape(name);
    if (!subresource.empty()) {
      out += "/";
      out += subresource;
    }
  }
  return out;
}

core::Result<Resource> ResourceFor(std::string_view api_version, std::string_view kind) {
  const model::KindInfo* info = model::FindKindForApiVersion(api_version, kind);
  if (info == nullptr || !info->served()) {
    return core::NotFound("no served resource for kind " + std::string(kind) + " of " +
                          std::string(api_version));
  }
  const std::string_view version = model::ApiVersionOf(api_version);
  bool served_version = false;
  for (std::string_view v : info->versions) served_version = served_version || v == version;
  if (!served_version) {
    // A version io still reads from old files but no server serves any more.
    return core::NotFound(std::string(api_version) + " " + std::string(kind) +
                          " is not served (served: " + std::string(info->versions.front()) + ")");
  }
  Resource r;
  r.group = std::string(model::ApiGroupOf(api_version));
  r.version = std::string(version);
  r.resource = std::string(info->resource);
  r.kind = std::string(info->kind);
  r.namespaced = info->namespaced();
  return r;
}

Client::Client(std::unique_ptr<Transport> transport) : transport_(std::move(transport)) {}

core::Result<Reply> Client::Get(const Resource& r, std::string_view ns, std::string_view name,
                                std::string_view subresource) {
  Request req;
  req.method = "GET";
  req.path = r.Path(ns, name, subresource);
  return transport_->Send(req);
}

core::Result<Reply> Client::List(const Resource& r, std::string_view ns, const ListQuery& query) {
  Request req;
  req.method = "GET";
  req.path = r.Path(ns);
  req.query = KubeListQueryString(query);
  return transport_->Send(req);
}

core::Result<Reply> Client::ListAll(const Resource& r, std::string_view ns, ListQuery query) {
  if (query.limit <= 0) query.limit = kKubeDefaultListPage;
  query.continue_token.clear();
  BERTH_ASSIGN_OR_RETURN(Reply first, List(r, ns, query));
  if (!first.ok()) return first;
  Json list = first.Parsed();
  if (!list.is_object()) return first;
  Json items = list.contains("items") && list["items"].is_array() ? list["items"] : Json::array();
  auto continue_of = [](const Json& page) -> std::string {
    auto meta = page.find("metadata");
    if (meta == page.end() || !meta->is_object()) return "";
    auto c = meta->find("continue");
    return c != meta->end() && c->is_string() ? c->get<std::string>() : "";
  };
  query.continue_token = continue_of(list);
  while (!query.continue_token.empty()) {
    BERTH_ASSIGN_OR_RETURN(Reply page, List(r, ns, query));
    if (page.status == 410) {
      // The continue token expired (the server compacted past the first page's RV): the whole
      // list at the newest RV is the only consistent answer left (client-go's
      // FullListIfExpired).
      query.limit = 0;
      query.continue_token.clear();
      return List(r, ns, query);
    }
    if (!page.ok()) return page;
    Json next = page.Parsed();
    if (!next.is_object()) return page;
    if (auto it = next.find("items"); it != next.end() && it->is_array()) {
      for (Json& item : *it) items.push_back(std::move(item));
    }
    query.continue_token = continue_of(next);
  }
  list["items"] = std::move(items);
  if (auto meta = list.find("metadata"); meta != list.end() && meta->is_object()) {
    meta->erase("continue");
    meta->erase("remainingItemCount");
  }
  first.body = list.dump();
  return first;
}

core::Result<int> Client::Watch(const Resource& r, std::string_view ns, const WatchQuery& query,
                                const std::function<bool(std::string_view line)>& on_line) {
  Request req;
  req.method = "GET";
  req.path = r.Path(ns);
  KubeQuery q;
  q.Add("watch", "1");
  if (query.allow_bookmarks) q.Add("allowWatchBookmarks", "true");
  if (query.timeout_s > 0) q.Add("timeoutSeconds", std::to_string(query.timeout_s));
  q.Add("resourceVersion", query.resource_version)
      .Add("labelSelector", query.label_selector)
      .Add("fieldSelector", query.field_selector);
  req.query = q.Take();
  req.cancel = query.cancel;
  return transport_->Stream(req, on_line);
}

core::Result<Reply> Client::Create(const Resource& r, std::string_view ns, const Json& body) {
  Request req;
  req.method = "POST";
  req.path = r.Path(ns);
  req.body = body.dump();
  req.content_type = "application/json";
  return transport_->Send(req);
}

core::Result<Reply> Client::Update(const Resource& r, std::string_view ns, std::string_view name,
                                   const Json& body, std::string_view subresource) {
  Request req;
  req.method = "PUT";
  req.path = r.Path(ns, name, subresource);
  req.body = body.dump();
  req.content_type = "application/json";
  return transport_->Send(req);
}

core::Result<Reply> Client::Patch(const Resource& r, std::string_view ns, std::string_view name,
                                  std::string_view patch_type, std::string body,
                                  const PatchOptions& options) {
  const std::string_view content_type = KubePatchContentType(patch_type);
  if (content_type.empty()) {
    return core::InvalidArgument("unknown patch type \"" + std::string(patch_type) +
                                 "\" (merge, json, strategic or apply)");
  }
  const bool apply = patch_type == "apply";
  if (apply && options.field_manager.empty()) {
    return core::InvalidArgument("server-side apply needs a fieldManager");
  }
  Request req;
  req.method = "PATCH";
  req.path = r.Path(ns, name, options.subresource);
  KubeQuery q;
  q.Add("fieldManager", options.field_manager);
  if (apply) q.Add("force", options.force ? "true" : "false");
  req.query = q.Take();
  req.body = std::move(body);
  req.content_type = std::string(content_type);
  return transport_->Send(req);
}

core::Result<Reply> Client::Delete(const Resource& r, std::string_view ns, std::string_view name,
                                   const DeleteOptions& options) {
  Request req;
  req.method = "DELETE";
  req.path = r.Path(ns, name);
  if (!options.propagation_policy.empty() || !options.precondition_uid.empty()) {
    Json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
    if (!options.propagation_policy.empty()) body["propagationPolicy"] = options.propagation_policy;
    if (!options.precondition_uid.empty()) {
      body["preconditions"] = {{"uid", options.precondition_uid}};
    }
    req.body = body.dump();
    req.content_type = "application/json";
  }
  return transport_->Send(req);
}

}  // namespace berth::server::kube
