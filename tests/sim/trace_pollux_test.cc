// The Pollux workload reader: column mapping, the run-time estimate, errors, the fixture.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/diagnostics.h"
#include "sim/trace/pollux_reader.h"
#include "sim/trace/reader.h"
#include "sim/trace_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

constexpr const char* kHeader = "name,time,application,num_replicas,batch_size\n";

TEST(TracePolluxTest, MapsColumnsAndEstimatesDuration) {
  core::Diagnostics diags;
  core::Result<Trace> trace = ParsePolluxTrace(std::string(kHeader) +
                                                   "imagenet-11,1604,imagenet,32,6400\n"
                                                   "cifar10-0,107,cifar10,6,2048\n"
                                                   "ncf-2,135,ncf,1,32768\n",
                                               "workloads/workload-9.csv", {}, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->name, "workload-9");
  ASSERT_EQ(trace->jobs.size(), 3u);
  const TraceJob& cifar = trace->jobs[0];
  EXPECT_EQ(cifar.id, "cifar10-0");
  EXPECT_EQ(cifar.submit_s, 107);
  EXPECT_EQ(cifar.gpus, 6);
  EXPECT_EQ(cifar.tenant, "cifar10");
  EXPECT_EQ(cifar.duration_s, 131);  // ceil(782 / 6)
  EXPECT_EQ(cifar.cpu_milli, 6 * 3000);
  EXPECT_EQ(trace->jobs[1].id, "ncf-2");
  EXPECT_EQ(trace->jobs[1].duration_s, 782);
  EXPECT_EQ(trace->jobs[2].id, "imagenet-11");
  EXPECT_EQ(trace->jobs[2].duration_s, 26656);  // ceil(852992 / 32)
  EXPECT_EQ(trace->jobs[2].line, 2);
}

TEST(TracePolluxTest, GpuSecondsTableIsAnOption) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.pollux_gpu_seconds = {{"cifar10", 600}, {"resnet", 100}};
  core::Result<Trace> trace = ParsePolluxTrace(
      std::string(kHeader) + "a,0,cifar10,4,128\nb,5,resnet,0,64\n", "w.csv", options, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->jobs[0].duration_s, 150);
  EXPECT_EQ(trace->jobs[1].duration_s, 100);  // no GPUs: the single-GPU time
}

TEST(TracePolluxTest, ErrorsNameLineAndColumn) {
  struct Case {
    std::string rows;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"a,0,gpt,1,8\n",
       "w.csv:2: column application: unknown application \"gpt\" (known: bert, cifar10, "
       "deepspeech2, imagenet, ncf, yolov3)"},
      {"a,0,ncf,1,0\n", "w.csv:2: column batch_size: must be positive"},
      {"a,soon,ncf,1,8\n", "w.csv:2: column time: \"soon\" is not a number of seconds"},
      {"a,0,ncf,-2,8\n", "w.csv:2: column num_replicas: \"-2\" must not be negative"},
      {"a,0,ncf,1,8\na,1,ncf,1,8\n",
       "w.csv:3: column name: duplicate name \"a\" (first at line 2)"},
      {",0,ncf,1,8\n", "w.csv:2: column name: required value is missing"},
  };
  for (const Case& c : cases) {
    core::Diagnostics diags;
    core::Result<Trace> trace = ParsePolluxTrace(std::string(kHeader) + c.rows, "w.csv", {}, diags);
    ASSERT_FALSE(trace.has_value()) << c.rows;
    EXPECT_EQ(trace.error().ToString(), c.want);
  }
}

TEST(TracePolluxTest, SkippedDuplicateDoesNotBlockLaterRows) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.skip_bad_rows = true;
  core::Result<Trace> trace = ParsePolluxTrace(
      std::string(kHeader) + "a,0,gpt,1,8\na,1,ncf,1,8\na,2,ncf,1,8\n", "w.csv", options, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  // Line 2 is bad (unknown application) so "a" is first taken at line 3; line 4 duplicates it.
  ASSERT_EQ(trace->jobs.size(), 1u);
  EXPECT_EQ(trace->jobs[0].line, 3);
  EXPECT_EQ(trace->skipped_rows, 2);
  ASSERT_EQ(diags.entries().size(), 2u);
  EXPECT_EQ(diags.entries()[1].error.ToString(),
            "w.csv:4: column name: duplicate name \"a\" (first at line 3)");
}

TEST(TracePolluxTest, ReadsWorkloadOneFixture) {
  core::Diagnostics diags;
  core::Result<Trace> trace = ReadTraceFile(testing::TraceFixturePath("pollux/workload-1.csv"),
                                            TraceFormat::kPollux, {}, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  ASSERT_EQ(trace->jobs.size(), 160u);
  std::map<std::string, int> by_tenant;
  int64_t gpus = 0;
  for (const TraceJob& job : trace->jobs) {
    ++by_tenant[job.tenant];
    gpus += job.gpus;
  }
  // Counted with a script: ncf 68, cifar10 66, deepspeech2 12, bert 7, imagenet 4, yolov3 3;
  // 1,092 replicas in all; the file is already in time order.
  EXPECT_EQ(by_tenant, (std::map<std::string, int>{{"bert", 7},
                                                   {"cifar10", 66},
                                                   {"deepspeech2", 12},
                                                   {"imagenet", 4},
                                                   {"ncf", 68},
                                                   {"yolov3", 3}}));
  EXPECT_EQ(gpus, 1092);
  EXPECT_EQ(trace->jobs.front().id, "cifar10-0");
  EXPECT_EQ(trace->jobs.back().id, "ncf-159");
  EXPECT_EQ(trace->jobs.back().submit_s, 27695);
  for (size_t i = 0; i < trace->jobs.size(); ++i) EXPECT_EQ(trace->jobs[i].line, int64_t(i) + 2);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
