// DRA device selectors end to end: the `device` variable as upstream declares it, bound to
// a DraDevice, with the lookup rules of k8s.io/dynamic-resource-allocation/cel and the
// selector examples from the upstream allocator tests.
#include "cel/dra_selectors.h"

#include <gtest/gtest.h>

#include <string>

#include "cel/dra_device.h"
#include "cel/program.h"
#include "cel/value.h"
#include "core/quantity.h"

namespace berth::cel {
namespace BERTH_UNITY_ID {

class DraSelectorsTest : public ::testing::Test {
 protected:
  DraSelectorsTest() : gpu_("gpu.nvidia.com") {}

  void SetUp() override {
    ASSERT_TRUE(gpu_.AddAttribute("productName", Value::String("NVIDIA H100 80GB HBM3")).ok());
    ASSERT_TRUE(gpu_.AddAttribute("index", Value::Int(0)).ok());
    ASSERT_TRUE(gpu_.AddAttribute("uuid", Value::StringView(uuid_)).ok());
    ASSERT_TRUE(gpu_.AddAttribute("gpu.nvidia.com/mig", Value::Bool(false)).ok());
    ASSERT_TRUE(gpu_.AddVersionAttribute("driverVersion", "550.54.15").ok());
    ASSERT_TRUE(
        gpu_.AddAttribute("resource.kubernetes.io/pcieRoot", Value::String("pci0000:00")).ok());
    ASSERT_TRUE(gpu_.AddCapacity("memory", core::Quantity::Parse("80Gi").value()).ok());
    ASSERT_TRUE(
        gpu_.AddCapacity("gpu.nvidia.com/multiprocessors", core::Quantity::Parse("132").value())
            .ok());
  }

  // "true"/"false", "compile: ..." or "error: ...".
  std::string Match(std::string_view selector, const DraDevice& device) {
    core::Result<const Program*> p = selectors_.Compile(selector);
    if (!p.has_value()) return "compile: " + p.error().message();
    core::Result<bool> m = selectors_.Matches(**p, device);
    if (!m.has_value()) return "error: " + m.error().message();
    return *m ? "true" : "false";
  }
  std::string Match(std::string_view selector) { return Match(selector, gpu_); }

  std::string uuid_ = "GPU-8f2a";
  DraSelectors selectors_;
  DraDevice gpu_;
};

TEST_F(DraSelectorsTest, TheTypicalSelector) {
  EXPECT_EQ(Match(R"(device.driver == "gpu.nvidia.com" &&
      device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3" &&
      device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("40Gi")) >= 0)"),
            "true");
  EXPECT_EQ(Match(R"(device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("100Gi")) >= 0)"),
            "false");
  EXPECT_EQ(Match(R"(device.driver == "driver-a")"), "false");
}

TEST_F(DraSelectorsTest, AttributesAndDomains) {
  // Unqualified names are filed under the driver's domain.
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].index == 0)"), "true");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].uuid.startsWith("GPU-"))"), "true");
  EXPECT_EQ(Match(R"(!device.attributes["gpu.nvidia.com"].mig)"), "true");
  EXPECT_EQ(Match(R"(device.attributes["resource.kubernetes.io"].pcieRoot == "pci0000:00")"),
            "true");
  // An unknown domain is an empty map; an unknown id in it is an error.
  EXPECT_EQ(Match(R"(size(device.attributes["other.example.com"]) == 0)"), "true");
  EXPECT_EQ(Match(R"(device.attributes["other.example.com"].foo == 1)"), "error: no such key: foo");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].nosuch == "x")"),
            "error: no such key: nosuch");
  // Presence tests see only what exists.
  EXPECT_EQ(Match(R"("gpu.nvidia.com" in device.attributes)"), "true");
  EXPECT_EQ(Match(R"("other.example.com" in device.attributes)"), "false");
  EXPECT_EQ(Match(R"("uuid" in device.attributes["gpu.nvidia.com"])"), "true");
  EXPECT_EQ(Match(R"("nosuch" in device.attributes["gpu.nvidia.com"])"), "false");
  EXPECT_EQ(Match(R"(has(device.attributes["gpu.nvidia.com"].productName))"), "true");
  EXPECT_EQ(Match(R"(has(device.attributes["gpu.nvidia.com"].nosuch))"), "false");
  EXPECT_EQ(Match(R"("nosuch" in device.attributes["gpu.nvidia.com"] &&
                     device.attributes["gpu.nvidia.com"].nosuch == 1)"),
            "false");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].exists(k, k == "uuid"))"), "true");
  EXPECT_EQ(Match(R"(device.attributes.all(d, d.endsWith(".com") || d.endsWith(".io")))"), "true");
  EXPECT_EQ(Match(R"(device.attributes.size() == 2 && device.capacity.size() == 1)"), "true");
}

