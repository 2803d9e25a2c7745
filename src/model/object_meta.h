// The metadata every Kubernetes object carries that berth reads, plus where the object came
// from (an index into io's document store) so writers can patch the original document.
#pragma once

#include <cstdint>
#include <string>

#include "core/labels.h"
#include "core/time.h"
#include "model/berth_names.h"

namespace berth::model {

// Annotation naming the member cluster an object lives in (DESIGN.md, fleet wiring).
inline constexpr const char* kClusterAnnotation = kBerthClusterKey;

struct ObjectMeta {
  std::string name;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string uid;
  core::Labels labels;
  core::Labels annotations;
  core::Timestamp creation_timestamp;

  // "namespace/name" as messages print a namespaced object; an empty namespace is "default".
  std::string NamespacedName() const {
    return (namespace_.empty() ? std::string("default") : namespace_) + "/" + name;
  }
};

// Index of the source document in io::DocumentStore; kNoSource for objects berth made
// (pods expanded from a template).
struct SourceRef {
  static constexpr int32_t kNoSource = -1;
  int32_t document = kNoSource;
  bool valid() const { return document >= 0; }
};

}  // namespace berth::model
