// ReflectRemoteStatus's reading of a member cluster's own Workload (MultiKueue's remote
// workload): an eviction there requeues the hub's Workload and the next dispatch goes
// elsewhere; a copy older than the hub's reservation is the previous dispatch's and is
// ignored. Fixtures: tests/fixtures/engine/remote-evicted(-stale) (the hub's objects, and
// us-2's Workload as its agent reports it). These are unit tests rather than golden plans
// because the member's evicted, queue-less Workload is shown as Preempted by the table and
// as Inadmissible by explain, which the golden sweep's consistency check refuses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "engine/plan.h"
#include "engine/remote_status.h"
#include "io/reader.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

constexpr int64_t kNow = 1'795'944'000;  // 2026-11-29T09:20:00Z, the fixtures' time

model::Snapshot ReadFixture(const std::string& name) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  const std::string dir = std::string(root != nullptr ? root : ".") + "/tests/fixtures/engine/" + name;
  core::Diagnostics diags;
  io::Reader reader(diags);
  EXPECT_TRUE(reader.ReadPath(dir + "/hub.yaml").ok());
  io::ReadOptions us2;
  us2.cluster = "us-2";
  EXPECT_TRUE(reader.ReadPath(dir + "/us-2", us2).ok());
  io::Input input = reader.Finish();
  for (const auto& d : diags.entries()) ADD_FAILURE() << d.error.ToString();
  return std::move(input.snapshot);
}

model::Workload* HubWorkload(model::Snapshot& s) {
  for (model::Workload& w : s.kueue_workloads) {
    if (w.meta.name == "job-train") return &w;
  }
  return nullptr;
}

TEST(RemoteStatusTest, AnEvictionOnTheWorkerRequeuesTheHubWorkload) {
  model::Snapshot s = ReadFixture("remote-evicted");
  const RemoteStatusCounts counts = ReflectRemoteStatus(s, core::Timestamp{kNow});
  EXPECT_EQ(counts.evicted_remotely, 1u);
  EXPECT_EQ(counts.requeued, 0u);
  model::Workload* w = HubWorkload(s);
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(w->cluster_name.empty());
  EXPECT_FALSE(w->admission.has_value());
  ASSERT_EQ(w->admission_checks.size(), 1u);
  EXPECT_EQ(w->admission_checks[0].state, model::CheckState::kPending);
  EXPECT_NE(w->admission_checks[0].message.find("Evicted on worker cluster \"us-2\" (Preempted): Preempted to accommodate"),
            std::string::npos)
      << w->admission_checks[0].message;
}

TEST(RemoteStatusTest, TheRequeuedWorkloadIsDispatchedElsewhereAndTheWorkerCopyRemoved) {
  PlanOptions options;
  options.now = core::Timestamp{kNow};
  Plan plan = RunPlan(ReadFixture("remote-evicted"), options);
  model::Workload* w = HubWorkload(plan.planned);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->cluster_name, "eu-1");
  bool us2_deleted = false;
  for (const model::ObjectDeletion& d : plan.deleted_objects) {
    us2_deleted |= d.kind == "ManifestWork" && d.namespace_ == "us-2";
  }
  EXPECT_TRUE(us2_deleted);
}

TEST(RemoteStatusTest, AnOlderCopyOfThePreviousDispatchIsIgnored) {
  model::Snapshot s = ReadFixture("remote-evicted-stale");
  const RemoteStatusCounts counts = ReflectRemoteStatus(s, core::Timestamp{kNow});
  EXPECT_EQ(counts.evicted_remotely, 0u);
  model::Workload* w = HubWorkload(s);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->cluster_name, "us-2");
  EXPECT_TRUE(w->admission.has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
