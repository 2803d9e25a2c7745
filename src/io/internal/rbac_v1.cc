// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding. The plan
// does not use them; the hub authorizes with their documents, so they are checked here as
// kube-apiserver's RBAC validation checks them, for the API to refuse the same objects with
// the same fields. The snapshot keeps what berth doctor reads: whether a role grants
// everything, and who each binding binds to which role.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "io/internal/doctor_kind_decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

bool HasRbacWildcard(const std::vector<std::string>& values) {
  return std::find(values.begin(), values.end(), "*") != values.end();
}

// One rule, validated; *grants_all when it allows every verb on every resource of every group.
core::Status ValidateRule(dom::element e, bool namespaced, bool* grants_all) {
  BERTH_ASSIGN_OR_RETURN(dom::object rule, AsObject(e));
  std::vector<std::string> verbs, groups, resources, names, urls;
  BERTH_RETURN_IF_ERROR(GetStringList(rule, "verbs", &verbs));
  BERTH_RETURN_IF_ERROR(GetStringList(rule, "apiGroups", &groups));
  BERTH_RETURN_IF_ERROR(GetStringList(rule, "resources", &resources));
  BERTH_RETURN_IF_ERROR(GetStringList(rule, "resourceNames", &names));
  BERTH_RETURN_IF_ERROR(GetStringList(rule, "nonResourceURLs", &urls));
  if (verbs.empty()) return FieldError("verbs", "Required value: verbs must contain at least one value");
  if (!urls.empty()) {
    if (namespaced) {
      return FieldError("nonResourceURLs", "namespaced rules cannot apply to non-resource URLs");
    }
    if (!groups.empty() || !resources.empty()) {
      return FieldError("nonResourceURLs",
                        "rules cannot apply to both regular resources and non-resource URLs");
    }
    return core::OkStatus();
  }
  if (groups.empty()) {
    return FieldError("apiGroups", "Required value: resource rules must supply at least one api group");
  }
  if (resources.empty()) {
    return FieldError("resources", "Required value: resource rules must supply at least one resource");
  }
  if (HasRbacWildcard(verbs) && HasRbacWildcard(groups) && HasRbacWildcard(resources)) {
    *grants_all = true;
  }
  return core::OkStatus();
}

core::Result<model::RbacSubject> DecodeSubject(dom::element e, bool cluster_binding) {
  BERTH_ASSIGN_OR_RETURN(dom::object subject, AsObject(e));
  model::RbacSubject out;
  std::string api_group;
  BERTH_RETURN_IF_ERROR(GetString(subject, "kind", &out.kind));
  BERTH_RETURN_IF_ERROR(GetString(subject, "name", &out.name));
  BERTH_RETURN_IF_ERROR(GetString(subject, "apiGroup", &api_group));
  BERTH_RETURN_IF_ERROR(GetString(subject, "namespace", &out.namespace_));
  if (out.name.empty()) return FieldError("name", "Required value");
  if (out.kind == "ServiceAccount") {
    if (!api_group.empty()) return InvalidValue("apiGroup", api_group, R"(supported values: "")");
    if (cluster_binding && out.namespace_.empty()) return FieldError("namespace", "Required value");
  } else if (out.kind == "User" || out.kind == "Group") {
    if (api_group != kRbacGroup) {
      return InvalidValue("apiGroup", api_group, R"(supported values: "rbac.authorization.k8s.io")");
    }
  } else {
    return InvalidValue("kind", out.kind, R"(supported values: "ServiceAccount", "User", "Group")");
  }
  return out;
}

}  // namespace

core::Result<model::RbacRole> DecodeRbacRole(dom::object obj, bool namespaced) {
  model::RbacRole role;
  BERTH_ASSIGN_OR_RETURN(role.meta, DecodeObjectMeta(obj, namespaced, /*name_required=*/true));
  role.cluster_scoped = !namespaced;
  std::vector<bool> checked;
  BERTH_RETURN_IF_ERROR(DecodeList<bool>(
      obj, "rules",
      [&](dom::element e) -> core::Result<bool> {
        BERTH_RETURN_IF_ERROR(ValidateRule(e, namespaced, &role.grants_all));
        return true;
      },
      &checked));
  return role;
}

core::Result<model::RbacBinding> DecodeRbacBinding(dom::object obj, bool namespaced) {
  model::RbacBinding binding;
  BERTH_ASSIGN_OR_RETURN(binding.meta, DecodeObjectMeta(obj, namespaced, /*name_required=*/true));
  binding.cluster_scoped = !namespaced;
  dom::object ref;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "roleRef", &ref, &found));
  if (!found) return FieldError("roleRef", "Required value");
  std::string api_group, kind, name;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "apiGroup", &api_group), "roleRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "kind", &kind), "roleRef");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(ref, "name", &name), "roleRef");
  if (api_group != kRbacGroup) {
    return InvalidValue("roleRef.apiGroup", api_group,
                        R"(supported values: "rbac.authorization.k8s.io")");
  }
  if (namespaced ? (kind != "Role" && kind != "ClusterRole") : kind != "ClusterRole") {
    return InvalidValue("roleRef.kind", kind,
                        namespaced ? R"(supported values: "Role", "ClusterRole")"
                                   : R"(supported values: "ClusterRole")");
  }
  if (name.empty()) return FieldError("roleRef.name", "Required value");
  binding.role_kind = std::move(kind);
  binding.role_name = std::move(name);
  BERTH_RETURN_IF_ERROR(DecodeList(
      obj, "subjects", [&](dom::element e) { return DecodeSubject(e, !namespaced); },
      &binding.subjects));
  return binding;
}

}  // namespace berth::io::internal
