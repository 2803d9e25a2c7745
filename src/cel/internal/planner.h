// Planner: checks a parsed Expr against an Environment and builds the Step tree in one
// pass. It resolves identifiers (comprehension and cel.bind locals, then variables, then
// type names), infers static types bottom-up, rejects what no input could make work
// (cel-go checker messages: "undeclared reference to 'x' (in container '')", "found no
// matching overload for '_+_' applied to '(string, int)'", "undefined field 'x'"),
// narrows function overloads, folds constant subtrees and precompiles constant regexes.
// Internal to src/cel.
#pragma once

#include <cstddef>

#include "cel/environment.h"
#include "cel/internal/ast.h"
#include "cel/internal/lexer.h"
#include "cel/internal/step.h"
#include "cel/type.h"

namespace berth::cel::internal {

struct Plan {
  StepPtr root;
  Type type;
  size_t local_count = 0;  // slots for comprehension and cel.bind variables
};

// Returns true and fills `plan`, or false with `issue` at the offending byte offset.
bool PlanExpr(const Expr& expr, const Environment& env, Plan* plan, SyntaxIssue* issue);

}  // namespace berth::cel::internal
