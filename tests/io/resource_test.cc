// The resource.k8s.io decoders (internal/resource_v1.cc), pod claim references, and the
// claims Reader::Finish generates from ResourceClaimTemplates.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using ::testing::ElementsAre;
using testing::FindPod;
using testing::FixturePath;
using ::testing::HasSubstr;
using testing::ReadString;

core::Quantity Q(const char* text) { return core::Quantity::Parse(text).value(); }

const model::ResourceClaim* FindClaim(const model::Snapshot& snap, const std::string& ns,
                                      const std::string& name) {
  for (const model::ResourceClaim& c : snap.resource_claims) {
    if (c.meta.namespace_ == ns && c.meta.name == name) return &c;
  }
  return nullptr;
}

class DraKindsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Reader reader(diags_);
    ASSERT_TRUE(reader.ReadPath(FixturePath("dra.yaml")).ok());
    input_ = reader.Finish();
  }
  const model::Snapshot& Snap() const { return input_.snapshot; }

  core::Diagnostics diags_;
  Input input_;
};

TEST_F(DraKindsTest, ReadsEveryObjectWithoutDiagnostics) {
  EXPECT_TRUE(diags_.entries().empty()) << Dump(diags_);
  EXPECT_EQ(input_.objects_read, 7u);
  EXPECT_EQ(Snap().device_classes.size(), 1u);
  EXPECT_EQ(Snap().resource_slices.size(), 3u);
  EXPECT_EQ(Snap().resource_claim_templates.size(), 1u);
  // The claim read, then the one generated for trainer-0's template reference.
  EXPECT_EQ(Snap().resource_claims.size(), 2u);
}

TEST_F(DraKindsTest, DecodesDeviceClass) {
  const model::DeviceClass& c = Snap().device_classes[0];
  EXPECT_EQ(c.meta.name, "gpu.nvidia.com");
  EXPECT_EQ(c.meta.namespace_, "");
  ASSERT_EQ(c.selectors.size(), 1u);
  EXPECT_EQ(c.selectors[0].cel_expression, R"(device.driver == "gpu.nvidia.com")");
  ASSERT_EQ(c.config.size(), 1u);
  EXPECT_EQ(c.config[0].driver, "gpu.nvidia.com");
  EXPECT_EQ(nlohmann::json::parse(c.config[0].parameters_json)["sharing"]["strategy"],
            "TimeSlicing");
  EXPECT_EQ(c.extended_resource_name, "example.com/gpu");
  EXPECT_TRUE(c.source.valid());
}

