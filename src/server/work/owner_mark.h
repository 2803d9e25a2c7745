// The owner mark: how the work agent records on a member cluster's object which works own
// it. OCM adds an ownerReference to the AppliedManifestWork; a berth member cluster does not
// serve that kind, so the owners ("<hubHash>-<work>", AppliedRecord::Name()) are listed,
// sorted and comma-separated, in the annotation work.berth.dev/applied-by. A work that
// orphans the resource (deleteOption) takes its name out, as upstream removes its
// ownerReference; the remover deletes only objects that still carry the remover's name.
// Pure functions; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace berth::server::work {

using Json = nlohmann::ordered_json;

inline constexpr std::string_view kAppliedByAnnotation = "work.berth.dev/applied-by";

// The owners an object's annotation lists (empty when none).
std::vector<std::string> MarkedOwners(const Json& object);
bool IsMarkedBy(const Json& object, std::string_view owner);

// Adds (`owned`) or removes `owner` in `annotations` (an object, or null to start one);
// the annotation is dropped when its list empties. Returns whether anything changed.
bool SetOwnerMark(Json& annotations, std::string_view owner, bool owned);

}  // namespace berth::server::work
