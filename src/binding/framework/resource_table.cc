#include "binding/framework/resource_table.h"

namespace berth::binding {

bool IsScalarResourceName(std::string_view name) {
  auto starts_with = [&](std::string_view prefix) {
    return name.substr(0, prefix.size()) == prefix;
  };
  return model::IsExtendedResourceName(name) || starts_with("hugepages-") ||
         name.find("kubernetes.io/") != std::string_view::npos ||
         starts_with("attachable-volumes-");
}

ResourceTable::ResourceTable(const model::ResourceCatalog& catalog) : catalog_(catalog) {
  kinds_.reserve(catalog.size());
  for (size_t i = 0; i < catalog.size(); ++i) {
    model::ResourceId id{static_cast<uint16_t>(i)};
    const std::string& n = catalog.Name(id);
    ResourceKind kind = ResourceKind::kIgnored;
    if (id == model::kCpu) {
      kind = ResourceKind::kCpu;
    } else if (id == model::kMemory) {
      kind = ResourceKind::kMemory;
    } else if (id == model::kEphemeralStorage) {
      kind = ResourceKind::kEphemeralStorage;
    } else if (id == model::kPods) {
      kind = ResourceKind::kPods;
    } else if (IsScalarResourceName(n)) {
      kind = ResourceKind::kScalar;
    }
    kinds_.push_back(kind);
    if (kind != ResourceKind::kPods && kind != ResourceKind::kIgnored) fit_checked_.push_back(id);
  }
}

}  // namespace berth::binding
