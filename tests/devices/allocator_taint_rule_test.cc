// DeviceTaintRules (resource.k8s.io/v1alpha3): the taint a rule names is added to every
// device its selector picks, as upstream's ResourceSlice tracker patches slices before the
// scheduler's allocator sees them (resourceslice/tracker: driver, pool and device names,
// the DeviceClass's selectors, the rule's CEL selectors; a missing class or a CEL runtime
// error selects nothing). Tolerations then work as for the slice's own taints
// (allocatortesting "tainted-*" cases, allocator_prioritized_test.cc).
#include <gtest/gtest.h>

#include "devices/allocator_test_util.h"
#include "model/device_taint_rule.h"

namespace berth::devices::testing {
namespace BERTH_UNITY_ID {

const std::string kA = "driver-a";
const std::string kB = "driver-b";

World Base() {
  World w;
  w.Classes({Class("class-a", kA), Class("class-b", kB)});
  // device-1 and device-2 of driver-a in pool-1, device-1 of driver-b in pool-2.
  w.Slices({SliceB("slice-1", "node-1", "pool-1", kA)
                .Dev(DeviceB("device-1").Str("model", "a100"))
                .Dev(DeviceB("device-2").Str("model", "h100")),
            SliceB("slice-2", "node-1", "pool-2", kB).Dev(DeviceB("device-1"))});
  return w;
}

model::DeviceTaintRule Rule(const std::string& name, model::DeviceTaintEffect effect,
                            std::optional<model::DeviceTaintSelector> selector) {
  model::DeviceTaintRule r;
  r.meta.name = name;
  r.selector = std::move(selector);
  r.taint = {"maintenance", "true", effect};
  return r;
}

model::DeviceTaintSelector Driver(const std::string& d) {
  model::DeviceTaintSelector s;
  s.driver = d;
  return s;
}

core::Toleration TolerateMaintenance(std::optional<core::TaintEffect> effect) {
  core::Toleration t;
  t.key = "maintenance";
  t.op = core::TolerationOp::kExists;
  t.effect = effect;
  return t;
}

ClaimB TwoOfA() { return ClaimB("claim-0").Req(RequestB("req-0", "class-a", 2)); }
ClaimB OneOfA() { return ClaimB("claim-0").Req(RequestB("req-0", "class-a", 1)); }

// tracker "rule for driver": both driver-a devices are tainted, driver-b's is not.
TEST(AllocatorTaintRuleTest, DriverSelectsItsDevices) {
  World w = Base();
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, Driver(kA))};
  w.Claims({OneOfA()});
  ExpectNoFit(Allocate(w)->out);
  World b = Base();
  b.snap.device_taint_rules = w.snap.device_taint_rules;
  b.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-b", 1))});
  ExpectAllocated(Allocate(b)->out, {{R("req-0", kB, "pool-2", "device-1")}});
}

// tracker "rule for device": only the named device; the other serves the request.
TEST(AllocatorTaintRuleTest, DeviceNameAndPool) {
  World w = Base();
  model::DeviceTaintSelector s;
  s.pool = "pool-1";
  s.device = "device-1";
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoExecute, s)};
  w.Claims({OneOfA()});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-2")}});
}

// A pool that does not exist selects nothing.
TEST(AllocatorTaintRuleTest, OtherPoolSelectsNothing) {
  World w = Base();
  model::DeviceTaintSelector s = Driver(kA);
  s.pool = "pool-9";
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, s)};
  w.Claims({TwoOfA()});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2")}});
}

// No deviceSelector: the tracker applies the rule to every device.
TEST(AllocatorTaintRuleTest, NoSelectorTaintsEverything) {
  World w = Base();
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, std::nullopt)};
  w.Claims({ClaimB("claim-0").Req(RequestB("req-0", "class-b", 1))});
  ExpectNoFit(Allocate(w)->out);
}

// A CEL selector picks by attribute; the class's selectors must hold too.
TEST(AllocatorTaintRuleTest, CelSelectorAndDeviceClass) {
  World w = Base();
  model::DeviceTaintSelector s;
  s.device_class_name = "class-a";
  s.selectors = {{"device.attributes[\"driver-a\"].model == \"a100\""}};
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, s)};
  World one = w;
  w.Claims({TwoOfA()});
  ExpectNoFit(Allocate(w)->out);
  one.Claims({OneOfA()});
  ExpectAllocated(Allocate(one)->out, {{R("req-0", kA, "pool-1", "device-2")}});
}

