// berth_plan_e2e_bench: `berth plan -o json` end to end, as a user runs it. A seeded
// kubectl-style dump (bench/scenarios/synthetic_cluster.h: GPU and CPU nodes, 80% of pods
// pending, managedFields included, one item per line) is written to a file, and the real
// berth binary plans it in its own process: read, plan and write measured as a whole (wall
// time from fork to wait4; CPU time and peak RSS from the child's rusage). Every run's answer
// is checked: the output's digest (FNV-1a over its bytes) and its count of bound pods must
// equal the values checked in below for that size and layout (taken from main before the change),
// or, for a size or layout without them, equal the first run's. Scaling: the same run on a
// tenth of the cluster; the full run must cost at most 12x the CPU time of the tenth (issue
// 12's acceptance; wall time is printed too, but moves with the load of a shared machine).
//
//   berth_plan_e2e_bench [--nodes=10000] [--pods=100000] [--seed=42] [--runs=3]
//                        [--no-scaling] [--berth=PATH] [--dir=DIR]
//                        [--no-managed-fields] [--indented] [--minimal]
//
// --minimal renders objects with only the fields a scheduler reads (about 340 bytes each,
// the 37 MB dump of issue 12) instead of full objects with managedFields (392 MiB);
// --berth defaults to the binary built with this benchmark; --dir keeps the dumps and
// outputs there (default: a fresh directory under $TMPDIR, removed afterwards).
#include <fcntl.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/scenarios/synthetic_cluster.h"

#ifndef BERTH_CLI_BINARY
#define BERTH_CLI_BINARY "berth"
#endif

namespace berth::bench {
namespace {

// The fraction of pods the dump has bound already: most are pending, as in a backlog.
constexpr double kBoundFraction = 0.2;

// The dump's layout (flags --no-managed-fields, --indented, --minimal).
struct Layout {
  bool managed_fields = true;
  bool compact = true;
  bool minimal = false;
};

SyntheticClusterSpec Spec(int32_t nodes, int32_t pods, uint64_t seed, const Layout& layout) {
  SyntheticClusterSpec spec;
  spec.nodes = nodes;
  spec.pods = pods;
  spec.seed = seed;
  spec.bound_pod_fraction = kBoundFraction;
  spec.managed_fields = layout.managed_fields;
  spec.compact = layout.compact;
  spec.minimal = layout.minimal;
  return spec;
}

// The answers of the unchanged main (2259d67) for the sizes the benchmark runs by default.
struct KnownAnswer {
  bool minimal;  // --minimal's layout, else the default (managedFields, compact)
  int32_t nodes;
  int32_t pods;
  uint64_t seed;
  int64_t bound;    // pods the output binds (spec.nodeName set)
  uint64_t digest;  // FNV-1a 64 of the output's bytes
};
// The default layout's from main 2259d67; --minimal's from main 11ac873 (before round 2).
constexpr KnownAnswer kKnownAnswers[] = {
    {false, 100, 1000, 42, 775, 0x2767e2d31859e29e},  // one more bound by DefaultPreemption
    {false, 1000, 10000, 42, 7928, 0x311ec52c3bf3858a},
    {false, 10000, 100000, 42, 79175, 0xf1d7cd2c8429bd63},
    {true, 1000, 10000, 42, 7928, 0x8dca47dd5f5534f3},
    {true, 10000, 100000, 42, 79175, 0x8ed6e68c8dc1c883},
};

std::optional<KnownAnswer> Known(const SyntheticClusterSpec& spec) {
  if (spec.minimal ? !spec.compact : !spec.managed_fields || !spec.compact) {
    return std::nullopt;  // no answers for the other layouts
  }
  for (const KnownAnswer& k : kKnownAnswers) {
    if (k.minimal == spec.minimal && k.nodes == spec.nodes && k.pods == spec.pods &&
        k.seed == spec.seed && k.digest != 0) {
      return k;
    }
  }
  return std::nullopt;
}

uint64_t Fnv1a(std::string_view bytes) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Pods of the output List with spec.nodeName set; -1 when the output is not such a List.
int64_t BoundPods(const std::string& output) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(output).get(root) != simdjson::SUCCESS) return -1;
  simdjson::dom::array items;
  if (root["items"].get_array().get(items) != simdjson::SUCCESS) return -1;
  int64_t bound = 0;
  for (simdjson::dom::element item : items) {
    std::string_view kind;
    if (item["kind"].get_string().get(kind) != simdjson::SUCCESS || kind != "Pod") continue;
    std::string_view node;
    if (item.at_pointer("/spec/nodeName").get_string().get(node) == simdjson::SUCCESS &&
        !node.empty()) {
      ++bound;
    }
  }
  return bound;
}

