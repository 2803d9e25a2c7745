// `berth doctor -f PATH`: checks the configuration read (GPU stack, scheduling, Kueue, DRA,
// OCM, tenancy, operations, storage) with diag's rules and prints the findings as a table
// grouped by severity, JSON or SARIF 2.1.0. `berth doctor --list-rules` prints the catalogue.
// Called by main.cc; returns the process exit code. Not thread-safe (stdin).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace berth::cli {

struct DoctorFlags {
  std::vector<std::string> files;     // -f
  std::vector<std::string> clusters;  // --cluster NAME=PATH
  bool demo = false;                  // --demo: the built-in demo fleet
  std::string output = "table";       // -o table|json|sarif
  std::string fail_on = "error";      // --fail-on error|warning|info
  std::vector<std::string> rules;     // --rules ID,...
  std::vector<std::string> skip;      // --skip ID,...
  std::string now;                    // --now (RFC 3339): ages are measured from it
  bool list_rules = false;            // --list-rules
};

// Exit codes: 0 no finding at or above --fail-on; 1 some finding at or above it (or objects
// that could not be read, which the rules did not see); 2 bad flags or nothing read.
int RunDoctorCommand(const DoctorFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
