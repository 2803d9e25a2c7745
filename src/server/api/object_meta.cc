// The rules are the generic registry's (k8s.io/apiserver/pkg/registry/rest BeforeCreate,
// BeforeUpdate) and apiextensions' customResourceStrategy (status subresource, generation,
// AllowUnconditionalUpdate false), which the hub's kinds mostly are.
#include "server/api/json_access.h"
#include "server/api/object_meta.h"

#include <string_view>
#include <utility>

namespace berth::server {
namespace {

using Json = nlohmann::ordered_json;

Json& Meta(Json& obj) {
  Json& m = obj["metadata"];
  if (!m.is_object()) m = Json::object();
  return m;
}

core::Status CheckTypeMeta(const RequestInfo& request, Json& object) {
  // A body without apiVersion or kind gets them from the route, written first as the API
  // server serialises every object.
  if (!object.contains("apiVersion") || !object.contains("kind")) {
    Json reordered = Json::object();
    reordered["apiVersion"] = object.contains("apiVersion") ? object["apiVersion"] : Json("");
    reordered["kind"] = object.contains("kind") ? object["kind"] : Json("");
    for (auto it = object.begin(); it != object.end(); ++it) {
      if (it.key() != "apiVersion" && it.key() != "kind") reordered[it.key()] = it.value();
    }
    object = std::move(reordered);
  }
  const std::string want_version = request.api_version();
  auto av = object.find("apiVersion");
  if (av == object.end() || (av->is_string() && av->get<std::string>().empty())) {
    object["apiVersion"] = want_version;
  } else if (!av->is_string() || av->get<std::string>() != want_version) {
    return core::InvalidArgument("the API version in the data (" +
                                 (av->is_string() ? av->get<std::string>() : av->dump()) +
                                 ") does not match the expected API version (" + want_version +
                                 ")");
  }
  const std::string want_kind(request.kind->kind);
  auto k = object.find("kind");
  if (k == object.end() || (k->is_string() && k->get<std::string>().empty())) {
    object["kind"] = want_kind;
  } else if (!k->is_string() || k->get<std::string>() != want_kind) {
    return core::InvalidArgument("the kind in the data (" +
                                 (k->is_string() ? k->get<std::string>() : k->dump()) +
                                 ") does not match the expected kind (" + want_kind + ")");
  }
  return core::OkStatus();
}

// Everything but metadata (and status when `skip_status`): what generation tracks.
Json SpecPart(const Json& obj, bool skip_status) {
  Json out = Json::object();
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.key() == "metadata" || (skip_status && it.key() == "status")) continue;
    out[it.key()] = it.value();
  }
  return out;
}

int64_t Generation(const Json& obj) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return 0;
  auto g = m->find("generation");
  return g != m->end() && g->is_number_integer() ? g->get<int64_t>() : 0;
}

}  // namespace

ApiResult<Json> PrepareCreate(const RequestInfo& request, Json object,
                              const CreateContext& context) {
  if (!object.is_object()) return BadRequestError("the request body must be a JSON object");
  if (core::Status s = CheckTypeMeta(request, object); !s.ok()) return BadRequestError(s.error().message());
  Json& meta = Meta(object);
  const bool namespaced = request.kind->namespaced();
  const std::string ns = StringAt(object, {"metadata", "namespace"});
  if (namespaced) {
    if (!ns.empty() && ns != request.namespace_) {
      return BadRequestError("the namespace of the provided object does not match the namespace "
                             "sent on the request");
    }
    meta["namespace"] = request.namespace_;
  } else {
    meta.erase("namespace");
  }
  std::string name = StringAt(object, {"metadata", "name"});
  if (name.empty()) {
    const std::string prefix = StringAt(object, {"metadata", "generateName"});
    if (prefix.empty()) {
      const StatusCause cause{"FieldValueRequired", "Required value: name or generateName is required",
                              "metadata.name"};
      return InvalidError(request.group, request.kind->kind, "", std::span(&cause, 1));
    }
    name = prefix + context.generate_suffix;
    meta["name"] = name;
  }
  if (!StringAt(object, {"metadata", "resourceVersion"}).empty()) {
    return BadRequestError("resourceVersion should not be set on objects to be created");
  }
  meta["uid"] = context.uid;
  meta["resourceVersion"] = std::to_string(context.resource_version);
  meta["generation"] = 1;
  meta["creationTimestamp"] = context.now.ToString();
  meta.erase("deletionTimestamp");
  meta.erase("deletionGracePeriodSeconds");
  if (request.kind->status_subresource) object.erase("status");
  return object;
}