struct RunResult {
  bool ok = false;
  double wall_s = 0;
  double peak_rss_mib = 0;
  double cpu_s = 0;  // the child's user + system time
};

// Runs `berth plan -o json -f <dump>` with stdout to `out` and stderr to `err`, measured from
// fork to wait4.
RunResult RunBerth(const std::string& berth, const std::filesystem::path& dump,
                   const std::filesystem::path& out, const std::filesystem::path& err) {
  RunResult result;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) return result;
  if (pid == 0) {
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0) _exit(126);
    dup2(out_fd, STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    const std::string dump_path = dump.string();
    std::vector<char*> args = {const_cast<char*>(berth.c_str()),
                               const_cast<char*>("plan"),
                               const_cast<char*>("-o"),
                               const_cast<char*>("json"),
                               const_cast<char*>("-f"),
                               const_cast<char*>(dump_path.c_str()),
                               nullptr};
    execv(berth.c_str(), args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return result;
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.peak_rss_mib = static_cast<double>(usage.ru_maxrss) / 1024.0;  // KiB on Linux
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  result.cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return result;
}

struct SizeResult {
  bool ok = false;
  double best_wall_s = 0;
  double best_cpu_s = 0;
  double peak_rss_mib = 0;
  uintmax_t input_bytes = 0;
};

SizeResult RunSize(const std::string& berth, const std::filesystem::path& dir,
                   const SyntheticClusterSpec& spec, int runs) {
  SizeResult size;
  const std::string stem = "plan_" + std::to_string(spec.nodes) + "n_" + std::to_string(spec.pods) +
                           "p_" + std::to_string(spec.seed);
  const std::filesystem::path dump = dir / (stem + ".json");
  {
    std::ofstream out(dump, std::ios::binary);
    out << RenderKubectlJson(spec);
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", dump.c_str());
      return size;
    }
  }
  size.input_bytes = std::filesystem::file_size(dump);
  const std::optional<KnownAnswer> known = Known(spec);
  std::optional<uint64_t> first_digest;
  std::optional<int64_t> first_bound;
  for (int run = 0; run < runs; ++run) {
    const std::filesystem::path out = dir / (stem + ".out.json");
    const std::filesystem::path err = dir / (stem + ".err");
    const RunResult r = RunBerth(berth, dump, out, err);
    if (!r.ok) {
      std::fprintf(stderr, "%s plan -o json %s failed; stderr:\n%s\n", berth.c_str(), dump.c_str(),
                   ReadFile(err).c_str());
      return size;
    }
    const std::string output = ReadFile(out);
    const uint64_t digest = Fnv1a(output);
    const int64_t bound = BoundPods(output);
    const uint64_t want_digest = known ? known->digest : first_digest.value_or(digest);
    const int64_t want_bound = known ? known->bound : first_bound.value_or(bound);
    if (bound < 0 || digest != want_digest || bound != want_bound) {
      std::fprintf(stderr,
                   "wrong answer for %s: %lld pods bound, digest %016llx; expected %lld and "
                   "%016llx (%s)\n",
                   stem.c_str(), static_cast<long long>(bound),
                   static_cast<unsigned long long>(digest), static_cast<long long>(want_bound),
                   static_cast<unsigned long long>(want_digest),
                   known ? "checked in" : "the first run");
      return size;
    }
    first_digest = digest;
    first_bound = bound;
    size.best_wall_s = run == 0 ? r.wall_s : std::min(size.best_wall_s, r.wall_s);
    size.best_cpu_s = run == 0 ? r.cpu_s : std::min(size.best_cpu_s, r.cpu_s);
    size.peak_rss_mib = std::max(size.peak_rss_mib, r.peak_rss_mib);
  }
  const double input_mib = static_cast<double>(size.input_bytes) / (1024.0 * 1024.0);
  const double rss_limit_mib = 2 * input_mib + 300;
  std::printf(
      "%6d nodes %7d pods  input %7.1f MiB  best of %d: %6.2f s wall (%.2f s cpu)  %8.0f "
      "pods/s  peak RSS %7.1f MiB (limit %.0f)  bound %lld  digest %016llx%s\n",
      spec.nodes, spec.pods, input_mib, runs, size.best_wall_s, size.best_cpu_s,
      static_cast<double>(spec.pods) / size.best_wall_s, size.peak_rss_mib, rss_limit_mib,
      static_cast<long long>(*first_bound), static_cast<unsigned long long>(*first_digest),
      known ? " (checked in)" : " (not checked in: runs agree)");
  std::fflush(stdout);
  size.ok = true;
  return size;
}

