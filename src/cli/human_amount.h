// HumanAmount: a resource amount as people read it in explain's tables: cpu in cores
// ("31.55", "500m" below one core), memory-like resources in the binary unit that keeps four
// significant digits ("123.9Gi", "1.5Ti", "512Mi"), counts as integers. Exact quantities
// (the plan's objects, JSON) keep model::AmountQuantity. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace berth::cli {

// `amount` in ResourceVector units (cpu in milli, memory in bytes).
std::string HumanAmount(std::string_view resource, int64_t amount);

}  // namespace berth::cli
