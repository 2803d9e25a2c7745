#include "queueing/amount_text.h"

#include "core/quantity.h"

namespace berth::queueing {

std::string FormatAmount(model::ResourceId resource, int64_t amount) {
  if (resource == model::kCpu) return core::Quantity::FromMilli(amount).ToString();
  const bool bytes = resource == model::kMemory || resource == model::kEphemeralStorage;
  if (bytes && amount != 0 && amount % 1024 == 0) {
    return core::Quantity::FromUnits(amount, core::Quantity::Format::kBinarySI).ToString();
  }
  return core::Quantity::FromUnits(amount).ToString();
}

}  // namespace berth::queueing
