// Parser: tokens to Expr, by recursive descent over cel-spec's grammar (ternary, ||, &&,
// relations, + -, * / %, unary, member, primary). Chains of && and || are built as balanced
// trees (as cel-go does) so that long selectors stay shallow. Nesting deeper than
// max_recursion_depth is refused, which bounds the stack use of every later pass.
// Internal to src/cel.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "cel/internal/ast.h"
#include "cel/internal/lexer.h"

namespace berth::cel::internal {

// Parses `source` (valid UTF-8). Returns the tree, or nullptr with `issue` filled.
std::unique_ptr<Expr> Parse(std::string_view source, int max_recursion_depth, SyntaxIssue* issue);

}  // namespace berth::cel::internal
