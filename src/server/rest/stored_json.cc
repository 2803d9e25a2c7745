#include "server/rest/stored_json.h"

#include <utility>

#include "core/time.h"
#include "server/api/kueue_conversion.h"
#include "server/api/list_options.h"

namespace berth::server {

using Json = nlohmann::ordered_json;

store::ObjectKey StoreKey(const model::KindInfo& kind, std::string_view ns, std::string_view name) {
  return store::ObjectKey{std::string(kind.group), std::string(kind.kind),
                          kind.namespaced() ? std::string(ns) : std::string(),
                          std::string(name)};
}

std::string StoredBody(Json object) {
  if (auto m = object.find("metadata"); m != object.end() && m->is_object()) {
    m->erase("resourceVersion");
  }
  return object.dump();
}

std::map<std::string, std::string> LabelMap(const Json& object) {
  const core::Labels labels = LabelsOf(object);
  return {labels.begin(), labels.end()};
}

ApiResult<Json> ServedObject(const store::StoredObject& stored, std::string_view api_version) {
  Json object = Json::parse(stored.json, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) {
    return InternalApiError("stored object " + stored.key.ToString() + " is not a JSON object");
  }
  if (!api_version.empty()) {
    // Kueue's kinds are served at any of their versions whatever version wrote them.
    const std::string written = object.value("apiVersion", "");
    const size_t slash = api_version.find('/');
    if (slash != std::string_view::npos && api_version.substr(0, slash) == "kueue.x-k8s.io" &&
        written.starts_with("kueue.x-k8s.io/")) {
      ConvertKueueVersion(stored.key.kind, std::string_view(written).substr(slash + 1),
                          api_version.substr(slash + 1), object);
    }
    object["apiVersion"] = std::string(api_version);
  }
  Json& meta = object["metadata"];
  if (!meta.is_object()) meta = Json::object();
  // Store-owned fields, in the order kube-apiserver prints metadata when a body lacks them.
  meta["uid"] = stored.meta.uid;
  meta["resourceVersion"] = std::to_string(stored.meta.resource_version);
  meta["generation"] = stored.meta.generation;
  meta["creationTimestamp"] = core::Timestamp{stored.meta.creation_unix_s}.ToString();
  if (stored.meta.deletion_unix_s != 0) {
    meta["deletionTimestamp"] = core::Timestamp{stored.meta.deletion_unix_s}.ToString();
  }
  return object;
}

}  // namespace berth::server
