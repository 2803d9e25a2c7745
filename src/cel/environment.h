// Environment: the variables an expression may use, each with a static type, in declaration
// order (a variable's slot), and the functions the host adds to the built-in ones (OCM's
// `managedCluster.scores(name)`). Compile() checks expressions against it; an Activation
// built from it binds values to the slots. Build it once, before compiling; it must outlive
// every Program and Activation made from it. Thread-compatible (const use is thread-safe).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cel/type.h"
#include "cel/value.h"
#include "core/result.h"

namespace berth::cel {

struct VariableDecl {
  std::string name;
  Type type;
};

// The implementation of a host function. Call receives the evaluated arguments (the
// receiver first for a receiver-style function), none of them an error and each of a kind
// its declared parameter accepts; it returns the result or an error Value
// (Value::Error("...")), which the program then reports as any runtime error. The result
// may borrow host data that outlives the evaluation. Programs may be evaluated from many
// threads at once, so Call must be safe to run concurrently (const, no hidden state).
class HostFunction {
 public:
  virtual ~HostFunction() = default;
  virtual Value Call(std::span<const Value> args) const = 0;
};

// One overload of a host function. Host calls are never folded at compile time: their
// result depends on host data, not only on their arguments.
struct FunctionDecl {
  std::string name;                    // a CEL identifier, not a built-in function or macro
  bool receiver = false;               // called as params[0].name(params[1...])
  std::vector<Type> params;            // the receiver first; 1 to 3 parameters
  Type result;                         // the static type the checker assumes
  const HostFunction* impl = nullptr;  // borrowed: must outlive every Program compiled here
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

  // Declares a host function overload. InvalidArgument when the name is not an identifier
  // or is reserved, a built-in function or a macro; when it has no implementation, no or
  // more than three parameters; or when an overload with the same name, style and arity
  // is already declared.
  core::Status AddFunction(FunctionDecl decl);
  // Every declared host function overload, in declaration order.
  std::span<const FunctionDecl> functions() const { return functions_; }

  size_t variable_count() const { return variables_.size(); }
  // Precondition: slot < variable_count().
  const VariableDecl& variable(size_t slot) const { return variables_[slot]; }

 private:
  std::vector<VariableDecl> variables_;
  std::vector<FunctionDecl> functions_;
};

}  // namespace berth::cel
