// Property test of the plan invariants (issue 14, item 3): random fleets from a seeded
// generator (random_fleet.h) are planned settled and with --cycles 1..3, and every plan must
// satisfy engine/invariants.h and print the same bytes when planned again. A failure names
// the seed; `BERTH_PROPERTY_SEED=N` runs that seed alone and prints its fleet.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "engine/invariants.h"
#include "engine/plan.h"
#include "io/reader.h"
#include "io/writer.h"
#include "random_fleet.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

// Seeds per run: 300 fleets of up to five nodes and ten workloads, each planned six times,
// take about 3 s in a release build on a loaded machine; under the sanitizers (CI), a third
// of them keeps the test within a few seconds too.
#if defined(__SANITIZE_ADDRESS__)
#define BERTH_PROPERTY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BERTH_PROPERTY_SANITIZED 1
#endif
#endif
#ifdef BERTH_PROPERTY_SANITIZED
constexpr uint64_t kSeeds = 100;
#else
constexpr uint64_t kSeeds = 300;
#endif

// Seeds that break an invariant today, each a berth bug this test found, with the reason;
// the test checks that they still fail (remove an entry when its bug is fixed).
const std::map<uint64_t, std::string> kKnownFailures = {};

// What `berth plan -o json` prints for the plan: cli/plan_items.cc's items, copied because
// engine's tests may not link cli and engine may not depend on io (DESIGN.md).
std::string Printed(const Plan& plan, const io::DocumentStore& documents) {
  io::PlanItems items;
  items.pods = &plan.pod_decisions;
  items.claims = plan.changed_claims;
  items.workloads = plan.workloads;
  items.deleted_pods = plan.deleted_pods;
  items.placements = plan.placement_items;
  items.placement_decisions = plan.placement_decision_items;
  items.manifest_works = plan.manifest_work_items;
  items.deleted_objects = plan.deleted_objects;
  if (plan.cycles > 0) {
    std::map<int32_t, int32_t> cycle_of;
    for (const Plan::ClusterAdmission& a : plan.admissions) {
      for (const auto& d : a.result.decisions) cycle_of[d.workload] = d.cycle;
    }
    for (int32_t w : items.workloads) {
      auto it = cycle_of.find(w);
      items.workload_cycles.push_back(it == cycle_of.end() ? -1 : it->second);
    }
  }
  std::ostringstream out;
  io::WritePlan(plan.planned, items, documents, io::OutputFormat::kJson, out);
  return out.str();
}

// What the settled plans of the seeds did, so the test knows it exercised the invariants.
struct Coverage {
  int bound = 0, pending = 0, claims = 0, admitted = 0, preemptions = 0, fractions = 0;
};

void Count(const Plan& plan, Coverage& c) {
  for (const model::PodDecision& d : plan.pod_decisions) {
    c.bound += d.node.has_value() ? 1 : 0;
    c.pending += d.node.has_value() || d.skipped ? 0 : 1;
    const model::Pod& p = plan.planned.pod(d.pod);
    c.fractions += d.node.has_value() && p.meta.annotations.contains("gpu-fraction") ? 1 : 0;
  }
  c.claims += static_cast<int>(plan.changed_claims.size());
  for (const Plan::ClusterAdmission& a : plan.admissions) {
    for (const auto& d : a.result.decisions) {
      c.admitted += d.outcome == queueing::WorkloadOutcome::kAdmitted ? 1 : 0;
      c.preemptions += d.victims.empty() ? 0 : 1;
    }
  }
}

