// WriteReport: the three files of `--report DIR`. Each file is written to a temporary name
// and renamed into place, so an interrupted run never leaves a half-written report that a
// reader could mistake for a complete one.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "sim/report/run_report.h"

namespace berth::sim::report {
namespace {

core::Error Unavailable(const std::string& message, const std::string& path) {
  return core::Error(core::ErrorCode::kUnavailable, message, core::Location{path, "", ""});
}

core::Status WriteFile(const std::filesystem::path& path, const std::string& bytes) {
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

}  // namespace

core::Status WriteReport(const std::string& dir, const std::vector<RunReport>& runs,
                         const ReportOptions& options) {
  if (runs.empty()) {
    return core::InvalidArgument("no runs to report", core::Location{dir, "", ""});
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Unavailable("cannot create report directory: " + ec.message(), dir);
  }
  if (!std::filesystem::is_directory(dir, ec)) {
    return Unavailable("report path is not a directory", dir);
  }
  const std::filesystem::path base(dir);
  BERTH_RETURN_IF_ERROR(WriteFile(base / "summary.json", RenderSummaryJson(runs, options)));
  BERTH_RETURN_IF_ERROR(WriteFile(base / "metrics.csv", RenderMetricsCsv(runs)));
  BERTH_RETURN_IF_ERROR(WriteFile(base / "report.html", RenderHtml(runs, options)));
  return core::OkStatus();
}

}  // namespace berth::sim::report
