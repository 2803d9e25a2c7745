// Pieces of the documents io writes for objects berth creates (expanded Pods, generated
// ResourceClaims, created Workloads, PlacementDecisions, ManifestWorks): metadata, owner
// references and string maps, written as the Kubernetes controllers that would create those
// objects write them; their stored Document; and the key those writers index objects by.
// Internal to io.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/labels.h"
#include "io/document_store.h"
#include "model/object_meta.h"

namespace berth::io::internal {

// The key of a namespaced object in one cluster: cluster, namespace and name joined by the
// unit separator (which none of them can contain).
inline std::string ObjectKey(const std::string& cluster, const std::string& ns,
                             const std::string& name) {
  std::string key = cluster;
  key += '\x1f';
  key += ns;
  key += '\x1f';
  key += name;
  return key;
}

// A string map (labels, annotations) as a JSON object, in the map's order.
inline nlohmann::ordered_json StringMapJson(const core::Labels& map) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto& [k, v] : map) out[k] = v;
  return out;
}

// metadata of a created object: name, namespace, creationTimestamp when set, labels and
// annotations when not empty, in that order (ownerReferences, when any, go after).
inline nlohmann::ordered_json CreatedMetadataJson(const model::ObjectMeta& meta) {
  nlohmann::ordered_json md = nlohmann::ordered_json::object();
  md["name"] = meta.name;
  md["namespace"] = meta.namespace_;
  if (meta.creation_timestamp.unix_s != 0) {
    md["creationTimestamp"] = meta.creation_timestamp.ToString();
  }
  if (!meta.labels.empty()) md["labels"] = StringMapJson(meta.labels);
  if (!meta.annotations.empty()) md["annotations"] = StringMapJson(meta.annotations);
  return md;
}

// One ownerReferences entry; a `controller` owner also blocks the owned object's deletion,
// as controllers set it.
inline nlohmann::ordered_json OwnerRefJson(const std::string& api_version, const std::string& kind,
                                           const std::string& name, const std::string& uid,
                                           bool controller) {
  nlohmann::ordered_json ref = nlohmann::ordered_json::object();
  ref["apiVersion"] = api_version;
  ref["kind"] = kind;
  ref["name"] = name;
  if (!uid.empty()) ref["uid"] = uid;
  if (controller) {
    ref["controller"] = true;
    ref["blockOwnerDeletion"] = true;
  }
  return ref;
}

// The stored document of a created object: `json` read as if from `file`.
inline Document CreatedDocument(const std::string& file, std::string api_version, std::string kind,
                                const model::ObjectMeta& meta, std::string json) {
  Document doc;
  doc.file = file;
  doc.api_version = std::move(api_version);
  doc.kind = std::move(kind);
  doc.namespace_ = meta.namespace_;
  doc.name = meta.name;
  doc.json = std::move(json);
  return doc;
}

}  // namespace berth::io::internal
