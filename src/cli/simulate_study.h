// `berth simulate --scenario STUDY` for a ModelLoadStudy file (sim/modelload): reads the
// study and its fleet, runs every strategy, prints one line per strategy and, with --report
// DIR, writes summary.json and report.html. Called by simulate_command.cc when the scenario
// file's kind is ModelLoadStudy; returns the process exit code (exit_code.h).
#pragma once

#include <ostream>

#include "cli/simulate_command.h"

namespace berth::cli {

int RunModelLoadStudyCommand(const SimulateFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
