// Strategic merge patch (application/strategic-merge-patch+json) for kube-apiserver's own
// kinds, which kubectl sends from `apply`, `edit`, `cordon` and a default `patch`: a merge
// patch in which lists with a patch merge key merge element by element (containers, env,
// volumes by name; volumeMounts by mountPath; ports by containerPort; conditions and
// addresses by type; ownerReferences by uid; ...), finalizers merge as a set, and the
// directives $patch (replace, delete, merge), $retainKeys, $deleteFromPrimitiveList/F and
// $setElementOrder/F are honoured ($setElementOrder only as a hint: merged lists keep the
// stored order, new elements appended). The merge keys come from the field's name, which
// for the built-in kinds berth serves is unambiguous. Custom resources get 415 as upstream
// (PatchTypeOf). Pure; O(target + patch) with O(list length) per keyed element lookup.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"

namespace berth::server {

// Applies `patch_text` to `target`. 400 when the body is not a JSON object or nests deeper
// than kMaxPatchDepth, or a directive is malformed ($patch with an unknown value, an element
// of a keyed list without its key).
ApiResult<nlohmann::ordered_json> ApplyStrategicMergePatch(const nlohmann::ordered_json& target,
                                                           std::string_view patch_text);

}  // namespace berth::server
