// Why a temporary name and a rename: an interrupted run never leaves a half-written report
// that a reader could mistake for a complete one.
#include "sim/report/internal/write_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace berth::sim::report::internal {
namespace {

core::Error Unavailable(const std::string& message, const std::string& path) {
  return core::Error(core::ErrorCode::kUnavailable, message, core::Location{path, "", ""});
}

}  // namespace

core::Status WriteFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return Unavailable(std::string("cannot create file: ") + std::strerror(errno), tmp.string());
    }
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      return Unavailable(std::string("cannot write file: ") + std::strerror(errno), tmp.string());
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Unavailable("cannot rename into place: " + ec.message(), path.string());
  }
  return core::OkStatus();
}

core::Status CreateReportDirectory(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Unavailable("cannot create report directory: " + ec.message(), dir);
  if (!std::filesystem::is_directory(dir, ec)) {
    return Unavailable("report path is not a directory", dir);
  }
  return core::OkStatus();
}

}  // namespace berth::sim::report::internal
