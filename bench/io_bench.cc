// berth_io_bench: reading `kubectl get -A -o json` dumps into the model (Reader) and writing
// plans (WritePlanList), on synthetic clusters (bench/scenarios/synthetic_cluster.h).
// Baselines: a bare simdjson DOM parse (the floor for the JSON path) and nlohmann::json's
// parse (what a naive reader would pay before building any model object).
// `berth_io_bench --scale [--nodes=N] [--pods=M]` reads a 10,000-node / 100,000-pod dump once
// and prints bytes, seconds, MB/s and peak RSS instead of running the benchmarks.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "bench/scenarios/synthetic_cluster.h"
#include "core/diagnostics.h"
#include "io/reader.h"
#include "io/writer.h"
#include "bench/bench_util.h"

namespace berth::bench {
namespace {

SyntheticClusterSpec Spec(int64_t nodes, int64_t pods) {
  SyntheticClusterSpec spec;
  spec.nodes = static_cast<int32_t>(nodes);
  spec.pods = static_cast<int32_t>(pods);
  spec.bound_pod_fraction = 0.5;
  return spec;
}

int64_t Total(const model::Snapshot& snap, std::string_view resource, bool nodes) {
  model::ResourceId id;
  if (!snap.resources.Find(resource, &id)) return 0;
  int64_t total = 0;
  if (nodes) {
    for (const model::Node& n : snap.nodes) total += n.allocatable.Get(id);
  } else {
    for (const model::Pod& p : snap.pods) {
      for (const model::Container& c : p.containers) total += c.requests.Get(id);
    }
  }
  return total;
}

// The answer check every benchmark runs first: the read snapshot holds the generated
// cluster (counts, and the same cpu/memory/gpu totals on nodes and pods).
bool ReadMatches(const io::Input& in, const core::Diagnostics& diags,
                 const model::Snapshot& expected, std::string* why) {
  if (diags.has_errors()) {
    *why = "read reported errors: " + diags.entries()[0].error.ToString();
    return false;
  }
  if (in.snapshot.nodes.size() != expected.nodes.size() ||
      in.snapshot.pods.size() != expected.pods.size()) {
    *why = "read " + std::to_string(in.snapshot.nodes.size()) + " nodes and " +
           std::to_string(in.snapshot.pods.size()) + " pods, expected " +
           std::to_string(expected.nodes.size()) + " and " + std::to_string(expected.pods.size());
    return false;
  }
  for (const char* r : {"cpu", "memory", "nvidia.com/gpu"}) {
    for (bool nodes : {true, false}) {
      if (Total(in.snapshot, r, nodes) != Total(expected, r, nodes)) {
        *why = std::string("total ") + r + (nodes ? " allocatable" : " requested") + " differs";
        return false;
      }
    }
  }
  return true;
}

io::Input Read(std::string_view text, const char* name, core::Diagnostics& diags) {
  io::Reader reader(diags);
  reader.ReadText(text, name);
  return reader.Finish();
}

void BM_ReadKubectlJson(benchmark::State& state) {
  SyntheticClusterSpec spec = Spec(state.range(0), state.range(1));
  const std::string text = RenderKubectlJson(spec);
  {
    core::Diagnostics diags;
    io::Input in = Read(text, "dump.json", diags);
    std::string why;
    if (!ReadMatches(in, diags, MakeSyntheticCluster(spec), &why)) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  for (auto _ : state) {
    core::Diagnostics diags;
    io::Input in = Read(text, "dump.json", diags);
    benchmark::DoNotOptimize(in.snapshot.pods.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
  state.counters["objects"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(spec.nodes + spec.pods),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReadKubectlJson)
    ->Args({100, 1000})
    ->Args({1000, 10000})
    ->Unit(benchmark::kMillisecond);

// Baseline: simdjson's DOM parse alone, no model, no document store.
void BM_Baseline_SimdjsonParse(benchmark::State& state) {
  const std::string text = RenderKubectlJson(Spec(state.range(0), state.range(1)));
  simdjson::padded_string padded(text);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(padded).get(root) != simdjson::SUCCESS) {
    state.SkipWithError("simdjson rejected the dump");
    return;
  }
  for (auto _ : state) {
    simdjson::error_code err = parser.parse(padded).get(root);
    benchmark::DoNotOptimize(err);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Baseline_SimdjsonParse)->Args({1000, 10000})->Unit(benchmark::kMillisecond);

// Baseline: nlohmann::json's parse alone (a DOM of std::map/std::vector).
void BM_Baseline_NlohmannParse(benchmark::State& state) {
  const std::string text = RenderKubectlJson(Spec(state.range(0), state.range(1)));
  if (nlohmann::json::parse(text, nullptr, false).is_discarded()) {
    state.SkipWithError("nlohmann rejected the dump");
    return;
  }
  for (auto _ : state) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    benchmark::DoNotOptimize(j.size());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Baseline_NlohmannParse)->Args({100, 1000})->Unit(benchmark::kMillisecond);

// Every pod of `in` as a pending decision, in snapshot order.
std::vector<model::PodDecision> AllPending(const io::Input& in) {
  std::vector<model::PodDecision> decisions(in.snapshot.pods.size());
  for (size_t i = 0; i < decisions.size(); ++i) {
    decisions[i].pod = model::PodIndex{static_cast<int32_t>(i)};
    decisions[i].message = "0/100 nodes are available: 100 Insufficient nvidia.com/gpu.";
  }
  return decisions;
}

void BM_WritePlanList(benchmark::State& state, io::OutputFormat format) {
  SyntheticClusterSpec spec = Spec(state.range(0), state.range(1));
  core::Diagnostics diags;
  io::Input in = Read(RenderKubectlJson(spec), "dump.json", diags);
  std::vector<model::PodDecision> decisions = AllPending(in);
  size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    io::WritePlanList(in.snapshot, decisions, in.documents, format, out);
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  if (in.snapshot.pods.size() != static_cast<size_t>(spec.pods) || bytes == 0) {
    state.SkipWithError("unexpected pods or empty output");
    return;
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
}
BENCHMARK_CAPTURE(BM_WritePlanList, Json, io::OutputFormat::kJson)
    ->Args({100, 1000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_WritePlanList, Yaml, io::OutputFormat::kYaml)
    ->Args({100, 1000})
    ->Unit(benchmark::kMillisecond);

// YAML input (`kubectl get pods -o yaml`-shaped, printed by the writer): yaml-cpp events to
// JSON text, then the same decode path.
void BM_ReadKubectlYaml(benchmark::State& state) {
  SyntheticClusterSpec spec = Spec(state.range(0), state.range(1));
  core::Diagnostics diags;
  io::Input in = Read(RenderKubectlJson(spec), "dump.json", diags);
  std::ostringstream out;
  io::WritePlanList(in.snapshot, AllPending(in), in.documents, io::OutputFormat::kYaml, out);
  const std::string yaml = out.str();
  {
    core::Diagnostics check_diags;
    io::Input back = Read(yaml, "dump.yaml", check_diags);
    if (check_diags.has_errors() || back.snapshot.pods.size() != in.snapshot.pods.size()) {
      state.SkipWithError("the YAML dump did not read back");
      return;
    }
  }
  for (auto _ : state) {
    core::Diagnostics d;
    io::Input back = Read(yaml, "dump.yaml", d);
    benchmark::DoNotOptimize(back.snapshot.pods.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(yaml.size()));
}
BENCHMARK(BM_ReadKubectlYaml)->Args({100, 1000})->Unit(benchmark::kMillisecond);

// The scale run: one read of a large dump, timed with the wall clock.
int RunScale(int32_t nodes, int32_t pods) {
  using Clock = std::chrono::steady_clock;
  SyntheticClusterSpec spec = Spec(nodes, pods);
  auto t0 = Clock::now();
  const std::string text = RenderKubectlJson(spec);
  auto t1 = Clock::now();
  double rss_before = PeakRssMiB();
  core::Diagnostics diags;
  io::Input in = Read(text, "scale.json", diags);
  auto t2 = Clock::now();
  double rss_after = PeakRssMiB();
  std::string why;
  if (!ReadMatches(in, diags, MakeSyntheticCluster(spec), &why)) {
    std::fprintf(stderr, "berth_io_bench --scale: wrong answer: %s\n", why.c_str());
    return 1;
  }
  double mb = static_cast<double>(text.size()) / 1e6;
  double render_s = std::chrono::duration<double>(t1 - t0).count();
  double read_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("seed %llu: %d nodes, %d pods\n", static_cast<unsigned long long>(spec.seed),
              spec.nodes, spec.pods);
  std::printf("dump: %zu bytes (%.1f MB), rendered in %.2f s\n", text.size(), mb, render_s);
  std::printf("read: %.3f s, %.1f MB/s, %zu documents stored\n", read_s, mb / read_s,
              in.documents.size());
  std::printf("peak RSS: %.1f MiB (%.1f MiB before reading, dump text included)\n", rss_after,
              rss_before);
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  bool scale = false;
  int32_t nodes = 10000;
  int32_t pods = 100000;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--scale") scale = true;
    if (arg.rfind("--nodes=", 0) == 0) nodes = std::atoi(argv[i] + 8);
    if (arg.rfind("--pods=", 0) == 0) pods = std::atoi(argv[i] + 7);
  }
  if (scale) return berth::bench::RunScale(nodes, pods);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
