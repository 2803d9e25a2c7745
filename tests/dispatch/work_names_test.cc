// ManifestWork names and berth.dev/workload label values: readable when short, unambiguous,
// and within Kubernetes' limits with a stable hash when long.
#include "dispatch/work_names.h"

#include <gtest/gtest.h>

#include <string>

#include "core/labels.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

model::Workload Wl(std::string ns, std::string name) {
  model::Workload wl;
  wl.meta.namespace_ = std::move(ns);
  wl.meta.name = std::move(name);
  return wl;
}

TEST(WorkNamesTest, ShortNamesAreNamespaceDotName) {
  EXPECT_EQ(ManifestWorkName(Wl("team-a", "job-train")), "team-a.job-train");
  EXPECT_EQ(WorkloadLabelValue(Wl("team-a", "job-train")), "team-a.job-train");
}

TEST(WorkNamesTest, DotSeparatorKeepsNamespacesApart) {
  // With '-' as separator both would be "a-b-c" in the same cluster namespace.
  EXPECT_NE(ManifestWorkName(Wl("a-b", "c")), ManifestWorkName(Wl("a", "b-c")));
  EXPECT_NE(WorkloadLabelValue(Wl("a-b", "c")), WorkloadLabelValue(Wl("a", "b-c")));
}

TEST(WorkNamesTest, LongNamesAreCutWithAStableHash) {
  const std::string base(240, 'x');
  const model::Workload a = Wl("team-a", base + "-first");
  const model::Workload b = Wl("team-a", base + "-second");
  const std::string name_a = ManifestWorkName(a);
  EXPECT_EQ(name_a.size(), kMaxObjectNameLength);
  EXPECT_TRUE(core::IsDns1123Subdomain(name_a)) << name_a;
  EXPECT_EQ(name_a, ManifestWorkName(a));  // the same input, the same name
  EXPECT_NE(name_a, ManifestWorkName(b));  // same kept prefix, other hash
  EXPECT_EQ(name_a.substr(0, 20), "team-a.xxxxxxxxxxxxx");

  const std::string label = WorkloadLabelValue(a);
  EXPECT_EQ(label.size(), kMaxLabelValueLength);
  EXPECT_TRUE(core::IsValidLabelValue(label)) << label;
  EXPECT_NE(label, WorkloadLabelValue(b));
}

TEST(WorkNamesTest, CutNeverLeavesASeparatorBeforeTheHash) {
  // 46 characters are kept for a 63 limit; make the 45th and 46th separators.
  std::string text(44, 'a');
  text += ".-";
  text += std::string(40, 'b');
  const std::string out = BoundedName(text, kMaxLabelValueLength);
  EXPECT_TRUE(core::IsValidLabelValue(out)) << out;
  EXPECT_EQ(out.substr(0, 45), std::string(44, 'a') + "-");
  EXPECT_EQ(out.size(), 44u + 1 + 16);
  EXPECT_EQ(BoundedName("short", kMaxLabelValueLength), "short");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
