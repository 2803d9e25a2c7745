// Taints and tolerations with kube-scheduler's TaintToleration semantics.
#include "core/taint.h"

#include <gtest/gtest.h>

namespace berth::core {
namespace BERTH_UNITY_ID {

Taint MakeTaint(std::string key, std::string value, TaintEffect effect) {
  return Taint{std::move(key), std::move(value), effect};
}

Toleration Tol(std::string key, TolerationOp op, std::string value,
               std::optional<TaintEffect> effect = std::nullopt) {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  t.effect = effect;
  return t;
}

const Taint kGpu = MakeTaint("nvidia.com/gpu", "present", TaintEffect::kNoSchedule);

TEST(TaintTest, ParsesEffects) {
  EXPECT_EQ(*ParseTaintEffect("NoSchedule"), TaintEffect::kNoSchedule);
  EXPECT_EQ(*ParseTaintEffect("PreferNoSchedule"), TaintEffect::kPreferNoSchedule);
  EXPECT_EQ(*ParseTaintEffect("NoExecute"), TaintEffect::kNoExecute);
  for (const char* bad : {"", "noschedule", "NoSchedule ", "Evict"}) {
    Result<TaintEffect> r = ParseTaintEffect(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code(), ErrorCode::kInvalidArgument);
  }
  EXPECT_STREQ(TaintEffectName(TaintEffect::kPreferNoSchedule), "PreferNoSchedule");
  EXPECT_STREQ(TaintEffectName(TaintEffect::kNoExecute), "NoExecute");
}

TEST(TaintTest, ParsesTolerationOperators) {
  EXPECT_EQ(*ParseTolerationOp(""), TolerationOp::kEqual);
  EXPECT_EQ(*ParseTolerationOp("Equal"), TolerationOp::kEqual);
  EXPECT_EQ(*ParseTolerationOp("Exists"), TolerationOp::kExists);
  EXPECT_FALSE(ParseTolerationOp("exists").has_value());
  EXPECT_FALSE(ParseTolerationOp("In").has_value());
}

TEST(TaintTest, RendersLikeKubeScheduler) {
  EXPECT_EQ(kGpu.ToString(), "{nvidia.com/gpu: present}");
  EXPECT_EQ(MakeTaint("dedicated", "", TaintEffect::kNoSchedule).ToString(), "{dedicated: }");
}

TEST(TolerationTest, EqualNeedsKeyAndValue) {
  EXPECT_TRUE(Tol("nvidia.com/gpu", TolerationOp::kEqual, "present").Tolerates(kGpu));
  EXPECT_FALSE(Tol("nvidia.com/gpu", TolerationOp::kEqual, "absent").Tolerates(kGpu));
  EXPECT_FALSE(Tol("nvidia.com/gpu", TolerationOp::kEqual, "").Tolerates(kGpu));
  EXPECT_FALSE(Tol("other", TolerationOp::kEqual, "present").Tolerates(kGpu));
}

TEST(TolerationTest, ExistsIgnoresValue) {
  EXPECT_TRUE(Tol("nvidia.com/gpu", TolerationOp::kExists, "").Tolerates(kGpu));
  EXPECT_TRUE(Tol("nvidia.com/gpu", TolerationOp::kExists, "whatever").Tolerates(kGpu));
  EXPECT_FALSE(Tol("other", TolerationOp::kExists, "").Tolerates(kGpu));
}

TEST(TolerationTest, EmptyKeyWithExistsToleratesEverything) {
  Toleration all = Tol("", TolerationOp::kExists, "");
  EXPECT_TRUE(all.Tolerates(kGpu));
  EXPECT_TRUE(all.Tolerates(MakeTaint("a", "b", TaintEffect::kNoExecute)));
  EXPECT_TRUE(all.Tolerates(MakeTaint("c", "", TaintEffect::kPreferNoSchedule)));
  // With an effect, only taints of that effect.
  Toleration all_no_execute = Tol("", TolerationOp::kExists, "", TaintEffect::kNoExecute);
  EXPECT_FALSE(all_no_execute.Tolerates(kGpu));
  EXPECT_TRUE(all_no_execute.Tolerates(MakeTaint("a", "b", TaintEffect::kNoExecute)));
}

TEST(TolerationTest, EmptyKeyWithEqualComparesValuesOnly) {
  // Upstream validation forbids it, but ToleratesTaint matches any key on equal value.
  EXPECT_TRUE(Tol("", TolerationOp::kEqual, "present").Tolerates(kGpu));
  EXPECT_FALSE(Tol("", TolerationOp::kEqual, "other").Tolerates(kGpu));
}

TEST(TolerationTest, EffectMustMatchWhenSet) {
  EXPECT_TRUE(
      Tol("nvidia.com/gpu", TolerationOp::kExists, "", TaintEffect::kNoSchedule).Tolerates(kGpu));
  EXPECT_FALSE(
      Tol("nvidia.com/gpu", TolerationOp::kExists, "", TaintEffect::kNoExecute).Tolerates(kGpu));
  EXPECT_FALSE(Tol("nvidia.com/gpu", TolerationOp::kExists, "", TaintEffect::kPreferNoSchedule)
                   .Tolerates(kGpu));
}

TEST(TolerationTest, AnyOfSeveral) {
  std::vector<Toleration> tolerations = {Tol("a", TolerationOp::kExists, ""),
                                         Tol("nvidia.com/gpu", TolerationOp::kEqual, "present")};
  EXPECT_TRUE(TolerationsTolerate(tolerations, kGpu));
  EXPECT_FALSE(TolerationsTolerate({}, kGpu));
  EXPECT_FALSE(TolerationsTolerate({Tol("a", TolerationOp::kExists, "")}, kGpu));
}

TEST(TaintFilterTest, FindsFirstUntoleratedHardTaint) {
  std::vector<Taint> taints = {MakeTaint("soft", "", TaintEffect::kPreferNoSchedule),
                               MakeTaint("tolerated", "x", TaintEffect::kNoSchedule), kGpu,
                               MakeTaint("evict", "", TaintEffect::kNoExecute)};
  std::vector<Toleration> tolerations = {Tol("tolerated", TolerationOp::kExists, "")};
  const Taint* found = FindUntoleratedHardTaint(taints, tolerations);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found, &taints[2]);
  EXPECT_EQ(found->ToString(), "{nvidia.com/gpu: present}");

