// Tenant -> Kueue queue mapping (file and flag forms, default queue) and AssignQueues.
#include <gtest/gtest.h>

#include <string>

#include "core/diagnostics.h"
#include "sim/trace/queued_trace.h"
#include "sim/trace/reader.h"
#include "sim/trace/tenant_mapping.h"
#include "sim/trace_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

TEST(TraceTenantTest, ParsesFileWithHeaderCommentsAndDefault) {
  core::Result<TenantMapping> m = ParseTenantMapping(
      "# philly virtual clusters\n"
      "tenant,namespace,local_queue\n"
      "6214e9,research,lq-research\n"
      "\n"
      "11cb48, prod , lq-prod\n"
      "*,shared,lq-default\n",
      "tenants.csv");
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->size(), 2u);
  ASSERT_NE(m->Find("6214e9"), nullptr);
  EXPECT_EQ(m->Find("6214e9")->ToString(), "research/lq-research");
  EXPECT_EQ(m->Find("11cb48")->ToString(), "prod/lq-prod");
  EXPECT_EQ(m->Find("other")->ToString(), "shared/lq-default");
  EXPECT_EQ(m->Find("")->ToString(), "shared/lq-default");
}

TEST(TraceTenantTest, UnmappedWithoutDefaultIsNull) {
  core::Result<TenantMapping> m = ParseTenantMapping("a,ns,q\n", "t.csv");
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  EXPECT_EQ(m->Find("b"), nullptr);
  EXPECT_FALSE(m->default_queue().has_value());
}

TEST(TraceTenantTest, FileErrorsNameLineAndColumn) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"a,ns,q\na,ns2,q2\n",
       "t.csv:2: column tenant: tenant \"a\" is already mapped to ns/q"},
      {"*,ns,q\n*,ns,q2\n", "t.csv:2: column tenant: the default queue (tenant \"*\") is already ns/q"},
      {"a,Research,q\n",
       "t.csv:1: column namespace: namespace \"Research\" is not a DNS-1123 label (lower-case "
       "letters, digits and '-', at most 63)"},
      {"a,team.a,q\n", "t.csv:1: column namespace: namespace \"team.a\" is not a DNS-1123 label"},
      {"a,ns,q_1\n", "t.csv:1: column local_queue: local queue \"q_1\" is not a valid LocalQueue name"},
      {"a,ns,\n", "t.csv:1: column local_queue: local queue is empty"},
      {",ns,q\n", "t.csv:1: column tenant: tenant is empty"},
      {"a,ns/q\n", "t.csv:1: 2 fields, want 3: tenant,namespace,local_queue"},
  };
  for (const Case& c : cases) {
    core::Result<TenantMapping> m = ParseTenantMapping(c.text, "t.csv");
    ASSERT_FALSE(m.has_value()) << c.text;
    EXPECT_EQ(m.error().ToString().substr(0, c.want.size()), c.want) << c.text;
  }
  core::Result<TenantMapping> dup = ParseTenantMapping("a,ns,q\na,ns,q\n", "t.csv");
  ASSERT_FALSE(dup.has_value());
  EXPECT_EQ(dup.error().code(), core::ErrorCode::kAlreadyExists);
}

TEST(TraceTenantTest, FlagForm) {
  TenantMapping m;
  EXPECT_TRUE(AddTenantFlag("team-a=research/lq-a", m).ok());
  EXPECT_TRUE(AddTenantFlag("*=shared/lq-default", m).ok());
  EXPECT_EQ(m.Find("team-a")->ToString(), "research/lq-a");
  EXPECT_EQ(m.Find("x")->ToString(), "shared/lq-default");
  core::Status bad = AddTenantFlag("team-b:research/lq-b", m);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message(),
            "\"team-b:research/lq-b\" is not TENANT=NAMESPACE/QUEUE (tenant * for the default)");
  core::Status no_slash = AddTenantFlag("team-b=lq-b", m);
  ASSERT_FALSE(no_slash.ok());
  EXPECT_EQ(no_slash.error().message(), "\"team-b=lq-b\": \"lq-b\" is not NAMESPACE/QUEUE");
  core::Status twice = AddTenantFlag("team-a=other/lq", m);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code(), core::ErrorCode::kAlreadyExists);
  // The CLI's --default-queue replaces a file's default.
  m.SetDefault(ParseQueueRef("ops/lq-ops").value());
  EXPECT_EQ(m.Find("x")->ToString(), "ops/lq-ops");
}

