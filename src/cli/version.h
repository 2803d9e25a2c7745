// The berth version, as `berth version` and `berth --version` print it. Set by CMake from
// the project version. Stateless.
#pragma once

#include <string>

namespace berth::cli {

// "berth 0.1.0".
std::string VersionString();

}  // namespace berth::cli
