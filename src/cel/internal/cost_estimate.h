// EstimateMaxCost: a static upper estimate, at compile time, of what one evaluation of an
// expression may charge against CompileOptions::cost_limit (one unit per comprehension
// iteration, one per byte or element `+` builds), in the manner of cel-go's checker.Cost
// that Kubernetes uses to refuse a too-costly selector before it is ever run. Called by
// Compile on a parsed tree; one pass, O(nodes); pure.
#pragma once

#include <cstdint>

#include "cel/internal/ast.h"

namespace berth::cel::internal {

// `max_variable_size` bounds every list, map, string or bytes value the expression reads
// from a variable or a host function (DRA: 32 attributes or capacities per device, string
// values of at most 64 bytes). Literals count exactly; comprehension results and `+` are
// derived from their operands. Saturates at UINT64_MAX.
uint64_t EstimateMaxCost(const Expr& root, uint64_t max_variable_size);

}  // namespace berth::cel::internal
