// Server-side apply, simplified (docs/api.md): kubectl apply --server-side sends the user's
// configuration (JSON, though the type says YAML) as a PATCH with a fieldManager. Upstream
// tracks per-field ownership in metadata.managedFields; berth keeps, per manager, the last
// configuration it applied (an annotation), which is what apply needs to remove a field the
// user deleted from their file: fields the previous configuration set and the new one does
// not are removed, then the new configuration is merged in. Other managers' fields are never
// conflicts (as if every apply were --force-conflicts); lists are replaced whole.
#include <string>

#include "core/ascii.h"
#include "server/api/patch.h"
#include "server/rest/rest_handler.h"
#include "server/rest/stored_json.h"

namespace berth::server {

namespace {

using Json = nlohmann::ordered_json;

// The annotation holding `manager`'s last applied configuration: a valid annotation key
// whatever the manager's name (characters outside [A-Za-z0-9._-] become '_', at most 63).
std::string AppliedAnnotation(std::string_view manager) {
  std::string name = "applied-";
  for (char c : manager) {
    const bool ok = core::IsAsciiAlnum(c) || c == '.' || c == '_' || c == '-';
    name += ok ? c : '_';
  }
  if (name.size() > 62) name.resize(62);
  if (!core::IsAsciiAlnum(name.back())) name += '0';
  return "berth.dev/" + name;
}

// Removes from `object` what `previous` set and `current` no longer does.
void RemoveDropped(Json& object, const Json& previous, const Json& current) {
  if (!object.is_object() || !previous.is_object()) return;
  for (auto it = previous.begin(); it != previous.end(); ++it) {
    if (it.key() == "apiVersion" || it.key() == "kind") continue;
    auto now = current.is_object() ? current.find(it.key()) : current.end();
    if (!current.is_object() || now == current.end()) {
      object.erase(it.key());
    } else if (it->is_object() && now->is_object()) {
      auto child = object.find(it.key());
      if (child != object.end()) RemoveDropped(*child, *it, *now);
    }
  }
}

}  // namespace

RestReply RestHandler::ServerSideApply(const HttpRequest& http, const RequestInfo& info,
                                       const QueryParams& query) {
  const std::string manager(query.Get("fieldManager").value_or(""));
  if (manager.empty()) {
    return ErrorReply(BadRequestError(
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for "
        "apply patch"));
  }
  if (!info.subresource.empty()) {
    return ErrorReply(BadRequestError("server-side apply of the " + info.subresource +
                                      " subresource is not supported by berth"));
  }
  HttpRequest as_json = http;
  as_json.headers.clear();
  auto config = ReadBody(as_json);
  if (!config) return ErrorReply(config.error());
  Json applied = std::move(config).value();
  if (auto meta = applied.find("metadata"); meta != applied.end() && meta->is_object() &&
                                            meta->contains("name") &&
                                            (*meta)["name"] != Json(info.name)) {
    return ErrorReply(BadRequestError("the name of the object (" + (*meta)["name"].dump() +
                                      ") does not match the name on the URL (" + info.name + ")"));
  }
  const std::string annotation = AppliedAnnotation(manager);

  auto stored = store_.Get(StoreKey(*info.kind, info.namespace_, info.name));
  if (!stored && stored.error().code() != core::ErrorCode::kNotFound) {
    return ErrorReply(InternalApiError(stored.error().ToString()));
  }
  Json record = applied;
  if (record.contains("metadata") && record["metadata"].is_object()) {
    record["metadata"].erase("annotations");  // the record does not nest records
    record["metadata"].erase("resourceVersion");
  }
  if (!stored) {
    // A new object: the configuration is the object, named by the URL.
    Json object = applied;
    if (!object["metadata"].is_object()) object["metadata"] = Json::object();
    if (!object["metadata"].contains("name")) object["metadata"]["name"] = info.name;
    object["metadata"]["annotations"][annotation] = record.dump();
    RequestInfo create = info;
    create.verb = RequestVerb::kCreate;
    create.name.clear();
    return CreateObject(http, create, query, std::move(object));
  }
  auto served = ServedObject(*stored, info.api_version());
  if (!served) return ErrorReply(served.error());
  Json result = *served;
  Json previous;
  if (auto meta = result.find("metadata"); meta != result.end() && meta->contains("annotations")) {
    const Json& annotations = (*meta)["annotations"];
    if (annotations.is_object() && annotations.contains(annotation) && annotations[annotation].is_string()) {
      previous = Json::parse(annotations[annotation].get<std::string>(), nullptr, false);
    }
  }
  RemoveDropped(result, previous, record);
  Json patch = applied;
  if (patch.contains("metadata") && patch["metadata"].is_object()) {
    patch["metadata"].erase("resourceVersion");  // apply is unconditional unless it names one
    if (applied["metadata"].contains("resourceVersion")) {
      patch["metadata"]["resourceVersion"] = applied["metadata"]["resourceVersion"];
    }
  }
  result = MergePatch(std::move(result), patch);
  result["metadata"]["annotations"][annotation] = record.dump();
  bool retryable = false;
  auto written = WriteUpdate(info, *stored, *served, std::move(result),
                             query.Get("dryRun").value_or("") == "All", &retryable);
  if (!written) return ErrorReply(written.error());
  return Respond(http, info, query, 200, *written);
}

}  // namespace berth::server
