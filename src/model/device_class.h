// DeviceClass (resource.k8s.io/v1, cluster-scoped): a named set of CEL selectors every device
// allocated through the class must satisfy, plus opaque driver config copied into results.
#pragma once

#include <string>
#include <vector>

#include "model/object_meta.h"

namespace berth::model {

// A CEL device selector (`{cel: {expression}}`), compiled by the devices module.
struct DeviceSelector {
  std::string cel_expression;
  bool operator==(const DeviceSelector&) const = default;
};

// Opaque driver parameters, kept as the JSON text read (never interpreted by berth).
struct OpaqueDeviceConfig {
  std::string driver;
  std::string parameters_json;
  bool operator==(const OpaqueDeviceConfig&) const = default;
};

struct DeviceClass {
  ObjectMeta meta;
  std::vector<DeviceSelector> selectors;
  std::vector<OpaqueDeviceConfig> config;
  std::string extended_resource_name;  // spec.extendedResourceName; empty when unset
  SourceRef source;
};

}  // namespace berth::model
