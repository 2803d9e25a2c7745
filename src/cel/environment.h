// Environment: the variables an expression may use, each with a static type, in declaration
// order (a variable's slot). Compile() checks expressions against it; an Activation built
// from it binds values to the slots. Build it once, before compiling; it must outlive every
// Program and Activation made from it. Thread-compatible (const use is thread-safe).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cel/type.h"
#include "core/result.h"

namespace berth::cel {

struct VariableDecl {
  std::string name;
  Type type;
};

class Environment {
 public:
  Environment() = default;
  // Programs and activations point at their environment: it does not move or copy.
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  // Declares a variable and returns its slot. InvalidArgument when the name is not a CEL
  // identifier, is reserved ("in", "null", ...) or is already declared.
  core::Result<size_t> AddVariable(std::string name, Type type = Type::Dyn());

  // The slot of a declared variable, or nullopt.
  std::optional<size_t> FindVariable(std::string_view name) const;

  size_t variable_count() const { return variables_.size(); }
  // Precondition: slot < variable_count().
  const VariableDecl& variable(size_t slot) const { return variables_[slot]; }

 private:
  std::vector<VariableDecl> variables_;
};

}  // namespace berth::cel
