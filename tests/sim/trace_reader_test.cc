// The reader entry: format names, detection, file errors, dispatch.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/diagnostics.h"
#include "sim/trace/reader.h"
#include "sim/trace_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

TEST(TraceReaderTest, FormatNamesRoundTrip) {
  for (TraceFormat f : {TraceFormat::kPhilly, TraceFormat::kPollux, TraceFormat::kBerthCsv,
                        TraceFormat::kBerthJsonl}) {
    EXPECT_EQ(ParseTraceFormat(TraceFormatName(f)).value(), f);
  }
  EXPECT_EQ(ParseTraceFormat("berth-jsonl").value(), TraceFormat::kBerthJsonl);
  core::Result<TraceFormat> bad = ParseTraceFormat("openb");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message(),
            "unknown trace format \"openb\" (known: philly, pollux, csv, jsonl)");
}

TEST(TraceReaderTest, DetectsFormatFromFirstLine) {
  EXPECT_EQ(DetectTraceFormat("timestamp,duration,num_gpus,gpu_time,cluster\n"),
            TraceFormat::kPhilly);
  EXPECT_EQ(DetectTraceFormat("\nname,time,application,num_replicas,batch_size\n"),
            TraceFormat::kPollux);
  EXPECT_EQ(DetectTraceFormat("id,submit,duration,gpus\n"), TraceFormat::kBerthCsv);
  EXPECT_EQ(DetectTraceFormat("  {\"id\":\"a\"}\n"), TraceFormat::kBerthJsonl);
  EXPECT_EQ(DetectTraceFormat("name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec\n"),
            std::nullopt);
  EXPECT_EQ(DetectTraceFormat(""), std::nullopt);
}

TEST(TraceReaderTest, MissingFileIsNotFound) {
  core::Diagnostics diags;
  core::Result<Trace> trace =
      ReadTraceFile("/nonexistent/berth/trace.csv", TraceFormat::kBerthCsv, {}, diags);
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(trace.error().location().file, "/nonexistent/berth/trace.csv");
}

TEST(TraceReaderTest, DispatchesOnFormat) {
  core::Diagnostics diags;
  const std::string text = "id,submit,duration,gpus\na,0,1,1\n";
  core::Result<Trace> csv = ParseTrace(text, "x.csv", TraceFormat::kBerthCsv, {}, diags);
  ASSERT_TRUE(csv.has_value()) << csv.error().ToString();
  EXPECT_EQ(csv->jobs.size(), 1u);
  // The same text as a Philly file fails on its header, naming Philly's columns.
  core::Result<Trace> philly = ParseTrace(text, "x.csv", TraceFormat::kPhilly, {}, diags);
  ASSERT_FALSE(philly.has_value());
  EXPECT_NE(philly.error().message().find("known: timestamp"), std::string::npos);
}

TEST(TraceReaderTest, SameInputSameTrace) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.skip_bad_rows = true;
  const std::string text =
      "id,submit,duration,gpus,tenant\nb,10,1,1,x\na,10,1,1,y\nbad,1,1,-1,z\nc,5,1,1,x\n";
  core::Result<Trace> first = ParseTrace(text, "x.csv", TraceFormat::kBerthCsv, options, diags);
  core::Result<Trace> second = ParseTrace(text, "x.csv", TraceFormat::kBerthCsv, options, diags);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(*first, *second);
  std::vector<std::string> ids;
  for (const TraceJob& job : first->jobs) ids.push_back(job.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"c", "b", "a"}));
}

// The whole Philly list, when the shared data set is present (it is not in a clone).
TEST(TraceReaderTest, FullPhillyListWhenAvailable) {
  const std::string path = "/work/shared/data/philly-jobs-pollux/philly.csv";
  if (!ReadWholeFile(path).has_value()) GTEST_SKIP() << path << " not present";
  core::Diagnostics diags;
  core::Result<Trace> trace = ReadTraceFile(path, TraceFormat::kPhilly, {}, diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  // Counts from the data set's README: 82,247 jobs from 2017-09-04 10:30:41 to
  // 2017-12-22 08:02:11 (9,408,690 s later), 15 virtual clusters.
  EXPECT_EQ(trace->jobs.size(), 82247u);
  EXPECT_EQ(trace->skipped_rows, 0);
  EXPECT_EQ(trace->jobs.front().submit_s, 0);
  EXPECT_EQ(trace->jobs.back().submit_s, 9408690);
  std::set<std::string> tenants;
  for (const TraceJob& job : trace->jobs) tenants.insert(job.tenant);
  EXPECT_EQ(tenants.size(), 15u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
