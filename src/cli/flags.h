// Flag values shared by the commands, parsed from the strings CLI11 hands over. main.cc
// only binds flags to strings; the commands call these so that a bad value is an error with
// a message (exit code 2), never an exception. Stateless functions.
#pragma once

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

// --scoring and --now as PlanOptions; an empty string leaves the option unset.
core::Result<engine::PlanOptions> ParsePlanOptions(const std::string& scoring,
                                                   const std::string& now);

}  // namespace berth::cli
