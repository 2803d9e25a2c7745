#include "model/resources.h"

#include <algorithm>
#include <limits>
#include <string>

#include "core/labels.h"

namespace berth::model {

bool IsBinaryResource(std::string_view name) {
  return name == "memory" || name == "ephemeral-storage" || name.starts_with("hugepages-");
}

core::Quantity AmountQuantity(std::string_view name, int64_t amount) {
  if (name == "cpu") return core::Quantity::FromMilli(amount);
  return core::Quantity::FromUnits(amount, IsBinaryResource(name) ? core::Quantity::Format::kBinarySI
                                                                  : core::Quantity::Format::kDecimalSI);
}

ResourceCatalog::ResourceCatalog() {
  // The fixed ids kCpu, kMemory, kEphemeralStorage and kPods depend on this order.
  for (const char* name : {"cpu", "memory", "ephemeral-storage", "pods"}) Intern(name);
}

ResourceId ResourceCatalog::Intern(std::string_view name) {
  auto it = ids_.find(std::string(name));
  if (it != ids_.end()) return ResourceId{it->second};
  auto id = static_cast<uint16_t>(names_.size());
  names_.emplace_back(name);
  ids_.emplace(std::string(name), id);
  return ResourceId{id};
}

bool ResourceCatalog::Find(std::string_view name, ResourceId* id) const {
  auto it = ids_.find(std::string(name));
  if (it == ids_.end()) return false;
  *id = ResourceId{it->second};
  return true;
}

void ResourceVector::Set(ResourceId id, int64_t amount) {
  if (id.v >= amounts_.size()) {
    if (amount == 0) return;
    amounts_.resize(id.v + 1, 0);
  }
  amounts_[id.v] = amount;
}

void ResourceVector::Add(const ResourceVector& o) {
  if (o.amounts_.size() > amounts_.size()) amounts_.resize(o.amounts_.size(), 0);
  for (size_t i = 0; i < o.amounts_.size(); ++i) amounts_[i] = SaturatingAdd(amounts_[i], o.amounts_[i]);
}

void ResourceVector::Subtract(const ResourceVector& o) {
  if (o.amounts_.size() > amounts_.size()) amounts_.resize(o.amounts_.size(), 0);
  for (size_t i = 0; i < o.amounts_.size(); ++i) {
    amounts_[i] = SaturatingRemove(amounts_[i], o.amounts_[i]);
  }
}

void ResourceVector::MaxWith(const ResourceVector& o) {
  if (o.amounts_.size() > amounts_.size()) amounts_.resize(o.amounts_.size(), 0);
  for (size_t i = 0; i < o.amounts_.size(); ++i) amounts_[i] = std::max(amounts_[i], o.amounts_[i]);
}

bool ResourceVector::IsZero() const {
  return std::all_of(amounts_.begin(), amounts_.end(), [](int64_t a) { return a == 0; });
}

bool ResourceVector::operator==(const ResourceVector& o) const {
  size_t n = std::max(amounts_.size(), o.amounts_.size());
  for (size_t i = 0; i < n; ++i) {
    if (Get(ResourceId{static_cast<uint16_t>(i)}) != o.Get(ResourceId{static_cast<uint16_t>(i)})) {
      return false;
    }
  }
  return true;
}

bool IsNativeResourceName(std::string_view name) {
  // Upstream v1helper.IsNativeResource: an unprefixed name is implicitly in kubernetes.io/,
  // and so is any name containing "kubernetes.io/" (node.kubernetes.io/..., too).
  return name.find('/') == std::string_view::npos ||
         name.find("kubernetes.io/") != std::string_view::npos;
}

bool IsExtendedResourceName(std::string_view name) {
  // Upstream v1helper.IsExtendedResourceName: not native, no "requests." prefix (quota's
  // convention), and "requests.<name>" must be a qualified name.
  constexpr std::string_view kRequestsPrefix = "requests.";
  if (IsNativeResourceName(name) || name.substr(0, kRequestsPrefix.size()) == kRequestsPrefix) {
    return false;
  }
  std::string quota_name(kRequestsPrefix);
  quota_name += name;
  return core::IsQualifiedName(quota_name);
}

}  // namespace berth::model
