#include "cel/environment.h"

#include <string>
#include <utility>

#include "cel/internal/functions.h"
#include "cel/internal/lexer.h"

namespace berth::cel {

core::Result<size_t> Environment::AddVariable(std::string name, Type type) {
  if (!internal::IsIdentifier(name)) {
    return core::InvalidArgument("variable name \"" + name + "\" is not a CEL identifier");
  }
  if (internal::IsReservedWord(name)) {
    return core::InvalidArgument("variable name \"" + name + "\" is a reserved word");
  }
  if (FindVariable(name).has_value()) {
    return core::InvalidArgument("variable \"" + name + "\" is already declared");
  }
  variables_.push_back(VariableDecl{std::move(name), std::move(type)});
  return variables_.size() - 1;
}

std::optional<size_t> Environment::FindVariable(std::string_view name) const {
  for (size_t i = 0; i < variables_.size(); ++i) {
    if (variables_[i].name == name) return i;
  }
  return std::nullopt;
}

core::Status Environment::AddFunction(FunctionDecl decl) {
  const std::string& name = decl.name;
  if (!internal::IsIdentifier(name) || internal::IsReservedWord(name)) {
    return core::InvalidArgument("function name \"" + name + "\" is not a CEL identifier");
  }
  // The parser expands these names into macros, so an overload would never be called; a
  // built-in name would make the planner choose between two tables.
  for (std::string_view macro : {"has", "all", "exists", "exists_one", "map", "filter"}) {
    if (name == macro) {
      return core::InvalidArgument("function name \"" + name + "\" is a CEL macro");
    }
  }
  for (const internal::Overload& o : internal::BuiltinOverloads()) {
    if (o.function == name) {
      return core::InvalidArgument("function \"" + name + "\" is a built-in function");
    }
  }
  if (decl.impl == nullptr) {
    return core::InvalidArgument("function \"" + name + "\" has no implementation");
  }
  if (decl.params.empty() || decl.params.size() > internal::kMaxArity) {
    return core::InvalidArgument("function \"" + name + "\" must take 1 to " +
                                 std::to_string(internal::kMaxArity) + " parameters");
  }
  for (const FunctionDecl& f : functions_) {
    if (f.name == name && f.receiver == decl.receiver && f.params.size() == decl.params.size()) {
      return core::InvalidArgument("function \"" + name + "\" is already declared with " +
                                   std::to_string(decl.params.size()) + " parameters");
    }
  }
  functions_.push_back(std::move(decl));
  return core::OkStatus();
}

}  // namespace berth::cel
