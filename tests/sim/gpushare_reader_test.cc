#include <gtest/gtest.h>

#include <string>

#include "sim/gpushare/openb_reader.h"
#include "sim/gpushare_test_util.h"

namespace berth::sim::gpushare {
namespace BERTH_UNITY_ID {

using testing::OpenbFixturePath;

constexpr char kNodes[] =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "node-a,64000,262144,2,P100\n"
    "node-b,96000,393216,8,G2\n"
    "node-c,32000,131072,0,\n";

TEST(OpenbReaderTest, ParsesNodeList) {
  gpu::GpuModelTable models;
  core::Result<NodeList> list = ParseOpenbNodes(kNodes, "nodes.csv", models, {});
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  ASSERT_EQ(list->nodes.size(), 3u);
  EXPECT_EQ(list->nodes[0].name, "node-a");
  EXPECT_EQ(list->nodes[0].cpu_milli, 64000);
  EXPECT_EQ(list->nodes[0].memory_mib, 262144);
  EXPECT_EQ(list->nodes[1].num_gpu, 8);
  EXPECT_EQ(models.Name(list->nodes[1].model), "G2");
  EXPECT_EQ(list->nodes[2].model, gpu::kNoGpuModel);
  EXPECT_EQ(models.size(), 2);
  EXPECT_EQ(list->skipped_rows, 0);
}

TEST(OpenbReaderTest, ParsesPodsWithModelListsAndDropsEmptyParts) {
  gpu::GpuModelTable models;
  const std::string text =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
      "deletion_time,scheduled_time\r\n"
      "p0,12000,16384,1,1000,,LS,Running,0,12537496,0\r\n"
      "p1,8000,30517,1,440,G2||T4|,LS,Running,9671707,12902960,9671708\r\n"
      "p2,4000,8192,0,0,V100M32,BE,Running,1,2,3\r\n"
      "p3,88000,327680,8,1000,,LS,Running,1,2,3\r\n";
  core::Result<PodList> list = ParseOpenbPods(text, "pods.csv", models, {});
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  ASSERT_EQ(list->pods.size(), 4u);
  EXPECT_TRUE(list->pods[0].gpu_spec.empty());
  EXPECT_TRUE(list->pods[0].allowed_models.empty());
  EXPECT_EQ(list->pods[1].gpu_spec, "G2|T4");
  EXPECT_TRUE(list->pods[1].allowed_models.Allows(*models.Find("G2")));
  EXPECT_TRUE(list->pods[1].allowed_models.Allows(*models.Find("T4")));
  EXPECT_TRUE(list->pods[1].IsGpuShare());
  // A CPU-only pod's model list means nothing (the upstream converter drops it).
  EXPECT_TRUE(list->pods[2].gpu_spec.empty());
  EXPECT_EQ(list->pods[3].TotalGpuMilli(), 8000);
  EXPECT_FALSE(list->pods[3].IsGpuShare());
}

TEST(OpenbReaderTest, ReadsTheFiveColumnMultiGpuLayout) {
  gpu::GpuModelTable models;
  core::Result<PodList> list =
      ReadOpenbPods(OpenbFixturePath("openb_pod_list_multigpu20.csv"), models, {});
  ASSERT_TRUE(list.has_value()) << list.error().ToString();
  EXPECT_EQ(list->pods.size(), 84u);
  for (const gpu::PodSpec& pod : list->pods) EXPECT_TRUE(pod.gpu_spec.empty());
}

TEST(OpenbReaderTest, ReadsTheFixtureTrace) {
  int64_t skipped = 0;
  core::Result<OpenbTrace> trace =
      ReadOpenbTrace(OpenbFixturePath("openb_node_list_gpu_node.csv"),
                     OpenbFixturePath("openb_pod_list_default.csv"), {}, nullptr, &skipped);
  ASSERT_TRUE(trace.has_value()) << trace.error().ToString();
  EXPECT_EQ(trace->nodes.size(), 61u);
  EXPECT_EQ(trace->pods.size(), 408u);
  EXPECT_EQ(skipped, 0);
  int64_t gpus = 0;
  for (const gpu::NodeSpec& node : trace->nodes) gpus += node.num_gpu;
  EXPECT_EQ(gpus, 314);
}

TEST(OpenbReaderTest, BadIntegerNamesFileLineRowAndColumn) {
  gpu::GpuModelTable models;
  const std::string text =
      "sn,cpu_milli,memory_mib,gpu,model\n"
      "node-a,64000,262144,2,P100\n"
      "\n"
      "node-b,96k,393216,8,G2\n";
  core::Result<NodeList> list = ParseOpenbNodes(text, "nodes.csv", models, {});
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().code(), core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(list.error().location().file, "nodes.csv:4");
  EXPECT_EQ(list.error().location().object, "node-b");
  EXPECT_EQ(list.error().location().field, "cpu_milli");
  EXPECT_EQ(list.error().ToString(),
            "nodes.csv:4: node-b: cpu_milli: not a non-negative integer: '96k'");
}

TEST(OpenbReaderTest, WrongFieldCountNamesTheLine) {
  gpu::GpuModelTable models;
  const std::string text =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
      "p0,1000,1024,1,500\n"
      "p1,1000,1024,1\n";
  core::Result<PodList> list = ParseOpenbPods(text, "pods.csv", models, {});
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().location().file, "pods.csv:3");
  EXPECT_NE(list.error().message().find("4 fields, the header 5"), std::string::npos);
}

TEST(OpenbReaderTest, MissingColumnIsReportedOnTheHeader) {
  gpu::GpuModelTable models;
  core::Result<PodList> list =
      ParseOpenbPods("name,cpu_milli,memory_mib,num_gpu\np0,1,1,0\n", "pods.csv", models, {});
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().location().file, "pods.csv:1");
  EXPECT_EQ(list.error().location().field, "gpu_milli");
}

