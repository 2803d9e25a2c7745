// The JSON envelopes of list and watch responses: a `KindList` with metadata.resourceVersion
// and continue, watch events ({"type","object"}) including BOOKMARK and ERROR, and the
// autoscaling/v1 Scale a `scale` subresource serves, built from model's ScaleInfo paths.
// Called by the HTTP layer. Pure; O(size of what is written).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/kind_info.h"
#include "server/api/api_error.h"

namespace berth::server {

// {"apiVersion": API_VERSION, "kind": "<Kind>List", "metadata": {"resourceVersion",
// "continue" (when non-empty), "remainingItemCount" (when >= 0)}, "items": [...]}: the
// object a list answers with (upstream puts apiVersion first in lists).
nlohmann::ordered_json ListDocument(const model::KindInfo& kind, std::string_view api_version,
                                    std::span<const nlohmann::ordered_json> items,
                                    int64_t resource_version, std::string_view continue_token,
                                    int64_t remaining_item_count = -1);

enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark, kError };
std::string_view WatchEventTypeName(WatchEventType type);  // "ADDED", ..., "ERROR"

// {"type": TYPE, "object": OBJECT}: one line of a watch stream.
nlohmann::ordered_json WatchEvent(WatchEventType type, nlohmann::ordered_json object);
// A BOOKMARK carrying only kind, apiVersion and metadata.resourceVersion, as upstream's
// watch cache sends them.
nlohmann::ordered_json BookmarkEvent(const model::KindInfo& kind, std::string_view api_version,
                                     int64_t resource_version);
// An ERROR event whose object is the Status (a watch that fell behind the compaction
// horizon gets TooOldResourceVersionError this way once the stream has started).
nlohmann::ordered_json ErrorEvent(const ApiError& error);

// The autoscaling/v1 Scale of `object` (a kind with kind.scale.served()):
// metadata {name, namespace, uid, resourceVersion, creationTimestamp}, spec.replicas from
// spec_replicas_path, status.replicas from status_replicas_path (0 when absent) and
// status.selector (a string field of a CRD, or a LabelSelector printed as text). 404
// NotFound-shaped errors are the caller's; this only reads.
nlohmann::ordered_json ScaleOf(const model::KindInfo& kind, const nlohmann::ordered_json& object);
// The value of a Scale's spec.replicas written back into `object` at the kind's path; 422
// when `scale` has no integer spec.replicas >= 0.
ApiResult<nlohmann::ordered_json> ApplyScale(const model::KindInfo& kind,
                                             nlohmann::ordered_json object,
                                             const nlohmann::ordered_json& scale);

// metav1.LabelSelector printed as text (LabelSelectorAsSelector(...).String()):
// requirements sorted by key, "k=v", "k in (a,b)", "k notin (a)", "k", "!k"; "" for an
// empty selector.
std::string LabelSelectorText(const nlohmann::ordered_json& selector);

}  // namespace berth::server
