// Boxed<T>: an optional value held on the heap, with value semantics (a copy copies the
// value). For large members that few of many objects carry: a struct kept by the hundred
// thousand then pays one pointer for them, not their full size. Thread-compatible.
#pragma once

#include <memory>

namespace berth::core {

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  // Null when empty.
  const T* get() const { return value_.get(); }
  T* get() { return value_.get(); }
  const T* operator->() const { return value_.get(); }
  T* operator->() { return value_.get(); }
  const T& operator*() const { return *value_; }
  T& operator*() { return *value_; }

  // The held value, or a default-constructed one when there is none (for reading fields
  // that are empty when nothing is held).
  const T& ValueOrEmpty() const {
    static const T kEmpty{};
    return value_ ? *value_ : kEmpty;
  }
  // The held value, default-constructed first when there is none.
  T& Ensure() {
    if (!value_) value_ = std::make_unique<T>();
    return *value_;
  }
  void reset() { value_.reset(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace berth::core
