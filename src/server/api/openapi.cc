// Only what clients read from the documents is written: operations with
// x-kubernetes-group-version-kind and x-kubernetes-action, and their query parameters. That
// keeps each document small (a few KB) and derived entirely from the table of kinds.
#include "server/api/openapi.h"

#include <functional>
#include <string>

#include "model/kind_info.h"
#include "server/api/discovery.h"

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;

Json QueryParam(std::string_view name, std::string_view type) {
  return Json{{"name", std::string(name)},
              {"in", "query"},
              {"schema", {{"type", std::string(type)}, {"uniqueItems", true}}}};
}

Json PathParam(std::string_view name) {
  return Json{{"name", std::string(name)},
              {"in", "path"},
              {"required", true},
              {"schema", {{"type", "string"}, {"uniqueItems", true}}}};
}

Json Operation(const model::KindInfo& kind, std::string_view version, std::string_view action,
               std::initializer_list<std::string_view> params) {
  Json op = Json::object();
  op["operationId"] = std::string(action) + std::string(kind.kind);
  Json parameters = Json::array();
  for (std::string_view p : params) {
    parameters.push_back(QueryParam(p, p == "limit" || p == "timeoutSeconds" ? "integer"
                                       : p == "watch" || p == "allowWatchBookmarks" ? "boolean"
                                                                                    : "string"));
  }
  if (!parameters.empty()) op["parameters"] = std::move(parameters);
  op["responses"] = Json{{"200", {{"description", "OK"}}}};
  op["x-kubernetes-action"] = std::string(action);
  op["x-kubernetes-group-version-kind"] = Json{{"group", std::string(kind.group)},
                                               {"version", std::string(version)},
                                               {"kind", std::string(kind.kind)}};
  return op;
}

bool Serves(const model::KindInfo& kind, std::string_view version) {
  if (!kind.served()) return false;
  for (std::string_view v : kind.versions) {
    if (v == version) return true;
  }
  return false;
}

std::string GroupVersionPath(std::string_view group, std::string_view version) {
  return group.empty() ? "api/" + std::string(version)
                       : "apis/" + std::string(group) + "/" + std::string(version);
}

Json Document(std::string_view group, std::string_view version) {
  Json paths = Json::object();
  const std::string prefix = "/" + GroupVersionPath(group, version);
  for (const model::KindInfo& kind : model::AllKinds()) {
    if (kind.group != group || !Serves(kind, version)) continue;
    const std::string res(kind.resource);
    const std::string base =
        kind.namespaced() ? prefix + "/namespaces/{namespace}/" + res : prefix + "/" + res;
    Json path_params = Json::array();
    if (kind.namespaced()) path_params.push_back(PathParam("namespace"));
    Json collection = Json::object();
    collection["get"] = Operation(kind, version, "list",
                                  {"labelSelector", "fieldSelector", "limit", "continue",
                                   "resourceVersion", "resourceVersionMatch", "watch",
                                   "allowWatchBookmarks", "timeoutSeconds"});
    collection["post"] =
        Operation(kind, version, "post", {"dryRun", "fieldManager", "fieldValidation"});
    collection["delete"] =
        Operation(kind, version, "deletecollection", {"labelSelector", "fieldSelector", "dryRun"});
    if (!path_params.empty()) collection["parameters"] = path_params;
    paths[base] = std::move(collection);

    Json item_params = path_params;
    item_params.push_back(PathParam("name"));
    auto item = [&](std::string_view suffix) {
      Json p = Json::object();
      p["get"] = Operation(kind, version, "get", {});
      p["put"] = Operation(kind, version, "put", {"dryRun", "fieldManager", "fieldValidation"});
      p["patch"] = Operation(kind, version, "patch",
                             {"dryRun", "fieldManager", "fieldValidation", "force"});
      if (suffix.empty()) p["delete"] = Operation(kind, version, "delete", {"dryRun"});
      p["parameters"] = item_params;
      paths[base + "/{name}" + std::string(suffix)] = std::move(p);
    };
    item("");
    if (kind.status_subresource) item("/status");
  }
  Json doc = Json::object();
  doc["openapi"] = "3.0.0";
  doc["info"] = Json{{"title", "berth"}, {"version", "v1.32.0"}};
  doc["paths"] = std::move(paths);
  doc["components"] = Json{{"schemas", Json::object()}};
  return doc;
}

}  // namespace

Json OpenApiV3Index() {
  Json paths = Json::object();
  auto add = [&](std::string_view group, std::string_view version) {
    const std::string gv = GroupVersionPath(group, version);
    const size_t hash = std::hash<std::string>{}(Document(group, version).dump());
    paths[gv] = Json{{"serverRelativeURL", "/openapi/v3/" + gv + "?hash=" + std::to_string(hash)}};
  };
  for (const std::string& v : ServedVersions("")) add("", v);
  for (const std::string& g : ServedGroups()) {
    for (const std::string& v : ServedVersions(g)) add(g, v);
  }
  return Json{{"paths", std::move(paths)}};
}

ApiResult<Json> OpenApiV3Document(std::string_view path) {
  std::string_view group, version;
  if (path.starts_with("api/")) {
    version = path.substr(4);
  } else if (path.starts_with("apis/")) {
    std::string_view rest = path.substr(5);
    const size_t slash = rest.find('/');
    if (slash == std::string_view::npos) return PathNotFoundError();
    group = rest.substr(0, slash);
    version = rest.substr(slash + 1);
  } else {
    return PathNotFoundError();
  }
  if (version.empty() || version.find('/') != std::string_view::npos ||
      !ServesGroupVersion(group, version)) {
    return PathNotFoundError();
  }
  return Document(group, version);
}

}  // namespace berth::server
