// The report of a model-load study (`berth simulate --scenario STUDY --report DIR`):
// summary.json (every strategy's figures) and report.html (the comparison table, a chart of
// replicas ready over time per strategy side by side on one time axis, all strategies on one
// chart, and the load-time percentiles as bars). Same study, same bytes. Pure functions;
// thread-safe; O(strategies x replicas).
#pragma once

#include <string>

#include "core/result.h"
#include "sim/modelload/study.h"
#include "sim/report/run_report.h"

namespace berth::sim::report {

std::string RenderModelLoadJson(const modelload::StudyResult& study, const ReportOptions& options);
std::string RenderModelLoadHtml(const modelload::StudyResult& study, const ReportOptions& options);

// Writes DIR/summary.json and DIR/report.html, creating DIR when missing. Errors as
// WriteReport's (kUnavailable naming the path).
core::Status WriteModelLoadReport(const std::string& dir, const modelload::StudyResult& study,
                                  const ReportOptions& options);

}  // namespace berth::sim::report
