// The rollout annotations' text forms (dispatch/health_rule_text.h: what health looks like,
// negated into the violations health_rule.h measures) and RevisionHistory::Load, which
// reads a history back from the ControllerRevisions it was written to.
#include "dispatch/health_rule_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatch/revision_history.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

constexpr const char* kHealthField = "metadata.annotations[rollout.berth.dev/health]";

std::vector<std::string> RuleTexts(const std::string& text) {
  auto rules = ParseHealthRules(text, kHealthField);
  EXPECT_TRUE(rules.has_value()) << (rules.has_value() ? "" : rules.error().message());
  std::vector<std::string> out;
  if (!rules.has_value()) return out;
  for (const HealthRule& r : *rules) out.push_back(r.Text());
  return out;
}

TEST(HealthRuleTextTest, HealthyConditionsBecomeTheirViolations) {
  EXPECT_EQ(RuleTexts("AvailableReplicas >= 2 for 60s"),
            (std::vector<std::string>{"AvailableReplicas < 2 for 60s"}));
  EXPECT_EQ(RuleTexts("AvailableReplicas>=2 for 1m30s; ReadyReplicas > 0\nJobFailed == false"),
            (std::vector<std::string>{"AvailableReplicas < 2 for 90s", "ReadyReplicas <= 0 for 0s",
                                      "JobFailed != 0 for 0s"}));
  EXPECT_EQ(RuleTexts("  ;\n Errors <= 0.5 for 5m ;"),
            (std::vector<std::string>{"Errors > 0.5 for 300s"}));
  EXPECT_EQ(RuleTexts("Lag != -1"), (std::vector<std::string>{"Lag == -1 for 0s"}));
  EXPECT_TRUE(RuleTexts("").empty());
  for (Comparison c : {Comparison::kLess, Comparison::kLessOrEqual, Comparison::kGreater,
                       Comparison::kGreaterOrEqual, Comparison::kEqual, Comparison::kNotEqual}) {
    EXPECT_EQ(NegatedComparison(NegatedComparison(c)), c);
  }
}

TEST(HealthRuleTextTest, MistakesNameTheRuleAndTheProblem) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {">= 2", "rule 1 \">= 2\": expected a status feedback name"},
      {"Ready 2", "rule 1 \"Ready 2\": expected <, <=, >, >=, == or != after Ready"},
      {"Ready >> 2", "rule 1 \"Ready >> 2\": expected <, <=, >, >=, == or != after Ready"},
      {"Ok: Ready > two", "rule 1 \"Ok: Ready > two\": expected <, <=, >, >=, == or != after Ok"},
      {"Ready > 1; Ready > two",
       "rule 2 \"Ready > two\": expected a number, true or false after >"},
      {"Ready > 1 during 5m",
       "rule 1 \"Ready > 1 during 5m\": expected \"for DURATION\" or the end "
       "of the rule"},
      {"Ready > 1 for 5d", "rule 1 \"Ready > 1 for 5d\": bad duration 5d: "},
      {"Ready > 1 for -5s", "rule 1 \"Ready > 1 for -5s\": the duration must not be negative"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto rules = ParseHealthRules(c.text, kHealthField);
    ASSERT_FALSE(rules.has_value());
    EXPECT_EQ(rules.error().location().field, kHealthField);
    EXPECT_EQ(rules.error().message().rfind(c.message, 0), 0u) << rules.error().message();
  }
  std::string many;
  for (int i = 0; i < 33; ++i) many += "R > 1;";
  auto rules = ParseHealthRules(many, kHealthField);
  ASSERT_FALSE(rules.has_value());
  EXPECT_EQ(rules.error().message(), "at most 32 health rules");
}

Revision StoredRevision(int64_t number, const std::string& hash,
                        std::vector<RevisionCluster> clusters = {}) {
  Revision r;
  r.number = number;
  r.spec_hash = hash;
  r.clusters = std::move(clusters);
  return r;
}

TEST(RevisionHistoryLoadTest, KeepsStoredNumbersAndContinuesAfterThem) {
  RevisionHistory history;
  history.Load(StoredRevision(7, "c"));
  history.Load(StoredRevision(3, "a", {{"eu-1", 10, RolloutStatus::kSucceeded, 20, ""}}));
  history.Load(StoredRevision(5, "b"));
  ASSERT_EQ(history.List().size(), 3u);
  EXPECT_EQ(history.List()[0].number, 3);
  EXPECT_EQ(history.Current()->spec_hash, "c");
  EXPECT_EQ(history.LastGood()->number, 3);
  EXPECT_EQ(history.Record("d", 100), 8);
  // Going back to "a" renumbers it, clears its records.
  EXPECT_EQ(history.Record("a", 200), 9);
  EXPECT_TRUE(history.Current()->clusters.empty());
}

TEST(RevisionHistoryLoadTest, OneRevisionPerHashTheHigherNumberWins) {
  RevisionHistory history;
  history.Load(StoredRevision(2, "a"));
  history.Load(StoredRevision(4, "a"));
  history.Load(StoredRevision(3, "a"));
  ASSERT_EQ(history.List().size(), 1u);
  EXPECT_EQ(history.Current()->number, 4);
  history.Load(StoredRevision(4, "b"));  // the same number: the later one replaces it
  ASSERT_EQ(history.List().size(), 1u);
  EXPECT_EQ(history.Current()->spec_hash, "b");
}

TEST(RevisionHistoryLoadTest, PrunesToTheLimit) {
  RevisionHistory history(2);
  for (int64_t n = 1; n <= 5; ++n) history.Load(StoredRevision(n, "h" + std::to_string(n)));
  ASSERT_EQ(history.List().size(), 3u);
  EXPECT_EQ(history.List()[0].number, 3);
  EXPECT_EQ(history.Record("h6", 0), 6);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
