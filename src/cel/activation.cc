#include "cel/activation.h"

#include <string>
#include <utility>

#include "core/check.h"

namespace berth::cel {

Activation::Activation(const Environment& env) : env_(&env) {
  if (env.variable_count() > kInlineSlots) {
    overflow_.resize(env.variable_count());
    bound_overflow_.assign(env.variable_count(), 0);
  }
}

void Activation::Bind(size_t slot, Value value) {
  BERTH_CHECK(slot < env_->variable_count(), "Activation::Bind: slot out of range");
  Slots()[slot] = std::move(value);
  if (overflow_.empty()) {
    bound_inline_[slot] = 1;
  } else {
    bound_overflow_[slot] = 1;
  }
}

core::Status Activation::Bind(std::string_view name, Value value) {
  std::optional<size_t> slot = env_->FindVariable(name);
  if (!slot.has_value()) {
    return core::NotFound("variable \"" + std::string(name) + "\" is not declared");
  }
  Bind(*slot, std::move(value));
  return core::OkStatus();
}

void Activation::Clear() {
  inline_.fill(Value());
  bound_inline_.fill(0);
  for (Value& v : overflow_) v = Value();
  bound_overflow_.assign(bound_overflow_.size(), 0);
}

const Value* Activation::Find(size_t slot) const {
  BERTH_DCHECK(slot < env_->variable_count(), "Activation::Find: slot out of range");
  bool bound = overflow_.empty() ? bound_inline_[slot] != 0 : bound_overflow_[slot] != 0;
  return bound ? &Slots()[slot] : nullptr;
}

}  // namespace berth::cel
