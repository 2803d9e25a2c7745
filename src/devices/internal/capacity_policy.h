// Consumable capacity (KEP-5075, upstream consumable_capacity.go): how much of each capacity
// of a device one request consumes, after the device's requestPolicy rounds it, and whether
// that still fits next to what other allocations consume. Pure functions over model types;
// used by the allocator's search and its pre-check.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/quantity.h"
#include "core/result.h"
#include "model/resource_slice.h"

namespace berth::devices::internal {

// One capacity of a device, keyed by its fully-qualified name ("domain/id"); an
// unqualified published name lives in the driver's domain.
struct CapacityEntry {
  std::string published;  // the key as the slice wrote it; results are keyed by it
  std::string qualified;  // "domain/id"
  const model::DeviceCapacity* capacity = nullptr;
};

// The device's capacities, each once: an entry qualified with the driver's own domain wins
// over an unqualified entry of the same id (upstream resolveDeviceCapacity). Sorted by
// qualified name.
std::vector<CapacityEntry> ResolveDeviceCapacity(const std::string& driver,
                                                 const model::Device& device);

// What one request consumes on one device, per entry of ResolveDeviceCapacity().
struct CapacityDemand {
  enum class Outcome {
    kFits,       // `amounts` holds the consumption
    kMissing,    // the request names a capacity the device does not have
    kViolation,  // the rounded amount breaks the requestPolicy (above max, not a valid value)
  };
  Outcome outcome = Outcome::kFits;
  std::vector<core::Quantity> amounts;
};

// Computes the demand of `requests` (capacity.requests of a request; may be empty) on a
// device with `entries`. Errors: a request naming one capacity twice (qualified and not),
// a negative amount. Complexity: O(entries + requests).
core::Result<CapacityDemand> ComputeDemand(const std::map<std::string, core::Quantity>& requests,
                                           const std::string& driver,
                                           const std::vector<CapacityEntry>& entries);

// The amount a request of `requested` (nullopt: not requested) consumes from `capacity`:
// no request → the policy default, else the whole value; no policy → as requested;
// validRange → at least min, rounded up to min + k*step; validValues → the smallest valid
// value not below the request (the request itself when there is none).
core::Quantity ConsumedAmount(const std::optional<core::Quantity>& requested,
                              const model::DeviceCapacity& capacity);

// True when `amount` is not allowed by `policy`: above validRange.max, off the step grid,
// or not one of validValues. The default is always allowed.
bool ViolatesPolicy(const core::Quantity& amount,
                    const std::optional<model::CapacityRequestPolicy>& policy);

}  // namespace berth::devices::internal
