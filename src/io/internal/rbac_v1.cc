// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding. The plan
// does not use them (they keep nothing in the snapshot); the hub authorizes with them, so
// they are checked here as kube-apiserver's RBAC validation checks them, for the API to
// refuse the same objects with the same fields.
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"

namespace berth::io::internal {

namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";

core::Status ValidateRule(dom::element e, bool namespaced) {
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
  return core::OkStatus();
}

core::Status ValidateSubject(dom::element e, bool cluster_binding) {
  BERTH_ASSIGN_OR_RETURN(dom::object subject, AsObject(e));
  std::string kind, name, api_group, ns;
  BERTH_RETURN_IF_ERROR(GetString(subject, "kind", &kind));
  BERTH_RETURN_IF_ERROR(GetString(subject, "name", &name));
  BERTH_RETURN_IF_ERROR(GetString(subject, "apiGroup", &api_group));
  BERTH_RETURN_IF_ERROR(GetString(subject, "namespace", &ns));
  if (name.empty()) return FieldError("name", "Required value");
  if (kind == "ServiceAccount") {
    if (!api_group.empty()) return InvalidValue("apiGroup", api_group, R"(supported values: "")");
    if (cluster_binding && ns.empty()) return FieldError("namespace", "Required value");
  } else if (kind == "User" || kind == "Group") {
    if (api_group != kRbacGroup) {
      return InvalidValue("apiGroup", api_group, R"(supported values: "rbac.authorization.k8s.io")");
    }
  } else {
    return InvalidValue("kind", kind, R"(supported values: "ServiceAccount", "User", "Group")");
  }
  return core::OkStatus();
}

}  // namespace

core::Result<model::ObjectMeta> ValidateRbacRole(dom::object obj, bool namespaced) {
  BERTH_ASSIGN_OR_RETURN(model::ObjectMeta meta,
                         DecodeObjectMeta(obj, namespaced, /*name_required=*/true));
  std::vector<bool> checked;
  BERTH_RETURN_IF_ERROR(DecodeList<bool>(
      obj, "rules",
      [&](dom::element e) -> core::Result<bool> {
        BERTH_RETURN_IF_ERROR(ValidateRule(e, namespaced));
        return true;
      },
      &checked));
  return meta;
}

core::Result<model::ObjectMeta> ValidateRbacBinding(dom::object obj, bool namespaced) {
  BERTH_ASSIGN_OR_RETURN(model::ObjectMeta meta,
                         DecodeObjectMeta(obj, namespaced, /*name_required=*/true));
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
  std::vector<bool> checked;
  BERTH_RETURN_IF_ERROR(DecodeList<bool>(
      obj, "subjects",
      [&](dom::element e) -> core::Result<bool> {
        BERTH_RETURN_IF_ERROR(ValidateSubject(e, !namespaced));
        return true;
      },
      &checked));
  return meta;
}

}  // namespace berth::io::internal
