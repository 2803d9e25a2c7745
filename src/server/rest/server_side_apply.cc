// Server-side apply, simplified (docs/api.md): kubectl apply --server-side sends the user's
// configuration (JSON, though the type says YAML) as a PATCH with a fieldManager. Upstream
// tracks per-field ownership in metadata.managedFields; berth keeps, per manager, the last
// configuration it applied (an annotation), which is what apply needs to remove a field the
// user deleted from their file: fields the previous configuration set and the new one does
// not are removed, then the new configuration is merged in. A field another manager applied
// is that manager's: changing its value is a conflict (409, as upstream words it) unless the
// apply forces, which takes the field over (it leaves the other manager's record). Only
// applies own fields here (an update's writes are nobody's); lists are leaves, replaced whole.
#include <map>
#include <string>
#include <utility>
#include <vector>

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

constexpr std::string_view kAppliedPrefix = "berth.dev/applied-";

// The leaf fields a configuration sets (anything but a non-empty object), as paths
// (".spec.replicas") with their values; the object's identity (apiVersion, kind,
// metadata.name, namespace, resourceVersion) is nobody's field.
void Leaves(const Json& value, const std::string& path, std::vector<std::pair<std::string, const Json*>>* out) {
  if (!value.is_object() || value.empty()) {
    out->emplace_back(path, &value);
    return;
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    const std::string child = path + "." + it.key();
    if (child == ".apiVersion" || child == ".kind" || child == ".metadata.name" ||
        child == ".metadata.namespace" || child == ".metadata.resourceVersion") {
      continue;
    }
    Leaves(*it, child, out);
  }
}

// The value at a Leaves path in `object` (const or not); nullptr when absent. Not
// MemberAtPath (api/json_access.h): a path step here may be a key holding dots (a label
// such as app.kubernetes.io/name), and Drop needs the member to erase from.
template <typename J>
J* At(J& object, const std::string& path) {
  J* at = &object;
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('.', start);
    if (end == std::string::npos) end = path.size();
    // A key may itself hold dots (labels): take the longest key present.
    J* next = nullptr;
    size_t next_end = end;
    for (size_t e = end;; e = path.find('.', e + 1)) {
      const size_t stop = e == std::string::npos ? path.size() : e;
      if (at->is_object()) {
        auto it = at->find(path.substr(start, stop - start));
        if (it != at->end()) {
          next = &*it;
          next_end = stop;
        }
      }
      if (e == std::string::npos || stop == path.size()) break;
    }
    if (next == nullptr) return nullptr;
    at = next;
    start = next_end + 1;
  }
  return at;
}

// Removes the leaf at `path` from a configuration record (a forced apply took it over), and
// the objects that leaves empty on the way up: an emptied `spec: {}` left in the record
// would read as a field the manager still sets, and its next apply would remove all of it.
void Drop(Json& record, const std::string& path) {
  // The leaf's key may hold dots itself (a label): try the parents from the nearest out.
  for (size_t dot = path.rfind('.'); dot != std::string::npos && dot > 0;
       dot = path.rfind('.', dot - 1)) {
    const std::string parent_path = path.substr(0, dot);
    Json* parent = At(record, parent_path);
    if (parent == nullptr || !parent->is_object() || !parent->contains(path.substr(dot + 1))) continue;
    parent->erase(path.substr(dot + 1));
    if (parent->empty()) Drop(record, parent_path);
    return;
  }
  record.erase(path.substr(1));
}

// The 409 for `conflicts`, worded as apimachinery's NewConflictError words it.
ApiError ApplyConflict(const std::map<std::string, std::vector<std::string>>& conflicts) {
  std::vector<StatusCause> causes;
  std::string lines;
  for (const auto& [manager, paths] : conflicts) {
    lines += (lines.empty() ? "" : "\n") + std::string("conflicts with \"") + manager + "\":";
    for (const std::string& path : paths) {
      causes.push_back({"FieldManagerConflict", "conflict with \"" + manager + "\"", path});
      lines += "\n- " + path;
    }
  }
  if (causes.size() == 1) {
    return ApplyConflictError(causes, "Apply failed with 1 conflict: " + causes[0].message + ": " +
                                          causes[0].field);
  }
  return ApplyConflictError(causes, "Apply failed with " + std::to_string(causes.size()) +
                                        " conflicts: " + lines);
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
  // Fields other appliers own whose value this configuration changes: conflicts, or, when
  // forced, taken from them.
  const bool force = QueryBool(query, "force");
  std::vector<std::pair<std::string, const Json*>> mine;
  Leaves(record, "", &mine);
  std::map<std::string, std::vector<std::string>> conflicts;  // manager -> paths, sorted
  if (auto meta = result.find("metadata"); meta != result.end() && meta->contains("annotations") &&
                                           (*meta)["annotations"].is_object()) {
    Json& annotations = (*meta)["annotations"];
    for (auto it = annotations.begin(); it != annotations.end(); ++it) {
      if (!it.key().starts_with(kAppliedPrefix) || it.key() == annotation || !it->is_string()) continue;
      Json theirs = Json::parse(it->get<std::string>(), nullptr, false);
      if (!theirs.is_object()) continue;
      const std::string other = it.key().substr(kAppliedPrefix.size());
      bool taken = false;
      for (const auto& [path, value] : mine) {
        if (At(theirs, path) == nullptr) continue;
        const Json* current = At(*served, path);
        if (current != nullptr && *current == *value) continue;  // same value: shared
        if (force) {
          Drop(theirs, path);
          taken = true;
          continue;
        }
        conflicts[other].push_back(path);
      }
      if (taken) *it = theirs.dump();
    }
  }
  if (!conflicts.empty()) return ErrorReply(ApplyConflict(conflicts));
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
