#include "binding/framework/namespace_table.h"

namespace berth::binding {

NamespaceTable::NamespaceTable(const model::Snapshot& snapshot) {
  for (const model::Namespace& ns : snapshot.namespaces) labels_[ns.meta.name] = &ns.meta.labels;
}

const core::Labels* NamespaceTable::Find(const std::string& name) const {
  auto it = labels_.find(name);
  return it == labels_.end() ? nullptr : it->second;
}

}  // namespace berth::binding
