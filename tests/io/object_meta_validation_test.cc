// Names, namespaces, labels, annotations and nodeSelectors are validated as the API server
// validates them (issue 14), every refusal an error at the field that quotes at most
// core::kMaxQuotedBytes of the value, the object dropped and the good object beside it read.
// Also the workload and ClusterQueue shapes that used to crash the reader.
#include <gtest/gtest.h>

#include <string>

#include "core/excerpt.h"
#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::ReadString;

struct BadCase {
  std::string name;
  std::string yaml;
  std::string field;  // the field the error names
};

void ExpectRefused(const BadCase& c) {
  SCOPED_TRACE(c.name);
  testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
}

std::string Pod(const std::string& metadata, const std::string& spec_extra = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n" + metadata + "spec:\n" + spec_extra +
         "  containers:\n  - name: c\n    image: i\n";
}

TEST(ObjectMetaValidationTest, NamesAsTheApiServerValidatesThem) {
  const std::string one_mb(1 << 20, 'a');
  const BadCase cases[] = {
      {"upper case", Pod("  name: UPPER_case\n"), "metadata.name"},
      {"254 characters", Pod("  name: " + std::string(254, 'a') + "\n"), "metadata.name"},
      {"1 MB", Pod("  name: " + one_mb + "\n"), "metadata.name"},
      {"NUL byte", Pod("  name: \"nul\\0byte\"\n"), "metadata.name"},
      {"namespace not a label", Pod("  name: p\n  namespace: a.b\n"), "metadata.namespace"},
      {"Namespace name with a dot",
       "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team.a\n", "metadata.name"},
      {"Node name upper case",
       "apiVersion: v1\nkind: Node\nmetadata:\n  name: Node-1\n", "metadata.name"},
      {"Job name over 63",
       "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + std::string(64, 'j') +
           "\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: "
           "i\n",
       "metadata.name"},
      {"ClusterQueue name", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n"
                            "  name: Team_A\nspec: {}\n",
       "metadata.name"},
  };
  for (const BadCase& c : cases) ExpectRefused(c);
}

