// Step: one node of a compiled program. The planner turns the checked Expr tree into a
// tree of Steps, each specialized for its operation, with constants folded and overloads
// narrowed at compile time; Program::Evaluate runs the root. Steps are immutable after
// planning, so one program may be evaluated from many threads at once. Internal.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include "cel/activation.h"
#include "cel/value.h"

namespace berth::cel::internal {

// The cel-go text of a cost overrun, also how Program tells it from other errors.
inline constexpr const char* kCostLimitMessage = "operation cancelled: actual cost limit exceeded";

// Per-evaluation state: the variables, the locals of comprehensions and cel.bind, and the
// cost spent so far.
struct Frame {
  const Activation* activation = nullptr;
  Value* locals = nullptr;
  uint64_t cost = 0;
  uint64_t cost_limit = std::numeric_limits<uint64_t>::max();

  // Adds `units` and reports whether the budget still holds.
  bool Charge(uint64_t units) {
    cost += units;
    return cost <= cost_limit;
  }
};

class Step {
 public:
  virtual ~Step() = default;
  // Never throws; errors come back as error Values.
  virtual Value Eval(Frame& frame) const = 0;
  // The value of a constant step (after folding), else nullptr.
  virtual const Value* constant() const { return nullptr; }
};

using StepPtr = std::unique_ptr<Step>;

}  // namespace berth::cel::internal
