// Strong index types of the allocator's tables (DeviceTable, PoolIndex, SelectorCache).
// Internal to the devices module; plain values, compare and hash as the wrapped int.
#pragma once

#include <cstdint>
#include <functional>

namespace berth::devices::internal {

// A device identity (driver, pool, device name): what allocation results name and what
// "in use" is tracked by. The same key can be published by slices of several generations.
struct DeviceKeyId {
  int32_t v = -1;
  auto operator<=>(const DeviceKeyId&) const = default;
};

// One device as published by one slice: DeviceTable::records()[v].
struct DeviceRecordId {
  int32_t v = -1;
  auto operator<=>(const DeviceRecordId&) const = default;
};

// All slices of one (driver, pool) at one generation: PoolIndex::gen(v).
struct PoolGenId {
  int32_t v = -1;
  auto operator<=>(const PoolGenId&) const = default;
};

// A compiled (class selectors, request selectors) pair: SelectorCache::set(v).
struct SelectorSetId {
  int32_t v = -1;
  auto operator<=>(const SelectorSetId&) const = default;
};

}  // namespace berth::devices::internal
