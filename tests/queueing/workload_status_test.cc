// workload_status.h: each Kueue status change on its own.
#include "queueing/workload_status.h"

#include <gtest/gtest.h>

namespace berth::queueing {
namespace BERTH_UNITY_ID {

model::Admission AdmissionIn(const std::string& cq, const std::string& flavor) {
  model::Admission a;
  a.cluster_queue = cq;
  model::PodSetAssignment psa;
  psa.name = "main";
  psa.count = 1;
  psa.flavors["cpu"] = flavor;
  a.pod_set_assignments.push_back(psa);
  return a;
}

TEST(WorkloadStatusTest, EvictionThenReservationReplaysKueuesWrites) {
  model::Workload wl;
  ReserveQuota(wl, AdmissionIn("cq", "f1"), core::Timestamp{1});
  SyncAdmitted(wl, true, core::Timestamp{1});
  MarkEvicted(wl, "Preempted", "why", core::Timestamp{2});
  MarkPreempted(wl, "InClusterQueue", "why", core::Timestamp{2});
  FinishEviction(wl, core::Timestamp{2});
  EXPECT_FALSE(wl.admission.has_value());
  EXPECT_EQ(wl.FindCondition("QuotaReserved")->reason, "PendingEvaluation");
  EXPECT_EQ(wl.FindCondition("QuotaReserved")->message, "why");
  EXPECT_EQ(wl.FindCondition("Admitted")->reason, "NoReservation");
  EXPECT_EQ(wl.FindCondition("Requeued")->status, "True");

  ReserveQuota(wl, AdmissionIn("cq", "f2"), core::Timestamp{3});
  SyncAdmitted(wl, true, core::Timestamp{3});
  EXPECT_EQ(wl.admission->pod_set_assignments[0].flavors.at("cpu"), "f2");
  EXPECT_EQ(wl.FindCondition("Evicted")->status, "False");
  EXPECT_EQ(wl.FindCondition("Evicted")->message, "Previously: why");
  EXPECT_EQ(wl.FindCondition("Evicted")->last_transition_time.unix_s, 3);
  EXPECT_EQ(wl.FindCondition("Preempted")->reason, "QuotaReserved");
  // Kueue leaves Requeued as the job's reconciler wrote it.
  EXPECT_EQ(wl.FindCondition("Requeued")->status, "True");
  EXPECT_EQ(wl.FindCondition("Requeued")->last_transition_time.unix_s, 2);
  ASSERT_EQ(wl.conditions.size(), 5u);
}

TEST(WorkloadStatusTest, FinishEvictionNeedsAnActiveEviction) {
  model::Workload wl;
  ReserveQuota(wl, AdmissionIn("cq", "f1"), core::Timestamp{1});
  FinishEviction(wl, core::Timestamp{2});
  EXPECT_TRUE(wl.admission.has_value());
  EXPECT_EQ(wl.FindCondition("Requeued"), nullptr);
}

TEST(WorkloadStatusTest, ReservationLeavesInactiveConditionsAlone) {
  model::Workload wl;
  wl.conditions.push_back({"Evicted", "False", "QuotaReserved", "Previously: x", {1}});
  ReserveQuota(wl, AdmissionIn("cq", "f1"), core::Timestamp{5});
  EXPECT_EQ(wl.FindCondition("Evicted")->message, "Previously: x");
  EXPECT_EQ(wl.FindCondition("Evicted")->last_transition_time.unix_s, 1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