TEST_F(DraKindsTest, DecodesSliceWithEveryDeviceField) {
  const model::ResourceSlice& s = Snap().resource_slices[0];
  EXPECT_EQ(s.meta.name, "node-a-gpu");
  EXPECT_EQ(s.driver, "gpu.nvidia.com");
  EXPECT_EQ(s.pool_name, "node-a");
  EXPECT_EQ(s.pool_generation, 3);
  EXPECT_EQ(s.resource_slice_count, 2);
  EXPECT_EQ(s.node_name, "node-a");
  EXPECT_FALSE(s.node_selector.has_value());
  EXPECT_FALSE(s.all_nodes);
  EXPECT_FALSE(s.per_device_node_selection);
  EXPECT_EQ(s.cluster, "default");
  ASSERT_EQ(s.devices.size(), 1u);
  const model::Device& d = s.devices[0];
  EXPECT_EQ(d.name, "gpu-0");
  ASSERT_EQ(d.attributes.size(), 5u);
  const auto& product = d.attributes.at("productName");
  EXPECT_EQ(product.type, model::DeviceAttribute::Type::kString);
  EXPECT_EQ(product.string_value, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(d.attributes.at("index").type, model::DeviceAttribute::Type::kInt);
  EXPECT_EQ(d.attributes.at("index").int_value, 0);
  EXPECT_EQ(d.attributes.at("mig").type, model::DeviceAttribute::Type::kBool);
  EXPECT_FALSE(d.attributes.at("mig").bool_value);
  EXPECT_EQ(d.attributes.at("driverVersion").type, model::DeviceAttribute::Type::kVersion);
  EXPECT_EQ(d.attributes.at("driverVersion").string_value, "550.54.15");
  EXPECT_EQ(d.attributes.at("resource.kubernetes.io/pcieRoot").string_value, "pci0000:00");

  EXPECT_EQ(d.capacity.at("memory").value, Q("80Gi"));
  EXPECT_FALSE(d.capacity.at("memory").request_policy.has_value());
  const model::DeviceCapacity& bw = d.capacity.at("bandwidth");
  ASSERT_TRUE(bw.request_policy.has_value());
  EXPECT_EQ(bw.request_policy->default_value, Q("10G"));
  ASSERT_TRUE(bw.request_policy->valid_range.has_value());
  EXPECT_EQ(bw.request_policy->valid_range->min, Q("1G"));
  EXPECT_EQ(bw.request_policy->valid_range->max, Q("100G"));
  EXPECT_EQ(bw.request_policy->valid_range->step, Q("1G"));
  const model::DeviceCapacity& slots = d.capacity.at("slots");
  EXPECT_EQ(slots.value, Q("8"));
  ASSERT_TRUE(slots.request_policy.has_value());
  EXPECT_THAT(slots.request_policy->valid_values, ElementsAre(Q("1"), Q("2"), Q("4")));

  ASSERT_EQ(d.consumes_counters.size(), 1u);
  EXPECT_EQ(d.consumes_counters[0].counter_set, "gpu-0-counters");
  EXPECT_EQ(d.consumes_counters[0].counters.at("memory"), Q("80Gi"));
  ASSERT_EQ(d.taints.size(), 2u);
  EXPECT_EQ(d.taints[0].key, "example.com/unhealthy");
  EXPECT_EQ(d.taints[0].value, "ecc");
  EXPECT_EQ(d.taints[0].effect, model::DeviceTaintEffect::kNoSchedule);
  EXPECT_EQ(d.taints[1].effect, model::DeviceTaintEffect::kNone);
  EXPECT_TRUE(d.allow_multiple_allocations);
  EXPECT_THAT(d.binding_conditions, ElementsAre("attached"));
  EXPECT_THAT(d.binding_failure_conditions, ElementsAre("failed"));

  ASSERT_EQ(s.shared_counters.size(), 1u);
  EXPECT_EQ(s.shared_counters[0].name, "gpu-0-counters");
  EXPECT_EQ(s.shared_counters[0].counters.at("multiprocessors"), Q("132"));
}

TEST_F(DraKindsTest, DecodesNodeSelectionKinds) {
  const model::ResourceSlice& fabric = Snap().resource_slices[1];
  EXPECT_EQ(fabric.cluster, "east");
  EXPECT_EQ(fabric.resource_slice_count, 1);
  EXPECT_EQ(fabric.pool_generation, 0);
  EXPECT_TRUE(fabric.per_device_node_selection);
  ASSERT_EQ(fabric.devices.size(), 3u);
  EXPECT_EQ(fabric.devices[0].node_name, "node-a");
  EXPECT_TRUE(fabric.devices[1].all_nodes);
  ASSERT_TRUE(fabric.devices[2].node_selector.has_value());
  EXPECT_EQ(fabric.devices[2].node_selector->terms[0].match_expressions[0].key, "zone");

  const model::ResourceSlice& racks = Snap().resource_slices[2];
  ASSERT_TRUE(racks.node_selector.has_value());
  ASSERT_EQ(racks.node_selector->terms.size(), 1u);
  EXPECT_EQ(racks.node_selector->terms[0].match_expressions[0].values,
            std::vector<std::string>{"1"});
  EXPECT_TRUE(racks.devices.empty());
}

TEST_F(DraKindsTest, DecodesClaimSpec) {
  const model::ResourceClaim* claim = FindClaim(Snap(), "ml", "big");
  ASSERT_NE(claim, nullptr);
  EXPECT_TRUE(claim->template_name.empty());
  EXPECT_TRUE(claim->owner_pod.empty());
  ASSERT_EQ(claim->spec.requests.size(), 2u);
  const model::DeviceRequest& gpus = claim->spec.requests[0];
  EXPECT_EQ(gpus.name, "gpus");
  ASSERT_TRUE(gpus.exactly.has_value());
  EXPECT_TRUE(gpus.first_available.empty());
  EXPECT_EQ(gpus.exactly->device_class_name, "gpu.nvidia.com");
  ASSERT_EQ(gpus.exactly->selectors.size(), 1u);
  EXPECT_THAT(gpus.exactly->selectors[0].cel_expression, HasSubstr("startsWith"));
  EXPECT_EQ(gpus.exactly->allocation_mode, model::DeviceAllocationMode::kExactCount);
  EXPECT_EQ(gpus.exactly->count, 2);
  EXPECT_TRUE(gpus.exactly->admin_access);
  ASSERT_EQ(gpus.exactly->tolerations.size(), 1u);
  EXPECT_EQ(gpus.exactly->tolerations[0].op, core::TolerationOp::kExists);
  EXPECT_EQ(gpus.exactly->tolerations[0].effect, core::TaintEffect::kNoSchedule);
  EXPECT_EQ(gpus.exactly->capacity_requests.at("memory"), Q("40Gi"));

  const model::DeviceRequest& any = claim->spec.requests[1];
  EXPECT_FALSE(any.exactly.has_value());
  ASSERT_EQ(any.first_available.size(), 2u);
  EXPECT_EQ(any.first_available[0].name, "big");
  EXPECT_EQ(any.first_available[0].spec.allocation_mode, model::DeviceAllocationMode::kAll);
  EXPECT_EQ(any.first_available[0].spec.count, 0);
  EXPECT_EQ(any.first_available[1].spec.count, 3);
  EXPECT_FALSE(any.first_available[1].spec.admin_access);

  ASSERT_EQ(claim->spec.constraints.size(), 2u);
  EXPECT_THAT(claim->spec.constraints[0].requests, ElementsAre("gpus", "any/small"));
  EXPECT_EQ(claim->spec.constraints[0].match_attribute, "resource.kubernetes.io/pcieRoot");
  EXPECT_TRUE(claim->spec.constraints[1].requests.empty());
  EXPECT_EQ(claim->spec.constraints[1].distinct_attribute, "gpu.nvidia.com/index");
  ASSERT_EQ(claim->spec.config.size(), 1u);
  EXPECT_THAT(claim->spec.config[0].requests, ElementsAre("gpus"));
  EXPECT_EQ(claim->spec.config[0].opaque.driver, "gpu.nvidia.com");
  EXPECT_EQ(claim->spec.config[0].opaque.parameters_json, R"({"mode":"exclusive"})");
}

TEST_F(DraKindsTest, DecodesClaimStatus) {
  const model::ResourceClaim* claim = FindClaim(Snap(), "ml", "big");
  ASSERT_NE(claim, nullptr);
  ASSERT_TRUE(claim->allocation.has_value());
  const model::AllocationResult& a = *claim->allocation;
  ASSERT_EQ(a.results.size(), 1u);
  const model::DeviceRequestAllocationResult& r = a.results[0];
  EXPECT_EQ(r.request, "gpus");
  EXPECT_EQ(r.driver, "gpu.nvidia.com");
  EXPECT_EQ(r.pool, "node-a");
  EXPECT_EQ(r.device, "gpu-0");
  EXPECT_TRUE(r.admin_access);
  ASSERT_EQ(r.tolerations.size(), 1u);
  EXPECT_EQ(r.share_id, "0f0e");
  EXPECT_EQ(r.consumed_capacity.at("memory"), Q("40Gi"));
  ASSERT_EQ(a.config.size(), 2u);
  EXPECT_EQ(a.config[0].source, model::AllocationConfigSource::kFromClass);
  EXPECT_TRUE(a.config[0].requests.empty());
  EXPECT_EQ(a.config[1].source, model::AllocationConfigSource::kFromClaim);
  EXPECT_THAT(a.config[1].requests, ElementsAre("gpus"));
  ASSERT_TRUE(a.node_selector.has_value());
  ASSERT_EQ(a.node_selector->terms.size(), 1u);
  EXPECT_EQ(a.node_selector->terms[0].match_fields[0].key, "metadata.name");
  EXPECT_EQ(a.node_selector->terms[0].match_fields[0].values, std::vector<std::string>{"node-a"});
  // Only pod consumers are kept in the model.
  EXPECT_THAT(claim->reserved_for, ElementsAre("trainer-0"));
}

TEST_F(DraKindsTest, DecodesPodClaimReferencesAndNamedRequests) {
  const model::Pod* pod = FindPod(Snap(), "ml", "trainer-0");
  ASSERT_NE(pod, nullptr);
  ASSERT_EQ(pod->resource_claims.size(), 2u);
  EXPECT_EQ(pod->resource_claims[0].name, "gpu");
  EXPECT_EQ(pod->resource_claims[0].template_name, "one-gpu");
  EXPECT_EQ(pod->resource_claims[0].claim_name, "trainer-0-gpu");
  EXPECT_EQ(pod->resource_claims[1].name, "shared");
  EXPECT_EQ(pod->resource_claims[1].claim_name, "big");
  EXPECT_TRUE(pod->resource_claims[1].template_name.empty());

  ASSERT_EQ(pod->containers.size(), 3u);
  // An explicit 0 is named; a limit defaults the request, so it is named too.
  EXPECT_TRUE(pod->containers[0].cpu_request_named);
  EXPECT_TRUE(pod->containers[0].memory_request_named);
  EXPECT_TRUE(pod->containers[1].cpu_request_named);
  EXPECT_FALSE(pod->containers[1].memory_request_named);
  EXPECT_FALSE(pod->containers[2].cpu_request_named);
  EXPECT_FALSE(pod->containers[2].memory_request_named);
}

TEST_F(DraKindsTest, GeneratesTemplateClaimWithDocument) {
  const model::ResourceClaim* claim = FindClaim(Snap(), "ml", "trainer-0-gpu");
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->template_name, "one-gpu");
  EXPECT_EQ(claim->owner_pod, "trainer-0");
  EXPECT_EQ(claim->cluster, "default");
  EXPECT_FALSE(claim->allocation.has_value());
  ASSERT_EQ(claim->spec.requests.size(), 1u);
  EXPECT_EQ(claim->spec.requests[0].exactly->device_class_name, "gpu.nvidia.com");
  EXPECT_EQ(claim->meta.labels.at("team"), "ml");
  EXPECT_EQ(claim->meta.annotations.at("note"), "from-template");
  EXPECT_EQ(claim->meta.annotations.at("resource.kubernetes.io/pod-claim-name"), "gpu");
  ASSERT_TRUE(claim->source.valid());
  const Document& doc = input_.documents.Get(claim->source);
  EXPECT_EQ(doc.kind, "ResourceClaim");
  EXPECT_EQ(doc.api_version, "resource.k8s.io/v1");
  EXPECT_EQ(doc.name, "trainer-0-gpu");
  EXPECT_THAT(doc.file, HasSubstr("dra.yaml"));
  auto json = nlohmann::ordered_json::parse(doc.json);
  EXPECT_EQ(json["metadata"]["ownerReferences"][0]["kind"], "Pod");
  EXPECT_EQ(json["metadata"]["ownerReferences"][0]["name"], "trainer-0");
  EXPECT_EQ(json["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(json["metadata"]["annotations"]["resource.kubernetes.io/pod-claim-name"], "gpu");
  EXPECT_EQ(json["spec"]["devices"]["requests"][0]["exactly"]["deviceClassName"], "gpu.nvidia.com");
}

TEST(DraV1beta1Test, ReadsInlineRequestsAndBasicDevices) {
  core::Diagnostics diags;
  Reader reader(diags);
  ASSERT_TRUE(reader.ReadPath(FixturePath("dra_v1beta1.yaml")).ok());
  Input input = reader.Finish();
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  const model::Snapshot& snap = input.snapshot;
  ASSERT_EQ(snap.device_classes.size(), 1u);
  ASSERT_EQ(snap.resource_slices.size(), 1u);
  const model::Device& d = snap.resource_slices[0].devices[0];
  EXPECT_EQ(d.attributes.at("model").string_value, "A100");
  EXPECT_EQ(d.capacity.at("memory").value, Q("40Gi"));
  EXPECT_EQ(d.consumes_counters[0].counter_set, "cs");
  EXPECT_EQ(d.taints[0].effect, model::DeviceTaintEffect::kNoExecute);
  EXPECT_EQ(snap.resource_slices[0].shared_counters[0].name, "cs");

  ASSERT_EQ(snap.resource_claims.size(), 1u);
  const model::ResourceClaim& claim = snap.resource_claims[0];
  ASSERT_EQ(claim.spec.requests.size(), 2u);
  ASSERT_TRUE(claim.spec.requests[0].exactly.has_value());
  EXPECT_EQ(claim.spec.requests[0].exactly->device_class_name, "gpu.example.com");
  EXPECT_EQ(claim.spec.requests[0].exactly->count, 2);
  EXPECT_EQ(claim.spec.requests[0].exactly->selectors.size(), 1u);
  EXPECT_EQ(claim.spec.requests[0].exactly->tolerations.size(), 1u);
  EXPECT_FALSE(claim.spec.requests[1].exactly.has_value());
  ASSERT_EQ(claim.spec.requests[1].first_available.size(), 1u);
  EXPECT_EQ(claim.spec.requests[1].first_available[0].spec.count, 1);

  // v1beta2 has the v1 shape.
  ASSERT_EQ(snap.resource_claim_templates.size(), 1u);
  const model::DeviceRequest& r = snap.resource_claim_templates[0].spec.requests[0];
  ASSERT_TRUE(r.exactly.has_value());
  EXPECT_EQ(r.exactly->allocation_mode, model::DeviceAllocationMode::kAll);
}

struct BadCase {
  const char* name;
  const char* yaml;
  const char* object;
  const char* field;
  const char* message;  // a substring
};

class DraBadInputTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(DraBadInputTest, ReportsObjectAndField) {
  const BadCase& c = GetParam();
  core::Diagnostics diags;
  Input input = ReadString(c.yaml, diags, "bad.yaml");
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().file, "bad.yaml");
  EXPECT_EQ(e.location().object, c.object);
  EXPECT_EQ(e.location().field, c.field);
  EXPECT_THAT(e.message(), HasSubstr(c.message));
  EXPECT_EQ(input.objects_read, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DraBadInputTest,
    ::testing::Values(
        BadCase{"NeitherExactlyNorFirstAvailable", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: ns}
spec:
  devices:
    requests:
    - name: gpu
)",
                "ResourceClaim/ns/c", "spec.devices.requests[0]",
                "exactly one of `exactly` or `firstAvailable` is required"},
        BadCase{"BothExactlyAndFirstAvailable", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: x}
      firstAvailable: [{name: a, deviceClassName: x}]
)",
                "ResourceClaim/default/c", "spec.devices.requests[0]", "multiple fields are set"},
        BadCase{"UnknownAllocationMode", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: x, allocationMode: Some}
)",
                "ResourceClaim/default/c", "spec.devices.requests[0].exactly.allocationMode",
                R"(unsupported value "Some": supported values: "All", "ExactCount")"},
        BadCase{"CountWithAll", R"(
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: gpu, deviceClassName: x, allocationMode: All, count: 2}
)",
                "ResourceClaim/default/c", "spec.devices.requests[0].count",
                "must not be specified when allocationMode is 'All'"},
        BadCase{"ZeroCount", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: x, count: 0}
)",
                "ResourceClaimTemplate/default/t", "spec.spec.devices.requests[0].exactly.count",
                "must be greater than zero"},
        BadCase{"MissingDeviceClass", R"(
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: gpu}
)",
                "ResourceClaim/default/c", "spec.devices.requests[0].deviceClassName",
                "required value"},
        BadCase{"DuplicateRequest", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: gpu, exactly: {deviceClassName: x}}
    - {name: gpu, exactly: {deviceClassName: x}}
)",
                "ResourceClaim/default/c", "spec.devices.requests[1].name",
                R"(duplicate value "gpu")"},
        BadCase{"ConstraintOnUnknownRequest", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: gpu, exactly: {deviceClassName: x}}
    constraints:
    - {requests: [gpu, nic], matchAttribute: a/b}
)",
                "ResourceClaim/default/c", "spec.devices.constraints[0].requests[1]",
                "must be the name of a request in the claim"},
        BadCase{"ConstraintWithoutAttribute", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - {name: gpu, exactly: {deviceClassName: x}}
    constraints:
    - {requests: [gpu]}
)",
                "ResourceClaim/default/c", "spec.devices.constraints[0]",
                "exactly one of `matchAttribute` or `distinctAttribute` is required"},
        BadCase{"SelectorWithoutCel", R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - {}
)",
                "DeviceClass/gpu", "spec.selectors[0].cel", "required value"},
        BadCase{"AttributeWithTwoTypes", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
    attributes:
      d.example.com/index: {int: 1, string: "1"}
)",
                "ResourceSlice/s", "spec.devices[0].attributes[d.example.com/index]",
                "exactly one of int, bool, string or version must be set; found int and string"},
        BadCase{"AttributeWithoutValue", R"(
apiVersion: resource.k8s.io/v1beta1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
    basic:
      attributes:
        model: {}
)",
                "ResourceSlice/s", "spec.devices[0].basic.attributes.model",
                "exactly one of int, bool, string or version must be set"},
        BadCase{"BadVersion", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
    attributes:
      driverVersion: {version: "1.02.3"}
)",
                "ResourceSlice/s", "spec.devices[0].attributes.driverVersion.version",
                "must be a string compatible with semver.org spec 2.0.0"},
        BadCase{"DuplicateDevice", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: gpu-0
  - name: gpu-0
)",
                "ResourceSlice/s", "spec.devices[1].name", R"(duplicate value "gpu-0")"},
        BadCase{"NoNodeSelection", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
)",
                "ResourceSlice/s", "spec",
                "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                "`perDeviceNodeSelection` is required"},
        BadCase{"TwoNodeSelections", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  allNodes: true
)",
                "ResourceSlice/s", "spec", "multiple fields are set"},
        BadCase{"DeviceNodeNameWithoutPerDevice", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  allNodes: true
  devices:
  - {name: a, nodeName: n}
)",
                "ResourceSlice/s", "spec.devices[0].nodeName",
                "may only be set when the slice sets `perDeviceNodeSelection`"},
        BadCase{"PreferNoScheduleDeviceTaint", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: a
    taints: [{key: k, effect: PreferNoSchedule}]
)",
                "ResourceSlice/s", "spec.devices[0].taints[0].effect",
                R"(unsupported value "PreferNoSchedule")"},
        BadCase{"ZeroSliceCount", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 0}
  nodeName: n
)",
                "ResourceSlice/s", "spec.pool.resourceSliceCount", "must be greater than zero"},
        BadCase{"BadQuantity", R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  pool: {name: p, resourceSliceCount: 1}
  nodeName: n
  devices:
  - name: a
    capacity:
      memory: {value: 80GB}
)",
                "ResourceSlice/s", "spec.devices[0].capacity.memory.value", "invalid quantity"},
        BadCase{"PodClaimWithBothSources", R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  resourceClaims:
  - {name: gpu, resourceClaimName: a, resourceClaimTemplateName: b}
)",
                "Pod/default/p", "spec.resourceClaims[0]",
                "at most one of `resourceClaimName` or `resourceClaimTemplateName`"},
        BadCase{"PodClaimWithNoSource", R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  resourceClaims:
  - {name: gpu}
)",
                "Pod/default/p", "spec.resourceClaims[0]",
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(DraTemplateTest, UsesAnExistingClaimOfTheGeneratedName) {
  core::Diagnostics diags;
  Input input = ReadString(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t}
spec:
  spec:
    devices:
      requests: [{name: r, exactly: {deviceClassName: x}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: p-gpu}
spec:
  devices:
    requests: [{name: other, exactly: {deviceClassName: y}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
)",
                           diags);
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  ASSERT_EQ(input.snapshot.resource_claims.size(), 1u);
  EXPECT_EQ(input.snapshot.resource_claims[0].spec.requests[0].name, "other");
  EXPECT_EQ(input.snapshot.pods[0].resource_claims[0].claim_name, "p-gpu");
}

TEST(DraTemplateTest, UsesTheClaimTheStatusNames) {
  core::Diagnostics diags;
  Input input = ReadString(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: p-gpu-x4j2c}
spec:
  devices:
    requests: [{name: r, exactly: {deviceClassName: x}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: t}]
status:
  resourceClaimStatuses: [{name: gpu, resourceClaimName: p-gpu-x4j2c}]
)",
                           diags);
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  EXPECT_EQ(input.snapshot.resource_claims.size(), 1u);
  EXPECT_EQ(input.snapshot.pods[0].resource_claims[0].claim_name, "p-gpu-x4j2c");
}

