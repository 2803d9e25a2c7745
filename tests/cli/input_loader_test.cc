// The load preamble plan, explain, inventory and demo share (LoadInput, ExitCodeAfterPlan).
#include "cli/input_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace berth::cli {
namespace BERTH_UNITY_ID {

namespace fs = std::filesystem;

// A fresh directory under the test's temp dir, holding `files` (name -> text).
fs::path MakeDir(const std::string& name,
                 const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("berth_input_loader_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [file, text] : files) std::ofstream(dir / file) << text;
  return dir;
}

LoadFlags Flags(std::vector<std::string> files, std::string scoring = "", bool demo = false) {
  LoadFlags flags;
  flags.files = std::move(files);
  flags.scoring = std::move(scoring);
  flags.demo = demo;
  return flags;
}

constexpr const char* kNode = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "4"
    memory: 8Gi
    pods: "110"
)";

TEST(LoadInputTest, ReadsFilesAndParsesOptions) {
  const fs::path dir = MakeDir("ok", {{"node.yaml", kNode}});
  std::ostringstream err;
  auto loaded = LoadInput(Flags({dir.string()}, "MostAllocated"), err);
  ASSERT_TRUE(loaded.has_value()) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(loaded->code, ExitCode::kOk);
  EXPECT_EQ(loaded->input.objects_read, 1u);
  EXPECT_EQ(loaded->input.snapshot.nodes.size(), 1u);
  EXPECT_TRUE(loaded->options.scoring.has_value());
}

TEST(LoadInputTest, BadOptionStopsBeforeReading) {
  std::ostringstream err;
  auto loaded = LoadInput(Flags({"/nonexistent/berth"}, "Fastest"), err);
  EXPECT_FALSE(loaded.has_value());
  EXPECT_NE(err.str().find("berth: error: "), std::string::npos);
  EXPECT_EQ(err.str().find("/nonexistent/berth"), std::string::npos);  // not read
}

TEST(LoadInputTest, UnreadablePathStops) {
  std::ostringstream err;
  auto loaded = LoadInput(Flags({"/nonexistent/berth"}), err);
  EXPECT_FALSE(loaded.has_value());
  EXPECT_NE(err.str().find("/nonexistent/berth"), std::string::npos);
}

TEST(LoadInputTest, EmptyInputSaysSo) {
  const fs::path dir = MakeDir("empty", {});
  std::ostringstream err;
  auto loaded = LoadInput(Flags({dir.string(), dir.string()}), err);
  EXPECT_FALSE(loaded.has_value());
  EXPECT_EQ(err.str(), "berth: error: no Kubernetes objects found in " + dir.string() + ", " +
                           dir.string() + "\n");
}

TEST(LoadInputTest, BadObjectIsPartial) {
  const fs::path dir = MakeDir("partial", {{"node.yaml", kNode},
                                           {"bad.yaml",
                                            "apiVersion: v1\nkind: Node\nmetadata:\n  name: n2\n"
                                            "status:\n  allocatable:\n    cpu: lots\n"}});
  std::ostringstream err;
  auto loaded = LoadInput(Flags({dir.string()}), err);
  ASSERT_TRUE(loaded.has_value()) << err.str();
  EXPECT_EQ(loaded->code, ExitCode::kPartial);
  EXPECT_NE(err.str().find("berth: error: "), std::string::npos);
}

TEST(LoadInputTest, DemoFleet) {
  std::ostringstream err;
  auto loaded = LoadInput(Flags({}, "", true), err);
  ASSERT_TRUE(loaded.has_value()) << err.str();
  EXPECT_EQ(loaded->code, ExitCode::kOk);
  EXPECT_GT(loaded->input.objects_read, 0u);
}

// --cluster: a name given twice stops like an unreadable path; a name no ManagedCluster
// names is a warning when its path held nothing or the input has ManagedClusters.
TEST(LoadPathsTest, RepeatedClusterNameIsAnError) {
  const fs::path dir = MakeDir("cluster_twice", {{"node.yaml", kNode}});
  core::Diagnostics diags;
  auto input = LoadPaths({}, diags, {"a=" + dir.string(), "a=" + dir.string()});
  EXPECT_FALSE(input.has_value());
  ASSERT_EQ(diags.error_count(), 1u);
  EXPECT_NE(diags.entries()[0].error.message().find("cluster \"a\" is already given"),
            std::string::npos);
}

TEST(LoadPathsTest, UnknownClusterNameIsAWarning) {
  const fs::path hub =
      MakeDir("cluster_hub", {{"mc.yaml",
                               "apiVersion: cluster.open-cluster-management.io/v1\n"
                               "kind: ManagedCluster\nmetadata: {name: a}\n"}});
  const fs::path member = MakeDir("cluster_member", {{"node.yaml", kNode}});
  const fs::path empty = MakeDir("cluster_empty", {});
  core::Diagnostics diags;
  auto input =
      LoadPaths({hub.string()}, diags,
                {"a=" + member.string(), "typo=" + member.string(), "none=" + empty.string()});
  ASSERT_TRUE(input.has_value());
  EXPECT_FALSE(diags.has_errors());
  ASSERT_EQ(diags.entries().size(), 2u);
  EXPECT_NE(diags.entries()[0].error.message().find("no ManagedCluster is named \"typo\"; its 1 "
                                                    "object belongs"),
            std::string::npos);
  EXPECT_NE(diags.entries()[1].error.message().find("holds no objects"), std::string::npos);
}

TEST(ExitCodeAfterPlanTest, EngineErrorsNameTheirFileAndMakeThePlanPartial) {
  const fs::path dir = MakeDir("engine", {{"node.yaml", kNode}});
  std::ostringstream err;
  auto loaded = LoadInput(Flags({dir.string()}), err);
  ASSERT_TRUE(loaded.has_value()) << err.str();

  core::Diagnostics none;
  EXPECT_EQ(ExitCodeAfterPlan(*loaded, none, err), 0);
  EXPECT_EQ(err.str(), "");

  core::Diagnostics warned;
  warned.Warn(core::InvalidArgument("odd", {"", "Node/n1", ""}));
  EXPECT_EQ(ExitCodeAfterPlan(*loaded, warned, err), 0);

  core::Diagnostics bad;
  bad.Report(core::InvalidArgument("unusable", {"", "Node/n1", ""}));
  std::ostringstream err2;
  EXPECT_EQ(ExitCodeAfterPlan(*loaded, bad, err2), 1);
  EXPECT_EQ(err2.str(), "berth: error: " + (dir / "node.yaml").string() + ": Node/n1: unusable\n");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
