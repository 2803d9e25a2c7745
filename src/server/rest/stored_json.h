// The mapping between an API object's JSON and the store's StoredObject: the key of a
// request's object, the body written (without the metadata the store owns), and the object
// served back with that metadata overlaid (Store's contract: StoredObject::meta, not the
// body, is authoritative for uid, resourceVersion, generation and the timestamps). Pure.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/kind_info.h"
#include "server/api/api_error.h"
#include "store/object.h"

namespace berth::server {

// {group, Kind, ns, name}; ns is "" for cluster-scoped kinds whatever the caller passes.
store::ObjectKey StoreKey(const model::KindInfo& kind, std::string_view ns, std::string_view name);

// The body to store: `object` without metadata.resourceVersion, serialised.
std::string StoredBody(nlohmann::ordered_json object);

// metadata.labels as a map (non-string values skipped; validation refuses them first).
std::map<std::string, std::string> LabelMap(const nlohmann::ordered_json& object);

// The object as served at `api_version` ("kueue.x-k8s.io/v1beta2"; "" keeps the body's own):
// the stored body with apiVersion set to the one asked for and metadata uid, resourceVersion, generation,
// creationTimestamp and deletionTimestamp from `stored.meta`. A body that no longer parses
// (the database was edited by hand) is a 500 naming the object.
ApiResult<nlohmann::ordered_json> ServedObject(const store::StoredObject& stored,
                                               std::string_view api_version);

}  // namespace berth::server
