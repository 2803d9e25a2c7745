#include "cli/flags.h"

namespace berth::cli {

core::Result<io::OutputFormat> ParseOutputFormat(const std::string& text) {
  if (text == "yaml") return io::OutputFormat::kYaml;
  if (text == "json") return io::OutputFormat::kJson;
  if (text == "table") return io::OutputFormat::kTable;
  return core::InvalidArgument("--output: unknown format \"" + text +
                               "\" (want yaml, json or table)");
}

core::Result<model::ScoringStrategyType> ParseScoringStrategy(const std::string& text) {
  if (text == "LeastAllocated") return model::ScoringStrategyType::kLeastAllocated;
  if (text == "MostAllocated") return model::ScoringStrategyType::kMostAllocated;
  if (text == "RequestedToCapacityRatio") {
    return model::ScoringStrategyType::kRequestedToCapacityRatio;
  }
  return core::InvalidArgument("--scoring: unknown strategy \"" + text +
                               "\" (want LeastAllocated, MostAllocated or "
                               "RequestedToCapacityRatio)");
}

core::Result<engine::PlanOptions> ParsePlanOptions(const std::string& scoring,
                                                   const std::string& now) {
  engine::PlanOptions options;
  if (!scoring.empty()) {
    BERTH_ASSIGN_OR_RETURN(options.scoring, ParseScoringStrategy(scoring));
  }
  if (!now.empty()) {
    auto parsed = core::Timestamp::Parse(now);
    if (!parsed.has_value()) {
      return core::InvalidArgument("--now: " + parsed.error().message());
    }
    options.now = parsed.value();
  }
  return options;
}

}  // namespace berth::cli
