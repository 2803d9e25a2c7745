// The CEL operators on Values, with cel-go's semantics and error texts: heterogeneous
// equality, ordering with cross-type numeric comparison, checked int/uint arithmetic,
// indexing, membership and field selection. Every function returns an error Value when an
// operand is one (the first, left to right) and never aborts. Internal to src/cel.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "cel/value.h"

namespace berth::cel::internal {

// "no matching overload for 'fn' applied to '(int, string)'" (receiver calls print
// "int.(string)", as cel-go formats instance calls).
Value NoMatchingOverload(std::string_view function, const Value* args, size_t count,
                         bool receiver = false);
Value NoMatchingOverload(std::string_view function, const Value& a);
Value NoMatchingOverload(std::string_view function, const Value& a, const Value& b);

// Heterogeneous equality of two non-error values (1 == 1u == 1.0; NaN != NaN; values of
// different kinds are unequal; lists and maps compare element-wise).
bool ValuesEqual(const Value& a, const Value& b);

Value Equal(const Value& a, const Value& b);
Value NotEqual(const Value& a, const Value& b);
Value Less(const Value& a, const Value& b);
Value LessEqual(const Value& a, const Value& b);
Value Greater(const Value& a, const Value& b);
Value GreaterEqual(const Value& a, const Value& b);

Value Add(const Value& a, const Value& b);
Value Subtract(const Value& a, const Value& b);
Value Multiply(const Value& a, const Value& b);
Value Divide(const Value& a, const Value& b);
Value Modulo(const Value& a, const Value& b);
Value Negate(const Value& a);
Value LogicalNot(const Value& a);

// a in b: list membership or map key presence.
Value In(const Value& a, const Value& b);
// a[b] on a list or map.
Value Index(const Value& a, const Value& b);
// a.field on a map (or host object); `field` is a string Value.
Value SelectField(const Value& a, const Value& field);
// has(a.field).
Value HasField(const Value& a, const Value& field);

// How a key appears in "no such key: ..." (Go's %v: strings unquoted).
std::string KeyText(const Value& key);

}  // namespace berth::cel::internal
