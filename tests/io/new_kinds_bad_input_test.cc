// Bad input on the input paths issue 13 added (DeviceTaintRule, ReplicaSet, the ownership
// fields of pods and Jobs): each is an error naming its object and field, or is ignored as
// upstream ignores it, never a crash, and the good objects beside it are still read.
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::ReadString;

struct BadCase {
  const char* name;
  const char* yaml;
  const char* field;  // the field the error names
};

void ExpectOneErrorAndTheGoodNode(const BadCase& c) {
  SCOPED_TRACE(c.name);
  testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
}

TEST(NewKindsBadInputTest, DeviceTaintRuleErrorsNameTheField) {
  const std::string head =
      "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceTaintRule\nmetadata:\n  name: r\n";
  const std::string missing_spec = head;
  const std::string null_spec = head + "spec: null\n";
  const std::string spec_wrong_type = head + "spec: 7\n";
  const std::string missing_taint = head + "spec:\n  deviceSelector: {driver: d}\n";
  const std::string null_taint = head + "spec:\n  taint: null\n";
  const std::string taint_wrong_type = head + "spec:\n  taint: [a]\n";
  const std::string driver_wrong_type =
      head + "spec:\n  deviceSelector: {driver: 7}\n  taint: {key: k, effect: NoSchedule}\n";
  const std::string selector_wrong_type =
      head + "spec:\n  deviceSelector: []\n  taint: {key: k, effect: NoSchedule}\n";
  const BadCase cases[] = {
      {"missing spec", missing_spec.c_str(), "spec"},
      {"null spec", null_spec.c_str(), "spec"},
      {"spec of the wrong type", spec_wrong_type.c_str(), "spec"},
      {"missing taint", missing_taint.c_str(), "spec.taint"},
      {"null taint", null_taint.c_str(), "spec.taint"},
      {"taint of the wrong type", taint_wrong_type.c_str(), "spec.taint"},
      {"driver of the wrong type", driver_wrong_type.c_str(), "spec.deviceSelector.driver"},
      {"selector of the wrong type", selector_wrong_type.c_str(), "spec.deviceSelector"},
  };
  for (const BadCase& c : cases) ExpectOneErrorAndTheGoodNode(c);
}

TEST(NewKindsBadInputTest, ReplicaSetErrorsNameTheField) {
  const std::string head = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\n"
                           "  namespace: ns\n";
  const std::string null_spec = head + "spec: null\n";
  const std::string replicas_wrong_type =
      head + "spec:\n  replicas: many\n  template:\n    spec:\n      containers:\n"
             "      - {name: c, image: i}\n";
  const std::string replicas_negative =
      head + "spec:\n  replicas: -1\n  template:\n    spec:\n      containers:\n"
             "      - {name: c, image: i}\n";
  const BadCase cases[] = {
      {"null spec", null_spec.c_str(), "spec"},
      {"replicas of the wrong type", replicas_wrong_type.c_str(), "spec.replicas"},
      {"negative replicas", replicas_negative.c_str(), "spec.replicas"},
  };
  for (const BadCase& c : cases) ExpectOneErrorAndTheGoodNode(c);
}

// A huge replica count is bounded like any workload's (kMaxPodsPerWorkload): one error on
// the spec, no expansion of two billion pods, the rest read.
TEST(NewKindsBadInputTest, HugeReplicaSetIsRejectedNotExpanded) {
  const BadCase c{"huge replicas",
                  "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: rs\n  namespace: "
                  "ns\nspec:\n  replicas: 2000000000\n  template:\n    spec:\n      containers:\n"
                  "      - {name: c, image: i}\n",
                  "spec"};
  testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field, /*objects_read=*/2);
  core::Diagnostics diags;
  ReadString(c.yaml, diags);
  ASSERT_TRUE(diags.has_errors());
  EXPECT_EQ(diags.entries()[0].error.message(),
            "2000000000 pods exceed berth's limit of 100000 pods per workload");
}

// Ownership fields upstream tolerates being odd are ignored, never fatal: a garbage or
// out-of-range completion index, an ownerReference without a uid or with a null one.
TEST(NewKindsBadInputTest, OddOwnershipFieldsAreIgnoredNotFatal) {
  const std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  namespace: ns\n  uid: u1\n"
      "spec:\n  completionMode: Indexed\n  completions: 2\n  parallelism: 2\n  template:\n"
      "    spec:\n      containers:\n      - {name: c, image: i}\n"
      "status:\n  completedIndexes: \"x-,9999999999\"\n";
  auto pod = [](const char* name, const char* meta) {
    return std::string("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ") + name +
           "\n  namespace: ns\n" + meta +
           "spec:\n  nodeName: good\n  containers:\n  - {name: c, image: i}\n"
           "status:\n  phase: Running\n";
  };
  const std::string yaml =
      job +
      pod("p0",
          "  annotations: {batch.kubernetes.io/job-completion-index: \"abc\"}\n"
          "  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: j, controller: true}\n") +
      pod("p1",
          "  labels: {batch.kubernetes.io/job-completion-index: \"99999999999\"}\n"
          "  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: j, uid: null, "
          "controller: true}\n") +
      testing::kGoodNodeYaml;
  core::Diagnostics diags;
  Input in = ReadString(yaml, diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