TEST(OpenbReaderTest, RejectsInconsistentGpuRequests) {
  gpu::GpuModelTable models;
  const std::string header = "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n";
  for (const char* row : {"p,1000,1024,2,500\n", "p,1000,1024,1,0\n", "p,1000,1024,1,1001\n",
                          "p,1000,1024,0,300\n", "p,1000,1024,17,1000\n"}) {
    core::Result<PodList> list = ParseOpenbPods(header + row, "pods.csv", models, {});
    ASSERT_FALSE(list.has_value()) << row;
    EXPECT_EQ(list.error().location().file, "pods.csv:2") << row;
  }
}

TEST(OpenbReaderTest, SkipsBadRowsOnlyWhenAsked) {
  gpu::GpuModelTable models;
  const std::string text =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli\n"
      "p0,1000,1024,1,500\n"
      "p1,-5,1024,1,500\n"
      "p2,1000,1024,1,500\n"
      "p3,1000,1024\n";
  EXPECT_FALSE(ParseOpenbPods(text, "pods.csv", models, {}).has_value());
  core::Diagnostics diags;
  CsvReadOptions skip;
  skip.skip_bad_rows = true;
  core::Result<PodList> list = ParseOpenbPods(text, "pods.csv", models, skip, &diags);
  ASSERT_TRUE(list.has_value());
  EXPECT_EQ(list->pods.size(), 2u);
  EXPECT_EQ(list->skipped_rows, 2);
  ASSERT_EQ(diags.entries().size(), 2u);
  EXPECT_EQ(diags.entries()[0].severity, core::Severity::kWarning);
  EXPECT_EQ(diags.entries()[0].error.location().file, "pods.csv:3");
  EXPECT_EQ(diags.entries()[1].error.location().file, "pods.csv:5");
  EXPECT_FALSE(diags.has_errors());
}

TEST(OpenbReaderTest, MissingFileIsNotFound) {
  gpu::GpuModelTable models;
  core::Result<NodeList> list = ReadOpenbNodes("/nonexistent/nodes.csv", models, {});
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().code(), core::ErrorCode::kNotFound);
}

TEST(OpenbReaderTest, TooManyGpusOnANodeIsAnError) {
  gpu::GpuModelTable models;
  core::Result<NodeList> list = ParseOpenbNodes(
      "sn,cpu_milli,memory_mib,gpu,model\nbig,1000,1000,17,G2\n", "nodes.csv", models, {});
  ASSERT_FALSE(list.has_value());
  EXPECT_EQ(list.error().location().field, "gpu");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::gpushare
