// Small helpers the writers share when they patch berth's decisions into a document as read
// (nlohmann::ordered_json, so keys keep their order): parsing a stored document, objects
// made on demand, tolerations and metav1.Conditions. Called by the *_json.cc patchers and
// table_writer.cc. Internal to io; stateless.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/taint.h"
#include "io/document_store.h"
#include "model/object_meta.h"
#include "model/ocm.h"

namespace berth::io::internal {

// The stored document of `ref` parsed; a JSON null when `ref` is not valid or the text is
// not a JSON object (documents are stored as read, so this only happens for objects built
// without one).
nlohmann::ordered_json ParseDocument(const DocumentStore& documents, model::SourceRef ref);

// ParseDocument's document, or, for an object without one (built by a test or a later
// stage), the minimal object {apiVersion, kind, metadata: {name, namespace}} standing in.
nlohmann::ordered_json DocumentOrMinimal(const DocumentStore& documents, model::SourceRef ref,
                                         const char* api_version, const char* kind,
                                         const model::ObjectMeta& meta);

// obj[key] when it is a string, else "".
std::string StringMember(const nlohmann::ordered_json& obj, const char* key);

// obj[key], made an empty object first when it is absent or not an object.
nlohmann::ordered_json& ObjectMember(nlohmann::ordered_json& obj, const char* key);

// obj[key] = value, or the key removed when `value` is empty.
void SetOrErase(nlohmann::ordered_json& obj, const char* key, const std::string& value);

// A v1 Toleration in the Go struct's field order (key, operator, value, effect,
// tolerationSeconds), empty fields left out.
nlohmann::ordered_json TolerationJson(const core::Toleration& t);

// Whether `entry` (a toleration as written, operator defaulting to Equal) is `t`.
bool SameToleration(const nlohmann::ordered_json& entry, const core::Toleration& t);


// Patches `planned` into the metav1.Condition list `conditions` (made an array when it is
// not one) as meta.SetStatusCondition does: a condition of the same type is updated in
// place (status, reason, message; lastTransitionTime only when the status changes or the
// entry has none, so an unchanged condition keeps its time; every other key kept), else a
// new entry {type, status, lastTransitionTime when known, reason, message} is appended.
void PatchMetaConditions(nlohmann::ordered_json& conditions,
                         const std::vector<model::Condition>& planned);

}  // namespace berth::io::internal
