// Activation: the values of an Environment's variables for one evaluation. Binding copies a
// Value (a few words; borrowed host data is not copied), so a caller can rebind per device
// and evaluate thousands of times without allocating: up to kInlineSlots variables live
// inside the Activation itself. The Activation borrows the Environment, which must outlive
// it; bound Values that borrow host data must outlive every evaluation that uses them.
// Thread-compatible.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cel/environment.h"
#include "cel/value.h"
#include "core/result.h"

namespace berth::cel {

class Activation {
 public:
  static constexpr size_t kInlineSlots = 4;

  // Every variable starts unbound; evaluating an unbound variable is an error value.
  explicit Activation(const Environment& env);

  // Binds by slot (Environment::AddVariable's result). O(1). Precondition: slot is valid.
  void Bind(size_t slot, Value value);
  // Binds by name. NotFound when the environment does not declare it. O(variables).
  core::Status Bind(std::string_view name, Value value);
  // Unbinds every variable.
  void Clear();

  // The bound value, or nullptr when unbound. Precondition: slot is valid.
  const Value* Find(size_t slot) const;

  const Environment& environment() const { return *env_; }

 private:
  Value* Slots() { return overflow_.empty() ? inline_.data() : overflow_.data(); }
  const Value* Slots() const { return overflow_.empty() ? inline_.data() : overflow_.data(); }

  const Environment* env_;
  std::array<Value, kInlineSlots> inline_;
  std::vector<Value> overflow_;  // used instead of inline_ beyond kInlineSlots variables
  std::vector<uint8_t> bound_overflow_;
  std::array<uint8_t, kInlineSlots> bound_inline_{};
};

}  // namespace berth::cel