TEST_F(DraSelectorsTest, CapacityAndVersions) {
  EXPECT_EQ(Match(R"(device.capacity["gpu.nvidia.com"].memory.isGreaterThan(quantity("40Gi")))"),
            "true");
  EXPECT_EQ(Match(R"(device.capacity["gpu.nvidia.com"].multiprocessors.asInteger() == 132)"),
            "true");
  EXPECT_EQ(Match(R"(device.capacity["gpu.nvidia.com"].nosuch.isLessThan(quantity("1")))"),
            "error: no such key: nosuch");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].driverVersion.isGreaterThan(
                         semver("550.0.0")))"),
            "true");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].driverVersion.major() >= 550)"), "true");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].driverVersion == semver("550.54.15"))"),
            "true");
}

TEST_F(DraSelectorsTest, CelBindAndMacros) {
  EXPECT_EQ(Match(R"(cel.bind(dra, device.attributes["gpu.nvidia.com"],
                              dra.productName.matches("H100") && dra.index == 0))"),
            "true");
  EXPECT_EQ(Match(R"(["NVIDIA A100", "NVIDIA H100 80GB HBM3"].exists(p,
                       p == device.attributes["gpu.nvidia.com"].productName))"),
            "true");
}

TEST_F(DraSelectorsTest, AllowMultipleAllocations) {
  EXPECT_EQ(Match("device.allowMultipleAllocations"), "false");
  gpu_.set_allow_multiple_allocations(true);
  EXPECT_EQ(Match("device.allowMultipleAllocations"), "true");
}

TEST_F(DraSelectorsTest, CompileErrors) {
  EXPECT_EQ(Match("device.nosuch == 1"), "compile: ERROR: <input>:1:7: undefined field 'nosuch'");
  EXPECT_EQ(Match("device.driver"),
            "compile: must evaluate to bool or the unknown type, not string");
  EXPECT_EQ(Match("device.driver == 1"),
            "compile: ERROR: <input>:1:15: found no matching overload for '_==_' applied to "
            "'(string, int)'");
  EXPECT_EQ(Match("nodes.size() > 0"),
            "compile: ERROR: <input>:1:1: undeclared reference to 'nodes' (in container '')");
  std::string too_long = "device.driver == '";
  too_long.append(kDraSelectorMaxLength, 'x');  // (not operator+: GCC 12's false -Warray-bounds)
  too_long += "'";
  EXPECT_EQ(Match(too_long).rfind("compile: ERROR: <input>: expression code point size exceeds "
                                  "limit",
                                  0),
            0u);
}

TEST_F(DraSelectorsTest, RuntimeErrors) {
  // dyn results compile (upstream too) but must be bool at run time.
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].index)"),
            "error: CEL result of type int could not be converted to bool");
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].productName > 1)"),
            "error: no matching overload for '_>_' applied to '(string, int)'");
}

TEST_F(DraSelectorsTest, CostLimit) {
  std::string hundred = "[";
  for (int i = 0; i < 100; ++i) hundred += (i > 0 ? ", " : "") + std::to_string(i);
  hundred += "]";
  // 100 + 100^2 + 100^3 iterations: just over the 1e6 budget, refused before it runs, as
  // the API server refuses it (its estimate exceeds CELSelectorExpressionMaxCost).
  std::string cubic = "cel.bind(l, " + hundred + ", l.all(a, l.all(b, l.all(c, c >= 0))))";
  core::Result<const Program*> p = selectors_.Compile(cubic);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(p.error().message(),
            "Forbidden: too complex, exceeds cost limit (estimated cost 1010100, limit 1000000)");
  std::string square = "cel.bind(l, " + hundred + ", l.all(a, l.all(b, b >= 0)))";
  EXPECT_EQ(Match(square), "true");
}

