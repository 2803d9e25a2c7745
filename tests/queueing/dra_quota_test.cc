// DRA-backed quota: Kueue's own table for counting a Workload's ResourceClaimTemplates,
// ported as data. Each case names its upstream test: kueue pkg/dra/claims_test.go
// Test_GetResourceRequests and Test_countDevicesPerClass_overflow (at ff69552e). Upstream
// compares only the field path and type of errors; berth compares the whole message.
// Left out (8, all CEL): "CEL selectors with DeviceClassName counts correctly", "... pre-
// filtered by DeviceClass selectors", "... with unsatisfiable expression returns error",
// "... with insufficient matching devices returns error", "Multi-request CEL selectors do
// not double-count devices", "Invalid CEL selector returns error", "CEL selectors with
// nonexistent DeviceClass returns error", "CEL selectors with empty DeviceClassName
// succeeds": upstream counts cluster-wide devices matching the selectors before quota;
// berth's engine checks the stronger per-node allocation through its binding oracle, and
// queueing may not evaluate CEL (it depends on model and core only).
#include "queueing/dra_quota.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "queueing/admission_test_util.h"
#include "queueing/kueue_builders.h"

namespace berth::queueing {
namespace BERTH_UNITY_ID {

using testing::CqBuilder;
using testing::DecisionOf;
using testing::KueueSnapshot;
using testing::RunAll;
using testing::WlBuilder;

model::DeviceRequest Exact(std::string name, std::string device_class, int64_t count) {
  model::DeviceRequest r;
  r.name = std::move(name);
  model::ExactDeviceRequest e;
  e.device_class_name = std::move(device_class);
  e.count = count;
  r.exactly = e;
  return r;
}

model::ResourceClaimTemplate Template(std::string name, std::vector<model::DeviceRequest> reqs) {
  model::ResourceClaimTemplate t;
  t.meta.name = std::move(name);
  t.meta.namespace_ = "ns1";
  t.spec.requests = std::move(reqs);
  return t;
}

struct Claim {
  std::string name;
  std::string template_name;  // empty: a claim by name (resourceClaimName)
};

struct Case {
  const char* upstream;  // the t.Run name in claims_test.go
  std::vector<Claim> claims;
  std::vector<model::ResourceClaimTemplate> extra_templates;
  bool unmapped = false;                // upstream's mapper built from no mappings
  std::map<std::string, int64_t> want;  // per pod, by quota resource
  std::string want_error;
};

// The objects every upstream case starts with: claim-tmpl-1 asks 2 devices of
// test-deviceclass-1, claim-2 (by name) 1 of test-deviceclass-2; res-1 maps
// test-deviceclass-1 and gpu-class, res-2 test-deviceclass-2.
std::vector<Case> Cases() {
  model::DeviceRequest all = Exact("device-request", "test-deviceclass-1", 0);
  all.exactly->allocation_mode = model::DeviceAllocationMode::kAll;
  model::DeviceRequest first;
  first.name = "req";
  first.first_available.push_back({"sub", {}});
  first.first_available.back().spec.device_class_name = "test-deviceclass-1";
  model::DeviceRequest neither;
  neither.name = "req";
  model::DeviceRequest admin = Exact("req", "test-deviceclass-1", 1);
  admin.exactly->admin_access = true;
  model::DeviceRequest admin_mixed = Exact("admin-req", "test-deviceclass-1", 1);
  admin_mixed.exactly->admin_access = true;
  model::ResourceClaimTemplate constraints =
      Template("claim-tmpl-constraints",
               {Exact("gpu-1", "test-deviceclass-1", 1), Exact("gpu-2", "test-deviceclass-1", 1)});
  constraints.spec.constraints.push_back({{"gpu-1", "gpu-2"}, "numa-node", ""});
  model::ResourceClaimTemplate config =
      Template("claim-tmpl-config", {Exact("req", "test-deviceclass-1", 1)});
  config.spec.config.push_back({{"req"}, {}});
  const std::string claim0 = "spec.podSets[0].template.spec.resourceClaims[0]";
  return {
      {"Single claim template with single device",
       {{"req-1", "claim-tmpl-1"}, {"req-2", ""}},
       {},
       false,
       {{"res-1", 2}},
       ""},
      {"Unmapped DeviceClass returns error",
       {{"req-1", "claim-tmpl-1"}, {"req-2", ""}},
       {},
       true,
       {},
       claim0 + ".resourceClaimTemplateName: Not found: \"DeviceClass test-deviceclass-1 is "
                "not mapped in DRA configuration for podset main\""},
      {"Two containers each using different claim templates",
       {{"req-a", "claim-tmpl-1"}, {"req-b", "claim-tmpl-2"}},
       {Template("claim-tmpl-2", {Exact("device-request", "test-deviceclass-2", 1)})},
       false,
       {{"res-1", 2}, {"res-2", 1}},
       ""},
      {"Two containers sharing one claim template",
       {{"req-a", "claim-tmpl-1"}},
       {},
       false,
       {{"res-1", 2}},
       ""},
      {"Single template requesting two devices",
       {{"req-x", "claim-tmpl-3"}},
       {Template("claim-tmpl-3", {Exact("device-request", "test-deviceclass-1", 2)})},
       false,
       {{"res-1", 2}},
       ""},
      {"Init and regular container sharing one template",
       {{"rc", "claim-tmpl-1"}},
       {},
       false,
       {{"res-1", 2}},
       ""},
      {"AllocationMode All returns error",
       {{"req-all", "claim-tmpl-all"}},
       {Template("claim-tmpl-all", {all})},
       false,
       {},
       claim0 + ".devices.requests[0].exactly.allocationMode: Invalid value: \"All\": "
                "ResourceClaimTemplate claim-tmpl-all: AllocationMode 'All' is not supported"},
      {"Device constraints are pass-through and counted correctly",
       {{"req-constraints", "claim-tmpl-constraints"}},
       {constraints},
       false,
       {{"res-1", 2}},
       ""},
      {"FirstAvailable returns error",
       {{"req-first", "claim-tmpl-first"}},
       {Template("claim-tmpl-first", {first})},
       false,
       {},
       claim0 + ".devices.requests[0]: Invalid value: \"null\": ResourceClaimTemplate "
                "claim-tmpl-first: FirstAvailable device selection is not supported"},
      {"Exactly and FirstAvailable are nil returns error",
       {{"req-empty", "claim-tmpl-empty"}},
       {Template("claim-tmpl-empty", {neither})},
       false,
       {},
       claim0 + ".devices.requests[0]: Invalid value: \"null\": ResourceClaimTemplate "
                "claim-tmpl-empty: Exactly must be set if FirstAvailable is nil"},
      {"AdminAccess request is skipped with zero quota",
       {{"req-admin", "claim-tmpl-admin"}},
       {Template("claim-tmpl-admin", {admin})},
       false,
       {},
       ""},
      {"Mixed AdminAccess and normal requests counts only normal",
       {{"req-mixed", "claim-tmpl-mixed"}},
       {Template("claim-tmpl-mixed", {Exact("normal-req", "test-deviceclass-1", 2), admin_mixed})},
       false,
       {{"res-1", 2}},
       ""},
      {"Device config is pass-through and counted correctly",
       {{"req-config", "claim-tmpl-config"}},
       {config},
       false,
       {{"res-1", 1}},
       ""},
  };
}

class DraQuotaTableTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DraQuotaTableTest, CountsAsUpstream) {
  const Case c = Cases()[GetParam()];
  SCOPED_TRACE(c.upstream);
  model::Snapshot snap;
  model::KueueConfig config;
  if (!c.unmapped) {
    config.device_class_mappings.push_back(
        {"res-1", snap.resources.Intern("res-1"), {"test-deviceclass-1", "gpu-class"}, false});
    config.device_class_mappings.push_back(
        {"res-2", snap.resources.Intern("res-2"), {"test-deviceclass-2"}, false});
  }
  snap.kueue_config = config;
  snap.resource_claim_templates.push_back(
      Template("claim-tmpl-1", {Exact("device-request", "test-deviceclass-1", 2)}));
  for (const auto& t : c.extra_templates) snap.resource_claim_templates.push_back(t);
  model::Workload wl;
  wl.meta.name = "wl";
  wl.meta.namespace_ = "ns1";
  model::KueuePodSet ps;
  ps.name = "main";
  ps.count = 1;
  for (const Claim& cl : c.claims) {
    model::PodResourceClaim prc;
    prc.name = cl.name;
    prc.template_name = cl.template_name;
    // Upstream's function counts templates only (a claim by name is refused one step
    // earlier, in handleDRA, which ClaimByNameIsMisconfigured covers): it is given here
    // without the claim's name so that step stays out of the way.
    if (!cl.template_name.empty()) prc.claim_name = "wl-" + cl.name;
    ps.pod_template.resource_claims.push_back(prc);
  }
  wl.pod_sets.push_back(ps);
  WorkloadInfo info = BuildWorkloadInfo(wl, 0);
  const std::string error = DraQuota(snap, "default").AddRequests(wl, info);
  EXPECT_EQ(error, c.want_error);
  if (!c.want_error.empty()) return;
  std::map<std::string, int64_t> got;
  for (const auto& [r, v] : info.pod_sets[0].per_pod) got[snap.resources.Name(r)] = v;
  EXPECT_EQ(got, c.want);
}

INSTANTIATE_TEST_SUITE_P(Upstream, DraQuotaTableTest, ::testing::Range<size_t>(0, Cases().size()));

// Test_countDevicesPerClass_overflow.
TEST(DraQuotaTest, CountDevicesPerClassSaturates) {
  model::ResourceClaimSpec spec;
  spec.requests = {Exact("r0", "gpu", 2), Exact("r1", "gpu", 3)};
  DeviceCountResult normal = CountDevicesPerClass(spec);
  ASSERT_EQ(normal.counts.size(), 1u);
  EXPECT_EQ(normal.counts[0].count, 5);  // "normal sum across requests"
  const int64_t max = std::numeric_limits<int64_t>::max();
  spec.requests = {Exact("r0", "gpu", max), Exact("r1", "gpu", max)};
  DeviceCountResult saturated = CountDevicesPerClass(spec);
  ASSERT_EQ(saturated.counts.size(), 1u);
  // "sum saturates at MaxInt64 instead of wrapping negative"
  EXPECT_EQ(saturated.counts[0].count, max);
}

// workload_controller.go handleDRA: a pod set using a claim by name is Misconfigured.
TEST(DraQuotaTest, ClaimByNameIsMisconfigured) {
  KueueSnapshot k;
  k.Flavor("default");
  CqBuilder cq("cq");
  cq.Quota("default", "cpu", 4000);
  k.Add(cq);
  k.LocalQueue("lq", "cq");
  const int32_t a = k.Add(WlBuilder("a").Requests({{"cpu", 1000}}));
  model::PodResourceClaim prc;
  prc.name = "gpu";
  prc.claim_name = "shared-gpu";
  k.snapshot.kueue_workloads[static_cast<size_t>(a)]
      .pod_sets[0]
      .pod_template.resource_claims.push_back(prc);
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& d = DecisionOf(r, a);
  EXPECT_EQ(d.outcome, WorkloadOutcome::kInadmissible);
  EXPECT_EQ(d.reason, "Misconfigured");
  EXPECT_EQ(d.message, "KueueDRAIntegration feature does not support use of resource claims");
}

// The devices count against the mapped quota resource: two workloads of 2 devices each per
// pod under a nominal quota of 3 devices: the first is admitted, the second waits.
TEST(DraQuotaTest, DevicesCountAgainstMappedQuota) {
  KueueSnapshot k;
  k.Flavor("default");
  model::KueueConfig config;
  config.device_class_mappings.push_back({"example.com/gpu",
                                          k.snapshot.resources.Intern("example.com/gpu"),
                                          {"gpu.example.com"},
                                          false});
  k.snapshot.kueue_config = config;
  CqBuilder cq("cq");
  cq.Quota("default", "cpu", 8000);
  cq.Quota("default", "example.com/gpu", 3);
  k.Add(cq);
  k.LocalQueue("lq", "cq");
  model::ResourceClaimTemplate t = Template("two-gpus", {Exact("gpu", "gpu.example.com", 2)});
  t.meta.namespace_ = "default";
  k.snapshot.resource_claim_templates.push_back(t);
  model::PodResourceClaim prc;
  prc.name = "gpu";
  prc.template_name = "two-gpus";
  const int32_t first = k.Add(WlBuilder("first").Requests({{"cpu", 1000}}).Created(1));
  const int32_t second = k.Add(WlBuilder("second").Requests({{"cpu", 1000}}).Created(2));
  for (int32_t w : {first, second}) {
    k.snapshot.kueue_workloads[static_cast<size_t>(w)]
        .pod_sets[0]
        .pod_template.resource_claims.push_back(prc);
  }
  AdmissionResult r = RunAll(k);
  const WorkloadDecision& a = DecisionOf(r, first);
  ASSERT_EQ(a.outcome, WorkloadOutcome::kAdmitted);
  EXPECT_EQ(a.admission->pod_set_assignments[0].flavors.at("example.com/gpu"), "default");
  EXPECT_EQ(a.admission->pod_set_assignments[0].resource_usage.at("example.com/gpu"), 2);
  const WorkloadDecision& b = DecisionOf(r, second);
  EXPECT_EQ(b.outcome, WorkloadOutcome::kPending);
  EXPECT_EQ(b.reason, "WaitingForQuota");
  EXPECT_NE(b.message.find("insufficient unused quota for example.com/gpu in flavor default, "
                           "1 more needed"),
            std::string::npos)
      << b.message;
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::queueing
