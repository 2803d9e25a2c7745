// The route table is kube-apiserver's: a namespaced resource has its collection and items
// under /namespaces/NS/ plus a cluster-wide collection for list and watch only; a
// cluster-scoped one lives at the top. Anything else is 404 before any authorization, so an
// unauthorised client learns nothing it could not learn from discovery.
#include "server/api/request_info.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "server/api/discovery.h"

namespace berth::server {
namespace {

enum class Method { kGet, kPost, kPut, kPatch, kDelete, kOther };

Method MethodOf(std::string_view m) {
  if (m == "GET") return Method::kGet;
  if (m == "POST") return Method::kPost;
  if (m == "PUT") return Method::kPut;
  if (m == "PATCH") return Method::kPatch;
  if (m == "DELETE") return Method::kDelete;
  return Method::kOther;
}

model::Verb ModelVerb(RequestVerb v) {
  switch (v) {
    case RequestVerb::kGet:
      return model::Verb::kGet;
    case RequestVerb::kList:
      return model::Verb::kList;
    case RequestVerb::kWatch:
      return model::Verb::kWatch;
    case RequestVerb::kCreate:
      return model::Verb::kCreate;
    case RequestVerb::kUpdate:
      return model::Verb::kUpdate;
    case RequestVerb::kPatch:
      return model::Verb::kPatch;
    case RequestVerb::kDelete:
      return model::Verb::kDelete;
    case RequestVerb::kDeleteCollection:
      return model::Verb::kDeleteCollection;
  }
  return model::Verb::kGet;
}

// Splits "/a/b/c" into decoded segments; nullopt for an empty inner segment ("//") or a
// malformed escape. One trailing slash is tolerated.
std::optional<std::vector<std::string>> Segments(std::string_view path) {
  if (path.empty() || path.front() != '/') return std::nullopt;
  path.remove_prefix(1);
  if (!path.empty() && path.back() == '/') path.remove_suffix(1);
  std::vector<std::string> out;
  if (path.empty()) return out;
  size_t pos = 0;
  while (pos <= path.size()) {
    size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) slash = path.size();
    const std::string_view seg = path.substr(pos, slash - pos);
    if (seg.empty()) return std::nullopt;
    auto decoded = PercentDecode(seg, false);
    if (!decoded || decoded->empty() || *decoded == "." || *decoded == ".." ||
        decoded->find('/') != std::string::npos) {
      return std::nullopt;
    }
    out.push_back(std::move(*decoded));
    pos = slash + 1;
  }
  return out;
}

ApiResult<RequestInfo> Discovery(Method method, DiscoveryTarget target, std::string group,
                                 std::string version) {
  if (method != Method::kGet) return MethodNotAllowedError();
  RequestInfo info;
  info.discovery = target;
  info.group = std::move(group);
  info.version = std::move(version);
  return info;
}

}  // namespace

std::string_view RequestVerbName(RequestVerb verb) { return model::VerbName(ModelVerb(verb)); }

bool IsBuiltInGroup(std::string_view group) {
  return group.empty() || group == "apps" || group == "batch" || group == "scheduling.k8s.io" ||
         group == "resource.k8s.io" || group == "rbac.authorization.k8s.io" ||
         group == "networking.k8s.io" || group == "policy" || group == "storage.k8s.io" ||
         group == "node.k8s.io";
}

bool QueryBool(const QueryParams& query, std::string_view key) {
  auto v = query.Get(key);
  if (!v.has_value()) return false;
  std::string lower(*v);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower != "0" && lower != "false";
}

