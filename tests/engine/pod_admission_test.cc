// The engine's admission step (engine/pod_admission.h) through RunPlan and ExplainPod: the
// pods berth creates from workloads pass LimitRanger and ResourceQuota before scheduling.
#include "engine/pod_admission.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/plan.h"
#include "engine/test_util.h"

namespace berth::engine {
namespace BERTH_UNITY_ID {

using testing::ReadCleanYaml;

constexpr const char* kGpuNode = R"(apiVersion: v1
kind: Node
metadata: {name: gpu-1}
status:
  allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}
)";

std::string GpuJob(int parallelism, const std::string& ns) {
  return "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: train, namespace: " + ns +
         ", creationTimestamp: \"2026-01-10T10:00:00Z\"}\nspec:\n  parallelism: " +
         std::to_string(parallelism) + "\n  completions: " + std::to_string(parallelism) +
         "\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n"
         "      - name: trainer\n        image: t\n        resources:\n"
         "          requests: {cpu: \"4\", nvidia.com/gpu: \"2\"}\n"
         "          limits: {nvidia.com/gpu: \"2\"}\n";
}

int32_t PodIndexNamed(const model::Snapshot& s, const std::string& name) {
  for (size_t i = 0; i < s.pods.size(); ++i) {
    if (s.pods[i].meta.name == name) return static_cast<int32_t>(i);
  }
  return -1;
}

bool HasDecision(const Plan& plan, int32_t pod) {
  for (const model::PodDecision& d : plan.pod_decisions) {
    if (d.pod.v == pod) return true;
  }
  return false;
}

TEST(PodAdmissionTest, QuotaForbidsTheThirdPodOfAJob) {
  const model::Snapshot input = ReadCleanYaml(
      std::string(kGpuNode) +
      "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpu-quota, namespace: "
      "research}\nspec:\n  hard: {requests.nvidia.com/gpu: \"8\"}\nstatus:\n  used: "
      "{requests.nvidia.com/gpu: \"4\"}\n" +
      GpuJob(3, "research"));
  const Plan plan = RunPlan(input, {});
  const int32_t third = PodIndexNamed(plan.planned, "train-2");
  ASSERT_GE(third, 0);
  EXPECT_TRUE(HasDecision(plan, PodIndexNamed(plan.planned, "train-0")));
  EXPECT_TRUE(HasDecision(plan, PodIndexNamed(plan.planned, "train-1")));
  EXPECT_FALSE(HasDecision(plan, third));
  EXPECT_EQ(plan.planned.pods[static_cast<size_t>(third)].admission_refused,
            "pods \"train-2\" is forbidden: exceeded quota: gpu-quota, requested: "
            "requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=8, limited: "
            "requests.nvidia.com/gpu=8");
  ASSERT_EQ(plan.diagnostics.entries().size(), 1u);
  EXPECT_EQ(plan.diagnostics.entries()[0].error.location().object, "Job/research/train");
  // The input is left as read (RunPlan admitted a copy).
  EXPECT_TRUE(input.pods[static_cast<size_t>(third)].admission_refused.empty());

  auto explained = ExplainPod(input, "research/train-2", {});
  ASSERT_FALSE(explained.has_value());
  EXPECT_EQ(explained.error().message().rfind("pod research/train-2 was not created: Error "
                                              "creating: pods \"train-2\" is forbidden: exceeded",
                                              0),
            0u);
}

TEST(PodAdmissionTest, QuotaOfAnotherNamespaceDoesNotApply) {
  const model::Snapshot input = ReadCleanYaml(
      std::string(kGpuNode) +
      "---\napiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: other}\nspec:\n"
      "  hard: {requests.nvidia.com/gpu: \"0\"}\n" +
      GpuJob(2, "research"));
  const Plan plan = RunPlan(input, {});
  EXPECT_EQ(plan.pod_decisions.size(), 2u);
  EXPECT_TRUE(plan.diagnostics.entries().empty());
}

TEST(PodAdmissionTest, LimitRangeDefaultsChangeRequests) {
  const model::Snapshot input = ReadCleanYaml(
      std::string(kGpuNode) +
      "---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: d, namespace: research}\nspec:\n"
      "  limits:\n  - type: Container\n    defaultRequest: {memory: 8Gi}\n" +
      GpuJob(1, "research"));
  const Plan plan = RunPlan(input, {});
  const int32_t pod = PodIndexNamed(plan.planned, "train-0");
  ASSERT_GE(pod, 0);
  const model::Container& c = plan.planned.pods[static_cast<size_t>(pod)].containers[0];
  EXPECT_EQ(c.requests.Get(model::kMemory), int64_t{8} << 30);
  EXPECT_EQ(c.requests.Get(model::kCpu), 4000);
  EXPECT_EQ(plan.planned.pods[static_cast<size_t>(pod)].meta.annotations.at(
                "kubernetes.io/limit-ranger"),
            "LimitRanger plugin set: memory request for container trainer");
  EXPECT_TRUE(HasDecision(plan, pod));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::engine
