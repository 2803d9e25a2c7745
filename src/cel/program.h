// Program and Compile: the entry points of the cel module. Compile() parses and checks an
// expression against an Environment once; Program::Evaluate() runs it against an
// Activation as often as needed (the DRA allocator evaluates one selector against
// thousands of devices). A Program is immutable: Evaluate is const and thread-safe.
//
//   cel::Environment env;
//   size_t device = env.AddVariable("device", cel::Type::Dyn()).value();
//   BERTH_ASSIGN_OR_RETURN(cel::Program p, cel::Compile("device.driver == 'x'", env));
//   cel::Activation act(env);
//   act.Bind(device, host_value);
//   BERTH_ASSIGN_OR_RETURN(bool match, cel::EvaluateBool(p, act));
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cel/activation.h"
#include "cel/environment.h"
#include "cel/type.h"
#include "cel/value.h"
#include "core/result.h"

namespace berth::cel {

namespace internal {
struct ProgramState;
}  // namespace internal

struct CompileOptions {
  // Longer expressions are refused (cel-go's default; DRA selectors allow 10Ki bytes).
  size_t max_expression_code_points = 100'000;
  // Deeper nesting is refused: this bounds the stack every pass and the evaluator use.
  int max_recursion_depth = 250;
  // Evaluation budget: one unit per comprehension iteration plus one per byte or element
  // that + builds. nullopt: unlimited. Exceeding it is ResourceExhausted.
  std::optional<uint64_t> cost_limit;
  // Compile-time budget in the same units, as Kubernetes refuses a selector whose estimated
  // cost exceeds CELSelectorExpressionMaxCost: the most one evaluation may cost, with every
  // list, map or string read from a variable at most max_variable_size long. Over it,
  // Compile fails with "Forbidden: too complex, exceeds cost limit ...". nullopt: no
  // estimate (variables of unbounded size).
  std::optional<uint64_t> estimated_cost_limit;
  uint64_t max_variable_size = 64;
};

class Program {
 public:
  Program(Program&& other) noexcept;
  Program& operator=(Program&& other) noexcept;
  ~Program();

  // Evaluates against `activation`, which must come from the Environment this program was
  // compiled with (checked). A runtime error value becomes an Error: InvalidArgument with
  // cel-go's message ("no such key: memory", "division by zero", "no matching overload for
  // '_+_' applied to '(int, string)'"), or ResourceExhausted when over the cost limit.
  // The result may borrow from this program and from the activation's bound values.
  // Allocates nothing unless the expression builds values (lists, maps, new strings or
  // quantities), fails, or calls a host function that allocates: a selector that selects,
  // indexes, compares and calls compareTo/isGreaterThan/startsWith/... runs
  // allocation-free.
  core::Result<Value> Evaluate(const Activation& activation) const;

  // Like Evaluate, but returns runtime errors as error Values (is_error()).
  Value EvaluateValue(const Activation& activation) const;

  // The static type the checker inferred (dyn when only run time can tell).
  const Type& result_type() const;
  const std::string& expression() const;

 private:
  friend core::Result<Program> Compile(std::string_view expression, const Environment& env,
                                       const CompileOptions& options);
  explicit Program(std::unique_ptr<internal::ProgramState> state);

  std::unique_ptr<internal::ProgramState> state_;
};

// Parses and checks `expression`. On failure, InvalidArgument whose message is cel-go's
// first issue line, with a 1-based line and column (in code points), or, over
// options.estimated_cost_limit, "Forbidden: too complex, exceeds cost limit (estimated
// cost N, limit M)":
//   ERROR: <input>:1:5: undeclared reference to 'y' (in container '')
//   ERROR: <input>:1:5: found no matching overload for '_+_' applied to '(string, int)'
//   ERROR: <input>:1:3: Syntax error: mismatched input ')' expecting an expression
// `env` must outlive the program.
core::Result<Program> Compile(std::string_view expression, const Environment& env,
                              const CompileOptions& options = {});

// Evaluates and requires a bool, as DRA selectors must produce: InvalidArgument
// "CEL result of type int could not be converted to bool" otherwise.
core::Result<bool> EvaluateBool(const Program& program, const Activation& activation);

}  // namespace berth::cel
