// ObjectFilter (-n, -A, -l) and FilterPlanItems: what plan and inventory print.
#include <gtest/gtest.h>

#include "cli/object_filter.h"
#include "cli/plan_filter.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

ObjectFilter FilterOf(ObjectFilterFlags flags) { return ObjectFilter::FromFlags(flags).value(); }

TEST(ObjectFilterTest, NamespaceAndSelector) {
  const core::Labels web{{"app", "web"}, {"tier", "front"}};
  const core::Labels db{{"app", "db"}};
  EXPECT_TRUE(FilterOf({}).Matches("ml", web));
  EXPECT_FALSE(FilterOf({}).active());
  const ObjectFilter ml = FilterOf({.namespace_ = "ml"});
  EXPECT_TRUE(ml.active());
  EXPECT_TRUE(ml.Matches("ml", web));
  EXPECT_FALSE(ml.Matches("web", web));
  EXPECT_TRUE(ml.Matches("", web));  // cluster-scoped objects pass -n
  EXPECT_EQ(ml.default_namespace(), "ml");
  // -A wins over -n.
  const ObjectFilter all = FilterOf({.namespace_ = "ml", .all_namespaces = true});
  EXPECT_TRUE(all.Matches("web", web));
  EXPECT_EQ(all.default_namespace(), "");
  // Set-based selectors, kubectl's syntax.
  const ObjectFilter in = FilterOf({.selector = "app in (web,api),!legacy"});
  EXPECT_TRUE(in.Matches("x", web));
  EXPECT_FALSE(in.Matches("x", db));
  EXPECT_FALSE(FilterOf({.selector = "app!=web"}).Matches("x", web));
  EXPECT_TRUE(FilterOf({.selector = "app!=web"}).Matches("x", db));
  EXPECT_TRUE(FilterOf({.selector = "tier"}).MatchesLabels(web));
  EXPECT_FALSE(FilterOf({.selector = "tier"}).MatchesLabels(db));
}

TEST(ObjectFilterTest, BadSelectorNamesTheFlag) {
  auto bad = ObjectFilter::FromFlags({.selector = "app in ("});
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message().rfind("--selector: ", 0), 0u) << bad.error().message();
}

TEST(ObjectFilterTest, PlanItemsKeepOnlyMatchingObjects) {
  model::Snapshot planned;
  auto add_pod = [&](const std::string& ns, const std::string& name, core::Labels labels) {
    model::Pod pod;
    pod.meta.namespace_ = ns;
    pod.meta.name = name;
    pod.meta.labels = std::move(labels);
    planned.pods.push_back(pod);
    return model::PodIndex{static_cast<int32_t>(planned.pods.size() - 1)};
  };
  std::vector<model::PodDecision> decisions;
  decisions.push_back({.pod = add_pod("ml", "a", {{"app", "train"}})});
  decisions.push_back({.pod = add_pod("web", "b", {{"app", "web"}})});
  decisions.push_back({.pod = add_pod("ml", "c", {{"app", "web"}})});
  for (const char* ns : {"ml", "web"}) {
    model::Workload wl;
    wl.meta.namespace_ = ns;
    wl.meta.name = std::string("wl-") + ns;
    planned.kueue_workloads.push_back(wl);
  }
  io::PlanItems items;
  items.pods = &decisions;
  items.workloads = {0, 1};
  items.workload_cycles = {3, 4};
  items.deleted_objects.push_back({.api_version = "work.open-cluster-management.io/v1",
                                   .kind = "ManifestWork", .namespace_ = "eu-1", .name = "w"});

  std::vector<model::PodDecision> kept;
  const io::PlanItems ml = FilterPlanItems(planned, items, FilterOf({.namespace_ = "ml"}), &kept);
  ASSERT_EQ(ml.pods, &kept);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].pod.v, 0);
  EXPECT_EQ(kept[1].pod.v, 2);
  EXPECT_EQ(ml.workloads, std::vector<int32_t>{0});
  EXPECT_EQ(ml.workload_cycles, std::vector<int32_t>{3});
  EXPECT_TRUE(ml.deleted_objects.empty());

  const io::PlanItems web = FilterPlanItems(planned, items, FilterOf({.selector = "app=web"}), &kept);
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].pod.v, 1);
  EXPECT_EQ(kept[1].pod.v, 2);
  EXPECT_TRUE(web.workloads.empty());  // Workloads without the label

  // No filter: the items as given, pods not copied.
  const io::PlanItems all = FilterPlanItems(planned, items, ObjectFilter(), &kept);
  EXPECT_EQ(all.pods, &decisions);
  EXPECT_EQ(all.workloads.size(), 2u);
  EXPECT_EQ(all.deleted_objects.size(), 1u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
