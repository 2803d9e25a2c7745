// ConvertKueueVersion: each renamed field both ways, a round trip back to the written
// version unchanged, and an object served through the REST handler at the other version
// (written at v1beta1, read at v1beta2 and back).
#include "server/api/kueue_conversion.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

Json V1beta1Queue() {
  return Json::parse(R"({"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"ClusterQueue",
    "metadata":{"name":"cq"},"spec":{"cohort":"research","admissionChecks":["prov","mk"],
    "flavorFungibility":{"whenCanBorrow":"Borrow","whenCanPreempt":"Preempt"},
    "namespaceSelector":{}}})");
}

TEST(KueueConversionTest, ClusterQueueFieldsMoveBetweenVersions) {
  Json cq = V1beta1Queue();
  ConvertKueueVersion("ClusterQueue", "v1beta1", "v1beta2", cq);
  const Json& spec = cq["spec"];
  EXPECT_EQ(spec["cohortName"], "research");
  EXPECT_FALSE(spec.contains("cohort"));
  EXPECT_FALSE(spec.contains("admissionChecks"));
  EXPECT_EQ(spec["admissionChecksStrategy"]["admissionChecks"],
            Json::parse(R"([{"name":"prov"},{"name":"mk"}])"));
  EXPECT_EQ(spec["flavorFungibility"]["whenCanBorrow"], "MayStopSearch");
  EXPECT_EQ(spec["flavorFungibility"]["whenCanPreempt"], "MayStopSearch");
  EXPECT_EQ(spec["namespaceSelector"], Json::object()) << "other fields pass as written";

  ConvertKueueVersion("ClusterQueue", "v1beta2", "v1beta1", cq);
  EXPECT_EQ(cq["spec"]["cohort"], "research");
  EXPECT_FALSE(cq["spec"].contains("cohortName"));
  EXPECT_EQ(cq["spec"]["flavorFungibility"]["whenCanBorrow"], "Borrow");
  EXPECT_EQ(cq["spec"]["flavorFungibility"]["whenCanPreempt"], "Preempt");
  // v1beta1 has admissionChecksStrategy too: the list stays in that form.
  EXPECT_TRUE(cq["spec"].contains("admissionChecksStrategy"));
}

TEST(KueueConversionTest, WorkloadPriorityClassAndCohortParent) {
  Json wl = Json::parse(R"({"spec":{"queueName":"q","priorityClassName":"high",
    "priorityClassSource":"scheduling.k8s.io/priorityclass","priority":100}})");
  ConvertKueueVersion("Workload", "v1beta1", "v1beta2", wl);
  EXPECT_EQ(wl["spec"]["priorityClassRef"],
            Json::parse(R"({"group":"scheduling.k8s.io","kind":"PriorityClass","name":"high"})"));
  EXPECT_FALSE(wl["spec"].contains("priorityClassName"));
  EXPECT_FALSE(wl["spec"].contains("priorityClassSource"));
  ConvertKueueVersion("Workload", "v1beta2", "v1beta1", wl);
  EXPECT_EQ(wl["spec"]["priorityClassName"], "high");
  EXPECT_EQ(wl["spec"]["priorityClassSource"], "scheduling.k8s.io/priorityclass");
  EXPECT_FALSE(wl["spec"].contains("priorityClassRef"));

  Json wpc = Json::parse(R"({"spec":{"priorityClassName":"batch",
    "priorityClassSource":"kueue.x-k8s.io/workloadpriorityclass"}})");
  ConvertKueueVersion("Workload", "v1beta1", "v1beta2", wpc);
  EXPECT_EQ(wpc["spec"]["priorityClassRef"]["kind"], "WorkloadPriorityClass");
  EXPECT_EQ(wpc["spec"]["priorityClassRef"]["group"], "kueue.x-k8s.io");

  Json cohort = Json::parse(R"({"spec":{"parent":"org"}})");
  ConvertKueueVersion("Cohort", "v1alpha1", "v1beta2", cohort);
  EXPECT_EQ(cohort["spec"]["parentName"], "org");
  ConvertKueueVersion("Cohort", "v1beta2", "v1alpha1", cohort);
  EXPECT_EQ(cohort["spec"]["parent"], "org");
  EXPECT_FALSE(cohort["spec"].contains("parentName"));
}

TEST(KueueConversionTest, SameVersionAndKindsWithoutRenamesAreUntouched) {
  Json cq = V1beta1Queue();
  ConvertKueueVersion("ClusterQueue", "v1beta1", "v1beta1", cq);
  EXPECT_EQ(cq, V1beta1Queue());
  Json lq = Json::parse(R"({"spec":{"clusterQueue":"cq"}})");
  ConvertKueueVersion("LocalQueue", "v1beta1", "v1beta2", lq);
  EXPECT_EQ(lq, Json::parse(R"({"spec":{"clusterQueue":"cq"}})"));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
