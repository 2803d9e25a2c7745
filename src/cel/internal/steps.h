// Factories for the Step kinds the planner emits. Each returns a heap node that is never
// moved afterwards (steps may point into themselves). Internal to src/cel.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cel/environment.h"
#include "cel/internal/ast.h"
#include "cel/internal/functions.h"
#include "cel/internal/regex.h"
#include "cel/internal/step.h"

namespace berth::cel::internal {

using UnaryOperator = Value (*)(const Value&);
using BinaryOperator = Value (*)(const Value&, const Value&);

// Yields `value` (borrowed from the step, so evaluation never touches its reference count).
StepPtr MakeConstant(Value value);
// An environment variable by slot; unbound is "no such attribute(s): name".
StepPtr MakeVariable(size_t slot, std::string name);
// A comprehension or cel.bind local.
StepPtr MakeLocal(size_t slot);
StepPtr MakeSelect(StepPtr operand, std::string field);
StepPtr MakeHas(StepPtr operand, std::string field);
StepPtr MakeUnary(UnaryOperator op, StepPtr operand);
StepPtr MakeBinary(BinaryOperator op, StepPtr lhs, StepPtr rhs);
// _+_ with the cost of the bytes or items it builds charged to the frame.
StepPtr MakeAdd(StepPtr lhs, StepPtr rhs);
// Commutative, error-absorbing logic: false && error == false, error || true == true.
StepPtr MakeAnd(StepPtr lhs, StepPtr rhs);
StepPtr MakeOr(StepPtr lhs, StepPtr rhs);
StepPtr MakeTernary(StepPtr cond, StepPtr then_step, StepPtr else_step);
StepPtr MakeList(std::vector<StepPtr> items);
// keys_and_values alternates key, value.
StepPtr MakeMap(std::vector<StepPtr> keys_and_values);
// A call of `function` resolved at run time among `candidates` (narrowed by the planner).
StepPtr MakeCall(std::string function, bool receiver, std::vector<const Overload*> candidates,
                 std::vector<StepPtr> args);
// A call of a host function resolved at run time among `candidates` (narrowed by the
// planner; the step copies their parameter kinds and implementations).
StepPtr MakeHostCall(std::string function, bool receiver,
                     std::vector<const FunctionDecl*> candidates, std::vector<StepPtr> args);
// text.matches(<constant pattern>) with the pattern compiled once.
StepPtr MakeMatchesConstant(StepPtr text, std::unique_ptr<Regex> regex);
StepPtr MakeComprehension(MacroKind macro, size_t iter_slot, StepPtr range, StepPtr first,
                          StepPtr second);
StepPtr MakeBind(size_t slot, StepPtr init, StepPtr body);

}  // namespace berth::cel::internal
