#include "cli/version.h"

#ifndef BERTH_VERSION
#error "BERTH_VERSION must be defined by the build (src/cli/CMakeLists.txt)"
#endif

namespace berth::cli {

std::string VersionString() { return std::string("berth ") + BERTH_VERSION; }

}  // namespace berth::cli
