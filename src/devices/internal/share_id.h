// Share IDs for devices allocated with allowMultipleAllocations. Upstream draws a random
// UUID; berth derives one from the claim and the device so that the same input always
// prints the same output (DESIGN.md).
#pragma once

#include <cstdint>
#include <string>

namespace berth::devices::internal {

// A UUID-shaped id (8-4-4-4-12 lowercase hex, version 4 and RFC 4122 variant bits set)
// hashed from `claim` (uid, or namespace/name), the device ("driver/pool/device") and the
// result's index in the claim. Different inputs collide with probability ~2^-122.
std::string MakeShareId(const std::string& claim, const std::string& device, int32_t index);

}  // namespace berth::devices::internal