int Main(int argc, char** argv) {
  int32_t nodes = 10000;
  int32_t pods = 100000;
  uint64_t seed = 42;
  int runs = 3;
  bool scaling = true;
  Layout layout;
  std::string berth = BERTH_CLI_BINARY;
  std::string dir_flag;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&](std::string_view flag) -> const char* {
      return arg.rfind(flag, 0) == 0 ? argv[i] + flag.size() : nullptr;
    };
    if (const char* v = value("--nodes=")) {
      nodes = std::atoi(v);
    } else if (const char* v = value("--pods=")) {
      pods = std::atoi(v);
    } else if (const char* v = value("--seed=")) {
      seed = std::strtoull(v, nullptr, 10);
    } else if (const char* v = value("--runs=")) {
      runs = std::max(1, std::atoi(v));
    } else if (const char* v = value("--berth=")) {
      berth = v;
    } else if (const char* v = value("--dir=")) {
      dir_flag = v;
    } else if (arg == "--no-managed-fields") {
      layout.managed_fields = false;
    } else if (arg == "--indented") {
      layout.compact = false;
    } else if (arg == "--minimal") {
      layout.minimal = true;
      layout.managed_fields = false;
    } else if (arg == "--no-scaling") {
      scaling = false;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      return 2;
    }
  }
  std::filesystem::path dir;
  if (dir_flag.empty()) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "berth_plan_e2e.XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "cannot create a temporary directory\n");
      return 1;
    }
    dir = tmpl;
  } else {
    dir = dir_flag;
    std::filesystem::create_directories(dir);
  }
  std::printf("berth plan -o json end to end: %s, seed %llu, %.0f%% of pods bound in the input\n",
              berth.c_str(), static_cast<unsigned long long>(seed), kBoundFraction * 100);
  int rc = 0;
  std::optional<SizeResult> tenth;
  if (scaling) {
    const SyntheticClusterSpec small =
        Spec(std::max(1, nodes / 10), std::max(1, pods / 10), seed, layout);
    tenth = RunSize(berth, dir, small, runs);
    if (!tenth->ok) rc = 1;
  }
  const SizeResult full = RunSize(berth, dir, Spec(nodes, pods, seed, layout), runs);
  if (!full.ok) rc = 1;
  if (rc == 0 && tenth) {
    // Enforced on CPU time: wall time on a shared machine moves with the other load.
    const double wall_ratio = full.best_wall_s / tenth->best_wall_s;
    const double cpu_ratio = full.best_cpu_s / tenth->best_cpu_s;
    std::printf(
        "scaling: 10x the work took %.1fx the wall time, %.1fx the CPU time "
        "(limit 12x)%s\n",
        wall_ratio, cpu_ratio, cpu_ratio <= 12.0 ? "" : "  ** over the limit **");
    if (cpu_ratio > 12.0) rc = 1;
  }
  if (dir_flag.empty()) std::filesystem::remove_all(dir);
  return rc;
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) { return berth::bench::Main(argc, argv); }
