// How Kueue's messages print amounts: as a resource.Quantity of the resource's unit (cpu in
// milli-cores "500m"/"2", memory in binary suffixes "16Gi" when exact, counts plain).
// Pure function.
#pragma once

#include <cstdint>
#include <string>

#include "model/resources.h"

namespace berth::queueing {

std::string FormatAmount(model::ResourceId resource, int64_t amount);

}  // namespace berth::queueing
