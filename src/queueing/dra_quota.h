// DRA-backed quota (Kueue's KueueDRAIntegration, pkg/dra claims.go): the devices a Workload's
// ResourceClaimTemplates request, counted per DeviceClass and mapped by the Configuration's
// resources.deviceClassMappings to a quota resource that its pod sets then request per pod.
// Built once per admission run by AdmissionScheduler; immutable after construction, so
// const calls may run concurrently.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/kueue.h"
#include "model/resource_claim.h"
#include "model/snapshot.h"
#include "queueing/workload_info.h"

namespace berth::queueing {

struct DeviceClassCount {
  std::string device_class;
  int64_t count = 0;
};

// A field.Invalid error as apimachinery prints it: `<field>: Invalid value: <value>: <detail>`.
struct DraFieldError {
  std::string field;   // relative to the claim spec for CountDevicesPerClass
  std::string value;   // printed value, quoted: "\"All\"", "\"null\""
  std::string detail;  // e.g. "AllocationMode 'All' is not supported"
};

struct DeviceCountResult {
  std::vector<DeviceClassCount> counts;  // first-seen class order; saturating sums
  std::vector<DraFieldError> errors;     // at most one: upstream stops at the first
};

// countDevicesPerClass: ExactCount requests add `count` devices of their DeviceClass;
// adminAccess requests count nothing; allocationMode All, firstAvailable and a request with
// neither `exactly` nor `firstAvailable` are errors (Kueue does not count them).
DeviceCountResult CountDevicesPerClass(const model::ResourceClaimSpec& spec);

class DraQuota {
 public:
  // `snapshot` must outlive this object; only objects of `cluster` are looked at.
  DraQuota(const model::Snapshot& snapshot, const std::string& cluster);

  // Adds each pod set's DRA quota resources (per pod) to info.pod_sets[p].per_pod and to its
  // equivalence key. Returns the message Kueue sets with QuotaReserved=False reason
  // Misconfigured when it cannot count the workload's claims (a claim by name, an unmapped
  // DeviceClass, an unsupported request, a missing template); empty when counted.
  std::string AddRequests(const model::Workload& wl, WorkloadInfo& info) const;

 private:
  const model::Snapshot& snapshot_;
  std::map<std::string, model::ResourceId> resource_of_class_;
  std::map<std::string, int32_t> template_by_key_;  // "namespace/name" of `cluster`
};

}  // namespace berth::queueing
