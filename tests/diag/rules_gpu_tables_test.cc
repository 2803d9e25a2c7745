// The gpu-stack rules' data: the device plugin config reader and the compatibility table.
#include <gtest/gtest.h>

#include "diag/rules/gpu_compat_table.h"
#include "diag/rules/gpu_plugin_config.h"

namespace berth::diag::rules {
namespace {

TEST(GpuPluginConfig, ReadsTimeSlicingBlockYaml) {
  auto config = ParsePluginConfig(
      "version: v1\n"
      "flags:\n"
      "  migStrategy: none   # whole GPUs\n"
      "sharing:\n"
      "  timeSlicing:\n"
      "    renameByDefault: false\n"
      "    failRequestsGreaterThanOne: true\n"
      "    resources:\n"
      "    - name: nvidia.com/gpu\n"
      "      replicas: 4\n");
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->version, "v1");
  EXPECT_EQ(config->mig_strategy, "none");
  EXPECT_EQ(config->sharing.mode, "time-slicing");
  EXPECT_FALSE(config->sharing.rename_by_default);
  EXPECT_TRUE(config->sharing.fail_requests_greater_than_one);
  ASSERT_EQ(config->sharing.resources.size(), 1u);
  EXPECT_EQ(config->sharing.resources[0].name, "nvidia.com/gpu");
  EXPECT_EQ(config->sharing.resources[0].replicas, 4);
  EXPECT_EQ(config->sharing.MaxReplicas(), 4);
}

TEST(GpuPluginConfig, ReadsJsonAndMpsDefaultsToFailingRequests) {
  auto config = ParsePluginConfig(
      R"({"version": "v1", "sharing": {"mps": {"renameByDefault": true, "resources": [{"name": "nvidia.com/gpu", "replicas": 2}]}}})");
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->sharing.mode, "mps");
  EXPECT_TRUE(config->sharing.rename_by_default);
  EXPECT_TRUE(config->sharing.fail_requests_greater_than_one);  // upstream config.go default
}

TEST(GpuPluginConfig, OneReplicaIsNoSharingAndOtherFilesAreNotConfigs) {
  auto plain = ParsePluginConfig("version: v1\nflags:\n  migStrategy: mixed\n");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->sharing.mode, "none");
  EXPECT_EQ(plain->mig_strategy, "mixed");
  EXPECT_FALSE(ParsePluginConfig("version: v1\nmig-configs:\n  all-disabled:\n  - devices: all\n").has_value());
  EXPECT_FALSE(ParsePluginConfig("version: v2\nflags: {}\n").has_value());
  EXPECT_FALSE(ParsePluginConfig("just text").has_value());
  EXPECT_FALSE(ParsePluginConfig("flags:\n  a: 1\n bad: 2\n").has_value());
}

TEST(GpuCompatTable, DriverVersionsParseAndOrder) {
  auto v = ParseDriverVersion("535.104.05");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, (DriverVersion{535, 104, 5}));
  EXPECT_EQ(v->ToString(), "535.104.05");
  EXPECT_LT(*ParseDriverVersion("570.26"), *ParseDriverVersion("570.124.06"));
  EXPECT_FALSE(ParseDriverVersion("535.x").has_value());
  EXPECT_EQ(CudaOfDriver(*v)->ToString(), "12.2");
  EXPECT_EQ(CudaOfDriver({470, 82, 1})->ToString(), "11.4");
  EXPECT_FALSE(CudaOfDriver({440, 0, 0}).has_value());
}

TEST(GpuCompatTable, FitsCudaAgainstDrivers) {
  EXPECT_EQ(FitCuda({12, 4}, DriverVersion{550, 54, 14}, std::nullopt), CudaFit::kSupported);
  EXPECT_EQ(FitCuda({12, 4}, DriverVersion{535, 104, 5}, CudaVersion{12, 2}), CudaFit::kMinorCompat);
  EXPECT_EQ(FitCuda({12, 4}, DriverVersion{470, 82, 1}, CudaVersion{11, 4}), CudaFit::kUnsupported);
  EXPECT_EQ(FitCuda({12, 4}, std::nullopt, CudaVersion{12, 1}), CudaFit::kMinorCompat);
  EXPECT_EQ(FitCuda({12, 4}, std::nullopt, std::nullopt), CudaFit::kUnknown);
}

TEST(GpuCompatTable, ImagesArchitecturesAndOperators) {
  EXPECT_EQ(CudaOfImage("nvidia/cuda:12.4.1-runtime-ubuntu22.04")->ToString(), "12.4");
  EXPECT_EQ(CudaOfImage("nvcr.io/nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04")->ToString(), "11.8");
  EXPECT_EQ(CudaOfImage("pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime")->ToString(), "12.1");
  EXPECT_FALSE(CudaOfImage("registry:5000/trainer:1.2").has_value());
  EXPECT_FALSE(CudaOfImage("busybox").has_value());
  ASSERT_NE(FindArchitecture("blackwell"), nullptr);
  EXPECT_EQ(FindArchitecture("blackwell")->first_cuda.ToString(), "12.8");
  EXPECT_EQ(FindArchitecture("volta"), nullptr);
  const OperatorRow* row = FindOperatorRelease("v24.9.2");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->kubernetes_min_minor, 24);
  EXPECT_EQ(row->kubernetes_max_minor, 31);
  EXPECT_EQ(FindOperatorRelease("v1.11.0"), nullptr);
}

}  // namespace
}  // namespace berth::diag::rules
