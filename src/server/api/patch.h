// PATCH bodies applied to an object's JSON: JSON merge patch (RFC 7386,
// application/merge-patch+json) and JSON patch (RFC 6902, application/json-patch+json: add,
// remove, replace, move, copy, test), with kube-apiserver's status codes for what fails
// (400 for a body that is not a patch, 422 for a patch that does not apply, 413 past 10,000
// operations). Server-side apply is not implemented: PatchTypeOf
// answers 415 for SMP on custom resources and for apply patches with upstream's message
// (docs/api.md says what kubectl does then); strategic_merge.h applies SMP to built-ins.
// Called by the HTTP layer for PATCH; the result then goes through validation like an
// update. Pure. Cost: O(size of target + size of patch) for a merge patch, O(ops x path
// length) plus one copy per array insertion/removal for a JSON patch.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"

namespace berth::server {

enum class PatchType { kJsonPatch, kMergePatch, kStrategicMergePatch, kApplyPatch };

// The patch type of a request's Content-Type (parameters ignored) for a resource of `group`.
// Strategic merge patch (application/strategic-merge-patch+json) is accepted for the
// built-in groups only (IsBuiltInGroup; strategic_merge.h applies it), as upstream. 415 with
// the accepted types listed otherwise: SMP on a custom resource, apply patches
// (application/apply-patch+yaml, server-side apply, not implemented) and anything else.
ApiResult<PatchType> PatchTypeOf(std::string_view content_type, std::string_view group);

// RFC 7386 on values: an object patch merges key by key (null removes), anything else
// replaces. Never fails.
nlohmann::ordered_json MergePatch(nlohmann::ordered_json target,
                                  const nlohmann::ordered_json& patch);

// Parses `patch_text` and applies it to `target`. 400 BadRequest when it is not JSON or nests
// deeper than kMaxPatchDepth; the merged document otherwise.
ApiResult<nlohmann::ordered_json> ApplyMergePatch(const nlohmann::ordered_json& target,
                                                  std::string_view patch_text);

// Parses `patch_text` (an array of operations) and applies it to a copy of `target`, all or
// nothing. 400 when the text is not JSON or not an array of operation objects with a known
// "op" and string "path"/"from"; 413 past kMaxJsonPatchOperations; 422 Invalid ("the server
// rejected our request due to an error in our request", the reason as the cause's message)
// when an operation does not apply: a missing path, an index out of range, a failed test,
// a move into its own child.
ApiResult<nlohmann::ordered_json> ApplyJsonPatch(const nlohmann::ordered_json& target,
                                                 std::string_view patch_text);

inline constexpr size_t kMaxJsonPatchOperations = 10000;  // upstream's maxJSONPatchOperations
inline constexpr size_t kMaxPatchDepth = 1000;

}  // namespace berth::server
