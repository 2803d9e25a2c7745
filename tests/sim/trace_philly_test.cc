// The Philly reader: mapping, rebasing, sort order, defaults, every error kind with its line,
// skip mode, and the shared fixture.
#include <gtest/gtest.h>

#include <string>

#include "core/diagnostics.h"
#include "sim/trace/philly_reader.h"
#include "sim/trace/reader.h"
#include "sim/trace_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

constexpr const char* kHeader = "timestamp,duration,num_gpus,gpu_time,cluster\n";

core::Result<Trace> Parse(const std::string& body, core::Diagnostics& diags,
                          TraceReadOptions options = {}) {
  return ParsePhillyTrace(std::string(kHeader) + body, "philly.csv", options, diags);
}

TEST(TracePhillyTest, MapsColumnsAndRebasesToEarliest) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Parse(
      "2017-10-09 07:01:55,66.0,1,66.0,11cb48\n"
      "2017-10-09 06:13:03,2951.5,8,23612.0,6214e9\n",
      diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->name, "philly");
  EXPECT_EQ(trace->file, "philly.csv");
  ASSERT_EQ(trace->jobs.size(), 2u);
  const TraceJob& first = trace->jobs[0];  // the earlier timestamp, from line 3
  EXPECT_EQ(first.id, "philly-3");
  EXPECT_EQ(first.line, 3);
  EXPECT_EQ(first.submit_s, 0);
  EXPECT_EQ(first.duration_s, 2952);  // 2951.5 rounded up
  EXPECT_EQ(first.gpus, 8);
  EXPECT_EQ(first.tenant, "6214e9");
  EXPECT_EQ(first.cpu_milli, 8 * 3000);
  EXPECT_EQ(first.memory_bytes, 8 * (int64_t{24} << 30));
  EXPECT_EQ(first.gpu_model, "");
  EXPECT_EQ(first.priority, 0);
  const TraceJob& second = trace->jobs[1];
  EXPECT_EQ(second.id, "philly-2");
  EXPECT_EQ(second.submit_s, 48 * 60 + 52);  // 07:01:55 - 06:13:03
  EXPECT_EQ(second.tenant, "11cb48");
  EXPECT_TRUE(diags.entries().empty());
}

TEST(TracePhillyTest, SortsBySubmitThenLine) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Parse(
      "2017-10-09 06:00:10,60.0,1,60.0,b\n"   // line 2
      "2017-10-09 06:00:00,60.0,1,60.0,a\n"   // line 3
      "2017-10-09 06:00:10,60.0,1,60.0,c\n"   // line 4, ties with line 2
      "2017-10-09 06:00:05,60.0,1,60.0,d\n",  // line 5
      diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  std::vector<int64_t> lines;
  for (const TraceJob& job : trace->jobs) lines.push_back(job.line);
  EXPECT_EQ(lines, (std::vector<int64_t>{3, 5, 2, 4}));
}

TEST(TracePhillyTest, OptionsSetDefaultsAndName) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.cpu_milli_per_gpu = 500;
  options.memory_bytes_per_gpu = 1000;
  options.name = "philly-q4";
  core::Result<Trace> trace = Parse("2017-10-09 06:00:00,60.0,0,0.0,a\n", diags, options);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->name, "philly-q4");
  // A job without GPUs gets one GPU's share.
  EXPECT_EQ(trace->jobs[0].cpu_milli, 500);
  EXPECT_EQ(trace->jobs[0].memory_bytes, 1000);
  options.cpu_milli_per_gpu = -1;
  core::Result<Trace> bad = Parse("", diags, options);
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().location().field, "cpu_milli_per_gpu");
}

TEST(TracePhillyTest, ColumnsInAnyOrderAndGpuTimeOptional) {
  core::Diagnostics diags;
  core::Result<Trace> trace = ParsePhillyTrace(
      "cluster,num_gpus,duration,timestamp\nvc1,2,10,2017-10-09 06:00:00\n", "p.csv", {},
      diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->jobs[0].gpus, 2);
  EXPECT_EQ(trace->jobs[0].duration_s, 10);
  EXPECT_EQ(trace->jobs[0].tenant, "vc1");
}

// Each malformed row stops the read with FILE:LINE: column NAME: why.
TEST(TracePhillyTest, EveryErrorKindNamesLineAndColumn) {
  struct Case {
    std::string row;
    std::string want;
  };
  const std::string ok = "2017-10-09 06:00:00,60.0,1,60.0,a\n";
  const std::vector<Case> cases = {
      {"2017-10-09 06:00,60.0,1,60.0,a",
       "philly.csv:3: column timestamp: \"2017-10-09 06:00\" is not a time of the form "
       "YYYY-MM-DD HH:MM:SS"},
      {"2017-02-30 06:00:00,60.0,1,60.0,a",
       "philly.csv:3: column timestamp: \"2017-02-30 06:00:00\" is not a valid date and time"},
      {"2017-10-09 06:00:00,abc,1,abc,a",
       "philly.csv:3: column duration: \"abc\" is not a number of seconds"},
      {"2017-10-09 06:00:00,-5,1,-5,a", "philly.csv:3: column duration: \"-5\" must not be negative"},
      {"2017-10-09 06:00:00,60.0,1.5,90.0,a",
       "philly.csv:3: column num_gpus: \"1.5\" is not a whole number"},
      {"2017-10-09 06:00:00,60.0,2,60.0,a",
       "philly.csv:3: column gpu_time: \"60.0\" is not duration x num_gpus (60.0 x 2)"},
      {"2017-10-09 06:00:00,60.0,1,sixty,a", "philly.csv:3: column gpu_time: \"sixty\" is not a number"},
      {"2017-10-09 06:00:00,60.0,1,60.0,", "philly.csv:3: column cluster: required value is missing"},
      {"2017-10-09 06:00:00,60.0,1,60.0", "philly.csv:3: 4 fields, but the header has 5"},
      {"2017-10-09 06:00:00,60.0,1,60.0,\"a", "philly.csv:3: unterminated quoted field"},
  };
  for (const Case& c : cases) {
    core::Diagnostics diags;
    core::Result<Trace> trace = Parse(ok + c.row + "\n" + ok, diags);
    ASSERT_FALSE(trace.has_value()) << c.row;
    EXPECT_EQ(trace.error().ToString(), c.want);
    EXPECT_EQ(trace.error().location().file, "philly.csv:3");
    EXPECT_TRUE(diags.entries().empty()) << "without skip mode nothing is warned";
  }
}