Trace ThreeTenants() {
  Trace trace;
  trace.name = "t";
  trace.file = "jobs.csv";
  trace.skipped_rows = 1;
  for (const char* tenant : {"zeta", "alpha", "beta", "zeta", "gamma"}) {
    TraceJob job;
    job.id = std::string("j") + std::to_string(trace.jobs.size());
    job.tenant = tenant;
    job.line = static_cast<int64_t>(trace.jobs.size()) + 2;
    job.submit_s = static_cast<int64_t>(trace.jobs.size());
    trace.jobs.push_back(job);
  }
  return trace;
}

TEST(TraceTenantTest, AssignQueuesInternsSortedQueues) {
  TenantMapping m;
  ASSERT_TRUE(AddTenantFlag("zeta=z-ns/lq", m).ok());
  ASSERT_TRUE(AddTenantFlag("alpha=a-ns/lq", m).ok());
  ASSERT_TRUE(AddTenantFlag("*=a-ns/lq-default", m).ok());
  core::Diagnostics diags;
  core::Result<QueuedTrace> q = AssignQueues(ThreeTenants(), m, false, diags);
  ASSERT_TRUE(q.has_value()) << q.error().ToString();
  EXPECT_EQ(q->name, "t");
  EXPECT_EQ(q->skipped_rows, 1);
  ASSERT_EQ(q->queues.size(), 3u);
  EXPECT_EQ(q->queues[0].ToString(), "a-ns/lq");
  EXPECT_EQ(q->queues[1].ToString(), "a-ns/lq-default");
  EXPECT_EQ(q->queues[2].ToString(), "z-ns/lq");
  std::vector<int32_t> queues;
  for (const QueuedJob& job : q->jobs) queues.push_back(job.queue);
  // zeta, alpha, beta (default), zeta, gamma (default).
  EXPECT_EQ(queues, (std::vector<int32_t>{2, 0, 1, 2, 1}));
  EXPECT_EQ(q->jobs[1].job.id, "j1");
}

TEST(TraceTenantTest, UnmappedTenantIsABadRow) {
  TenantMapping m;
  ASSERT_TRUE(AddTenantFlag("zeta=z-ns/lq", m).ok());
  core::Diagnostics diags;
  core::Result<QueuedTrace> q = AssignQueues(ThreeTenants(), m, false, diags);
  ASSERT_FALSE(q.has_value());
  EXPECT_EQ(q.error().ToString(),
            "jobs.csv:3: column tenant: tenant \"alpha\" is not mapped and there is no default "
            "queue");
  core::Result<QueuedTrace> skipped = AssignQueues(ThreeTenants(), m, true, diags);
  ASSERT_TRUE(skipped.has_value());
  EXPECT_EQ(skipped->jobs.size(), 2u);
  EXPECT_EQ(skipped->skipped_rows, 1 + 3);
  EXPECT_EQ(diags.entries().size(), 3u) << testing::DumpDiagnostics(diags);
  ASSERT_EQ(skipped->queues.size(), 1u);
}

TEST(TraceTenantTest, PhillyFixtureThroughTheMappingFile) {
  core::Diagnostics diags;
  core::Result<Trace> trace = ReadTraceFile(testing::TraceFixturePath("philly/philly_head200.csv"),
                                            TraceFormat::kPhilly, {}, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  core::Result<TenantMapping> m = ParseTenantMapping(
      "tenant,namespace,local_queue\n6214e9,vc-6214e9,main\n11cb48,vc-11cb48,main\n"
      "*,shared,rest\n",
      "tenants.csv");
  ASSERT_TRUE(m.has_value()) << m.error().ToString();
  core::Result<QueuedTrace> q = AssignQueues(std::move(trace).value(), *m, false, diags);
  ASSERT_TRUE(q.has_value()) << q.error().ToString();
  ASSERT_EQ(q->queues.size(), 3u);
  std::vector<int> per_queue(3, 0);
  for (const QueuedJob& job : q->jobs) ++per_queue[job.queue];
  // 6214e9 188, 11cb48 7, the rest (6c71a0, 103959, ee9e8c) 5; queues sorted by namespace.
  EXPECT_EQ(q->queues[0].namespace_name, "shared");
  EXPECT_EQ(per_queue, (std::vector<int>{5, 7, 188}));
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
