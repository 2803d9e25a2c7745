// Fuzz target: CEL as DRA selectors use it (cel/dra_selectors.h): parse, check and compile
// the input as a DeviceClass selector expression, then evaluate it on a GPU device with
// attributes of every kind and a capacity. Upstream's limits apply (10Ki characters, the
// runtime cost limit), so an expression that compiles must evaluate in bounded time; a
// slow compile or evaluation shows up as a libFuzzer timeout.
#include <cstddef>
#include <cstdint>

#include "cel/dra_device.h"
#include "cel/dra_selectors.h"
#include "cel/value.h"
#include "core/quantity.h"
#include "fuzz/fuzz_support.h"

namespace {

// Built once: the device is immutable after construction and only read by evaluation.
const berth::cel::DraDevice& Device() {
  static const berth::cel::DraDevice* device = [] {
    auto* d = new berth::cel::DraDevice("gpu.nvidia.com");
    (void)d->AddAttribute("productName", berth::cel::Value::String("NVIDIA H100 80GB HBM3"));
    (void)d->AddAttribute("index", berth::cel::Value::Int(3));
    (void)d->AddAttribute("mig", berth::cel::Value::Bool(false));
    (void)d->AddVersionAttribute("driverVersion", "550.54.15");
    (void)d->AddAttribute("example.com/zone", berth::cel::Value::String("eu-1a"));
    (void)d->AddCapacity("memory", *berth::core::Quantity::Parse("80Gi"));
    (void)d->AddCapacity("example.com/cores", *berth::core::Quantity::Parse("132"));
    d->set_allow_multiple_allocations(true);
    return d;
  }();
  return *device;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  berth::cel::DraSelectors selectors;
  auto program = selectors.Compile(berth::fuzz::AsText(data, size));
  if (!program.has_value()) return 0;
  (void)selectors.Matches(**program, Device());
  return 0;
}