TEST(TracePhillyTest, HeaderErrorsNameTheColumns) {
  core::Diagnostics diags;
  core::Result<Trace> unknown = ParsePhillyTrace(
      "timestamp,duraton,num_gpus,gpu_time,cluster,user\n", "p.csv", {}, diags);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().ToString(),
            "p.csv:1: unknown columns \"duraton\", \"user\" (known: timestamp, duration, "
            "num_gpus, gpu_time, cluster)");
  core::Result<Trace> missing =
      ParsePhillyTrace("timestamp,num_gpus\n", "p.csv", {}, diags);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().ToString(),
            "p.csv:1: missing required columns \"duration\", \"cluster\"");
  core::Result<Trace> twice = ParsePhillyTrace(
      "timestamp,duration,num_gpus,cluster,cluster\n", "p.csv", {}, diags);
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().ToString(), "p.csv:1: column cluster: column appears twice in the header");
  core::Result<Trace> empty = ParsePhillyTrace("\n  \n", "p.csv", {}, diags);
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().location().file, "p.csv");
}

TEST(TracePhillyTest, SkipModeWarnsCountsAndKeepsGoodRows) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.skip_bad_rows = true;
  core::Result<Trace> trace = Parse(
      "2017-10-09 06:00:00,60.0,1,60.0,a\n"
      "2017-10-09 06:00:xx,60.0,1,60.0,a\n"
      "\n"
      "2017-10-09 06:00:01,60.0,x,60.0,a\n"
      "2017-10-09 06:00:02,60.0,1,60.0,b\n",
      diags, options);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->skipped_rows, 2);
  ASSERT_EQ(trace->jobs.size(), 2u);
  EXPECT_EQ(trace->jobs[1].line, 6);
  EXPECT_EQ(trace->jobs[1].submit_s, 2);
  ASSERT_EQ(diags.entries().size(), 2u) << testing::DumpDiagnostics(diags);
  EXPECT_EQ(diags.entries()[0].severity, core::Severity::kWarning);
  EXPECT_EQ(diags.entries()[0].error.location().file, "philly.csv:3");
  EXPECT_EQ(diags.entries()[0].error.location().field, "column timestamp");
  EXPECT_EQ(diags.entries()[1].error.location().file, "philly.csv:5");
  EXPECT_EQ(diags.entries()[1].error.location().field, "column num_gpus");
  EXPECT_FALSE(diags.has_errors());
}

TEST(TracePhillyTest, ReadsTheFixtureDeterministically) {
  core::Diagnostics diags;
  const std::string path = testing::TraceFixturePath("philly/philly_head200.csv");
  core::Result<Trace> a = ReadTraceFile(path, TraceFormat::kPhilly, {}, diags);
  ASSERT_TRUE(a.has_value()) << a.error().ToString();
  EXPECT_EQ(a->name, "philly_head200");
  ASSERT_EQ(a->jobs.size(), 200u);
  EXPECT_EQ(a->skipped_rows, 0);
  // Counted independently: the earliest submit (line 4, 2017-09-29 07:58:32, 6c71a0, 860662 s),
  // the latest 860603 s later (line 2), 213 GPUs in all, 8-GPU job at line 55.
  EXPECT_EQ(a->jobs.front().line, 4);
  EXPECT_EQ(a->jobs.front().tenant, "6c71a0");
  EXPECT_EQ(a->jobs.front().duration_s, 860662);
  EXPECT_EQ(a->jobs.back().line, 2);
  EXPECT_EQ(a->jobs.back().submit_s, 860603);
  int64_t gpus = 0;
  for (size_t i = 0; i < a->jobs.size(); ++i) {
    gpus += a->jobs[i].gpus;
    if (i > 0) {
      const TraceJob& p = a->jobs[i - 1];
      const TraceJob& j = a->jobs[i];
      EXPECT_TRUE(p.submit_s < j.submit_s || (p.submit_s == j.submit_s && p.line < j.line));
    }
    if (a->jobs[i].line == 55) {
      EXPECT_EQ(a->jobs[i].gpus, 8);
    }
  }
  EXPECT_EQ(gpus, 213);
  core::Result<Trace> b = ReadTraceFile(path, TraceFormat::kPhilly, {}, diags);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*a, *b);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