TEST(ObjectMetaValidationTest, ValidNamesAreRead) {
  core::Diagnostics diags;
  const std::string sixty_three(63, 'j');
  Input in = ReadString(Pod("  name: " + std::string(253, 'a') + "\n") + "---\n" +
                            Pod("  name: a.b-c\n  namespace: team-a\n") + "---\n" +
                            "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: " + sixty_three +
                            "\nspec:\n  template:\n    spec:\n      containers:\n      - name: "
                            "c\n        image: i\n",
                        diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_EQ(in.objects_read, 3u);
}

TEST(ObjectMetaValidationTest, LabelsAnnotationsAndNodeSelectors) {
  const BadCase cases[] = {
      {"1 MB label value", Pod("  name: p\n  labels:\n    app: " + std::string(1 << 20, 'v') + "\n"),
       "metadata.labels"},
      {"label key with a space", Pod("  name: p\n  labels:\n    a b: x\n"), "metadata.labels"},
      {"label key with two slashes", Pod("  name: p\n  labels:\n    a/b/c: x\n"),
       "metadata.labels"},
      {"annotation key empty name", Pod("  name: p\n  annotations:\n    example.com/: x\n"),
       "metadata.annotations"},
      {"annotations over 256 KiB",
       Pod("  name: p\n  annotations:\n    a: " + std::string(256 * 1024, 'x') + "\n"),
       "metadata.annotations"},
      {"nodeSelector key a b/c/d", Pod("  name: p\n", "  nodeSelector:\n    a b/c/d: x\n"),
       "spec.nodeSelector"},
      {"nodeSelector value", Pod("  name: p\n", "  nodeSelector:\n    zone: \"-x\"\n"),
       "spec.nodeSelector"},
      {"finalizers a string", Pod("  name: p\n  finalizers: example.com/hold\n"), "metadata.finalizers"},
      {"finalizer a number", Pod("  name: p\n  finalizers: [7]\n"), "metadata.finalizers[0]"},
      {"finalizer null", Pod("  name: p\n  finalizers: [null]\n"), "metadata.finalizers[0]"},
      {"finalizer without a domain", Pod("  name: p\n  finalizers: [hold]\n"),
       "metadata.finalizers[0]"},
      {"finalizer not a qualified name", Pod("  name: p\n  finalizers: [\"example.com/a b\"]\n"),
       "metadata.finalizers[0]"},
      {"finalizer 1 MB", Pod("  name: p\n  finalizers: [example.com/" + std::string(1 << 20, 'f') + "]\n"),
       "metadata.finalizers[0]"},
      {"template label",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n"
       "    metadata:\n      labels:\n        \"a b\": x\n    spec:\n      containers:\n"
       "      - name: c\n        image: i\n",
       "spec.template.metadata.labels"},
  };
  for (const BadCase& c : cases) ExpectRefused(c);
  // Upper-case annotation keys are fine (validated lowercased), as are long annotation values.
  core::Diagnostics diags;
  Input in = ReadString(Pod("  name: p\n  annotations:\n    Example.com/Note: " +
                            std::string(100000, 'x') + "\n"),
                        diags);
  EXPECT_FALSE(diags.has_errors()) << testing::Dump(diags);
  // Standard finalizers need no domain; a null list is no list.
  core::Diagnostics finalizer_diags;
  ReadString(Pod("  name: p\n  finalizers: [kubernetes, foregroundDeletion, orphan, "
                 "batch.kubernetes.io/job-tracking]\n"),
             finalizer_diags);
  ReadString(Pod("  name: q\n  finalizers: null\n"), finalizer_diags);
  EXPECT_FALSE(finalizer_diags.has_errors()) << testing::Dump(finalizer_diags);
}

TEST(ObjectMetaValidationTest, ErrorsQuoteABoundedExcerpt) {
  core::Diagnostics diags;
  ReadString(Pod("  name: p\n  labels:\n    app: " + std::string(1 << 20, 'v') + "\n"), diags);
  ASSERT_EQ(diags.error_count(), 1u);
  const std::string& message = diags.entries()[0].error.message();
  EXPECT_NE(message.find("\"" + std::string(core::kMaxQuotedBytes, 'v') +
                         "...\" (1048576 bytes)"),
            std::string::npos)
      << message.substr(0, 300);
  // The object label of a 10 MB name is bounded too.
  core::Diagnostics diags2;
  ReadString(Pod("  name: " + std::string(1 << 20, 'a') + "\n"), diags2);
  ASSERT_EQ(diags2.error_count(), 1u);
  EXPECT_LT(diags2.entries()[0].error.location().object.size(), 120u);
}

// Issue 14's crash reproducers: each an error naming the field, never a crash.
TEST(ObjectMetaValidationTest, WorkloadSpecAndClusterQueueShapes) {
  const std::string cq =
      "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: cq\nspec:\n";
  const BadCase cases[] = {
      {"RayJob spec null",
       "apiVersion: ray.io/v1\nkind: RayJob\nmetadata:\n  name: r\nspec: null\n", "spec"},
      {"Volcano Job spec 7",
       "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: v\nspec: 7\n",
       "spec"},
      {"MPIJob no spec", "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata:\n  name: m\n",
       "spec"},
      {"flavor without resources",
       cq + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: f\n",
       "spec.resourceGroups[0].flavors[0].resources"},
      {"flavor resources null",
       cq + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: f\n"
            "      resources: null\n",
       "spec.resourceGroups[0].flavors[0].resources"},
      {"resource group null", cq + "  resourceGroups:\n  - null\n", "spec.resourceGroups[0]"},
      {"flavor null", cq + "  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - null\n",
       "spec.resourceGroups[0].flavors[0]"},
  };
  for (const BadCase& c : cases) ExpectRefused(c);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
