// DRA rules: each fires on a minimal broken case and stays silent once fixed.
#include "diag/doctor_harness.h"

namespace berth::diag {
namespace {

using testing::RuleRun;
using testing::RunRule;

std::string DeviceClass(const std::string& name, const std::string& expression) {
  return "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: " + name +
         "}\nspec:\n  selectors:\n  - cel:\n      expression: '" + expression + "'\n---\n";
}

// A slice of `gpus` H100s published for `node`.
std::string Slice(const std::string& node, int gpus, const std::string& product = "NVIDIA H100 80GB HBM3") {
  std::string y = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + node +
                  "-gpus}\nspec:\n  driver: gpu.nvidia.com\n  pool: {name: " + node +
                  ", generation: 1, resourceSliceCount: 1}\n  nodeName: " + node + "\n  devices:\n";
  for (int i = 0; i < gpus; ++i) {
    y += "  - name: gpu-" + std::to_string(i) + "\n    attributes:\n      productName: {string: " + product +
         "}\n";
  }
  return y + "---\n";
}

std::string Claim(const std::string& cls, int count, const std::string& ns = "ml", const std::string& extra = "") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: gpus, namespace: " + ns +
         "}\nspec:\n  devices:\n    requests:\n    - name: gpus\n      exactly:\n        deviceClassName: " + cls +
         "\n        count: " + std::to_string(count) + "\n" + extra + "---\n";
}

const std::string kGpuClass = DeviceClass("gpu.nvidia.com", "device.driver == \"gpu.nvidia.com\"");

TEST(DeviceClassUnsatisfiable, NoDeviceMatchesTheSelectors) {
  const std::string a100 = DeviceClass(
      "a100", "device.driver == \"gpu.nvidia.com\" && device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA A100\")");
  RuleRun broken = RunRule("deviceclass-unsatisfiable", Slice("n1", 2) + a100 + Claim("a100", 1));
  ASSERT_TRUE(broken.read_errors.empty()) << broken.read_errors[0];
  ASSERT_EQ(broken.findings.size(), 1u);
  const Finding& f = broken.findings[0];
  EXPECT_EQ(f.severity, Severity::kError);
  EXPECT_EQ(f.object.kind, "DeviceClass");
  EXPECT_EQ(f.object.name, "a100");
  EXPECT_EQ(f.field, "spec.selectors");
  EXPECT_EQ(f.message,
            "no device of the 2 in ResourceSlices (drivers: gpu.nvidia.com) satisfies its selectors: claims of "
            "this class never allocate and their pods stay Pending");
  // Unused: a warning.
  RuleRun unused = RunRule("deviceclass-unsatisfiable", Slice("n1", 2) + a100);
  ASSERT_EQ(unused.findings.size(), 1u);
  EXPECT_EQ(unused.findings[0].severity, Severity::kWarning);
  EXPECT_TRUE(RunRule("deviceclass-unsatisfiable", Slice("n1", 2, "NVIDIA A100 80GB") + a100 + Claim("a100", 1))
                  .findings.empty());
  EXPECT_TRUE(RunRule("deviceclass-unsatisfiable", Slice("n1", 2) + kGpuClass).findings.empty());
}

TEST(DeviceClassMissing, RequestNamesNoClass) {
  RuleRun broken = RunRule("deviceclass-missing", kGpuClass + Claim("gpu.nvidia", 1));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "ResourceClaim");
  EXPECT_EQ(broken.findings[0].field, "spec.devices.requests[0].exactly.deviceClassName");
  EXPECT_NE(broken.findings[0].message.find("DeviceClass gpu.nvidia, which does not exist"), std::string::npos);
  EXPECT_NE(broken.findings[0].fix.find("(gpu.nvidia.com)"), std::string::npos);
  EXPECT_TRUE(RunRule("deviceclass-missing", kGpuClass + Claim("gpu.nvidia.com", 1)).findings.empty());
}

TEST(ClaimExceedsPool, MoreDevicesThanOneNodeSees) {
  const std::string slices = Slice("n1", 4) + Slice("n2", 8);
  RuleRun broken = RunRule("claim-exceeds-pool", slices + kGpuClass + Claim("gpu.nvidia.com", 16));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.devices.requests[0].exactly.count");
  EXPECT_EQ(broken.findings[0].message,
            "request gpus asks for 16 devices of class gpu.nvidia.com but a node of cluster default sees at most "
            "8 matching device(s) (node n2): the claim can never be allocated and its pods stay Pending");
  EXPECT_TRUE(RunRule("claim-exceeds-pool", slices + kGpuClass + Claim("gpu.nvidia.com", 8)).findings.empty());
}

TEST(AdminAccessUnlabelledNamespace, NeedsTheNamespaceLabel) {
  const std::string admin = "        adminAccess: true\n";
  auto ns = [](const std::string& labels) {
    return "apiVersion: v1\nkind: Namespace\nmetadata: {name: ops" + labels + "}\n---\n";
  };
  RuleRun broken = RunRule("admin-access-unlabelled-namespace", kGpuClass + ns("") + Claim("gpu.nvidia.com", 1, "ops", admin));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.devices.requests[0].exactly.adminAccess");
  EXPECT_NE(broken.findings[0].message.find("not labelled resource.kubernetes.io/admin-access=true"),
            std::string::npos);
  EXPECT_TRUE(RunRule("admin-access-unlabelled-namespace",
                      kGpuClass + ns(", labels: {resource.kubernetes.io/admin-access: \"true\"}") +
                          Claim("gpu.nvidia.com", 1, "ops", admin))
                  .findings.empty());
}

std::string ClaimJob(const std::string& ref) {
  return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: infer, namespace: ml}\nspec:\n  template:\n    spec:\n"
         "      restartPolicy: Never\n      resourceClaims:\n      - {name: gpu, " + ref + "}\n"
         "      containers:\n      - name: c\n        image: x\n        resources: {claims: [{name: gpu}]}\n---\n";
}

TEST(ClaimTemplateMissing, FiresOnTheJobTemplate) {
  const std::string tmpl =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one-gpu, namespace: ml}\n"
      "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        exactly: {deviceClassName: "
      "gpu.nvidia.com}\n---\n";
  RuleRun broken = RunRule("claim-template-missing", kGpuClass + ClaimJob("resourceClaimTemplateName: one-gpu"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].object.kind, "Job");
  EXPECT_EQ(broken.findings[0].field, "spec.template.spec.resourceClaims[0].resourceClaimTemplateName");
  EXPECT_NE(broken.findings[0].message.find("ResourceClaimTemplate one-gpu, which does not exist in namespace ml"),
            std::string::npos);
  EXPECT_TRUE(RunRule("claim-template-missing", kGpuClass + tmpl + ClaimJob("resourceClaimTemplateName: one-gpu"))
                  .findings.empty());
}

TEST(ResourceClaimMissing, SharedClaimNotThere) {
  RuleRun broken = RunRule("resource-claim-missing", kGpuClass + ClaimJob("resourceClaimName: gpus"));
  ASSERT_EQ(broken.findings.size(), 1u);
  EXPECT_EQ(broken.findings[0].field, "spec.template.spec.resourceClaims[0].resourceClaimName");
  EXPECT_TRUE(RunRule("resource-claim-missing", kGpuClass + Claim("gpu.nvidia.com", 1) +
                                                    ClaimJob("resourceClaimName: gpus"))
                  .findings.empty());
}

}  // namespace
}  // namespace berth::diag