  tolerations.push_back(Tol("nvidia.com/gpu", TolerationOp::kExists, ""));
  found = FindUntoleratedHardTaint(taints, tolerations);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->key, "evict");

  tolerations.push_back(Tol("evict", TolerationOp::kExists, "", TaintEffect::kNoExecute));
  EXPECT_EQ(FindUntoleratedHardTaint(taints, tolerations), nullptr);
}

TEST(TaintFilterTest, PreferNoScheduleNeverFilters) {
  std::vector<Taint> taints = {MakeTaint("soft", "", TaintEffect::kPreferNoSchedule)};
  EXPECT_EQ(FindUntoleratedHardTaint(taints, {}), nullptr);
  EXPECT_EQ(FindUntoleratedHardTaint({}, {}), nullptr);
}

TEST(TaintScoreTest, CountsIntolerablePreferNoSchedule) {
  std::vector<Taint> taints = {MakeTaint("a", "1", TaintEffect::kPreferNoSchedule),
                               MakeTaint("b", "2", TaintEffect::kPreferNoSchedule),
                               MakeTaint("c", "3", TaintEffect::kNoSchedule)};
  EXPECT_EQ(CountIntolerablePreferNoSchedule(taints, {}), 2);
  // Empty-effect toleration counts.
  EXPECT_EQ(CountIntolerablePreferNoSchedule(taints, {Tol("a", TolerationOp::kEqual, "1")}), 1);
  // PreferNoSchedule-effect toleration counts.
  EXPECT_EQ(CountIntolerablePreferNoSchedule(
                taints, {Tol("b", TolerationOp::kExists, "", TaintEffect::kPreferNoSchedule)}),
            1);
  // A NoSchedule-effect toleration is ignored by the score.
  EXPECT_EQ(CountIntolerablePreferNoSchedule(
                taints, {Tol("a", TolerationOp::kExists, "", TaintEffect::kNoSchedule)}),
            2);
  // Tolerating everything.
  EXPECT_EQ(CountIntolerablePreferNoSchedule(taints, {Tol("", TolerationOp::kExists, "")}), 0);
  // NoSchedule taints never count, tolerated or not.
  EXPECT_EQ(CountIntolerablePreferNoSchedule({taints[2]}, {}), 0);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::core
