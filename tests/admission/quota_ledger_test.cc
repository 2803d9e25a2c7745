// ResourceQuota admission, ported from upstream
// plugin/pkg/admission/resourcequota/admission_test.go: each test names the upstream test it
// follows; the messages are the plugin's (controller.go).
#include "admission/quota_ledger.h"

#include <gtest/gtest.h>

#include "admission_builders.h"

namespace berth::admission {
namespace BERTH_UNITY_ID {

using testing::Quota;
using testing::ValidPod;

constexpr int64_t kGi = int64_t{1} << 30;

// TestAdmitBelowQuotaLimit: the pod fits; its usage is added (cpu 1100m, memory 52Gi, pods 4).
TEST(QuotaLedgerTest, AdmitBelowQuotaLimit) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota", {{"cpu", "3"}, {"memory", "100Gi"}, {"pods", "5"}},
            {{"cpu", "1"}, {"memory", "50Gi"}, {"pods", "3"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  const model::Pod pod = ValidPod(catalog, "allowed-pod", 1, {{"cpu", "100m"}, {"memory", "2Gi"}}, {});
  EXPECT_EQ(ledger.Admit(pod, catalog), "");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota", "cpu"), 1100);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota", "memory"), 52 * kGi * 1000);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota", "pods"), 4000);
}

// TestAdmitExceedQuotaLimit: cpu 3 with 1 used refuses a pod of 3 cpu.
TEST(QuotaLedgerTest, AdmitExceedQuotaLimit) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota", {{"cpu", "3"}, {"memory", "100Gi"}, {"pods", "5"}},
            {{"cpu", "1"}, {"memory", "50Gi"}, {"pods", "3"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  const model::Pod pod = ValidPod(catalog, "not-allowed-pod", 3, {{"cpu", "1"}, {"memory", "2Gi"}}, {});
  EXPECT_EQ(ledger.Admit(pod, catalog),
            "exceeded quota: quota, requested: cpu=3, used: cpu=1, limited: cpu=3");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota", "memory"), 50 * kGi * 1000);
}

// TestAdmitEnforceQuotaConstraints: limits.memory under quota needs a memory limit.
TEST(QuotaLedgerTest, AdmitEnforceQuotaConstraints) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {Quota(
      "quota", {{"cpu", "3"}, {"memory", "100Gi"}, {"limits.memory", "200Gi"}, {"pods", "5"}},
      {{"cpu", "1"}, {"memory", "50Gi"}, {"limits.memory", "100Gi"}, {"pods", "3"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  const model::Pod pod =
      ValidPod(catalog, "not-allowed-pod", 1, {{"cpu", "100m"}, {"memory", "2Gi"}}, {{"cpu", "200m"}});
  EXPECT_EQ(ledger.Admit(pod, catalog), "failed quota: quota: must specify limits.memory for: foo-0");
}

// TestAdmitPodInNamespaceWithoutQuota: a quota of another namespace does not apply.
TEST(QuotaLedgerTest, AdmitPodInNamespaceWithoutQuota) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota", {{"cpu", "3"}, {"pods", "5"}}, {{"cpu", "3"}, {"pods", "5"}}, {}, "other")};
  QuotaLedger ledger(quotas, {}, catalog);
  EXPECT_EQ(ledger.Admit(ValidPod(catalog, "allowed-pod", 1, {{"cpu", "100m"}}, {}), catalog), "");
}

// TestAdmitBelowTerminatingQuotaLimit: a pod with activeDeadlineSeconds is charged to the
// Terminating quota only.
TEST(QuotaLedgerTest, AdmitBelowTerminatingQuotaLimit) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota-non-terminating", {{"cpu", "3"}, {"memory", "100Gi"}, {"pods", "5"}},
            {{"cpu", "1"}, {"memory", "50Gi"}, {"pods", "3"}}, {"NotTerminating"}),
      Quota("quota-terminating", {{"cpu", "3"}, {"memory", "100Gi"}, {"pods", "5"}},
            {{"cpu", "1"}, {"memory", "50Gi"}, {"pods", "3"}}, {"Terminating"})};
  QuotaLedger ledger(quotas, {}, catalog);
  model::Pod pod = ValidPod(catalog, "allowed-pod", 1, {{"cpu", "100m"}, {"memory", "2Gi"}}, {});
  pod.active_deadline_seconds = 30;
  EXPECT_EQ(ledger.Admit(pod, catalog), "");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-terminating", "cpu"), 1100);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-terminating", "pods"), 4000);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-non-terminating", "cpu"), 1000);
}

// TestAdmitBelowBestEffortQuotaLimit: a pod without requests is charged to BestEffort only.
TEST(QuotaLedgerTest, AdmitBelowBestEffortQuotaLimit) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota-besteffort", {{"pods", "5"}}, {{"pods", "3"}}, {"BestEffort"}),
      Quota("quota-not-besteffort", {{"pods", "5"}}, {{"pods", "3"}}, {"NotBestEffort"})};
  QuotaLedger ledger(quotas, {}, catalog);
  EXPECT_EQ(ledger.Admit(ValidPod(catalog, "allowed-pod", 1, {}, {}), catalog), "");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-besteffort", "pods"), 4000);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-not-besteffort", "pods"), 3000);
}

