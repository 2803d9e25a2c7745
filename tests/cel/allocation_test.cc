// The allocator's hot path: evaluating a compiled selector against a bound device must not
// allocate. This file replaces the global operator new for the whole test binary to count
// allocations; the count is only read around the evaluations under test.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "cel/dra_device.h"
#include "cel/dra_selectors.h"
#include "cel/program.h"
#include "cel/value.h"
#include "core/quantity.h"

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

// GCC 12 at -O1 takes free() of what the replaced operator new returned for a mismatch
// (-Wmismatched-new-delete); they are the matching pair by construction.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

namespace berth::cel {
namespace BERTH_UNITY_ID {

TEST(AllocationTest, SelectorEvaluationDoesNotAllocate) {
  DraSelectors selectors;
  DraDevice gpu("gpu.nvidia.com");
  ASSERT_TRUE(gpu.AddAttribute("productName", Value::String("NVIDIA H100 80GB HBM3")).ok());
  ASSERT_TRUE(gpu.AddVersionAttribute("driverVersion", "550.54.15").ok());
  ASSERT_TRUE(gpu.AddCapacity("memory", core::Quantity::Parse("80Gi").value()).ok());
  const std::array<const char*, 4> expressions = {
      R"(device.driver == "gpu.nvidia.com" &&
         device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3" &&
         device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)",
      R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(semver("550.0.0")))",
      R"("productName" in device.attributes["gpu.nvidia.com"] &&
         device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA"))",
      R"(cel.bind(a, device.attributes["gpu.nvidia.com"], a.productName.matches("H1[0-9]0")))",
  };
  for (const char* expr : expressions) {
    core::Result<const Program*> p = selectors.Compile(expr);
    ASSERT_TRUE(p.has_value()) << p.error().message();
    core::Result<bool> warm = selectors.Matches(**p, gpu);
    ASSERT_TRUE(warm.has_value() && *warm) << expr;
    long before = g_allocations.load();
    bool all = true;
    for (int i = 0; i < 100; ++i) {
      core::Result<bool> m = selectors.Matches(**p, gpu);
      all = all && m.has_value() && *m;
    }
    long after = g_allocations.load();
    EXPECT_TRUE(all);
    EXPECT_EQ(after - before, 0) << expr;
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
