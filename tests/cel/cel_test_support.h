// Helpers for the cel tests: compile and evaluate in one call and render the outcome as a
// string, so that expectations read like the expressions they test.
#pragma once

#include <string>
#include <string_view>

#include "cel/activation.h"
#include "cel/environment.h"
#include "cel/program.h"
#include "cel/value.h"

namespace berth::cel::testing {

// "compile: <message>" when Compile fails, "error: <message>" for a runtime error, else
// the value's DebugString().
inline std::string Outcome(std::string_view expr, const Environment& env, const Activation& act,
                           const CompileOptions& options = {}) {
  core::Result<Program> program = Compile(expr, env, options);
  if (!program.has_value()) return "compile: " + program.error().message();
  Value v = program->EvaluateValue(act);
  if (v.is_error()) return "error: " + std::string(v.error_message());
  return v.DebugString();
}

// Outcome() in an environment without variables.
inline std::string Outcome(std::string_view expr, const CompileOptions& options = {}) {
  Environment env;
  Activation act(env);
  return Outcome(expr, env, act, options);
}

}  // namespace berth::cel::testing
