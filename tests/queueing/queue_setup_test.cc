// ClusterQueue validation: inactive queues with Kueue's reasons, diagnostics naming the field.
#include "queueing/queue_setup.h"

#include <gtest/gtest.h>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

TEST(QueueSetupTest, MissingFlavorDeactivatesOnlyThatQueue) {
  KueueSnapshot k;
  k.Flavor("default");
  k.Add(CqBuilder("bad").Quota("ghost", "cpu", 1000));
  k.Add(CqBuilder("good").Quota("default", "cpu", 1000));
  k.LocalQueue("lbad", "bad");
  k.LocalQueue("lgood", "good");
  const int32_t a = k.Add(WlBuilder("a").Queue("lbad").Requests({{"cpu", 100}}));
  const int32_t b = k.Add(WlBuilder("b").Queue("lgood").Requests({{"cpu", 100}}));
  core::Diagnostics diags;
  AdmissionResult r = RunAll(k, &diags);
  EXPECT_FALSE(r.cluster_queues[0].active);
  EXPECT_EQ(r.cluster_queues[0].reason, "FlavorNotFound");
  EXPECT_EQ(r.cluster_queues[0].message,
            "Can't admit new workloads: references missing ResourceFlavor(s): [ghost]");
  EXPECT_TRUE(r.cluster_queues[1].active);
  EXPECT_EQ(DecisionOf(r, a).outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(DecisionOf(r, a).message, "ClusterQueue bad is inactive");
  EXPECT_EQ(DecisionOf(r, b).outcome, WorkloadOutcome::kAdmitted);
  ASSERT_EQ(diags.entries().size(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "ClusterQueue/bad");
  // Issue 14: an error (the CLI exits 1), not a warning.
  EXPECT_EQ(diags.entries()[0].severity, core::Severity::kError);
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.resourceGroups");
}

TEST(QueueSetupTest, ResourceInTwoGroupsIsInvalid) {
  KueueSnapshot k;
  k.Flavor("f1");
  k.Flavor("f2");
  k.Add(CqBuilder("cq")
            .Quota("f1", "cpu", 1000, std::nullopt, std::nullopt, 0)
            .Quota("f2", "cpu", 1000, std::nullopt, std::nullopt, 1));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_FALSE(s.cqs[0].active);
  EXPECT_EQ(s.cqs[0].reason, "InvalidSpec");
  ASSERT_FALSE(diags.entries().empty());
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "spec.resourceGroups[1].coveredResources[0]");
}

TEST(QueueSetupTest, FlavorMustListCoveredResources) {
  KueueSnapshot k;
  k.Flavor("f1");
  k.Flavor("f2");
  k.Add(CqBuilder("cq")
            .Quota("f1", "cpu", 1000)
            .Quota("f1", "memory", 1000)
            .Quota("f2", "cpu", 1000));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_FALSE(s.cqs[0].active);
  ASSERT_FALSE(diags.entries().empty());
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "spec.resourceGroups[0].flavors[1].resources");
}

TEST(QueueSetupTest, LimitsWithoutCohortAreInvalid) {
  KueueSnapshot k;
  k.Flavor("f");
  k.Add(CqBuilder("cq").Quota("f", "cpu", 1000, 500));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_FALSE(s.cqs[0].active);
  ASSERT_FALSE(diags.entries().empty());
  EXPECT_EQ(diags.entries()[0].error.location().field,
            "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit");
}

TEST(QueueSetupTest, CohortCycleDeactivatesMembers) {
  KueueSnapshot k;
  k.Flavor("f");
  k.Cohort("x", "y");
  k.Cohort("y", "x");
  k.Add(CqBuilder("in-cycle").Cohort("x").Quota("f", "cpu", 1000));
  k.Add(CqBuilder("fine").Cohort("z").Quota("f", "cpu", 1000));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_FALSE(s.cqs[0].active);
  EXPECT_EQ(s.cqs[0].reason, "CohortCycle");
  EXPECT_TRUE(s.cqs[1].active);
  // Issue 14: each Cohort on the cycle and each ClusterQueue below it is an error.
  ASSERT_EQ(diags.error_count(), 3u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "Cohort/x");
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.parentName");
  EXPECT_EQ(diags.entries()[1].error.location().object, "Cohort/y");
  EXPECT_EQ(diags.entries()[2].error.location().object, "ClusterQueue/in-cycle");
  EXPECT_EQ(diags.entries()[2].error.location().field, "spec.cohortName");
}

