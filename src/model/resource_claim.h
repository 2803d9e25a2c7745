// ResourceClaim and ResourceClaimTemplate (resource.k8s.io/v1): what a pod asks of devices,
// and, once allocated, which devices it holds (status.allocation). Claims generated from a
// template are named `<pod>-<claim>` (DESIGN.md) and owned by that pod.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "core/taint.h"
#include "model/device_class.h"
#include "model/object_meta.h"

namespace berth::model {

enum class DeviceAllocationMode { kExactCount, kAll };

// The fields shared by `exactly` requests and `firstAvailable` subrequests.
struct ExactDeviceRequest {
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  DeviceAllocationMode allocation_mode = DeviceAllocationMode::kExactCount;
  int64_t count = 1;
  bool admin_access = false;  // never set on subrequests
  std::vector<core::Toleration> tolerations;
  std::map<std::string, core::Quantity> capacity_requests;  // capacity.requests
};

struct DeviceSubRequest {
  std::string name;
  ExactDeviceRequest spec;
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;      // exactly one of these two is set
  std::vector<DeviceSubRequest> first_available;  // prioritized list
};

struct DeviceConstraint {
  std::vector<std::string> requests;  // empty: every request
  std::string match_attribute;        // exactly one of these two is set
  std::string distinct_attribute;
};

struct DeviceClaimConfig {
  std::vector<std::string> requests;  // empty: every request
  OpaqueDeviceConfig opaque;
};

struct ResourceClaimSpec {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceClaimConfig> config;
};

struct DeviceRequestAllocationResult {
  std::string request;  // "req" or "req/sub"
  std::string driver;
  std::string pool;
  std::string device;
  bool admin_access = false;
  std::vector<core::Toleration> tolerations;
  std::string share_id;  // only for devices with allowMultipleAllocations
  std::map<std::string, core::Quantity> consumed_capacity;
};

enum class AllocationConfigSource { kFromClass, kFromClaim };

struct DeviceAllocationConfiguration {
  AllocationConfigSource source = AllocationConfigSource::kFromClaim;
  std::vector<std::string> requests;  // empty: every request
  OpaqueDeviceConfig opaque;
};

struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> results;
  std::vector<DeviceAllocationConfiguration> config;
  std::optional<core::NodeSelector> node_selector;  // nullopt: usable on every node
};

struct ResourceClaim {
  ObjectMeta meta;
  ResourceClaimSpec spec;
  std::optional<AllocationResult> allocation;  // status.allocation
  std::vector<std::string> reserved_for;       // pod names from status.reservedFor
  std::string template_name;   // set when generated from a ResourceClaimTemplate
  std::string owner_pod;       // the pod a template claim was generated for
  std::string cluster = "default";
  SourceRef source;
};

struct ResourceClaimTemplate {
  ObjectMeta meta;
  ResourceClaimSpec spec;
  std::string cluster = "default";
  SourceRef source;
};

}  // namespace berth::model