ApiResult<UpdateResult> PrepareUpdate(const RequestInfo& request, const Json& stored, Json updated,
                                      int64_t resource_version) {
  if (!updated.is_object()) return BadRequestError("the request body must be a JSON object");
  if (core::Status s = CheckTypeMeta(request, updated); !s.ok()) {
    return BadRequestError(s.error().message());
  }
  const GroupResource gr = request.group_resource();
  const std::string name = StringAt(updated, {"metadata", "name"});
  if (!name.empty() && name != request.name) {
    return BadRequestError("the name of the object (" + name +
                           ") does not match the name on the URL (" + request.name + ")");
  }
  const std::string ns = StringAt(updated, {"metadata", "namespace"});
  if (request.kind->namespaced() && !ns.empty() && ns != request.namespace_) {
    return BadRequestError("the namespace of the provided object does not match the namespace "
                           "sent on the request");
  }
  const std::string stored_rv = StringAt(stored, {"metadata", "resourceVersion"});
  const std::string rv = StringAt(updated, {"metadata", "resourceVersion"});
  if (rv.empty() && !IsBuiltInGroup(request.group)) {
    const StatusCause cause{"FieldValueInvalid",
                            "Invalid value: 0: must be specified for an update",
                            "metadata.resourceVersion"};
    return InvalidError(request.group, request.kind->kind, request.name, std::span(&cause, 1));
  }
  if (!rv.empty() && rv != stored_rv) return StaleResourceVersionError(gr, request.name);
  const std::string uid = StringAt(updated, {"metadata", "uid"});
  const std::string stored_uid = StringAt(stored, {"metadata", "uid"});
  if (!uid.empty() && uid != stored_uid) {
    return ConflictError(gr, request.name,
                         "Precondition failed: UID in precondition: " + uid +
                             ", UID in object meta: " + stored_uid);
  }

  const bool status_sub = request.kind->status_subresource;
  Json result;
  if (request.subresource == "status") {
    // /status changes status only; metadata and spec stay as stored.
    result = stored;
    auto st = updated.find("status");
    if (st != updated.end()) {
      result["status"] = *st;
    } else {
      result.erase("status");
    }
  } else {
    result = std::move(updated);
    if (status_sub) {
      auto st = stored.find("status");
      if (st != stored.end()) {
        result["status"] = *st;
      } else {
        result.erase("status");
      }
    }
    Json& meta = Meta(result);
    const Json& old_meta = stored.at("metadata");
    for (const char* key : {"uid", "creationTimestamp", "generation", "deletionTimestamp",
                            "deletionGracePeriodSeconds"}) {
      auto it = old_meta.find(key);
      if (it != old_meta.end()) {
        meta[key] = *it;
      } else {
        meta.erase(key);
      }
    }
    meta["name"] = request.name;
    if (request.kind->namespaced()) meta["namespace"] = request.namespace_;
  }
  // Compare with the stored object at the stored resourceVersion: a no-op update is not a
  // write (no new resourceVersion, no watch event), as upstream skips it.
  Meta(result)["resourceVersion"] = stored_rv;
  UpdateResult out;
  out.changed = result != stored;
  if (out.changed) {
    int64_t generation = Generation(stored);
    if (SpecPart(result, status_sub) != SpecPart(stored, status_sub)) ++generation;
    Json& meta = Meta(result);
    meta["generation"] = generation;
    meta["resourceVersion"] = std::to_string(resource_version);
  }
  out.object = std::move(result);
  return out;
}

}  // namespace berth::server
