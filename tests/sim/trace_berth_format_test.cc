// berth's own trace format, CSV and JSON Lines: fields, defaults, durations and quantities,
// absolute times, every error kind with its line, unknown columns, skip mode.
#include <gtest/gtest.h>

#include <string>

#include "core/diagnostics.h"
#include "sim/trace/berth_format.h"
#include "sim/trace_test_util.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

core::Result<Trace> Csv(const std::string& text, core::Diagnostics& diags,
                        TraceReadOptions options = {}) {
  return ParseBerthCsv(text, "jobs.csv", options, diags);
}

core::Result<Trace> Jsonl(const std::string& text, core::Diagnostics& diags,
                          TraceReadOptions options = {}) {
  return ParseBerthJsonl(text, "jobs.jsonl", options, diags);
}

TEST(TraceBerthFormatTest, CsvReadsEveryColumn) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Csv(
      "id,submit,duration,gpus,cpu,memory,tenant,gpu_model,priority\n"
      "train-1,15m,2h,8,32,256Gi,team-a,H100,100\n"
      "eval-2,90,1h30m,1,500m,16G,team-b,,-5\n",
      diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->name, "jobs");
  ASSERT_EQ(trace->jobs.size(), 2u);
  TraceJob want_eval{"eval-2", 90, 5400, 1, 500, 16000000000, "team-b", "", -5, 3};
  TraceJob want_train{"train-1", 900, 7200, 8, 32000, int64_t{256} << 30, "team-a", "H100", 100, 2};
  EXPECT_EQ(trace->jobs[0], want_eval);
  EXPECT_EQ(trace->jobs[1], want_train);
}

TEST(TraceBerthFormatTest, CsvOptionalColumnsDefault) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Csv("gpus,duration,id,submit\n2,1d,a,0\n0,10,b,5\n", diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->jobs[0].duration_s, 86400);
  EXPECT_EQ(trace->jobs[0].cpu_milli, 2 * 3000);
  EXPECT_EQ(trace->jobs[0].memory_bytes, 2 * (int64_t{24} << 30));
  EXPECT_EQ(trace->jobs[0].tenant, "");
  EXPECT_EQ(trace->jobs[0].priority, 0);
  EXPECT_EQ(trace->jobs[1].cpu_milli, 3000);  // no GPUs: one GPU's share
}

TEST(TraceBerthFormatTest, CsvUnknownColumnsAreAnErrorNamingThem) {
  core::Diagnostics diags;
  core::Result<Trace> trace =
      Csv("id,submit,duration,gpus,tennant,gpu-model\na,0,1,1,x,y\n", diags);
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().ToString(),
            "jobs.csv:1: unknown columns \"tennant\", \"gpu-model\" (known: id, submit, duration, "
            "gpus, cpu, memory, tenant, gpu_model, priority)");
  core::Result<Trace> missing = Csv("id,submit,gpus\n", diags);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().ToString(), "jobs.csv:1: missing required column \"duration\"");
}

