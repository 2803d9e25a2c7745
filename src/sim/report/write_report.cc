// WriteReport: the three files of `--report DIR`, each written atomically
// (internal/write_file.h).
#include <filesystem>
#include <string>

#include "sim/report/internal/write_file.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {

core::Status WriteReport(const std::string& dir, const std::vector<RunReport>& runs,
                         const ReportOptions& options) {
  if (runs.empty()) {
    return core::InvalidArgument("no runs to report", core::Location{dir, "", ""});
  }
  BERTH_RETURN_IF_ERROR(internal::CreateReportDirectory(dir));
  const std::filesystem::path base(dir);
  BERTH_RETURN_IF_ERROR(
      internal::WriteFileAtomically(base / "summary.json", RenderSummaryJson(runs, options)));
  BERTH_RETURN_IF_ERROR(
      internal::WriteFileAtomically(base / "metrics.csv", RenderMetricsCsv(runs)));
  BERTH_RETURN_IF_ERROR(
      internal::WriteFileAtomically(base / "report.html", RenderHtml(runs, options)));
  return core::OkStatus();
}

}  // namespace berth::sim::report
