// DraSelectors: what the devices module calls to run DRA device selectors
// (DeviceClass.spec.selectors[].cel.expression, ResourceClaim request selectors). It owns
// the selector Environment (one variable, `device`, of type kubernetes.DRADevice), applies
// upstream's limits (expression length 10Ki, a runtime cost limit), caches compiled
// selectors by text, and evaluates them against a DraDevice. Thread-safe.
//
//   cel::DraSelectors selectors;                       // one per allocator
//   cel::DraDevice gpu("gpu.nvidia.com");               // one per device, built once
//   gpu.AddAttribute("productName", cel::Value::String("NVIDIA H100 80GB HBM3"));
//   gpu.AddCapacity("memory", *core::Quantity::Parse("80Gi"));
//   BERTH_ASSIGN_OR_RETURN(const cel::Program* sel, selectors.Compile(expression));
//   BERTH_ASSIGN_OR_RETURN(bool match, selectors.Matches(*sel, gpu));
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cel/dra_device.h"
#include "cel/environment.h"
#include "cel/program.h"
#include "cel/program_cache.h"
#include "cel/type.h"
#include "core/result.h"

namespace berth::cel {

// resource.k8s.io: CELSelectorExpressionMaxLength and CELSelectorExpressionMaxCost (the
// latter in berth's cost units, see CompileOptions::cost_limit).
inline constexpr size_t kDraSelectorMaxLength = size_t{10} * 1024;
inline constexpr uint64_t kDraSelectorMaxCost = 1'000'000;
// The size the cost estimate assumes for what a selector reads from a device: a device has
// at most 32 attributes and capacities (ResourceSliceMaxAttributesAndCapacitiesPerDevice)
// and string or version values of at most 64 bytes.
inline constexpr uint64_t kDraMaxVariableSize = 64;

// kubernetes.DRADevice: driver string, attributes map(string, map(string, dyn)), capacity
// map(string, map(string, kubernetes.Quantity)), allowMultipleAllocations bool.
Type DraDeviceType();

class DraSelectors {
 public:
  DraSelectors();
  DraSelectors(const DraSelectors&) = delete;
  DraSelectors& operator=(const DraSelectors&) = delete;

  // The compiled selector (cached by text). InvalidArgument with the compile error, or
  // "must evaluate to bool or the unknown type, not int" as upstream says it. The pointer
  // lives as long as this object.
  core::Result<const Program*> Compile(std::string_view expression);

  // Evaluates `selector` (from Compile) against `device`. A runtime error (no such key,
  // cost limit) is an Error, as upstream aborts the allocation on it. No allocation for
  // typical selectors.
  core::Result<bool> Matches(const Program& selector, const DraDevice& device) const;

  const Environment& environment() const { return env_; }

 private:
  Environment env_;
  size_t device_slot_ = 0;
  ProgramCache cache_;
};

}  // namespace berth::cel
