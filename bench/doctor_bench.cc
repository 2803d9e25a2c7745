// berth_doctor_bench: every doctor rule over a busy cluster. The seeded synthetic cluster
// (bench/scenarios/synthetic_cluster.h, rendered as `kubectl get nodes,pods -A -o json`)
// gets injected misconfigurations: pods whose nodeSelector no node carries, pods asking for
// more GPUs than any node has, and one tainted GPU pool nobody tolerates. The dump is read
// through io as berth doctor reads it (timed apart), then RunDoctor runs every rule (timed,
// best of --runs). The answer is checked: each injected pod is reported exactly once by the
// rule it breaks, and the run is deterministic (same findings every run).
//
//   berth_doctor_bench [--nodes=10000] [--pods=100000] [--seed=42] [--runs=3] [--inject=100]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "bench/scenarios/synthetic_cluster.h"
#include "core/diagnostics.h"
#include "diag/doctor.h"
#include "io/reader.h"

namespace berth::bench {
namespace {

int64_t Flag(int argc, char** argv, std::string_view name, int64_t fallback) {
  const std::string prefix = "--" + std::string(name) + "=";
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with(prefix)) return std::strtoll(a.substr(prefix.size()).data(), nullptr, 10);
  }
  return fallback;
}

// `n` pods selecting a label no node has and `n` pods asking for 64 GPUs.
std::string Injected(int64_t n) {
  std::string y;
  for (int64_t i = 0; i < n; ++i) {
    y += "apiVersion: v1\nkind: Pod\nmetadata: {name: bench-selector-" + std::to_string(i) +
         ", namespace: doctor}\nspec:\n  nodeSelector: {nvidia.com/gpu.product: A100}\n"
         "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: \"1\"}}}]\n---\n";
    y += "apiVersion: v1\nkind: Pod\nmetadata: {name: bench-huge-" + std::to_string(i) +
         ", namespace: doctor}\nspec:\n"
         "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: \"64\"}}}]\n---\n";
  }
  return y;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

int Main(int argc, char** argv) {
  SyntheticClusterSpec spec;
  spec.nodes = static_cast<int32_t>(Flag(argc, argv, "nodes", 10000));
  spec.pods = static_cast<int32_t>(Flag(argc, argv, "pods", 100000));
  spec.seed = static_cast<uint64_t>(Flag(argc, argv, "seed", 42));
  spec.bound_pod_fraction = 0.2;
  const int64_t runs = Flag(argc, argv, "runs", 3);
  const int64_t inject = Flag(argc, argv, "inject", 100);

  const std::string dump = RenderKubectlJson(spec);
  const std::string broken = Injected(inject);
  core::Diagnostics diags;
  const auto read_start = std::chrono::steady_clock::now();
  io::Reader reader(diags);
  reader.ReadText(dump, "dump.json");
  reader.ReadText(broken, "broken.yaml");
  io::Input input = reader.Finish();
  const double read_s = Seconds(std::chrono::steady_clock::now() - read_start);
  if (diags.has_errors()) {
    std::fprintf(stderr, "FAIL: the dump did not read cleanly: %s\n",
                 diags.entries().front().error.ToString().c_str());
    return 1;
  }

  double best = 1e9;
  size_t first_count = 0;
  diag::DoctorReport report;
  for (int64_t r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    report = diag::RunDoctor(input.snapshot, diags, diag::DoctorOptions{});
    best = std::min(best, Seconds(std::chrono::steady_clock::now() - start));
    if (r == 0) first_count = report.findings.size();
    if (report.findings.size() != first_count) {
      std::fprintf(stderr, "FAIL: run %lld found %zu findings, the first %zu\n", static_cast<long long>(r),
                   report.findings.size(), first_count);
      return 1;
    }
  }

  std::map<std::string, int> selector, huge;
  std::map<std::string, int> by_rule;
  for (const diag::Finding& f : report.findings) {
    ++by_rule[f.rule];
    if (f.object.namespace_ != "doctor") continue;
    if (f.rule == "node-selector-matches-nothing") ++selector[f.object.name];
    if (f.rule == "request-exceeds-every-node") ++huge[f.object.name];
  }
  bool ok = true;
  for (int64_t i = 0; i < inject; ++i) {
    const std::string s = "bench-selector-" + std::to_string(i), h = "bench-huge-" + std::to_string(i);
    if (selector[s] != 1) ok = false, std::fprintf(stderr, "FAIL: %s reported %d times\n", s.c_str(), selector[s]);
    if (huge[h] != 1) ok = false, std::fprintf(stderr, "FAIL: %s reported %d times\n", h.c_str(), huge[h]);
  }
  if (!ok) return 1;
  std::printf("doctor: %d nodes, %zu pods, %d rules: read %.2f s, rules %.3f s (best of %lld), %zu findings\n",
              spec.nodes, input.snapshot.pods.size(), report.rules_run, read_s, best,
              static_cast<long long>(runs), report.findings.size());
  for (const auto& [rule, count] : by_rule) std::printf("  %-40s %d\n", rule.c_str(), count);
  std::printf("answer checked: each of the %lld injected selector pods and %lld oversized pods reported once\n",
              static_cast<long long>(inject), static_cast<long long>(inject));
  return 0;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) { return berth::bench::Main(argc, argv); }
