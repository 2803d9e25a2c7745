// DeviceTaintRule (resource.k8s.io/v1alpha3, cluster-scoped; Kubernetes 1.33/1.34 behind
// DRADeviceTaints): a taint added to every device its selector picks, as if the device's
// ResourceSlice listed it. Read by io, applied by the devices module's allocator.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/device_class.h"
#include "model/object_meta.h"
#include "model/resource_slice.h"

namespace berth::model {

// spec.deviceSelector: every field that is set must match (unset fields match all).
struct DeviceTaintSelector {
  std::optional<std::string> device_class_name;
  std::optional<std::string> driver;
  std::optional<std::string> pool;
  std::optional<std::string> device;
  std::vector<DeviceSelector> selectors;  // CEL, all must be true
};

struct DeviceTaintRule {
  ObjectMeta meta;
  // Unset: the rule selects every device (upstream's slice tracker applies it to all).
  std::optional<DeviceTaintSelector> selector;
  DeviceTaint taint;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
