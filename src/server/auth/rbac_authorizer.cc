// The policy is small (tens to thousands of objects) and read on every request, so it is held
// parsed in memory; the store's event log, filtered to the RBAC group, tells whether anything
// changed since the last load, which costs one indexed read per new resourceVersion.
#include "server/auth/rbac_authorizer.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;
constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

std::vector<std::string> Strings(const Json& obj, const char* key) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_array()) return out;
  for (const Json& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

bool Has(const std::vector<std::string>& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end() ||
         std::find(list.begin(), list.end(), "*") != list.end();
}

bool ResourceMatches(const PolicyRule& rule, const AuthorizationRequest& r) {
  const std::string combined = r.subresource.empty() ? r.resource : r.resource + "/" + r.subresource;
  for (const std::string& res : rule.resources) {
    if (res == "*" || res == combined) return true;
    if (!r.subresource.empty() && res == "*/" + r.subresource) return true;
  }
  return false;
}

bool RuleAllows(const PolicyRule& rule, const AuthorizationRequest& r) {
  if (!Has(rule.verbs, r.verb) || !Has(rule.api_groups, r.group) || !ResourceMatches(rule, r)) {
    return false;
  }
  if (rule.resource_names.empty()) return true;
  return !r.name.empty() &&
         std::find(rule.resource_names.begin(), rule.resource_names.end(), r.name) !=
             rule.resource_names.end();
}

std::vector<PolicyRule> RulesOf(const Json& role) {
  std::vector<PolicyRule> out;
  auto rules = role.find("rules");
  if (rules == role.end() || !rules->is_array()) return out;
  for (const Json& r : *rules) {
    if (!r.is_object()) continue;
    out.push_back(PolicyRule{Strings(r, "verbs"), Strings(r, "apiGroups"), Strings(r, "resources"),
                             Strings(r, "resourceNames")});
  }
  return out;
}

}  // namespace

AuthorizationRequest AuthorizationRequestOf(const RequestInfo& info) {
  return AuthorizationRequest{std::string(RequestVerbName(info.verb)), info.group, info.resource,
                              info.subresource, info.namespace_, info.name};
}

RbacAuthorizer::RbacAuthorizer(store::Store& store) : store_(store) {}

core::Result<std::shared_ptr<const RbacAuthorizer::Policy>> RbacAuthorizer::Load() {
  auto policy = std::make_shared<Policy>();
  for (const char* kind : {"ClusterRole", "Role", "ClusterRoleBinding", "RoleBinding"}) {
    store::ListOptions options;
    options.group = std::string(kRbacGroup);
    options.kind = kind;
    while (true) {
      auto page = store_.List(options);
      if (!page) return page.error();
      for (const store::StoredObject& o : page->items) {
        Json obj = Json::parse(o.json, nullptr, /*allow_exceptions=*/false);
        if (!obj.is_object()) continue;
        const std::string k = kind;
        if (k == "ClusterRole") {
          policy->cluster_roles[o.key.name] = RulesOf(obj);
        } else if (k == "Role") {
          policy->roles[{o.key.ns, o.key.name}] = RulesOf(obj);
        } else {
          Binding b;
          if (auto ref = obj.find("roleRef"); ref != obj.end() && ref->is_object()) {
            b.role_kind = ref->value("kind", "");
            b.role_name = ref->value("name", "");
          }
          if (auto subjects = obj.find("subjects"); subjects != obj.end() && subjects->is_array()) {
            for (const Json& s : *subjects) {
              if (!s.is_object()) continue;
              b.subjects.push_back(Subject{s.value("kind", ""), s.value("name", ""),
                                           s.value("namespace", "")});
            }
          }
          if (k == "ClusterRoleBinding") {
            policy->cluster_bindings.push_back(std::move(b));
          } else {
            policy->bindings[o.key.ns].push_back(std::move(b));
          }
        }
      }
      if (!page->next) break;
      options.start_after = page->next;
    }
  }
  return std::shared_ptr<const Policy>(std::move(policy));
}

std::shared_ptr<const RbacAuthorizer::Policy> RbacAuthorizer::Current() {
  std::lock_guard lock(mu_);
  const int64_t rv = store_.CurrentResourceVersion();
  if (policy_ != nullptr && rv == checked_rv_) return policy_;
  bool reload = policy_ == nullptr;
  if (!reload) {
    store::WatchOptions since;
    since.since_rv = checked_rv_;
    since.limit = 1;
    since.group = std::string(kRbacGroup);
    auto events = store_.EventsSince(since);
    // A compacted log cannot say what changed: read everything again.
    reload = !events || !events->events.empty();
  }
  if (reload) {
    auto loaded = Load();
    if (!loaded) return nullptr;
    policy_ = std::move(loaded).value();
  }
  checked_rv_ = rv;
  return policy_;
}

bool RbacAuthorizer::Allowed(const UserInfo& user, const AuthorizationRequest& request) {
  if (user.InGroup(kMastersGroup)) return true;
  std::shared_ptr<const Policy> policy = Current();
  if (policy == nullptr) return false;
  auto subject_matches = [&](const Subject& s) {
    if (s.kind == "User") return s.name == user.name;
    if (s.kind == "Group") return user.InGroup(s.name);
    if (s.kind == "ServiceAccount") {
      return user.name == "system:serviceaccount:" + s.ns + ":" + s.name;
    }
    return false;
  };
  auto grants = [&](const Binding& b, const std::string& binding_ns) {
    if (std::none_of(b.subjects.begin(), b.subjects.end(), subject_matches)) return false;
    const std::vector<PolicyRule>* rules = nullptr;
    if (b.role_kind == "ClusterRole") {
      auto it = policy->cluster_roles.find(b.role_name);
      if (it != policy->cluster_roles.end()) rules = &it->second;
    } else if (b.role_kind == "Role") {
      auto it = policy->roles.find({binding_ns, b.role_name});
      if (it != policy->roles.end()) rules = &it->second;
    }
    if (rules == nullptr) return false;
    return std::any_of(rules->begin(), rules->end(),
                       [&](const PolicyRule& r) { return RuleAllows(r, request); });
  };
  for (const Binding& b : policy->cluster_bindings) {
    if (grants(b, "")) return true;
  }
  if (!request.ns.empty()) {
    auto it = policy->bindings.find(request.ns);
    if (it != policy->bindings.end()) {
      for (const Binding& b : it->second) {
        if (grants(b, request.ns)) return true;
      }
    }
  }
  return false;
}

}  // namespace berth::server
