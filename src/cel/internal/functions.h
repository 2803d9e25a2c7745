// The built-in function table: CEL's standard functions (size, contains, startsWith,
// endsWith, matches, conversions), the Kubernetes string extras (lowerAscii, upperAscii),
// and the Kubernetes quantity and semver libraries. The planner narrows a call to the
// overloads its static argument types allow; the call step picks among those by runtime
// kinds. Internal to src/cel; a constant table, no registration at start-up.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "cel/type.h"
#include "cel/value.h"

namespace berth::cel::internal {

// args holds `arity` non-error values whose kinds match the overload's parameters.
using FunctionImpl = Value (*)(const Value* args);

inline constexpr size_t kMaxArity = 3;

struct Overload {
  std::string_view function;               // CEL name, e.g. "compareTo"
  std::string_view id;                     // upstream overload id, e.g. "quantity_compare_to"
  bool receiver;                           // called as args[0].function(args[1...])
  uint8_t arity;                           // including the receiver
  std::array<TypeKind, kMaxArity> params;  // kDyn accepts anything
  TypeKind result;                         // kDyn when it depends on the argument
  FunctionImpl impl;
};

// Every built-in overload, grouped by function name.
std::span<const Overload> BuiltinOverloads();

// Whether a runtime value fits a parameter kind.
bool KindAccepts(TypeKind param, ValueKind actual);

// The TypeKind of a runtime kind (kError has none: kDyn).
TypeKind TypeKindOf(ValueKind kind);

}  // namespace berth::cel::internal
