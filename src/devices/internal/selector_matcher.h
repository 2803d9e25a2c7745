// SelectorMatcher: the allocator's only view of CEL. Compiles device selector expressions
// and evaluates them against one device with upstream's `device` variable (driver,
// attributes[domain][id], capacity[domain][id], allowMultipleAllocations; unqualified names
// live in the driver's domain; an unknown domain is an empty map, an unknown id a runtime
// error). NewCelSelectorMatcher() binds it to the cel module; tests may pass their own.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/result.h"
#include "model/resource_slice.h"

namespace berth::devices::internal {

class SelectorMatcher {
 public:
  virtual ~SelectorMatcher() = default;

  // Compiles one expression and returns its program id. Errors (InvalidArgument) carry the
  // compiler's message, which names the column.
  virtual core::Result<int32_t> Compile(const std::string& expression) = 0;

  // Evaluates a compiled program against `device` published by `driver`. A runtime error
  // (no such key, wrong type, cost limit) is returned as an Error with its message.
  virtual core::Result<bool> Matches(int32_t program, const std::string& driver,
                                     const model::Device& device) = 0;
};

// The production matcher, backed by the cel module (compiled-program cache included).
std::unique_ptr<SelectorMatcher> NewCelSelectorMatcher();

}  // namespace berth::devices::internal
