// The bounds on the pods the reader creates for workloads (io::ExpansionLimits, docs/limits.md):
// a workload over the per-workload bound, or the one that would take the run past the total,
// is one error on its spec and is not expanded; the workloads before it are, and so are the
// smaller ones after it that still fit.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

std::string Job(const std::string& name, int parallelism) {
  return "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + name +
         "\n  namespace: ns\nspec:\n  parallelism: " + std::to_string(parallelism) +
         "\n  completions: " + std::to_string(parallelism) +
         "\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - {name: c, image: i}\n";
}

std::map<std::string, int> PodsPerJob(const Input& in) {
  std::map<std::string, int> out;
  for (const model::Pod& p : in.snapshot.pods) {
    auto it = p.meta.labels.find("job-name");
    if (it != p.meta.labels.end()) ++out[it->second];
  }
  return out;
}

Input Read(const std::string& text, const ExpansionLimits& limits, core::Diagnostics& diags) {
  Reader reader(diags);
  reader.ReadText(text, "jobs.yaml");
  return reader.Finish(limits);
}

TEST(ExpansionLimitsTest, DefaultsAreTheDocumentedOnes) {
  const ExpansionLimits limits;
  EXPECT_EQ(limits.pods_per_workload, 100'000);
  EXPECT_EQ(limits.pods, 400'000);
}

TEST(ExpansionLimitsTest, OneWorkloadOverItsBoundIsRefusedTheOthersExpand) {
  core::Diagnostics diags;
  const Input in = Read(Job("a", 3) + Job("big", 6) + Job("b", 5), {5, 100}, diags);
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.message(), "6 pods exceed berth's limit of 5 pods per workload");
  EXPECT_EQ(e.location().field, "spec");
  EXPECT_EQ(e.location().object, "Job/ns/big");
  EXPECT_EQ(PodsPerJob(in), (std::map<std::string, int>{{"a", 3}, {"b", 5}}));
}

TEST(ExpansionLimitsTest, TheWorkloadThatWouldPassTheTotalIsRefusedSmallerOnesStillFit) {
  core::Diagnostics diags;
  const Input in =
      Read(Job("a", 4) + Job("b", 4) + Job("c", 4) + Job("d", 2), {10, 10}, diags);
  ASSERT_EQ(diags.error_count(), 1u) << testing::Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.message(), "its 4 pods would exceed berth's limit of 10 pods created from one input");
  EXPECT_EQ(e.location().object, "Job/ns/c");
  EXPECT_EQ(PodsPerJob(in), (std::map<std::string, int>{{"a", 4}, {"b", 4}, {"d", 2}}));
}

TEST(ExpansionLimitsTest, ExactlyAtTheBoundsIsRead) {
  core::Diagnostics diags;
  const Input in = Read(Job("a", 5) + Job("b", 5), {5, 10}, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_EQ(PodsPerJob(in), (std::map<std::string, int>{{"a", 5}, {"b", 5}}));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
