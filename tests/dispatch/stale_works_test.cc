// StaleManifestWorks: which given ManifestWorks a plan deletes, and the reason it gives.
#include "dispatch/stale_works.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "dispatch/dispatch_fixture.h"
#include "dispatch/manifest_work_builder.h"
#include "dispatch/work_names.h"

namespace berth::dispatch {
namespace BERTH_UNITY_ID {

using testing::AddJob;
using testing::Assign;
using testing::Cond;

model::Admission Admitted() {
  model::Admission a;
  a.cluster_queue = "hub-cq";
  a.pod_set_assignments = {Assign("main", {{"cpu", "default"}})};
  return a;
}

// A work as a previous plan left it in the input: read, not created.
model::ManifestWork Given(const model::Workload& wl, const std::string& cluster,
                          std::string name = "") {
  model::ManifestWork w;
  w.meta.name = name.empty() ? ManifestWorkName(wl) : std::move(name);
  w.meta.namespace_ = cluster;
  w.meta.labels[model::kWorkloadLabel] = WorkloadLabelValue(wl);
  w.cluster = wl.cluster;
  w.created = false;
  return w;
}

model::ManifestWork Planned(const model::Snapshot& s, int32_t wl, const std::string& cluster) {
  auto r = BuildManifestWork(s, {wl, cluster, std::string("lq"), nullptr});
  EXPECT_TRUE(r.has_value());
  return r.has_value() ? *r : model::ManifestWork{};
}

class StaleWorksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    train_ = AddJob(s_, "batch/v1", "Job", "team-a", "train", {"main"}, Admitted());
  }
  const model::Workload& Train() const { return s_.kueue_workloads[static_cast<size_t>(train_)]; }

  model::Snapshot s_;
  int32_t train_ = -1;
};

TEST_F(StaleWorksTest, WorkForAClusterNoLongerChosenIsDeleted) {
  s_.manifest_works.push_back(Given(Train(), "us-1"));
  std::vector<model::ManifestWork> planned = {Planned(s_, train_, "us-2")};
  auto out = StaleManifestWorks(s_, planned, {{train_, "us-2"}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].api_version, "work.open-cluster-management.io/v1");
  EXPECT_EQ(out[0].kind, "ManifestWork");
  EXPECT_EQ(out[0].namespace_, "us-1");
  EXPECT_EQ(out[0].name, "team-a.job-train");
  EXPECT_EQ(out[0].reason, "workload team-a/job-train now runs on us-2");
}

TEST_F(StaleWorksTest, PlannedWorkOfTheSameNameReplacesTheGivenOne) {
  s_.manifest_works.push_back(Given(Train(), "us-1"));
  std::vector<model::ManifestWork> planned = {Planned(s_, train_, "us-1")};
  EXPECT_TRUE(StaleManifestWorks(s_, planned, {{train_, "us-1"}}).empty());
}

TEST_F(StaleWorksTest, GivenWorkUnderAnotherNameIsDeletedNotDuplicated) {
  s_.manifest_works.push_back(Given(Train(), "us-1", "team-a-job-train"));
  std::vector<model::ManifestWork> planned = {Planned(s_, train_, "us-1")};
  auto out = StaleManifestWorks(s_, planned, {{train_, "us-1"}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "team-a-job-train");
  EXPECT_EQ(out[0].reason,
            "workload team-a/job-train is now sent as ManifestWork team-a.job-train");
}

TEST_F(StaleWorksTest, WorkloadThatStaysWhereItRunsKeepsItsWork) {
  s_.manifest_works.push_back(Given(Train(), "us-1"));
  EXPECT_TRUE(StaleManifestWorks(s_, {}, {{train_, "us-1"}}).empty());
  auto moved = StaleManifestWorks(s_, {}, {{train_, "eu-1"}});
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].reason, "workload team-a/job-train now runs on eu-1");
}

TEST_F(StaleWorksTest, WorkloadGoneOrFinished) {
  model::Workload gone;
  gone.meta.namespace_ = "team-b";
  gone.meta.name = "jobset-old";
  gone.cluster = testing::kHub;
  s_.manifest_works.push_back(Given(gone, "us-3"));
  s_.kueue_workloads[static_cast<size_t>(train_)].conditions.push_back(Cond("Finished", "True"));
  s_.manifest_works.push_back(Given(Train(), "us-1"));
  auto out = StaleManifestWorks(s_, {}, {{train_, "us-1"}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].namespace_, "us-3");
  EXPECT_EQ(out[0].reason, "workload team-b/jobset-old no longer exists");
  EXPECT_EQ(out[1].reason, "workload team-a/job-train finished");
}

TEST_F(StaleWorksTest, WorkloadWithoutClusterAfterTheCycle) {
  s_.manifest_works.push_back(Given(Train(), "us-1"));
  model::Workload& wl = s_.kueue_workloads[static_cast<size_t>(train_)];
  // Admitted and not placed anywhere (it runs on the hub now).
  EXPECT_EQ(StaleManifestWorks(s_, {}, {}).at(0).reason,
            "workload team-a/job-train no longer runs on us-1");
  wl.conditions = {Cond("Admitted", "False")};
  EXPECT_EQ(StaleManifestWorks(s_, {}, {}).at(0).reason,
            "workload team-a/job-train is no longer admitted");
  wl.conditions = {Cond("Admitted", "True")};
  wl.admission.reset();
  EXPECT_EQ(StaleManifestWorks(s_, {}, {}).at(0).reason,
            "workload team-a/job-train is no longer admitted");
  wl.conditions = {Cond("Evicted", "True", "Preempted")};
  EXPECT_EQ(StaleManifestWorks(s_, {}, {}).at(0).reason,
            "workload team-a/job-train was evicted (Preempted)");
}

TEST_F(StaleWorksTest, OnlyBerthsGivenWorksOfTheSameHubAreJudged) {
  model::ManifestWork foreign;  // no berth.dev/workload label: someone else's
  foreign.meta.name = "addon";
  foreign.meta.namespace_ = "us-1";
  model::ManifestWork created = Given(Train(), "us-9");
  created.created = true;  // planned this cycle, not read
  model::ManifestWork other_hub = Given(Train(), "us-1");
  other_hub.cluster = "hub-2";  // same label, but no such workload on hub-2
  s_.manifest_works = {foreign, created, other_hub};
  auto out = StaleManifestWorks(s_, {}, {{train_, "us-1"}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].reason, "workload team-a/job-train no longer exists");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::dispatch
