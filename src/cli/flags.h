// Flag values shared by the commands, parsed from the strings CLI11 hands over. main.cc
// only binds flags to strings; the commands call these so that a bad value is an error with
// a message (exit code 2), never an exception. Stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "engine/plan.h"
#include "io/writer.h"

namespace berth::cli {

// "yaml", "json" or "table".
core::Result<io::OutputFormat> ParseOutputFormat(const std::string& text);

// "LeastAllocated", "MostAllocated" or "RequestedToCapacityRatio" (kube-scheduler's
// scoringStrategy.type spelling).
core::Result<model::ScoringStrategyType> ParseScoringStrategy(const std::string& text);

// --cycles: a whole number from 1 to engine::kMaxPlanCycles, digits only.
core::Result<int32_t> ParseCycles(const std::string& text);

// --scoring, --now and --cycles as PlanOptions; an empty --scoring or --now, or no --cycles,
// leaves the option unset.
core::Result<engine::PlanOptions> ParsePlanOptions(const std::string& scoring,
                                                   const std::string& now,
                                                   const std::optional<std::string>& cycles = std::nullopt);

}  // namespace berth::cli
