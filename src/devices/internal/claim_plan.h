// ClaimPlan: one unallocated ResourceClaim prepared for the search: each request (or each
// firstAvailable subrequest) with its DeviceClass, compiled selector set and count, the
// claim's constraints with the requests they cover, and the first problem that makes the
// claim unusable (unknown class, selector that does not compile, empty constraint), which
// Allocate() returns as an error like upstream. Built once per claim by the Allocator;
// problems are reported to Diagnostics with object and field.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/diagnostics.h"
#include "devices/internal/attribute_index.h"
#include "devices/internal/ids.h"
#include "devices/internal/selector_cache.h"
#include "model/snapshot.h"

namespace berth::devices::internal {

// One request or one subrequest: what the search allocates devices for.
struct RequestPlan {
  std::string full_name;  // "req" or "req/sub": the result's request name
  std::string name;       // "req", or "sub" for a subrequest (upstream request.name())
  int32_t request = -1;   // index in spec.requests
  int32_t sub = -1;       // index in firstAvailable, -1 for an exactly request
  const model::ExactDeviceRequest* spec = nullptr;  // borrowed from the Snapshot
  int32_t class_index = -1;                         // index in Snapshot::device_classes
  SelectorSetId selectors;
  bool all = false;
  int64_t count = 1;
  bool admin = false;
  // Bit i set: constraint i of the claim covers this (sub)request.
  uint64_t constraint_mask = 0;
};

struct RequestGroup {
  std::string name;
  bool has_subrequests = false;
  std::vector<RequestPlan> alternatives;  // exactly one unless has_subrequests
};

struct ConstraintPlan {
  bool distinct = false;  // distinctAttribute, else matchAttribute
  int32_t column = -1;    // AttributeIndex column
};

struct ClaimPlan {
  int32_t claim = -1;   // index in Snapshot::resource_claims
  std::string display;  // "namespace/name", as upstream's klog.KObj prints it
  std::string error;    // non-empty: the claim cannot be allocated, with this message
  std::vector<RequestGroup> requests;
  std::vector<ConstraintPlan> constraints;
};

// Builds plans. Shares the caches of one Allocator.
class ClaimPlanner {
 public:
  ClaimPlanner(const model::Snapshot& snapshot, const std::string& cluster,
               SelectorCache& selectors, AttributeIndex& attributes, core::Diagnostics& diags);

  // Plans claim `index` (must be in the cluster); reports problems to the Diagnostics.
  ClaimPlan Plan(int32_t index);

 private:
  struct ClassInfo {
    int32_t index = -1;
    std::vector<int32_t> programs;
    std::string error;  // the class's selectors do not compile
  };
  const ClassInfo* FindClass(const std::string& name);
  void PlanRequest(const model::ResourceClaim& claim, const std::string& object,
                   const model::ExactDeviceRequest& spec, const std::string& field,
                   RequestPlan& plan, ClaimPlan& out);

  const model::Snapshot& snapshot_;
  SelectorCache& selectors_;
  AttributeIndex& attributes_;
  core::Diagnostics& diags_;
  std::unordered_map<std::string, ClassInfo> classes_;
  std::unordered_map<int32_t, uint32_t> mixed_types_checked_;  // column -> types seen
};

}  // namespace berth::devices::internal
