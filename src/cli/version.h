// The berth version, as `berth version` and `berth --version` print it, and the build facts
// `berth version -o json` adds. Set by CMake (src/cli/CMakeLists.txt) from the project
// version, the git commit at configure time and the build type. Stateless.
#pragma once

#include <ostream>
#include <string>

namespace berth::cli {

// "berth 0.1.0".
std::string VersionString();

struct BuildInfo {
  std::string version;     // "0.1.0"
  std::string commit;      // git's short hash at configure time; empty: not known
  std::string compiler;    // "clang 18.1.3", "gcc 13.2.0"
  std::string build_type;  // CMAKE_BUILD_TYPE: "Release", "Debug", ...; empty: none set
};

// This binary's.
BuildInfo CurrentBuildInfo();

// {"version", "commit" (left out when not known), "compiler", "buildType"}, two-space
// indented as io/json_writer.h prints.
void PrintVersionJson(const BuildInfo& info, std::ostream& out);

}  // namespace berth::cli
