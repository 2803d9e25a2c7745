// ParseRequest: what an HTTP request asks of the API, from its method, path and query, as
// kube-apiserver's RequestInfoFactory and route table decide it: discovery documents, or a
// resource request {group, version, resource, namespace, name, subresource, verb} resolved
// through model's table of kinds (scope, verbs, status and scale subresources). Paths no route
// serves are 404 and methods a route does not take are 405, as Status objects. Called by the
// HTTP layer first on every request, before authorization. Pure; O(path length + log kinds).
#pragma once

#include <string>
#include <string_view>

#include "model/kind_info.h"
#include "server/api/api_error.h"
#include "server/api/query.h"

namespace berth::server {

enum class RequestVerb {
  kGet,
  kList,
  kWatch,
  kCreate,
  kUpdate,
  kPatch,
  kDelete,
  kDeleteCollection,
};
// "get", "list", ... as RBAC and discovery spell them.
std::string_view RequestVerbName(RequestVerb verb);

enum class DiscoveryTarget {
  kNone,             // a resource request
  kCoreVersions,     // GET /api
  kCoreResources,    // GET /api/v1
  kGroups,           // GET /apis
  kGroup,            // GET /apis/GROUP
  kGroupResources,   // GET /apis/GROUP/VERSION
};

struct RequestInfo {
  DiscoveryTarget discovery = DiscoveryTarget::kNone;
  std::string group;    // "" for the core group
  std::string version;  // "v1", "v1beta2"
  std::string resource;  // plural, "workloads"
  // The namespace of the path. For the namespaces resource itself (/api/v1/namespaces/NS)
  // it is NS, as upstream's RequestInfo sets it (a RoleBinding in NS may grant it); the
  // object's storage key is still cluster-scoped (kind->namespaced() is false).
  std::string namespace_;
  std::string name;
  std::string subresource;  // "", "status" or "scale"
  RequestVerb verb = RequestVerb::kGet;
  // The row of the resource; nullptr for discovery. Points into model::AllKinds().
  const model::KindInfo* kind = nullptr;

  bool is_discovery() const { return discovery != DiscoveryTarget::kNone; }
  GroupResource group_resource() const { return GroupResource{group, resource}; }
  // "kueue.x-k8s.io/v1beta2", or "v1" for the core group.
  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
};

// `path` is the URL path without the query, as sent (percent-escapes are decoded per
// segment). `query` gives `watch` (GET of a collection or of a name with watch=true or 1 is
// a watch; Go's rule: any value but "0" and "false"). The legacy /api/v1/watch/... prefix is
// accepted. Errors: 404 PathNotFoundError for an unknown path, group, version or resource, a
// cluster-scoped resource under /namespaces/NS, a name on the all-namespaces path, or an
// unknown subresource; 405 for a method the path does not take, and MethodNotSupportedError
// for a verb the kind does not serve (deletecollection of namespaces).
ApiResult<RequestInfo> ParseRequest(std::string_view method, std::string_view path,
                                    const QueryParams& query);

// Whether `group` holds kube-apiserver's own kinds of the table (core, apps, batch,
// scheduling.k8s.io, resource.k8s.io, rbac, networking.k8s.io, policy, storage.k8s.io,
// node.k8s.io), as opposed to custom resources: strategic merge patch
// and unconditional updates apply to them only.
bool IsBuiltInGroup(std::string_view group);

// Go's query-parameter bool: absent is false; "0" and "false" (any case) are false; any
// other value, even empty, is true.
bool QueryBool(const QueryParams& query, std::string_view key);

}  // namespace berth::server