TEST(TraceBerthFormatTest, CsvErrorsNameLineAndColumn) {
  struct Case {
    std::string row;
    std::string want;
  };
  const std::string header = "id,submit,duration,gpus,cpu,memory,priority\n";
  const std::vector<Case> cases = {
      {",0,1,1,1,1Gi,0", "jobs.csv:2: column id: required value is missing"},
      {"a,soon,1,1,1,1Gi,0",
       "jobs.csv:2: column submit: \"soon\" is not a duration (seconds, or numbers with units "
       "s, m, h, d: 90s, 15m, 2h, 1d, 1h30m)"},
      {"a,0,15x,1,1,1Gi,0",
       "jobs.csv:2: column duration: \"15x\" is not a duration (seconds, or numbers with units "
       "s, m, h, d: 90s, 15m, 2h, 1d, 1h30m)"},
      {"a,0,1,two,1,1Gi,0", "jobs.csv:2: column gpus: \"two\" is not a whole number"},
      {"a,0,1,1,-1,1Gi,0", "jobs.csv:2: column cpu: \"-1\" must not be negative"},
      {"a,0,1,1,1,1Gb,0", "jobs.csv:2: column memory: \"1Gb\": "},  // quantity message follows
      {"a,0,1,1,1,1Gi,high", "jobs.csv:2: column priority: \"high\" is not a whole number"},
      {"a,0,1,1,1,1Gi", "jobs.csv:2: 6 fields, but the header has 7"},
      // Issue 14: times beyond 100 years would overflow once in milliseconds.
      {"a,0,9223372036854775807,1,1,1Gi,0",
       "jobs.csv:2: column duration: \"9223372036854775807\" is too large: at most 36525d "
       "(100 years)"},
      {"a,36526d,1,1,1,1Gi,0",
       "jobs.csv:2: column submit: \"36526d\" is too large: at most 36525d (100 years)"},
  };
  for (const Case& c : cases) {
    core::Diagnostics diags;
    core::Result<Trace> trace = Csv(header + c.row + "\n", diags);
    ASSERT_FALSE(trace.has_value()) << c.row;
    EXPECT_EQ(trace.error().ToString().substr(0, c.want.size()), c.want) << c.row;
  }
}

TEST(TraceBerthFormatTest, DuplicateIdNamesFirstLine) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Csv("id,submit,duration,gpus\na,0,1,1\nb,0,1,1\na,5,1,1\n", diags);
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error().ToString(), "jobs.csv:4: column id: duplicate id \"a\" (first at line 2)");
}

