// The fields DefaultPreemption reads: a pod's spec.preemptionPolicy (or its PriorityClass's),
// status.startTime and status.nominatedNodeName, and a PodDisruptionBudget's
// status.disruptionsAllowed and status.disruptedPods; malformed ones are reported with file,
// object and field while the rest is read.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

Input ReadPreemptionInput(const std::string& yaml) {
  core::Diagnostics diags;
  Input in = testing::ReadString(yaml, diags);
  EXPECT_EQ(diags.entries().size(), 0u) << testing::Dump(diags);
  return in;
}

void ExpectBadPreemptionField(const std::string& yaml, const std::string& field,
                              const std::string& message) {
  SCOPED_TRACE(yaml);
  core::Diagnostics diags = testing::ExpectOneErrorBesideGoodNode(yaml, field);
  if (diags.entries().empty()) return;
  EXPECT_EQ(diags.entries()[0].error.message(), message);
}

TEST(PreemptionFieldsTest, PodFieldsAndClassPolicy) {
  Input in = ReadPreemptionInput(R"(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: waits}
value: 1000
preemptionPolicy: Never
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: t}
spec:
  priorityClassName: waits
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: t}
spec:
  priorityClassName: waits
  preemptionPolicy: PreemptLowerPriority
  containers: [{name: c, image: x}]
status:
  nominatedNodeName: n1
  startTime: "2026-01-09T10:00:05Z"
---
apiVersion: v1
kind: Pod
metadata: {name: c, namespace: t}
spec:
  containers: [{name: c, image: x}]
)");
  ASSERT_EQ(in.snapshot.pods.size(), 3u);
  EXPECT_EQ(in.snapshot.pods[0].preemption_policy, "Never");
  EXPECT_TRUE(in.snapshot.pods[0].NeverPreempts());
  EXPECT_EQ(in.snapshot.pods[1].preemption_policy, "PreemptLowerPriority");
  EXPECT_EQ(in.snapshot.pods[1].nominated_node_name, "n1");
  ASSERT_TRUE(in.snapshot.pods[1].start_time.has_value());
  EXPECT_EQ(in.snapshot.pods[1].start_time->ToString(), "2026-01-09T10:00:05Z");
  EXPECT_EQ(in.snapshot.pods[2].preemption_policy, "PreemptLowerPriority");
  EXPECT_FALSE(in.snapshot.pods[2].start_time.has_value());
}

TEST(PreemptionFieldsTest, BudgetStatus) {
  Input in = ReadPreemptionInput(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: p, namespace: t}
spec: {minAvailable: 1, selector: {matchLabels: {app: x}}}
status:
  disruptionsAllowed: 2
  disruptedPods: {x-1: "2026-01-09T10:00:05Z"}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: q, namespace: t}
spec: {minAvailable: 1}
)");
  ASSERT_EQ(in.snapshot.pod_disruption_budgets.size(), 2u);
  EXPECT_EQ(in.snapshot.pod_disruption_budgets[0].disruptions_allowed, 2);
  EXPECT_EQ(in.snapshot.pod_disruption_budgets[0].disrupted_pods, std::vector<std::string>{"x-1"});
  EXPECT_FALSE(in.snapshot.pod_disruption_budgets[1].disruptions_allowed.has_value());
}

TEST(PreemptionFieldsTest, MalformedFieldsAreReported) {
  const std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: t}\n";
  ExpectBadPreemptionField(
      pod + "spec:\n  preemptionPolicy: Sometimes\n  containers: [{name: c, image: x}]\n",
      "spec.preemptionPolicy",
      R"(Invalid value: "Sometimes": supported values: "Never", "PreemptLowerPriority")");
  ExpectBadPreemptionField(
      pod +
          "spec:\n  containers: [{name: c, image: x}]\n"
          "status: {startTime: yesterday}\n",
      "status.startTime",
      R"(invalid RFC 3339 timestamp "yesterday": want YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm))");
  const std::string pdb =
      "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: t}\n"
      "spec: {minAvailable: 1}\n";
  ExpectBadPreemptionField(pdb + "status: {disruptionsAllowed: many}\n",
                           "status.disruptionsAllowed", "must be a 32-bit integer");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
