// The catalogue and the runner: ids unique and kebab-case, every rule documented, findings
// sorted errors first, --rules and --skip, and rules that miss unread objects say so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "diag/doctor_harness.h"

namespace berth::diag {
namespace {

TEST(DoctorCatalogue, IdsAreUniqueKebabCaseAndDocumented) {
  std::set<std::string_view> ids;
  const char* source = std::getenv("BERTH_SOURCE_DIR");
  for (const Rule& r : AllRules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "duplicate rule id " << r.id;
    for (char c : r.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << r.id;
    EXPECT_FALSE(r.title.empty()) << r.id;
    EXPECT_FALSE(r.reads.empty()) << r.id;
    if (source != nullptr) {
      const std::filesystem::path page =
          std::filesystem::path(source) / "docs" / "doctor" / (std::string(r.id) + ".md");
      EXPECT_TRUE(std::filesystem::exists(page)) << "no docs page " << page;
    }
  }
}

TEST(DoctorRunner, SkipsAndOnlySelectRules) {
  const std::string yaml = testing::GpuNode("gpu-1", 2) +
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec:\n"
      "  nodeSelector: {zone: nowhere}\n"
      "  containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: \"4\"}}}]\n";
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "t.yaml");
  io::Input input = reader.Finish();
  DoctorOptions all;
  DoctorReport report = RunDoctor(input.snapshot, diags, all);
  std::set<std::string> rules;
  for (const Finding& f : report.findings) rules.insert(f.rule);
  EXPECT_TRUE(rules.contains("node-selector-matches-nothing"));
  EXPECT_TRUE(rules.contains("request-exceeds-every-node"));
  DoctorOptions skip;
  skip.skip = {"node-selector-matches-nothing"};
  for (const Finding& f : RunDoctor(input.snapshot, diags, skip).findings) {
    EXPECT_NE(f.rule, "node-selector-matches-nothing");
  }
  EXPECT_EQ(RunDoctor(input.snapshot, diags, skip).rules_run, report.rules_run - 1);
  // Errors first, then by rule id.
  for (size_t i = 1; i < report.findings.size(); ++i) {
    EXPECT_GE(report.findings[i - 1].severity, report.findings[i].severity);
  }
  EXPECT_EQ(report.errors + report.warnings + report.infos, static_cast<int32_t>(report.findings.size()));
}

TEST(DoctorRunner, RulesNeedingAnUnreadObjectSayTheyWereSkipped) {
  // The second Node has a bad quantity: the reader reports it, and rules that read Nodes
  // say they did not see it.
  const std::string yaml = testing::GpuNode("gpu-1", 2) +
      "apiVersion: v1\nkind: Node\nmetadata: {name: bad}\nstatus:\n  allocatable: {cpu: lots}\n";
  testing::RuleRun run = testing::RunRule("request-exceeds-every-node", yaml);
  ASSERT_EQ(run.read_errors.size(), 1u) << (run.read_errors.empty() ? "" : run.read_errors[0]);
  ASSERT_EQ(run.skipped.size(), 1u);
  EXPECT_EQ(run.skipped[0].rule, "request-exceeds-every-node");
  EXPECT_EQ(run.skipped[0].reason, "Node/bad could not be read");
}

}  // namespace
}  // namespace berth::diag
