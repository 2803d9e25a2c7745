// Lookups scan short vectors: a device has at most 32 attributes and capacities in all
// (ResourceSliceMaxAttributesAndCapacitiesPerDevice), usually in one or two domains, so a
// scan with early length mismatch beats hashing.
#include "cel/dra_device.h"

#include <array>
#include <string>
#include <utility>

#include "cel/semver.h"

namespace berth::cel {

namespace {

std::optional<std::string_view> StringKey(const Value& key) {
  if (key.kind() != ValueKind::kString) return std::nullopt;
  return key.string_value();
}

}  // namespace

bool DraDevice::Domain::Add(std::string id, Value value) {
  for (const auto& e : entries_) {
    if (e.first == id) return false;
  }
  entries_.emplace_back(std::move(id), std::move(value));
  return true;
}

std::optional<Value> DraDevice::Domain::Find(const Value& key) const {
  std::optional<std::string_view> id = StringKey(key);
  if (!id) return std::nullopt;
  for (const auto& e : entries_) {
    if (e.first == *id) return e.second;
  }
  return std::nullopt;
}

DraDevice::Domain* DraDevice::Domains::FindOrAdd(std::string_view name) {
  for (Domain& d : domains_) {
    if (d.name() == name) return &d;
  }
  return &domains_.emplace_back(std::string(name));
}

const DraDevice::Domain* DraDevice::Domains::Lookup(std::string_view name) const {
  for (const Domain& d : domains_) {
    if (d.name() == name) return &d;
  }
  return nullptr;
}

std::optional<Value> DraDevice::Domains::Find(const Value& key) const {
  std::optional<std::string_view> name = StringKey(key);
  if (!name) return std::nullopt;
  const Domain* d = Lookup(*name);
  return Value::MapView(d != nullptr ? d : empty_);
}

bool DraDevice::Domains::Contains(const Value& key) const {
  std::optional<std::string_view> name = StringKey(key);
  return name && Lookup(*name) != nullptr;
}

DraDevice::DraDevice(std::string driver) : driver_(std::move(driver)) {}

std::pair<std::string_view, std::string_view> DraDevice::Split(
    std::string_view qualified_name) const {
  size_t slash = qualified_name.find('/');
  if (slash == std::string_view::npos) return {driver_, qualified_name};
  return {qualified_name.substr(0, slash), qualified_name.substr(slash + 1)};
}

core::Status DraDevice::AddAttribute(std::string_view qualified_name, Value value) {
  switch (value.kind()) {
    case ValueKind::kBool:
    case ValueKind::kInt:
    case ValueKind::kString:
    case ValueKind::kSemver:
      break;
    default:
      return core::InvalidArgument("attribute " + std::string(qualified_name) +
                                   ": unsupported attribute value of type " +
                                   ValueKindName(value.kind()));
  }
  auto [domain, id] = Split(qualified_name);
  if (!attributes_.FindOrAdd(domain)->Add(std::string(id), std::move(value))) {
    return core::InvalidArgument("attribute " + std::string(qualified_name) + " is duplicated");
  }
  return core::OkStatus();
}

core::Status DraDevice::AddVersionAttribute(std::string_view qualified_name,
                                            std::string_view version) {
  core::Result<Semver> v = Semver::Parse(version);
  if (!v.has_value()) {
    return core::InvalidArgument("attribute " + std::string(qualified_name) +
                                 ": parse semantic version: " + v.error().message());
  }
  return AddAttribute(qualified_name, Value::Semver(std::move(v).value()));
}

core::Status DraDevice::AddCapacity(std::string_view qualified_name, const core::Quantity& value) {
  auto [domain, id] = Split(qualified_name);
  const core::Quantity& stored = quantities_.emplace_back(value);
  if (!capacity_.FindOrAdd(domain)->Add(std::string(id), Value::QuantityView(&stored))) {
    quantities_.pop_back();
    return core::InvalidArgument("capacity " + std::string(qualified_name) + " is duplicated");
  }
  return core::OkStatus();
}

std::optional<Value> DraDevice::Find(const Value& key) const {
  std::optional<std::string_view> field = StringKey(key);
  if (!field) return std::nullopt;
  // Every selector starts here: one length switch, one comparison.
  switch (field->size()) {
    case 6:
      if (*field == "driver") return Value::StringView(driver_);
      break;
    case 10:
      if (*field == "attributes") return Value::MapView(&attributes_);
      break;
    case 8:
      if (*field == "capacity") return Value::MapView(&capacity_);
      break;
    case 24:
      if (*field == "allowMultipleAllocations") return Value::Bool(allow_multiple_allocations_);
      break;
    default:
      break;
  }
  return std::nullopt;
}

Value DraDevice::KeyAt(size_t index) const {
  static constexpr std::array<std::string_view, 4> kFields = {"driver", "attributes", "capacity",
                                                              "allowMultipleAllocations"};
  return Value::StringView(kFields[index]);
}

}  // namespace berth::cel
