// Reading and writing the metadata, conditions and scalar fields of the member cluster's
// objects, type-checked: a field of the wrong type reads as absent and a write replaces it, so
// no nlohmann exception is ever thrown on an odd object. Pure functions over JSON.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "server/member/member_objects.h"

namespace berth::server::member {

// An integer at obj[k1][k2]...; `fallback` when absent or not an integer.
int64_t IntAt(const Json& obj, std::initializer_list<std::string_view> keys, int64_t fallback);
std::optional<int64_t> OptionalIntAt(const Json& obj, std::initializer_list<std::string_view> keys);
bool BoolAt(const Json& obj, std::initializer_list<std::string_view> keys, bool fallback);
// An RFC 3339 time at the path as Unix seconds; nullopt when absent or unparsable.
std::optional<int64_t> TimeAt(const Json& obj, std::initializer_list<std::string_view> keys);
// Unix seconds as metav1.Time prints them ("2026-01-02T03:04:05Z").
std::string TimeText(int64_t unix_s);

// parent[key] as an object (created, or replacing a value of another type). `parent` must be
// an object or null.
Json& EnsureObject(Json& parent, std::string_view key);
// parent[key] as an array, likewise.
Json& EnsureArray(Json& parent, std::string_view key);

std::string NameOf(const Json& obj);
std::string NamespaceOf(const Json& obj);
std::string UidOf(const Json& obj);
std::string LabelOf(const Json& obj, std::string_view key);
std::string AnnotationOf(const Json& obj, std::string_view key);
bool HasAnnotation(const Json& obj, std::string_view key);
void SetLabel(Json& obj, std::string_view key, std::string value);
void SetAnnotation(Json& obj, std::string_view key, std::string value);
void EraseAnnotation(Json& obj, std::string_view key);
// metadata.deletionTimestamp is set.
bool IsBeingDeleted(const Json& obj);

// The ownerReference with controller: true; nullptr when there is none.
const Json* ControllerRefOf(const Json& obj);
// Its uid; "" when there is none.
std::string ControllerUidOf(const Json& obj);
// An ownerReference to `owner` (of `owner_kind`) as controllers set them: controller and
// blockOwnerDeletion true.
Json ControllerRefTo(const Json& owner, Kind owner_kind);

bool HasFinalizer(const Json& obj, std::string_view finalizer);
void AddFinalizer(Json& obj, std::string_view finalizer);
void RemoveFinalizer(Json& obj, std::string_view finalizer);

// The condition of `type` in obj.status.conditions; nullptr when absent.
const Json* FindCondition(const Json& obj, std::string_view type);
// Its status is "True".
bool ConditionIsTrue(const Json& obj, std::string_view type);
// Removes every condition of `type` from obj.status.conditions.
void RemoveCondition(Json& obj, std::string_view type);

// An int-or-percent field (a Deployment's maxSurge, "25%") scaled against `total`, rounding
// up or down as apimachinery's GetScaledValueFromIntOrPercent does; `fallback` (an integer or
// "N%") when the value is absent, and nullopt when it is neither an integer nor "N%".
std::optional<int64_t> ScaledIntOrPercent(const Json* value, int64_t total, bool round_up,
                                          std::string_view fallback);

}  // namespace berth::server::member
