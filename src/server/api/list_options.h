// ListOptions: the query parameters of a list or watch (labelSelector, fieldSelector, limit,
// continue, resourceVersion, resourceVersionMatch, watch, allowWatchBookmarks, timeoutSeconds,
// sendInitialEvents) parsed and validated as kube-apiserver does, with its errors (400 for
// what does not parse, 422 ListOptions.meta.k8s.io for forbidden combinations). Also the
// continue token (opaque to clients: base64url of {"v","rv","start"}, upstream's encoding)
// and its expiry against the store's compaction horizon (410 Expired with upstream's
// message and a token to go on inconsistently). Called by the HTTP layer for list and
// watch; the store reads the result. Pure value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/labels.h"
#include "core/selector.h"
#include "model/kind_info.h"
#include "server/api/api_error.h"
#include "server/api/query.h"

namespace berth::server {

enum class FieldOp { kEquals, kNotEquals };

struct FieldRequirement {
  std::string field;  // "metadata.name"
  FieldOp op = FieldOp::kEquals;
  std::string value;

  bool operator==(const FieldRequirement&) const = default;
};

// The field selector of a list, checked against the fields the kind can select on:
// metadata.name and metadata.namespace for every kind, plus upstream's extra fields for
// Pods (spec.nodeName, status.phase, ... which `kubectl describe node` uses), Nodes
// (spec.unschedulable), Namespaces (status.phase) and batch Jobs (status.successful).
// Parses "a=b,c!=d" (=, ==, !=; "\," "\=" "\\" escapes as fields.ParseSelector reads them).
// Errors: 400 "invalid selector: ..." for text that does not parse and "field label not
// supported: F" for a field the kind does not select on.
ApiResult<std::vector<FieldRequirement>> ParseFieldSelector(std::string_view text,
                                                            const model::KindInfo& kind);
// The value a field selector compares for `object` (its JSON): the field's value as text
// ("" when absent; booleans and numbers as Go formats them). `field` must be one
// ParseFieldSelector accepted.
std::string SelectableFieldValue(const nlohmann::ordered_json& object, std::string_view field);
// Whether `object` satisfies every requirement. O(requirements).
bool MatchesFields(const std::vector<FieldRequirement>& requirements,
                   const nlohmann::ordered_json& object);
// metadata.labels of `object` as core::Labels (non-string values skipped).
core::Labels LabelsOf(const nlohmann::ordered_json& object);

// A continue token: where the next page starts. resource_version > 0 pins the snapshot of
// the first page; -1 means "go on at the latest version" (the token an Expired error
// carries). start_key is the first store key of the next page (keys compare as bytes).
struct ContinueToken {
  int64_t resource_version = 0;
  std::string start_key;

  bool operator==(const ContinueToken&) const = default;
};

// base64url (no padding) of {"v":"meta.k8s.io/v1","rv":RV,"start":KEY}.
std::string EncodeContinue(const ContinueToken& token);
// The token for the page after the one ending at `last_key` (start = last_key + '\0', the
// smallest key after it).
std::string ContinueAfter(int64_t resource_version, std::string_view last_key);
// 400 "invalid continue token: continue key is not valid: ..." for text that is not a token
// berth wrote (bad base64 or JSON, another version, rv 0, an empty start key).
ApiResult<ContinueToken> DecodeContinue(std::string_view text);
// 410 Expired when the token's snapshot is older than `compacted_before` (the oldest
// resourceVersion the store still serves consistently): upstream's message, and a
// continue_token (rv -1, same start) with which the client may go on inconsistently. OK for
// rv -1 tokens and tokens at or after the horizon.
ApiResult<ContinueToken> CheckContinueNotExpired(const ContinueToken& token,
                                                 int64_t compacted_before);
// 410 Expired for a watch from `resource_version` older than `compacted_before`:
// "too old resource version: RV (OLDEST)", as the watch cache words it.
ApiError TooOldResourceVersionError(int64_t resource_version, int64_t compacted_before);

enum class ResourceVersionMatch { kUnset, kExact, kNotOlderThan };

struct ListOptions {
  std::vector<core::SelectorRequirement> label_selector;  // empty: everything
  std::vector<FieldRequirement> field_selector;
  int64_t limit = 0;  // 0: no limit (upstream treats <= 0 so)
  std::optional<ContinueToken> continue_token;
  std::string resource_version;  // as given: "", "0" or a decimal RV
  std::optional<int64_t> resource_version_number;  // parsed when non-empty
  ResourceVersionMatch resource_version_match = ResourceVersionMatch::kUnset;
  bool watch = false;
  bool allow_watch_bookmarks = false;
  std::optional<int64_t> timeout_s;
  std::optional<bool> send_initial_events;

  // Whether an object (its JSON) passes both selectors.
  bool Matches(const nlohmann::ordered_json& object) const;
};

// Parses and validates `query` for a list (watch == false) or watch of `kind`. `watch` is
// the verb ParseRequest decided. berth has no WatchList (sendInitialEvents is refused as a
// server with the feature gate off refuses it). Errors: 400 for an unparsable selector,
// limit, timeoutSeconds, resourceVersion or continue token, and for a continue with a
// resourceVersion other than "" or "0"; 422 ListOptions.meta.k8s.io for
// resourceVersionMatch misuse.
ApiResult<ListOptions> ParseListOptions(const QueryParams& query, const model::KindInfo& kind,
                                        bool watch);

}  // namespace berth::server
