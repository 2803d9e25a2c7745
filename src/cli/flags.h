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

// plan's -o with --no-headers: yaml, json, table, wide (a table with more columns) or name
// (`TYPE/NAMESPACE/NAME` lines). --no-headers applies to table and wide only.
struct PlanOutput {
  io::OutputFormat format = io::OutputFormat::kYaml;
  io::TableOptions table;
};
core::Result<PlanOutput> ParsePlanOutput(const std::string& text, bool no_headers);

// "LeastAllocated", "MostAllocated" or "RequestedToCapacityRatio" (kube-scheduler's
// scoringStrategy.type spelling).
core::Result<model::ScoringStrategyType> ParseScoringStrategy(const std::string& text);

// --cycles: a whole number from 1 to engine::kMaxPlanCycles, digits only.
core::Result<int32_t> ParseCycles(const std::string& text);

// The rule every flag that takes a value meets before a command sees it (main.cc runs it as a
// CLI11 check, so a failure names the flag and exits 2): the value is not empty. The commands
// read an empty string as "not given", so `--now ""` would otherwise plan at no time and
// `--seeds ""` replay nothing without a word. Returns the problem, or an empty string.
std::string EmptyFlagValueProblem(const std::string& text);

// A whole-number flag (simulate's --threads, --max-gpus-per-pod): digits only, from `min` to
// `max`. Returns the problem, or an empty string (a CLI11 check, as above).
std::string CountFlagProblem(const std::string& text, int64_t min, int64_t max);

// simulate --threads: runs in parallel, at most this many (more than any machine berth runs on
// has cores; each thread holds a copy of the OpenB fleet).
inline constexpr int64_t kMaxSimulateThreads = 256;

// simulate --max-gpus-per-pod: more GPUs than any node holds, so no split at all; the bound
// keeps the split's arithmetic (pods x GPUs) far from overflow.
inline constexpr int64_t kMaxGpusPerPodFlag = 1'000'000;

// simulate --until over --interval: at most this many metrics samples (one row each in
// metrics.csv; 400 days at 1s would be 34 million and run for minutes).
inline constexpr int64_t kMaxMetricsSamples = 1'000'000;

// --scoring, --now and --cycles as PlanOptions; an empty --scoring or --now, or no --cycles,
// leaves the option unset.
core::Result<engine::PlanOptions> ParsePlanOptions(const std::string& scoring,
                                                   const std::string& now,
                                                   const std::optional<std::string>& cycles = std::nullopt);

}  // namespace berth::cli
