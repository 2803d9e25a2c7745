#include "devices/internal/attribute_index.h"

namespace berth::devices::internal {

int32_t AttributeIndex::Column(const std::string& qualified_name) {
  auto [it, fresh] = column_ids_.try_emplace(qualified_name, static_cast<int32_t>(columns_.size()));
  if (fresh) {
    Col col;
    col.name = qualified_name;
    const size_t slash = qualified_name.find('/');
    if (slash != std::string::npos) {
      col.domain = qualified_name.substr(0, slash);
      col.id = qualified_name.substr(slash + 1);
    }
    columns_.push_back(std::move(col));
  }
  return it->second;
}

int32_t AttributeIndex::Lookup(const Col& col, DeviceRecordId device) {
  const model::Device& dev = pools_.device(device);
  auto it = dev.attributes.find(col.name);
  if (it == dev.attributes.end()) {
    // Not a qualified name, or another driver's domain: not available (upstream).
    if (col.domain.empty() || col.domain != pools_.slice_of(device).driver) return kMissing;
    it = dev.attributes.find(col.id);
    if (it == dev.attributes.end()) return kMissing;
  }
  const model::DeviceAttribute& a = it->second;
  std::string text;
  switch (a.type) {
    case model::DeviceAttribute::Type::kInt:
      text = std::to_string(a.int_value);
      break;
    case model::DeviceAttribute::Type::kBool:
      text = a.bool_value ? "true" : "false";
      break;
    case model::DeviceAttribute::Type::kString:
    case model::DeviceAttribute::Type::kVersion:
      text = a.string_value;
      break;
  }
  const int type = static_cast<int>(a.type);
  auto [vit, fresh] =
      value_ids_.try_emplace({type, std::move(text)}, static_cast<int32_t>(value_types_.size()));
  if (fresh) value_types_.push_back(type);
  return vit->second;
}

uint32_t AttributeIndex::TypesSeen(int32_t column) {
  uint32_t seen = 0;
  for (int32_t r = 0; r < pools_.record_count(); ++r) {
    const int32_t v = ValueOf(column, DeviceRecordId{r});
    if (v != kMissing) seen |= 1u << value_types_[static_cast<size_t>(v)];
  }
  return seen;
}

size_t AttributeIndex::MemoryBytes() const {
  size_t bytes = columns_.capacity() * sizeof(Col) + value_types_.capacity() * sizeof(int);
  for (const Col& c : columns_) bytes += c.values.capacity() * sizeof(int32_t);
  bytes += value_ids_.size() * 64;
  return bytes;
}

}  // namespace berth::devices::internal
