// berth_cel_bench: evaluating a compiled DRA device selector against devices, the way the
// allocator does (one selector, thousands of devices). Baselines: the same predicate written
// by hand in C++ (the floor), and the same selector evaluated the way upstream's
// DeviceMatches binds a device, by building fresh CEL maps for every evaluation.
// Every benchmark first checks its answer and fails the run on a wrong one.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cel/activation.h"
#include "cel/dra_device.h"
#include "cel/dra_selectors.h"
#include "cel/program.h"
#include "cel/value.h"
#include "core/quantity.h"

namespace berth::bench {
namespace {

constexpr const char* kSelector =
    R"(device.driver == "gpu.nvidia.com" && )"
    R"(device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3" && )"
    R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)";

// The fields of a ResourceSlice device the selector reads, as a host model holds them.
struct HostDevice {
  std::string driver;
  std::string product;
  std::string uuid;
  int64_t index = 0;
  std::string driver_version;
  core::Quantity memory;
  core::Quantity multiprocessors;
};

std::vector<HostDevice> MakeFleet(int n) {
  const char* products[] = {"NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB",
                            "NVIDIA H100 80GB HBM3", "NVIDIA L4"};
  const char* memories[] = {"80Gi", "40Gi", "20Gi", "24Gi"};
  std::vector<HostDevice> out;
  out.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    HostDevice d;
    d.driver = i % 10 == 9 ? "tpu.example.com" : "gpu.nvidia.com";
    d.product = products[i % 4];
    d.uuid = "GPU-" + std::to_string(100000 + i);
    d.index = i % 8;
    d.driver_version = "550.54." + std::to_string(i % 20);
    d.memory = core::Quantity::Parse(memories[(i / 4) % 4]).value();
    d.multiprocessors = core::Quantity::Parse("132").value();
    out.push_back(std::move(d));
  }
  return out;
}

// Built once per device, as the devices module keeps them.
std::unique_ptr<cel::DraDevice> Bind(const HostDevice& h) {
  auto d = std::make_unique<cel::DraDevice>(h.driver);
  bool ok =
      d->AddAttribute("productName", cel::Value::StringView(h.product)).ok() &&
      d->AddAttribute("uuid", cel::Value::StringView(h.uuid)).ok() &&
      d->AddAttribute("index", cel::Value::Int(h.index)).ok() &&
      d->AddAttribute("gpu.nvidia.com/mig", cel::Value::Bool(false)).ok() &&
      d->AddVersionAttribute("driverVersion", h.driver_version).ok() &&
      d->AddAttribute("resource.kubernetes.io/pcieRoot", cel::Value::StringView("pci0")).ok() &&
      d->AddCapacity("memory", h.memory).ok() &&
      d->AddCapacity("multiprocessors", h.multiprocessors).ok();
  return ok ? std::move(d) : nullptr;
}

bool NativeMatches(const HostDevice& d, const core::Quantity& min_memory) {
  return d.driver == "gpu.nvidia.com" && d.product == "NVIDIA H100 80GB HBM3" &&
         !(d.memory < min_memory);
}

// The device as upstream's DeviceMatches hands it to cel-go: fresh maps per evaluation.
cel::Value FreshMaps(const HostDevice& d) {
  std::vector<std::pair<cel::Value, cel::Value>> attrs = {
      {cel::Value::String("productName"), cel::Value::String(d.product)},
      {cel::Value::String("uuid"), cel::Value::String(d.uuid)},
      {cel::Value::String("index"), cel::Value::Int(d.index)},
      {cel::Value::String("mig"), cel::Value::Bool(false)},
  };
  std::vector<std::pair<cel::Value, cel::Value>> caps = {
      {cel::Value::String("memory"), cel::Value::Quantity(d.memory)},
      {cel::Value::String("multiprocessors"), cel::Value::Quantity(d.multiprocessors)},
  };
  return cel::Value::Map({
      {cel::Value::String("driver"), cel::Value::String(d.driver)},
      {cel::Value::String("attributes"), cel::Value::Map({{cel::Value::String("gpu.nvidia.com"),
                                                           cel::Value::Map(std::move(attrs))}})},
      {cel::Value::String("capacity"),
       cel::Value::Map({{cel::Value::String("gpu.nvidia.com"), cel::Value::Map(std::move(caps))}})},
      {cel::Value::String("allowMultipleAllocations"), cel::Value::Bool(false)},
  });
}

struct Setup {
  cel::DraSelectors selectors;
  const cel::Program* program = nullptr;
  std::vector<HostDevice> fleet;
  std::vector<std::unique_ptr<cel::DraDevice>> devices;
  core::Quantity min_memory = core::Quantity::Parse("40Gi").value();
  std::string error;