// tracker: a DeviceClass that does not exist makes the rule apply nowhere.
TEST(AllocatorTaintRuleTest, MissingDeviceClassSelectsNothing) {
  World w = Base();
  model::DeviceTaintSelector s;
  s.device_class_name = "no-such-class";
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, s)};
  w.Claims({TwoOfA()});
  auto run = Allocate(w);
  ExpectAllocated(run->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2")}});
  EXPECT_TRUE(run->diags.entries().empty());
}

// A runtime error (an attribute the device lacks) deselects the device, silently.
TEST(AllocatorTaintRuleTest, CelRuntimeErrorSelectsNothing) {
  World w = Base();
  model::DeviceTaintSelector s;
  s.selectors = {{"device.attributes[\"driver-a\"].missing == \"x\""}};
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, s)};
  w.Claims({TwoOfA()});
  ExpectAllocated(Allocate(w)->out,
                  {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2")}});
}

// A selector that does not compile is an error on the rule, which then applies nowhere.
TEST(AllocatorTaintRuleTest, CompileErrorIsReported) {
  World w = Base();
  model::DeviceTaintSelector s;
  s.selectors = {{"device.driver =="}};
  w.snap.device_taint_rules = {Rule("bad", model::DeviceTaintEffect::kNoSchedule, s)};
  w.Claims({OneOfA()});
  auto run = Allocate(w);
  ExpectAllocated(run->out, {{R("req-0", kA, "pool-1", "device-1")}});
  ASSERT_EQ(run->diags.entries().size(), 1u);
  EXPECT_TRUE(run->diags.has_errors());
  EXPECT_EQ(run->diags.entries()[0].error.location().object, "DeviceTaintRule/bad");
  EXPECT_EQ(run->diags.entries()[0].error.location().field,
            "spec.deviceSelector.selectors[0].cel.expression");
}

// Tolerations: NoSchedule and NoExecute rule taints are tolerated as slice taints are (an
// empty effect tolerates both), the toleration is copied into the result; effect None
// never blocks.
TEST(AllocatorTaintRuleTest, TolerationsAndEffects) {
  for (model::DeviceTaintEffect effect :
       {model::DeviceTaintEffect::kNoSchedule, model::DeviceTaintEffect::kNoExecute}) {
    World w = Base();
    w.snap.device_taint_rules = {Rule("r", effect, Driver(kA))};
    w.Claims({ClaimB("claim-0").Req(
        RequestB("req-0", "class-a", 2).Tol(TolerateMaintenance(std::nullopt)))});
    auto run = Allocate(w);
    ExpectAllocated(run->out,
                    {{R("req-0", kA, "pool-1", "device-1"), R("req-0", kA, "pool-1", "device-2")}});
    ASSERT_EQ(run->out.allocations[0].results[0].tolerations.size(), 1u);
    // Tolerating only the other effect is not enough.
    World other = Base();
    other.snap.device_taint_rules = w.snap.device_taint_rules;
    other.Claims({ClaimB("claim-0").Req(
        RequestB("req-0", "class-a", 1)
            .Tol(TolerateMaintenance(effect == model::DeviceTaintEffect::kNoSchedule
                                         ? core::TaintEffect::kNoExecute
                                         : core::TaintEffect::kNoSchedule)))});
    ExpectNoFit(Allocate(other)->out);
  }
  World none = Base();
  none.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNone, Driver(kA))};
  none.Claims({OneOfA()});
  ExpectAllocated(Allocate(none)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

// Rules of another member cluster do not apply.
TEST(AllocatorTaintRuleTest, OtherClusterRuleIgnored) {
  World w = Base();
  w.snap.device_taint_rules = {Rule("r", model::DeviceTaintEffect::kNoSchedule, Driver(kA))};
  w.snap.device_taint_rules[0].cluster = "east";
  w.Claims({OneOfA()});
  ExpectAllocated(Allocate(w)->out, {{R("req-0", kA, "pool-1", "device-1")}});
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::devices::testing