TEST(DraTemplateTest, MissingTemplateWarnsAndKeepsThePod) {
  core::Diagnostics diags;
  Input input = ReadString(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: nope}]
)",
                           diags, "pods.yaml");
  ASSERT_EQ(diags.entries().size(), 1u) << Dump(diags);
  EXPECT_FALSE(diags.has_errors());
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().file, "pods.yaml");
  EXPECT_EQ(e.location().object, "Pod/ml/p");
  EXPECT_EQ(e.location().field, "spec.resourceClaims[0].resourceClaimTemplateName");
  EXPECT_THAT(e.message(), HasSubstr(R"(ResourceClaimTemplate "nope" not found in namespace ml)"));
  ASSERT_EQ(input.snapshot.pods.size(), 1u);
  EXPECT_EQ(input.snapshot.pods[0].resource_claims[0].claim_name, "p-gpu");
  EXPECT_TRUE(input.snapshot.resource_claims.empty());
}

TEST(DraTemplateTest, WorkloadPodsGetOneClaimEach) {
  core::Diagnostics diags;
  Input input = ReadString(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu}
spec:
  spec:
    devices:
      requests: [{name: r, exactly: {deviceClassName: x}}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  parallelism: 2
  template:
    spec:
      containers: [{name: c}]
      resourceClaims: [{name: g, resourceClaimTemplateName: gpu}]
)",
                           diags);
  EXPECT_TRUE(diags.entries().empty()) << Dump(diags);
  ASSERT_EQ(input.snapshot.resource_claims.size(), 2u);
  EXPECT_EQ(input.snapshot.resource_claims[0].meta.name, "train-0-g");
  EXPECT_EQ(input.snapshot.resource_claims[0].owner_pod, "train-0");
  EXPECT_EQ(input.snapshot.resource_claims[1].meta.name, "train-1-g");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