  explicit Setup(int n) : fleet(MakeFleet(n)) {
    core::Result<const cel::Program*> p = selectors.Compile(kSelector);
    if (!p.has_value()) {
      error = p.error().message();
      return;
    }
    program = *p;
    for (const HostDevice& h : fleet) {
      devices.push_back(Bind(h));
      if (devices.back() == nullptr) error = "binding device " + h.uuid;
    }
    // The answer check: CEL agrees with the hand-written predicate on every device.
    for (size_t i = 0; i < fleet.size() && error.empty(); ++i) {
      core::Result<bool> m = selectors.Matches(*program, *devices[i]);
      if (!m.has_value()) {
        error = m.error().message();
      } else if (*m != NativeMatches(fleet[i], min_memory)) {
        error = "selector disagrees with the native predicate on " + fleet[i].uuid;
      }
    }
  }
};

void BM_DraSelector_OneDevice(benchmark::State& state) {
  Setup s(1);
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  const cel::DraDevice& gpu = *s.devices[0];
  for (auto _ : state) {
    core::Result<bool> m = s.selectors.Matches(*s.program, gpu);
    benchmark::DoNotOptimize(m);
  }
  state.counters["evals/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DraSelector_OneDevice);

void BM_DraSelector_1kDevices(benchmark::State& state) {
  Setup s(1000);
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  int64_t matched = 0;
  for (auto _ : state) {
    for (const auto& d : s.devices) {
      core::Result<bool> m = s.selectors.Matches(*s.program, *d);
      matched += m.has_value() && *m ? 1 : 0;
    }
  }
  benchmark::DoNotOptimize(matched);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.devices.size()));
  state.counters["evals/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(s.devices.size()),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DraSelector_1kDevices);

// Baseline: the same predicate compiled by hand.
void BM_NativePredicate_1kDevices(benchmark::State& state) {
  Setup s(1000);
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  int64_t matched = 0;
  for (auto _ : state) {
    for (const HostDevice& d : s.fleet) {
      bool m = NativeMatches(d, s.min_memory);
      benchmark::DoNotOptimize(m);
      matched += m ? 1 : 0;
    }
  }
  benchmark::DoNotOptimize(matched);
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.fleet.size()));
}
BENCHMARK(BM_NativePredicate_1kDevices);

// Baseline: upstream's binding, fresh maps per device per evaluation.
void BM_FreshMaps_1kDevices(benchmark::State& state) {
  Setup s(1000);
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  cel::Activation act(s.selectors.environment());
  for (size_t i = 0; i < s.fleet.size(); ++i) {
    act.Bind(0, FreshMaps(s.fleet[i]));
    core::Result<bool> m = cel::EvaluateBool(*s.program, act);
    if (!m.has_value() || *m != NativeMatches(s.fleet[i], s.min_memory)) {
      state.SkipWithError("fresh-map binding disagrees with the native predicate");
      return;
    }
  }
  for (auto _ : state) {
    for (const HostDevice& d : s.fleet) {
      act.Bind(0, FreshMaps(d));
      core::Result<bool> m = cel::EvaluateBool(*s.program, act);
      benchmark::DoNotOptimize(m);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(s.fleet.size()));
}
BENCHMARK(BM_FreshMaps_1kDevices);

// What a cache miss costs: parse, check, plan and fold the selector.
void BM_CompileSelector(benchmark::State& state) {
  cel::DraSelectors selectors;
  for (auto _ : state) {
    core::Result<cel::Program> p =
        cel::Compile(kSelector, selectors.environment(), cel::CompileOptions{});
    if (!p.has_value()) {
      state.SkipWithError(p.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(BM_CompileSelector);

// Issue 14: n nested [1,2].map(a, ...) macros (2^n iterations when run). With the DRA
// options the cost estimate refuses them at compile, in time linear in the text; the
// benchmark checks that n = 30 is refused and n = 10 compiles.
void BM_CompileNestedMacros(benchmark::State& state) {
  cel::DraSelectors selectors;
  const int n = static_cast<int>(state.range(0));
  std::string expr = "device.driver == 'x'";
  for (int i = 0; i < n; ++i) expr = "[1,2].map(a, " + expr + ")";
  expr += ".size() > 0";
  cel::CompileOptions options;
  options.max_expression_code_points = cel::kDraSelectorMaxLength;
  options.estimated_cost_limit = cel::kDraSelectorMaxCost;
  options.max_variable_size = cel::kDraMaxVariableSize;
  const bool should_compile = n <= 18;
  for (auto _ : state) {
    core::Result<cel::Program> p = cel::Compile(expr, selectors.environment(), options);
    if (p.has_value() != should_compile) {
      state.SkipWithError(p.has_value() ? "compiled" : p.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(p);
  }
  state.counters["chars"] = static_cast<double>(expr.size());
}
BENCHMARK(BM_CompileNestedMacros)->Arg(10)->Arg(30)->Arg(200);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