ApiResult<RequestInfo> ParseRequest(std::string_view method_text, std::string_view path,
                                    const QueryParams& query) {
  const Method method = MethodOf(method_text);
  auto segs_or = Segments(path);
  if (!segs_or.has_value() || segs_or->empty()) return PathNotFoundError();
  std::vector<std::string>& segs = *segs_or;

  std::string group;
  std::string version;
  size_t rest = 0;
  if (segs[0] == "api") {
    if (segs.size() == 1) return Discovery(method, DiscoveryTarget::kCoreVersions, "", "");
    version = segs[1];
    if (!ServesGroupVersion("", version)) return PathNotFoundError();
    if (segs.size() == 2) return Discovery(method, DiscoveryTarget::kCoreResources, "", version);
    rest = 2;
  } else if (segs[0] == "apis") {
    if (segs.size() == 1) return Discovery(method, DiscoveryTarget::kGroups, "", "");
    group = segs[1];
    if (!ServesGroup(group)) return PathNotFoundError();
    if (segs.size() == 2) return Discovery(method, DiscoveryTarget::kGroup, group, "");
    version = segs[2];
    if (!ServesGroupVersion(group, version)) return PathNotFoundError();
    if (segs.size() == 3) {
      return Discovery(method, DiscoveryTarget::kGroupResources, group, version);
    }
    rest = 3;
  } else {
    return PathNotFoundError();
  }

  std::vector<std::string> parts(segs.begin() + static_cast<ptrdiff_t>(rest), segs.end());
  bool watch_prefix = false;
  if (!parts.empty() && parts[0] == "watch") {
    watch_prefix = true;
    parts.erase(parts.begin());
    if (parts.empty()) return PathNotFoundError();
  }

  RequestInfo info;
  info.group = group;
  info.version = version;
  bool namespaced_path = false;
  if (parts.size() >= 2 && parts[0] == "namespaces") {
    info.namespace_ = parts[1];
    // /namespaces/NS and /namespaces/NS/{status,finalize} are the namespace itself.
    if (parts.size() > 2 && parts[2] != "status" && parts[2] != "finalize") {
      parts.erase(parts.begin(), parts.begin() + 2);
      namespaced_path = true;
    }
  }
  if (parts.size() > 3) return PathNotFoundError();
  info.resource = parts[0];
  if (parts.size() >= 2) info.name = parts[1];
  if (parts.size() == 3) info.subresource = parts[2];

  const model::KindInfo* kind = model::FindResource(group, info.resource);
  if (kind == nullptr ||
      std::find(kind->versions.begin(), kind->versions.end(), version) == kind->versions.end()) {
    return PathNotFoundError();
  }
  info.kind = kind;
  if (namespaced_path && !kind->namespaced()) return PathNotFoundError();
  // A namespaced resource's items live only under /namespaces/NS/.
  const bool all_namespaces = kind->namespaced() && !namespaced_path;
  if (all_namespaces && !info.name.empty()) return PathNotFoundError();
  if (!info.subresource.empty()) {
    const bool known = (info.subresource == "status" && kind->status_subresource) ||
                       (info.subresource == "scale" && kind->scale.served());
    if (!known) return PathNotFoundError();
  }

  const bool has_name = !info.name.empty();
  const bool sub = !info.subresource.empty();
  std::optional<RequestVerb> verb;
  switch (method) {
    case Method::kGet:
      if (watch_prefix || (!sub && QueryBool(query, "watch"))) {
        if (!sub) verb = RequestVerb::kWatch;
      } else {
        verb = has_name ? RequestVerb::kGet : RequestVerb::kList;
      }
      break;
    case Method::kPost:
      if (!has_name && !all_namespaces && !watch_prefix) verb = RequestVerb::kCreate;
      break;
    case Method::kPut:
      if (has_name && !watch_prefix) verb = RequestVerb::kUpdate;
      break;
    case Method::kPatch:
      if (has_name && !watch_prefix) verb = RequestVerb::kPatch;
      break;
    case Method::kDelete:
      if (watch_prefix || sub) break;
      if (has_name) {
        verb = RequestVerb::kDelete;
      } else if (!all_namespaces) {
        verb = RequestVerb::kDeleteCollection;
      }
      break;
    case Method::kOther:
      break;
  }
  if (!verb.has_value()) return MethodNotAllowedError();
  info.verb = *verb;
  // Subresources serve get, update and patch whatever the kind's own verbs are.
  if (!sub && !kind->verbs.Has(ModelVerb(*verb))) {
    return MethodNotSupportedError(info.group_resource(), RequestVerbName(*verb));
  }
  return info;
}

}  // namespace berth::server
