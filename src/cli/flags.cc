#include "cli/flags.h"

#include <algorithm>
#include <string>

namespace berth::cli {
namespace {

// A flag value quoted in an error: at most this many bytes of it.
constexpr size_t kMaxQuotedFlagValue = 64;

std::string Quoted(const std::string& text) {
  if (text.size() <= kMaxQuotedFlagValue) return "\"" + text + "\"";
  return "\"" + text.substr(0, kMaxQuotedFlagValue) + "...\" (" + std::to_string(text.size()) +
         " bytes)";
}

}  // namespace

core::Result<io::OutputFormat> ParseOutputFormat(const std::string& text) {
  if (text == "yaml") return io::OutputFormat::kYaml;
  if (text == "json") return io::OutputFormat::kJson;
  if (text == "table") return io::OutputFormat::kTable;
  return core::InvalidArgument("--output: unknown format \"" + text +
                               "\" (want yaml, json or table)");
}

core::Result<PlanOutput> ParsePlanOutput(const std::string& text, bool no_headers) {
  PlanOutput out;
  out.table.no_headers = no_headers;
  if (text == "wide") {
    out.format = io::OutputFormat::kTable;
    out.table.wide = true;
    return out;
  }
  if (text == "name") {
    out.format = io::OutputFormat::kName;
    return out;
  }
  auto format = ParseOutputFormat(text);
  if (!format.has_value()) {
    return core::InvalidArgument("--output: unknown format \"" + text +
                                 "\" (want yaml, json, table, wide or name)");
  }
  out.format = format.value();
  return out;
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

std::string EmptyFlagValueProblem(const std::string& text) {
  return text.empty() ? "an empty value is not allowed" : "";
}

std::string CountFlagProblem(const std::string& text, int64_t min, int64_t max) {
  // Digits only, as for --cycles; 18 digits stay below INT64_MAX while accumulating.
  const bool digits = !text.empty() && text.size() <= 18 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  int64_t value = 0;
  if (digits) {
    for (char c : text) value = value * 10 + (c - '0');
  }
  if (digits && value >= min && value <= max) return "";
  return Quoted(text) + " is not a whole number from " + std::to_string(min) + " to " +
         std::to_string(max);
}

core::Result<int32_t> ParseCycles(const std::string& text) {
  // Digits only: "+3", " 3", "3.0" and "0x3" are mistakes, not numbers to guess at. The
  // length check keeps the accumulation below far from overflow.
  const bool digits = !text.empty() && text.size() <= 9 &&
                      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  int64_t value = 0;
  if (digits) {
    for (char c : text) value = value * 10 + (c - '0');
  }
  if (!digits || value < 1 || value > engine::kMaxPlanCycles) {
    return core::InvalidArgument("--cycles: \"" + text + "\" is not a number of cycles (want a whole number from 1 to " +
                                 std::to_string(engine::kMaxPlanCycles) + ")");
  }
  return static_cast<int32_t>(value);
}

core::Result<engine::PlanOptions> ParsePlanOptions(const std::string& scoring,
                                                   const std::string& now,
                                                   const std::optional<std::string>& cycles) {
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
  if (cycles) {
    BERTH_ASSIGN_OR_RETURN(options.cycles, ParseCycles(*cycles));
  }
  return options;
}

}  // namespace berth::cli
