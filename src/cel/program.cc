// Compile = validate the text, parse (macros expanded), plan (type check, fold, narrow
// overloads). Evaluate = one Frame with the locals on the stack, then the root step.
#include "cel/program.h"

#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cel/internal/cost_estimate.h"
#include "cel/internal/parser.h"
#include "cel/internal/planner.h"
#include "cel/internal/step.h"
#include "cel/internal/text.h"
#include "core/check.h"

namespace berth::cel {

namespace internal {

struct ProgramState {
  std::string expression;
  const Environment* env = nullptr;
  StepPtr root;
  Type type;
  size_t local_count = 0;
  std::optional<uint64_t> cost_limit;
};

}  // namespace internal

namespace {

// Locals up to this many live on the evaluator's stack.
constexpr size_t kInlineLocals = 8;

core::Error CompileError(std::string_view source, size_t offset, const std::string& message) {
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < source.size(); ++i) {
    if (source[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  size_t column = 1 + internal::CodePointCount(
                          source.substr(line_start, std::min(offset, source.size()) - line_start));
  return core::InvalidArgument("ERROR: <input>:" + std::to_string(line) + ":" +
                               std::to_string(column) + ": " + message);
}

}  // namespace

Program::Program(std::unique_ptr<internal::ProgramState> state) : state_(std::move(state)) {}
Program::Program(Program&& other) noexcept = default;
Program& Program::operator=(Program&& other) noexcept = default;
Program::~Program() = default;

const Type& Program::result_type() const { return state_->type; }
const std::string& Program::expression() const { return state_->expression; }

Value Program::EvaluateValue(const Activation& activation) const {
  // An activation from another environment would bind the wrong slots.
  BERTH_CHECK(&activation.environment() == state_->env,
              "cel::Program evaluated with an Activation of another Environment");
  internal::Frame frame;
  frame.activation = &activation;
  if (state_->cost_limit.has_value()) frame.cost_limit = *state_->cost_limit;
  // Most selectors have no comprehension or cel.bind: no locals to build.
  if (state_->local_count == 0) return state_->root->Eval(frame);
  if (state_->local_count <= kInlineLocals) {
    std::array<Value, kInlineLocals> locals;
    frame.locals = locals.data();
    return state_->root->Eval(frame);
  }
  std::vector<Value> locals(state_->local_count);
  frame.locals = locals.data();
  return state_->root->Eval(frame);
}

core::Result<Value> Program::Evaluate(const Activation& activation) const {
  Value v = EvaluateValue(activation);
  if (!v.is_error()) return v;
  std::string message(v.error_message());
  if (message == internal::kCostLimitMessage) {
    return core::Error(core::ErrorCode::kResourceExhausted, std::move(message));
  }
  return core::InvalidArgument(std::move(message));
}

core::Result<Program> Compile(std::string_view expression, const Environment& env,
                              const CompileOptions& options) {
  if (!internal::IsValidUtf8(expression)) {
    return core::InvalidArgument("ERROR: <input>: expression is not valid UTF-8");
  }
  size_t size = internal::CodePointCount(expression);
  if (size > options.max_expression_code_points) {
    return core::InvalidArgument(
        "ERROR: <input>: expression code point size exceeds limit: size: " + std::to_string(size) +
        ", limit " + std::to_string(options.max_expression_code_points));
  }
  internal::SyntaxIssue issue;
  std::unique_ptr<internal::Expr> ast =
      internal::Parse(expression, options.max_recursion_depth, &issue);
  if (ast == nullptr) return CompileError(expression, issue.offset, issue.message);

  internal::Plan plan;
  if (!internal::PlanExpr(*ast, env, &plan, &issue)) {
    return CompileError(expression, issue.offset, issue.message);
  }
  if (options.estimated_cost_limit.has_value()) {
    // After planning, so a type error is reported as such rather than as a cost.
    const uint64_t estimate = internal::EstimateMaxCost(*ast, options.max_variable_size);
    if (estimate > *options.estimated_cost_limit) {
      return core::InvalidArgument(
          "Forbidden: too complex, exceeds cost limit (estimated cost " +
          (estimate == std::numeric_limits<uint64_t>::max() ? std::string("over 2^64")
                                                            : std::to_string(estimate)) +
          ", limit " + std::to_string(*options.estimated_cost_limit) + ")");
    }
  }
  auto state = std::make_unique<internal::ProgramState>();
  state->expression = std::string(expression);
  state->env = &env;
  state->root = std::move(plan.root);
  state->type = std::move(plan.type);
  state->local_count = plan.local_count;
  state->cost_limit = options.cost_limit;
  return Program(std::move(state));
}

core::Result<bool> EvaluateBool(const Program& program, const Activation& activation) {
  BERTH_ASSIGN_OR_RETURN(Value v, program.Evaluate(activation));
  if (v.kind() != ValueKind::kBool) {
    return core::InvalidArgument(std::string("CEL result of type ") + ValueKindName(v.kind()) +
                                 " could not be converted to bool");
  }
  return v.bool_value();
}

}  // namespace berth::cel
