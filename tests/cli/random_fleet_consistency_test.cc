// The printed forms of a plan agree on random fleets too (issue 14, item 3: printed statuses
// consistent with explain): for seeded fleets of tests/engine/random_fleet.h, `berth plan`
// -o json and -o table and `berth explain` of every Kueue workload and of a sample of pods
// say the same per workload and pod (plan_views.h), and the plan passes its invariant checks
// (PlanFlags::check_invariants: exit 70 otherwise). A failure names the seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli/explain_command.h"
#include "cli/plan_command.h"
#include "engine/random_fleet.h"  // tests/engine: the property test's generator
#include "plan_views.h"

namespace berth::cli::testing {
namespace BERTH_UNITY_ID {

namespace fs = std::filesystem;

// Fleets per run: each is planned twice and explained up to a dozen times in-process.
constexpr uint64_t kSeeds = 40;
constexpr size_t kPodsExplained = 4;

std::vector<std::string> CheckSeed(uint64_t seed, const fs::path& dir) {
  const fs::path file = dir / ("fleet-" + std::to_string(seed) + ".yaml");
  std::ofstream(file) << engine::testing::RandomFleetYaml(seed);
  std::vector<std::string> problems;
  PlanFlags flags;
  flags.files = {file.string()};
  flags.check_invariants = true;
  std::ostringstream json_out, table_out, err;
  flags.output = "json";
  if (const int rc = RunPlanCommand(flags, json_out, err); rc != 0) {
    problems.push_back("plan -o json exited " + std::to_string(rc) + ": " + err.str());
  }
  flags.output = "table";
  RunPlanCommand(flags, table_out, err);
  const PlanView json = ParseJsonPlan(json_out.str());
  const PlanView table = ParseTablePlan(table_out.str());
  ExplainFlags explain;
  explain.files = flags.files;
  std::vector<PlanView> explains;
  for (const auto& [key, facts] : json.workloads) {
    explain.target = "workload/" + key;
    std::ostringstream o, e;
    RunExplainCommand(explain, o, e);
    explains.push_back(ParseWorkloadExplain(key, o.str()));
  }
  size_t explained = 0;
  for (const auto& [key, facts] : table.pods) {
    bool shown = false;
    for (const PlanView& v : explains) shown = shown || v.pods.contains(key);
    if (shown || explained++ >= kPodsExplained) continue;
    explain.target = "pod/" + key;
    std::ostringstream o, e;
    RunExplainCommand(explain, o, e);
    explains.push_back(ParsePodExplain(key, o.str(), e.str()));
  }
  for (std::string& d : Disagreements(json, table, explains)) problems.push_back(std::move(d));
  return problems;
}

TEST(RandomFleetConsistencyTest, PrintedFormsAndExplainAgree) {
  const fs::path dir = fs::temp_directory_path() / ("berth-random-fleets-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // BERTH_PROPERTY_SEEDS=N checks seeds 1..N instead (a longer search).
  const char* many = std::getenv("BERTH_PROPERTY_SEEDS");
  const uint64_t last = many != nullptr ? std::strtoull(many, nullptr, 10) : kSeeds;
  for (uint64_t seed = 1; seed <= last; ++seed) {
    for (const std::string& p : CheckSeed(seed, dir)) ADD_FAILURE() << "seed " << seed << ": " << p;
  }
  fs::remove_all(dir);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli::testing