// TestAdmitBestEffortQuotaLimitIgnoresBurstable: a burstable pod leaves a BestEffort quota.
TEST(QuotaLedgerTest, AdmitBestEffortQuotaLimitIgnoresBurstable) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota-besteffort", {{"pods", "5"}}, {{"pods", "5"}}, {"BestEffort"})};
  QuotaLedger ledger(quotas, {}, catalog);
  EXPECT_EQ(ledger.Admit(ValidPod(catalog, "allowed-pod", 1, {{"cpu", "100m"}, {"memory", "1Gi"}}, {}),
                         catalog),
            "");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "quota-besteffort", "pods"), 5000);
}

// TestAdmitWhenUnrelatedResourceExceedsQuota: usage already over a resource the pod does not
// ask for does not refuse it.
TEST(QuotaLedgerTest, AdmitWhenUnrelatedResourceExceedsQuota) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("quota", {{"services", "3"}, {"pods", "4"}}, {{"services", "4"}, {"pods", "1"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  EXPECT_EQ(ledger.Admit(ValidPod(catalog, "allowed-pod", 1, {}, {}), catalog), "");
}

// TestAdmitBelowQuotaLimitWithScopeSelector (PriorityClass In): only pods of that class.
TEST(QuotaLedgerTest, PriorityClassScopeSelector) {
  model::ResourceCatalog catalog;
  model::NamespaceQuota q = Quota("quota-priority", {{"pods", "5"}}, {{"pods", "5"}});
  q.scope_selector.push_back({.scope_name = "PriorityClass", .op = "In", .values = {"cluster-services"}});
  std::vector<model::NamespaceQuota> quotas = {q};
  QuotaLedger ledger(quotas, {}, catalog);
  model::Pod other = ValidPod(catalog, "other", 1, {}, {});
  other.priority_class_name = "low";
  EXPECT_EQ(ledger.Admit(other, catalog), "");
  model::Pod matching = ValidPod(catalog, "matching", 1, {}, {});
  matching.priority_class_name = "cluster-services";
  EXPECT_EQ(ledger.Admit(matching, catalog),
            "exceeded quota: quota-priority, requested: pods=1, used: pods=5, limited: pods=5");
}

// The example: requests.nvidia.com/gpu counted incrementally; the pod that would go
// past the hard limit is refused with the API server's message.
TEST(QuotaLedgerTest, ExtendedResourceRequestsIncremental) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("gpu-quota", {{"requests.nvidia.com/gpu", "8"}}, {{"requests.nvidia.com/gpu", "2"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  const model::Pod pod = ValidPod(catalog, "p", 1, {{"nvidia.com/gpu", "2"}}, {{"nvidia.com/gpu", "2"}});
  EXPECT_EQ(ledger.Admit(pod, catalog), "");
  EXPECT_EQ(ledger.Admit(pod, catalog), "");
  EXPECT_EQ(ledger.Admit(pod, catalog), "");
  EXPECT_EQ(ledger.Admit(pod, catalog),
            "exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, used: "
            "requests.nvidia.com/gpu=8, limited: requests.nvidia.com/gpu=8");
}

// Without status.used the ledger starts from the namespace's pods (the quota controller's
// count); terminal pods count only as count/pods.
TEST(QuotaLedgerTest, UsageFromExistingPodsWithoutStatus) {
  model::ResourceCatalog catalog;
  model::NamespaceQuota q = Quota("q", {{"requests.nvidia.com/gpu", "4"}, {"count/pods", "10"}}, {});
  q.has_used = false;
  std::vector<model::NamespaceQuota> quotas = {q};
  std::vector<model::Pod> existing = {
      ValidPod(catalog, "a", 1, {{"nvidia.com/gpu", "2"}}, {}),
      ValidPod(catalog, "b", 1, {{"nvidia.com/gpu", "2"}}, {}),
      ValidPod(catalog, "other-ns", 1, {{"nvidia.com/gpu", "2"}}, {}, "elsewhere")};
  existing[1].phase = model::PodPhase::kSucceeded;
  QuotaLedger ledger(quotas, existing, catalog);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "q", "requests.nvidia.com/gpu"), 2000);
  EXPECT_EQ(ledger.UsedMilli("default", "test", "q", "count/pods"), 2000);
}

// A pod refused by the second quota moves no usage in the first (upstream returns before
// writing any quota back).
TEST(QuotaLedgerTest, RefusalLeavesEveryQuotaUnchanged) {
  model::ResourceCatalog catalog;
  std::vector<model::NamespaceQuota> quotas = {
      Quota("a-pods", {{"pods", "10"}}, {{"pods", "1"}}),
      Quota("b-cpu", {{"requests.cpu", "1"}}, {{"requests.cpu", "900m"}})};
  QuotaLedger ledger(quotas, {}, catalog);
  EXPECT_EQ(ledger.Admit(ValidPod(catalog, "p", 1, {{"cpu", "200m"}}, {}), catalog),
            "exceeded quota: b-cpu, requested: requests.cpu=200m, used: requests.cpu=900m, "
            "limited: requests.cpu=1");
  EXPECT_EQ(ledger.UsedMilli("default", "test", "a-pods", "pods"), 1000);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::admission
