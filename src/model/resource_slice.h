// ResourceSlice (resource.k8s.io/v1): devices a driver publishes in a pool, for one node, a
// set of nodes, all nodes, or per device. Also the shared counters partitionable devices
// (MIG) consume. Plain data as read; pool completeness and validity are decided by the
// devices module, which sees every slice of a pool.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "model/object_meta.h"

namespace berth::model {

// One typed attribute value (exactly one of int, bool, string, version).
struct DeviceAttribute {
  enum class Type { kInt, kBool, kString, kVersion };
  Type type = Type::kString;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  // kString and kVersion (semver text)
  bool operator==(const DeviceAttribute&) const = default;
};

struct CapacityRequestPolicyRange {
  core::Quantity min;
  std::optional<core::Quantity> max;
  std::optional<core::Quantity> step;
  bool operator==(const CapacityRequestPolicyRange&) const = default;
};

struct CapacityRequestPolicy {
  std::optional<core::Quantity> default_value;
  std::vector<core::Quantity> valid_values;  // sorted
  std::optional<CapacityRequestPolicyRange> valid_range;
  bool operator==(const CapacityRequestPolicy&) const = default;
};

struct DeviceCapacity {
  core::Quantity value;
  std::optional<CapacityRequestPolicy> request_policy;
  bool operator==(const DeviceCapacity&) const = default;
};

// Counters consumed from one shared counter set.
struct DeviceCounterConsumption {
  std::string counter_set;
  std::map<std::string, core::Quantity> counters;
  bool operator==(const DeviceCounterConsumption&) const = default;
};

enum class DeviceTaintEffect { kNoSchedule, kNoExecute, kNone };

struct DeviceTaint {
  std::string key;
  std::string value;
  DeviceTaintEffect effect = DeviceTaintEffect::kNoSchedule;
  bool operator==(const DeviceTaint&) const = default;
};

struct Device {
  std::string name;
  // Keys as written: fully qualified ("gpu.nvidia.com/productName") or bare ("productName",
  // which lives in the driver's domain).
  std::map<std::string, DeviceAttribute> attributes;
  std::map<std::string, DeviceCapacity> capacity;
  std::vector<DeviceCounterConsumption> consumes_counters;
  std::vector<DeviceTaint> taints;
  bool allow_multiple_allocations = false;
  // Per-device node selection (only when the slice sets perDeviceNodeSelection).
  std::string node_name;
  std::optional<core::NodeSelector> node_selector;
  bool all_nodes = false;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
};

struct CounterSet {
  std::string name;
  std::map<std::string, core::Quantity> counters;
};

struct ResourceSlice {
  ObjectMeta meta;
  std::string driver;
  std::string pool_name;
  int64_t pool_generation = 0;
  int64_t resource_slice_count = 1;
  // Exactly one node-selection field is set on valid input.
  std::string node_name;
  std::optional<core::NodeSelector> node_selector;
  bool all_nodes = false;
  bool per_device_node_selection = false;
  std::vector<Device> devices;
  std::vector<CounterSet> shared_counters;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