// Issue 14: 30 nested [1,2].map(a, ...) macros (2^30 iterations, and lists as large) ran
// into the runtime limit on every evaluation after building ~87 MB; the estimate refuses
// them at compile, in time linear in the text.
TEST_F(DraSelectorsTest, NestedMacrosAreRefusedAtCompile) {
  std::string nested = "device.driver == 'x'";
  for (int i = 0; i < 30; ++i) nested = "[1,2].map(a, " + nested + ")";
  nested += ".size() > 0";
  core::Result<const Program*> p = selectors_.Compile(nested);
  ASSERT_FALSE(p.has_value());
  EXPECT_EQ(p.error().message(),
            "Forbidden: too complex, exceeds cost limit (estimated cost 2147483646, limit "
            "1000000)");
  // 18 levels (2^19 - 2 iterations) are within the budget and run.
  std::string fine = "device.driver == 'x'";
  for (int i = 0; i < 18; ++i) fine = "[1,2].map(a, " + fine + ")";
  EXPECT_EQ(Match(fine + ".size() > 0"), "true");
  // Iterating what a device holds is bounded by kDraMaxVariableSize per level.
  EXPECT_EQ(Match(R"(device.attributes["gpu.nvidia.com"].all(k, k.size() > 0))"), "true");
  core::Result<const Program*> cubic = selectors_.Compile(
      R"(device.attributes.all(d, device.attributes.all(e, device.attributes.all(f, )"
      R"(device.attributes.all(g, true)))))");
  ASSERT_FALSE(cubic.has_value());
  EXPECT_NE(cubic.error().message().find("too complex, exceeds cost limit"), std::string::npos);
  // Doubling a string through cel.bind is charged by the bytes + builds.
  std::string doubling = "cel.bind(s0, device.driver, ";
  std::string closing = ")";
  for (int i = 1; i < 20; ++i) {
    doubling += "cel.bind(s" + std::to_string(i) + ", s" + std::to_string(i - 1) + " + s" +
                std::to_string(i - 1) + ", ";
    closing += ")";
  }
  doubling += "s19.size() > 0" + closing;
  core::Result<const Program*> doubled = selectors_.Compile(doubling);
  ASSERT_FALSE(doubled.has_value());
  EXPECT_NE(doubled.error().message().find("too complex, exceeds cost limit"), std::string::npos);
}

TEST_F(DraSelectorsTest, UpstreamAllocatorExamples) {
  DraDevice a("driver-a");
  ASSERT_TRUE(a.AddAttribute("generation", Value::String("v6")).ok());
  ASSERT_TRUE(a.AddAttribute("special", Value::Bool(true)).ok());
  ASSERT_TRUE(a.AddCapacity("memory", core::Quantity::Parse("2Gi").value()).ok());
  EXPECT_EQ(Match(R"(device.driver == "driver-a")", a), "true");
  EXPECT_EQ(Match(R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)", a),
            "true");
  EXPECT_EQ(Match(R"(device.attributes["driver-a"].generation == "v6")", a), "true");
  EXPECT_EQ(Match(R"(device.attributes["driver-a"].special)", a), "true");

  DraDevice b("driver.example.com");
  ASSERT_TRUE(b.AddVersionAttribute("firmware", "1.3.0").ok());
  EXPECT_EQ(Match(R"(device.attributes["driver.example.com"].firmware.isGreaterThan(
                         semver("1.2.0")))",
                  b),
            "true");
  DraDevice c("test-driver.cdi.k8s.io");
  ASSERT_TRUE(c.AddVersionAttribute("driverVersion", "1.0.0").ok());
  EXPECT_EQ(Match(R"(device.attributes["test-driver.cdi.k8s.io"].driverVersion.major() >= 1)", c),
            "true");
}

TEST_F(DraSelectorsTest, CompileIsCached) {
  core::Result<const Program*> a = selectors_.Compile("device.driver == 'x'");
  core::Result<const Program*> b = selectors_.Compile("device.driver == 'x'");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(*a, *b);
}

TEST(DraDeviceTest, RejectsBadInput) {
  DraDevice d("drv");
  EXPECT_TRUE(d.AddAttribute("a", Value::Int(1)).ok());
  core::Status dup = d.AddAttribute("drv/a", Value::Int(2));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().message(), "attribute drv/a is duplicated");
  core::Status kind = d.AddAttribute("l", Value::List({}));
  ASSERT_FALSE(kind.ok());
  EXPECT_EQ(kind.error().message(), "attribute l: unsupported attribute value of type list");
  core::Status version = d.AddVersionAttribute("v", "v1.0.0");
  ASSERT_FALSE(version.ok());
  EXPECT_EQ(version.error().message(),
            "attribute v: parse semantic version: Invalid character(s) found in major number "
            "\"v1\"");
  EXPECT_TRUE(d.AddCapacity("m", core::Quantity::Parse("1").value()).ok());
  EXPECT_FALSE(d.AddCapacity("drv/m", core::Quantity::Parse("2").value()).ok());
  EXPECT_EQ(d.driver(), "drv");
}

TEST(DraDeviceTest, IsAMapOfItsFields) {
  DraDevice d("drv");
  Value v = d.AsValue();
  ASSERT_EQ(v.kind(), ValueKind::kMap);
  EXPECT_EQ(v.map_value().Size(), 4u);
  EXPECT_EQ(v.map_value().Find(Value::StringView("driver"))->string_value(), "drv");
  EXPECT_FALSE(v.map_value().Find(Value::StringView("other")).has_value());
  EXPECT_FALSE(v.map_value().Find(Value::Int(1)).has_value());
  EXPECT_EQ(v.map_value().KeyAt(3).string_value(), "allowMultipleAllocations");
  EXPECT_EQ(DraDeviceType().ToString(), "kubernetes.DRADevice");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cel
