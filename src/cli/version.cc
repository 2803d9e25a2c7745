#include "cli/version.h"

#include "io/json_writer.h"

#ifndef BERTH_VERSION
#error "BERTH_VERSION must be defined by the build (src/cli/CMakeLists.txt)"
#endif
// Set on this file only (a changed commit must not rebuild the module); empty when the
// source is not a git checkout.
#ifndef BERTH_COMMIT
#define BERTH_COMMIT ""
#endif
#ifndef BERTH_BUILD_TYPE
#define BERTH_BUILD_TYPE ""
#endif

namespace berth::cli {

std::string VersionString() { return std::string("berth ") + BERTH_VERSION; }

BuildInfo CurrentBuildInfo() {
  BuildInfo info;
  info.version = BERTH_VERSION;
  info.commit = BERTH_COMMIT;
  info.build_type = BERTH_BUILD_TYPE;
#if defined(__clang__)
  info.compiler = "clang " + std::to_string(__clang_major__) + "." +
                  std::to_string(__clang_minor__) + "." + std::to_string(__clang_patchlevel__);
#elif defined(__GNUC__)
  info.compiler = "gcc " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." +
                  std::to_string(__GNUC_PATCHLEVEL__);
#else
  info.compiler = "unknown";
#endif
  return info;
}

void PrintVersionJson(const BuildInfo& info, std::ostream& out) {
  io::JsonWriter w(out);
  w.BeginObject();
  w.Field("version", info.version);
  if (!info.commit.empty()) w.Field("commit", info.commit);
  w.Field("compiler", info.compiler);
  w.Field("buildType", info.build_type);
  w.EndObject();
  w.Finish();
}

}  // namespace berth::cli