TEST(TraceBerthFormatTest, AbsoluteSubmitTimesAreRebased) {
  core::Diagnostics diags;
  core::Result<Trace> trace = Csv(
      "id,submit,duration,gpus\n"
      "late,2024-05-01T10:00:00Z,1h,1\n"
      "early,2024-05-01T09:30:00+00:00,1h,1\n"
      "mid,2024-05-01T11:45:00+02:00,1h,1\n",  // 09:45 UTC
      diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  ASSERT_EQ(trace->jobs.size(), 3u);
  EXPECT_EQ(trace->jobs[0].id, "early");
  EXPECT_EQ(trace->jobs[0].submit_s, 0);
  EXPECT_EQ(trace->jobs[1].id, "mid");
  EXPECT_EQ(trace->jobs[1].submit_s, 900);
  EXPECT_EQ(trace->jobs[2].submit_s, 1800);
  core::Result<Trace> mixed = Csv(
      "id,submit,duration,gpus\na,2024-05-01T10:00:00Z,1h,1\nb,90s,1h,1\n", diags);
  ASSERT_FALSE(mixed.has_value());
  EXPECT_EQ(mixed.error().ToString(),
            "jobs.csv:3: column submit: \"90s\" is a relative time but line 2 set timestamps "
            "for this trace");
}

TEST(TraceBerthFormatTest, JsonlReadsTheSameJobsAsCsv) {
  core::Diagnostics diags;
  core::Result<Trace> csv = Csv(
      "id,submit,duration,gpus,cpu,memory,tenant,gpu_model,priority\n"
      "a,15m,2h,8,32,256Gi,team-a,H100,100\n"
      "b,90,5400.5,1,0.5,16G,,,\n",
      diags);
  core::Result<Trace> jsonl = Jsonl(
      R"({"id":"a","submit":"15m","duration":"2h","gpus":8,"cpu":32,"memory":"256Gi","tenant":"team-a","gpu_model":"H100","priority":100})"
      "\n\n"
      R"({"id":"b","submit":90,"duration":5400.5,"gpus":"1","cpu":"500m","memory":16000000000,"tenant":null})"
      "\n",
      diags);
  ASSERT_TRUE(csv.has_value()) << csv.error().ToString();
  ASSERT_TRUE(jsonl.has_value()) << jsonl.error().ToString();
  ASSERT_EQ(jsonl->jobs.size(), 2u);
  // Same jobs; only the lines differ (the JSON file has a blank line 2).
  EXPECT_EQ(jsonl->jobs[0].line, 3);
  jsonl->jobs[0].line = csv->jobs[0].line;
  jsonl->jobs[1].line = csv->jobs[1].line;
  EXPECT_EQ(jsonl->jobs, csv->jobs);
  EXPECT_EQ(jsonl->jobs[0].duration_s, 5401);
}

TEST(TraceBerthFormatTest, JsonlErrorsNameLineAndKey) {
  struct Case {
    std::string line;
    std::string want;
  };
  const std::string ok = R"({"id":"ok","submit":0,"duration":1,"gpus":1})";
  const std::vector<Case> cases = {
      {R"({"id":"a","submit":0,"duration":1,"gpus":1,"tenat":"x","gpu":2})",
       "jobs.jsonl:2: unknown keys \"gpu\", \"tenat\" (known: id, submit, duration, gpus, cpu, "
       "memory, tenant, gpu_model, priority)"},
      {R"({"id":"a","submit":0,"duration":1})", "jobs.jsonl:2: column gpus: required value is missing"},
      {R"({"id":"a","submit":0,"duration":1,"gpus":[1]})",
       "jobs.jsonl:2: column gpus: expected a string or a number, not array"},
      {R"({"id":"a","submit":0,"duration":1,"gpus":true})",
       "jobs.jsonl:2: column gpus: expected a string or a number, not boolean"},
      {R"({"id":"a","submit":0,"duration":1,"gpus":1.5})",
       "jobs.jsonl:2: column gpus: \"1.5\" is not a whole number"},
      {R"([1,2])", "jobs.jsonl:2: expected a JSON object, not array"},
      {R"({"id":"a",)", "jobs.jsonl:2: not valid JSON: parse error at line 1, column 11"},
  };
  for (const Case& c : cases) {
    core::Diagnostics diags;
    core::Result<Trace> trace = Jsonl(ok + "\n" + c.line + "\n", diags);
    ASSERT_FALSE(trace.has_value()) << c.line;
    EXPECT_EQ(trace.error().ToString().substr(0, c.want.size()), c.want) << c.line;
  }
}

TEST(TraceBerthFormatTest, JsonlSkipModeKeepsGoing) {
  core::Diagnostics diags;
  TraceReadOptions options;
  options.skip_bad_rows = true;
  core::Result<Trace> trace = Jsonl(
      "not json\n"
      R"({"id":"a","submit":"1m","duration":1,"gpus":1})"
      "\n"
      R"({"id":"b","submit":"1m","duration":1,"gpus":1,"extra":1})"
      "\n"
      R"({"id":"c","submit":"30s","duration":1,"gpus":1})"
      "\n",
      diags, options);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->skipped_rows, 2);
  ASSERT_EQ(trace->jobs.size(), 2u);
  EXPECT_EQ(trace->jobs[0].id, "c");
  EXPECT_EQ(trace->jobs[1].id, "a");
  ASSERT_EQ(diags.entries().size(), 2u) << testing::DumpDiagnostics(diags);
  EXPECT_EQ(diags.entries()[0].error.location().file, "jobs.jsonl:1");
  EXPECT_EQ(diags.entries()[1].error.location().file, "jobs.jsonl:3");
}

TEST(TraceBerthFormatTest, CsvQuotedFieldsAndCrlf) {
  core::Diagnostics diags;
  core::Result<Trace> trace =
      Csv("\xEF\xBB\xBFid,submit,duration,gpus,tenant\r\n\"job,1\",0,1,1,\"team \"\"x\"\"\"\r\n",
          diags);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->jobs[0].id, "job,1");
  EXPECT_EQ(trace->jobs[0].tenant, "team \"x\"");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
