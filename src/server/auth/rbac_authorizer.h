// RbacAuthorizer: Kubernetes RBAC over the Role, ClusterRole, RoleBinding and
// ClusterRoleBinding objects stored in the hub itself, as kube-apiserver's RBAC authorizer
// decides: a ClusterRoleBinding grants its ClusterRole's rules everywhere; a RoleBinding
// grants its Role's (or ClusterRole's) rules in its own namespace only; rules match on
// verbs, apiGroups, resources ("res", "res/sub", "*/sub", "*") and resourceNames (which a
// request without a name, such as list or create, never matches). system:masters may do
// anything. There is no deny. The rules are read from the store once and re-read only when
// an RBAC object changed since (the store's event log says). Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/api/request_info.h"
#include "server/auth/user_info.h"
#include "store/store.h"

namespace berth::server {

struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;
};

// What is asked: the verb as RBAC spells it ("get", "list", "watch", ...), the group, the
// plural resource, the subresource, the namespace ("" for cluster-scoped requests and
// lists over every namespace) and the name ("" when none).
struct AuthorizationRequest {
  std::string verb;
  std::string group;
  std::string resource;
  std::string subresource;
  std::string ns;
  std::string name;
};

// The request RBAC sees for a parsed API request.
AuthorizationRequest AuthorizationRequestOf(const RequestInfo& info);

class RbacAuthorizer {
 public:
  explicit RbacAuthorizer(store::Store& store);

  // Whether `user` may do `request`. An error reading the store denies (and is retried on
  // the next request).
  bool Allowed(const UserInfo& user, const AuthorizationRequest& request);

 private:
  struct Subject {
    std::string kind;  // User, Group, ServiceAccount
    std::string name;
    std::string ns;
  };
  struct Binding {
    std::vector<Subject> subjects;
    std::string role_kind;  // Role or ClusterRole
    std::string role_name;
  };
  struct Policy {
    std::map<std::string, std::vector<PolicyRule>> cluster_roles;
    std::map<std::pair<std::string, std::string>, std::vector<PolicyRule>> roles;  // (ns, name)
    std::vector<Binding> cluster_bindings;
    std::map<std::string, std::vector<Binding>> bindings;  // by namespace
  };

  // The policy as of the store's current resourceVersion (reloaded when RBAC changed).
  std::shared_ptr<const Policy> Current();
  core::Result<std::shared_ptr<const Policy>> Load();

  store::Store& store_;
  std::mutex mu_;
  std::shared_ptr<const Policy> policy_;
  int64_t checked_rv_ = -1;
};

}  // namespace berth::server