TEST(QueueSetupTest, HierarchicalCohortPoolsQuota) {
  KueueSnapshot k;
  k.Flavor("f");
  CqBuilder pool("pool");
  pool.Quota("f", "cpu", 5000);
  k.Cohort("root", "", &pool);
  k.Cohort("team", "root");
  k.Add(CqBuilder("cq").Cohort("team").Quota("f", "cpu", 1000));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_TRUE(diags.entries().empty());
  const int32_t fr = s.FrId("f", model::kCpu);
  EXPECT_EQ(s.tree.Available(0, fr), 6000);
  EXPECT_EQ(s.tree.Height(s.tree.Root(0)), 2);

  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 6000}}));
  EXPECT_EQ(DecisionOf(RunAll(k), a).outcome, WorkloadOutcome::kAdmitted);
}

TEST(QueueSetupTest, MissingAdmissionCheckDeactivates) {
  KueueSnapshot k;
  k.Flavor("f");
  k.Add(CqBuilder("cq").Quota("f", "cpu", 1000).Check("prov"));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_FALSE(s.cqs[0].active);
  EXPECT_EQ(s.cqs[0].reason, "AdmissionCheckNotFound");
  ASSERT_EQ(diags.error_count(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.admissionChecksStrategy");
}

// Issue 14: a LocalQueue naming a ClusterQueue that is not there passed without a word when
// no workload used it; now it is an error on the LocalQueue, workloads or not.
TEST(QueueSetupTest, LocalQueueNamingMissingClusterQueueIsAnError) {
  KueueSnapshot k;
  k.Flavor("f");
  k.Add(CqBuilder("cq").Quota("f", "cpu", 1000));
  k.LocalQueue("good", "cq");
  k.LocalQueue("lost", "nope", "team-a");
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  EXPECT_TRUE(s.cqs[0].active);
  ASSERT_EQ(diags.error_count(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "LocalQueue/team-a/lost");
  EXPECT_EQ(diags.entries()[0].error.location().field, "spec.clusterQueue");
  EXPECT_EQ(diags.entries()[0].error.message(), "ClusterQueue nope doesn't exist");

  core::Diagnostics checked;
  CheckQueueSetup(k.snapshot, "default", checked);
  EXPECT_EQ(checked.error_count(), 1u);
  core::Diagnostics elsewhere;  // another cluster has no queues: nothing to check
  CheckQueueSetup(k.snapshot, "other", elsewhere);
  EXPECT_TRUE(elsewhere.entries().empty());
}

// Two ClusterQueues of one name in a cluster (the reader drops a differing copy of the same
// object, so only another route gets here): an error, and the second stays out of the tree
// so that its quota does not count twice in the cohort.
TEST(QueueSetupTest, SecondClusterQueueOfOneNameIsAnError) {
  KueueSnapshot k;
  k.Flavor("f");
  k.Add(CqBuilder("cq").Cohort("c").Quota("f", "cpu", 1000));
  k.Add(CqBuilder("cq").Cohort("c").Quota("f", "cpu", 4000));
  core::Diagnostics diags;
  QueueSetup s = BuildQueueSetup(k.snapshot, "default", diags);
  ASSERT_EQ(s.cqs.size(), 1u);
  EXPECT_EQ(s.tree.Available(0, s.FrId("f", model::kCpu)), 1000);
  ASSERT_EQ(diags.error_count(), 1u);
  EXPECT_EQ(diags.entries()[0].error.location().object, "ClusterQueue/cq");
  EXPECT_EQ(diags.entries()[0].error.location().field, "metadata.name");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
