#include "cel/environment.h"

#include <string>
#include <utility>

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

}  // namespace berth::cel
