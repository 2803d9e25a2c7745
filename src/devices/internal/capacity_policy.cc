#include "devices/internal/capacity_policy.h"

#include <algorithm>
#include <map>

namespace berth::devices::internal {
namespace {

std::string Qualify(const std::string& name, const std::string& driver) {
  return name.find('/') == std::string::npos ? driver + "/" + name : name;
}

}  // namespace

std::vector<CapacityEntry> ResolveDeviceCapacity(const std::string& driver,
                                                 const model::Device& device) {
  std::map<std::string, CapacityEntry> resolved;
  const std::string prefix = driver + "/";
  // Entries qualified with the driver's own domain first: they win over unqualified ones.
  for (const auto& [name, cap] : device.capacity) {
    if (name.compare(0, prefix.size(), prefix) == 0) {
      resolved[name] = CapacityEntry{name, name, &cap};
    }
  }
  for (const auto& [name, cap] : device.capacity) {
    if (name.compare(0, prefix.size(), prefix) == 0) continue;
    std::string qualified = Qualify(name, driver);
    resolved.try_emplace(qualified, CapacityEntry{name, qualified, &cap});
  }
  std::vector<CapacityEntry> out;
  out.reserve(resolved.size());
  for (auto& [name, entry] : resolved) out.push_back(std::move(entry));
  return out;
}

core::Quantity ConsumedAmount(const std::optional<core::Quantity>& requested,
                              const model::DeviceCapacity& capacity) {
  const auto& policy = capacity.request_policy;
  if (!requested.has_value()) {
    if (policy.has_value() && policy->default_value.has_value()) return *policy->default_value;
    return capacity.value;
  }
  if (!policy.has_value()) return *requested;
  if (policy->valid_range.has_value()) {
    const model::CapacityRequestPolicyRange& range = *policy->valid_range;
    if (*requested < range.min) return range.min;
    if (!range.step.has_value() || range.step->milli() <= 0) return *requested;
    // Exact milli-unit arithmetic: min + ceil((request - min) / step) * step. Upstream uses
    // whole units unless the range is fractional; both agree on whole-unit ranges.
    const core::Int128 step = range.step->milli();
    const core::Int128 added = requested->milli() - range.min.milli();
    core::Int128 n = added / step;
    if (added % step != 0) ++n;
    return core::Quantity::FromMilli(range.min.milli() + n * step, range.step->format());
  }
  if (!policy->valid_values.empty()) {
    for (const core::Quantity& v : policy->valid_values) {
      if (*requested <= v) return v;
    }
  }
  return *requested;
}

bool ViolatesPolicy(const core::Quantity& amount,
                    const std::optional<model::CapacityRequestPolicy>& policy) {
  if (!policy.has_value()) return false;
  if (policy->default_value.has_value() && amount == *policy->default_value) return false;
  if (policy->valid_range.has_value()) {
    const model::CapacityRequestPolicyRange& range = *policy->valid_range;
    if (range.max.has_value() && amount > *range.max) return true;
    if (range.step.has_value() && range.step->milli() > 0 &&
        (amount.milli() - range.min.milli()) % range.step->milli() != 0) {
      return true;
    }
    return false;
  }
  if (!policy->valid_values.empty()) {
    return std::none_of(policy->valid_values.begin(), policy->valid_values.end(),
                        [&](const core::Quantity& v) { return v == amount; });
  }
  return false;
}

core::Result<CapacityDemand> ComputeDemand(const std::map<std::string, core::Quantity>& requests,
                                           const std::string& driver,
                                           const std::vector<CapacityEntry>& entries) {
  CapacityDemand demand;
  // Resolve every requested name to an entry (upstream resolveCapacityName): an exact key,
  // or the same id in the driver's domain written the other way.
  std::vector<const core::Quantity*> wanted(entries.size(), nullptr);
  for (const auto& [name, quantity] : requests) {
    const std::string qualified = Qualify(name, driver);
    auto it = std::find_if(entries.begin(), entries.end(),
                           [&](const CapacityEntry& e) { return e.qualified == qualified; });
    if (it == entries.end()) {
      demand.outcome = CapacityDemand::Outcome::kMissing;
      return demand;
    }
    const size_t i = static_cast<size_t>(it - entries.begin());
    if (wanted[i] != nullptr) {
      return core::InvalidArgument("capacity \"" + qualified +
                                   "\" is requested both with and without its domain");
    }
    wanted[i] = &quantity;
  }
  demand.amounts.reserve(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    std::optional<core::Quantity> requested;
    if (wanted[i] != nullptr) requested = *wanted[i];
    core::Quantity amount = ConsumedAmount(requested, *entries[i].capacity);
    if (amount.IsNegative()) {
      return core::InvalidArgument("capacity \"" + entries[i].qualified +
                                   "\": capacity value is negative");
    }
    if (ViolatesPolicy(amount, entries[i].capacity->request_policy)) {
      demand.outcome = CapacityDemand::Outcome::kViolation;
    }
    demand.amounts.push_back(std::move(amount));
  }
  return demand;
}

}  // namespace berth::devices::internal