// Every problem of one seed: reader errors (a generator bug), violations, nondeterminism.
std::vector<std::string> CheckSeed(uint64_t seed, Coverage& coverage) {
  const std::string yaml = testing::RandomFleetYaml(seed);
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "fleet.yaml");
  const io::Input input = reader.Finish();
  std::vector<std::string> problems;
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity == core::Severity::kError) problems.push_back("reader: " + d.error.ToString());
  }
  for (const std::optional<int32_t> cycles :
       {std::optional<int32_t>(), std::optional<int32_t>(1), std::optional<int32_t>(2),
        std::optional<int32_t>(3)}) {
    PlanOptions options;
    options.cycles = cycles;
    const std::string mode = cycles ? "--cycles " + std::to_string(*cycles) : "settled";
    const Plan plan = RunPlan(input.snapshot, options);
    if (!cycles) Count(plan, coverage);
    for (const InvariantViolation& v : CheckPlanInvariants(plan)) {
      problems.push_back(mode + ": " + v.ToString());
    }
    // Determinism: the same input prints the same bytes (the settled plan and one bounded one
    // suffice; the others share their code).
    if (!cycles || *cycles == 1) {
      const Plan again = RunPlan(input.snapshot, options);
      if (Printed(plan, input.documents) != Printed(again, input.documents)) {
        problems.push_back(mode + ": two plans of the same input printed different bytes");
      }
    }
  }
  return problems;
}

TEST(InvariantsPropertyTest, RandomFleetsKeepEveryInvariant) {
  std::vector<uint64_t> seeds;
  if (const char* one = std::getenv("BERTH_PROPERTY_SEED"); one != nullptr) {
    seeds.push_back(std::strtoull(one, nullptr, 10));
    std::cout << testing::RandomFleetYaml(seeds[0]);
  } else {
    // BERTH_PROPERTY_SEEDS=N runs seeds 1..N instead, =A-B seeds A..B (a longer search).
    uint64_t first = 1, last = kSeeds;
    if (const char* range = std::getenv("BERTH_PROPERTY_SEEDS"); range != nullptr) {
      char* end = nullptr;
      last = std::strtoull(range, &end, 10);
      if (*end == '-') {
        first = last;
        last = std::strtoull(end + 1, nullptr, 10);
      }
    }
    for (uint64_t s = first; s <= last; ++s) seeds.push_back(s);
  }
  std::set<uint64_t> failed;
  Coverage coverage;
  for (uint64_t seed : seeds) {
    std::vector<std::string> problems;
    try {
      problems = CheckSeed(seed, coverage);
    } catch (const std::exception& e) {  // berth throws nothing: std::bad_alloc and the like
      problems.push_back(std::string("threw ") + e.what());
    }
    if (problems.empty()) continue;
    failed.insert(seed);
    if (kKnownFailures.contains(seed)) continue;
    for (const std::string& p : problems) {
      ADD_FAILURE() << "seed " << seed << " (BERTH_PROPERTY_SEED=" << seed << " reruns it): " << p;
    }
  }
  // The generator reaches what the invariants are about (over the default seeds): binds and
  // waits, DRA claims, GPU fractions, Kueue admissions and preemptions.
  if (seeds.size() == kSeeds && seeds.front() == 1) {
    // Per 100 seeds, about a third of what 300 seeds reach (1122 binds, 681 waits, 23
    // claims, 27 fractions, 118 admissions, 7 preemptions), with room below.
    const int per100 = static_cast<int>(kSeeds / 100);
    EXPECT_GT(coverage.bound, 250 * per100);
    EXPECT_GT(coverage.pending, 150 * per100);
    EXPECT_GT(coverage.claims, 4 * per100);
    EXPECT_GT(coverage.fractions, 4 * per100);
    EXPECT_GT(coverage.admitted, 25 * per100);
    EXPECT_GE(coverage.preemptions, 1 * per100);
  }
  {
    std::cout << "coverage of " << seeds.size() << " seeds (settled plans): " << coverage.bound
              << " pods bound, " << coverage.pending << " unschedulable, " << coverage.claims
              << " claims allocated, " << coverage.fractions << " GPU-fraction pods bound, "
              << coverage.admitted << " workloads admitted, " << coverage.preemptions
              << " preemptions\n";
  }
  for (const auto& [seed, why] : kKnownFailures) {
    if (std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) continue;
    EXPECT_TRUE(failed.contains(seed)) << "seed " << seed << " passes now (" << why
                                       << "): remove it from kKnownFailures";
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
