// Labels: a sorted key/value map as Kubernetes metadata.labels holds them. Ordered so that
// printing and hashing are deterministic. Plain value type.
#pragma once

#include <map>
#include <string>

namespace berth::core {

using Labels = std::map<std::string, std::string, std::less<>>;

}  // namespace berth::core
