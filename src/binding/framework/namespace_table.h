// NamespaceTable: the labels of the snapshot's Namespace objects, for the namespaceSelector
// of inter-pod affinity terms. Immutable after construction.
#pragma once

#include <string>
#include <unordered_map>

#include "core/labels.h"
#include "model/snapshot.h"

namespace berth::binding {

class NamespaceTable {
 public:
  explicit NamespaceTable(const model::Snapshot& snapshot);
  // nullptr when the snapshot has no such Namespace object.
  const core::Labels* Find(const std::string& name) const;

 private:
  std::unordered_map<std::string, const core::Labels*> labels_;
};

}  // namespace berth::binding
