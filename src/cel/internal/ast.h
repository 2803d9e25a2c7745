// Expr: the parsed form of a CEL expression, with the standard macros (has, all, exists,
// exists_one, map, filter) and cel.bind already recognized, as cel-go's parser does.
// Operators are calls with cel-go's names ("_+_", "_[_]", "@in", "_?_:_", "!_", "-_").
// Internal to src/cel; built by the parser, read by the planner.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cel/value.h"

namespace berth::cel::internal {

enum class ExprKind : uint8_t {
  kLiteral,        // literal
  kIdent,          // name
  kSelect,         // args[0].name
  kHas,            // has(args[0].name)
  kCall,           // name(args...) or, when receiver, args[0].name(args[1...])
  kList,           // [args...]
  kMap,            // {args[0]: args[1], args[2]: args[3], ...}
  kComprehension,  // args[0].macro(name, args[1] [, args[2]])
  kBind,           // cel.bind(name, args[0], args[1])
};

enum class MacroKind : uint8_t {
  kAll,
  kExists,
  kExistsOne,
  kMap,        // range.map(x, transform)
  kMapFilter,  // range.map(x, predicate, transform)
  kFilter,
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  uint32_t offset = 0;  // byte offset errors point at (cel-go's choice of token)
  uint32_t depth = 1;   // 1 + the deepest child
  bool receiver = false;
  MacroKind macro = MacroKind::kAll;
  Value literal;
  std::string name;
  std::vector<std::unique_ptr<Expr>> args;
};

}  // namespace berth::cel::internal
