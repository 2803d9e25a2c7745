// AttributeIndex: the attribute values claim constraints compare, one column per
// fully-qualified attribute name, with each (type, value) interned to an int so that
// matchAttribute and distinctAttribute compare ints during the search. Lookup follows
// upstream lookupAttribute: the exact key, else the bare id when the domain is the
// driver's. Columns fill lazily per device. Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "devices/internal/ids.h"
#include "devices/internal/pool_index.h"

namespace berth::devices::internal {

class AttributeIndex {
 public:
  static constexpr int32_t kMissing = -1;

  explicit AttributeIndex(const PoolIndex& pools) : pools_(pools) {}

  // The column of a fully-qualified attribute name ("domain/id").
  int32_t Column(const std::string& qualified_name);
  const std::string& ColumnName(int32_t column) const { return columns_[column].name; }

  // The interned value of the attribute on the device, or kMissing. Equal ids mean equal
  // type and value (versions compare as strings: semver is in minimal form).
  int32_t ValueOf(int32_t column, DeviceRecordId device) {
    Col& col = columns_[column];
    if (col.values.empty()) col.values.assign(static_cast<size_t>(pools_.record_count()), kUnset);
    int32_t& v = col.values[static_cast<size_t>(device.v)];
    if (v == kUnset) v = Lookup(col, device);
    return v;
  }

  // The attribute types found on every published device, as a bit set of
  // 1 << DeviceAttribute::Type; fills the whole column.
  uint32_t TypesSeen(int32_t column);

  size_t MemoryBytes() const;

 private:
  static constexpr int32_t kUnset = -2;
  struct Col {
    std::string name;
    std::string domain;
    std::string id;
    std::vector<int32_t> values;
  };
  int32_t Lookup(const Col& col, DeviceRecordId device);

  const PoolIndex& pools_;
  std::vector<Col> columns_;
  std::unordered_map<std::string, int32_t> column_ids_;
  std::map<std::pair<int, std::string>, int32_t> value_ids_;
  std::vector<int> value_types_;
};

}  // namespace berth::devices::internal
