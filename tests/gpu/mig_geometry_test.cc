// MIG geometry: the profile tables, layout validation, placement search, layouts from
// counts and enumeration, for every GPU model berth knows.
#include "gpu/mig_geometry.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace berth::gpu {
namespace BERTH_UNITY_ID {

const MigGeometry& Geometry(std::string_view name) {
  const MigGeometry* g = FindMigGeometry(name);
  EXPECT_NE(g, nullptr) << name;
  return *g;
}

// The profile of `g` with `compute` compute slices and `slices` memory slices, without
// media extensions.
const MigProfile& Profile(const MigGeometry& g, int32_t compute, int32_t slices) {
  for (const MigProfile& p : g.profiles) {
    if (p.compute_slices == compute && p.memory_slices == slices && !p.media_extensions) return p;
  }
  ADD_FAILURE() << "no " << compute << "g/" << slices << " profile on " << g.name;
  return g.profiles.front();
}

MigInstance At(const MigProfile& p, int32_t start) {
  return MigInstance{std::string(p.name), start, p.memory_slices};
}

std::vector<std::string> EightSliceModels() {
  return {"A100-40GB", "A100-80GB", "H100-80GB", "H100-94GB", "H200-141GB", "B200"};
}

TEST(MigGeometryTest, TablesAreConsistent) {
  for (const MigGeometry& g : AllMigGeometries()) {
    SCOPED_TRACE(std::string(g.name));
    int32_t largest = 0;
    for (const MigProfile& p : g.profiles) {
      EXPECT_GE(p.compute_slices, 1);
      EXPECT_LE(p.compute_slices, g.compute_slices);
      int32_t starts = 0;
      for (int32_t s = 0; s < 32; ++s) {
        if (!p.CanStartAt(s)) continue;
        ++starts;
        EXPECT_LE(s + p.memory_slices, g.memory_slices) << p.name << " at " << s;
        EXPECT_EQ(s % p.memory_slices, 0) << p.name << " placements are aligned";
      }
      // Without media extensions every placement can be taken at once.
      if (p.media_extensions) {
        EXPECT_EQ(p.max_instances, 1) << p.name;
      } else {
        EXPECT_EQ(starts, p.max_instances) << p.name;
      }
      largest = std::max(largest, p.memory_gb);
    }
    EXPECT_EQ(largest, g.memory_gb);
    // The whole-GPU profile takes every slice.
    EXPECT_EQ(g.profiles.back().memory_slices, g.memory_slices);
    EXPECT_EQ(g.profiles.back().compute_slices, g.compute_slices);
  }
}

TEST(MigGeometryTest, ProfileNamesFollowTheReferenceTable) {
  EXPECT_NE(Geometry("A100-40GB").FindProfile("1g.5gb"), nullptr);
  EXPECT_NE(Geometry("A100-40GB").FindProfile("3g.20gb"), nullptr);
  EXPECT_NE(Geometry("A100-80GB").FindProfile("1g.10gb+me"), nullptr);
  EXPECT_NE(Geometry("H100-80GB").FindProfile("7g.80gb"), nullptr);
  EXPECT_NE(Geometry("H200-141GB").FindProfile("1g.35gb"), nullptr);
  EXPECT_NE(Geometry("H200-141GB").FindProfile("3g.71gb"), nullptr);
  EXPECT_NE(Geometry("B200").FindProfile("1g.23gb"), nullptr);
  EXPECT_NE(Geometry("B200").FindProfile("7g.180gb"), nullptr);
  EXPECT_NE(Geometry("A30-24GB").FindProfile("2g.12gb+me"), nullptr);
  EXPECT_EQ(Geometry("A100-80GB").FindProfile("1g.5gb"), nullptr);
  const MigProfile& two_slice_1g = *Geometry("H100-80GB").FindProfile("1g.20gb");
  EXPECT_EQ(two_slice_1g.compute_slices, 1);
  EXPECT_EQ(two_slice_1g.memory_slices, 2);
  EXPECT_EQ(two_slice_1g.max_instances, 4);
  const MigProfile& three = *Geometry("B200").FindProfile("3g.90gb");
  EXPECT_EQ(three.memory_slices, 4);  // 3g = 4/8 of memory, 3/7 of the SMs
  EXPECT_EQ(three.max_instances, 2);
}

TEST(MigGeometryTest, ProductNamesMapToGeometries) {
  auto name = [](std::string_view product, int64_t memory = 0) -> std::string {
    const MigGeometry* g = MigGeometryForProduct(product, memory);
    return g == nullptr ? "" : std::string(g->name);
  };
  EXPECT_EQ(name("NVIDIA-A100-SXM4-40GB"), "A100-40GB");
  EXPECT_EQ(name("NVIDIA-A100-SXM4-80GB"), "A100-80GB");
  EXPECT_EQ(name("NVIDIA-A100-80GB-PCIe"), "A100-80GB");
  EXPECT_EQ(name("NVIDIA-A100-PCIE-40GB"), "A100-40GB");
  EXPECT_EQ(name("NVIDIA-A100", 81920), "A100-80GB");
  EXPECT_EQ(name("NVIDIA-A100", 40960), "A100-40GB");
  EXPECT_EQ(name("NVIDIA-H100-80GB-HBM3"), "H100-80GB");
  EXPECT_EQ(name("NVIDIA-H100-PCIe", 81559), "H100-80GB");
  EXPECT_EQ(name("NVIDIA-H100-NVL"), "H100-94GB");
  EXPECT_EQ(name("NVIDIA-H200"), "H200-141GB");
  EXPECT_EQ(name("NVIDIA-H200-NVL"), "H200-141GB");
  EXPECT_EQ(name("NVIDIA-B200"), "B200");
  EXPECT_EQ(name("NVIDIA-A30"), "A30-24GB");
  // GFD's suffixes are ignored; case does not matter.
  EXPECT_EQ(name("NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"), "A100-40GB");
  EXPECT_EQ(name("NVIDIA-H100-80GB-HBM3-MIG-3g.40gb-SHARED"), "H100-80GB");
  EXPECT_EQ(name("nvidia-h200-shared"), "H200-141GB");
  // No MIG table: not MIG capable, or a product berth does not carry.
  EXPECT_EQ(name("Tesla-T4"), "");
  EXPECT_EQ(name("NVIDIA-L40S"), "");
  EXPECT_EQ(name("NVIDIA-GH200-480GB"), "");
  EXPECT_EQ(name("NVIDIA-RTX-A3000"), "");
  EXPECT_EQ(name(""), "");
}

TEST(MigGeometryTest, ValidLayoutsOnEveryEightSliceGpu) {
  for (const std::string& model : EightSliceModels()) {
    SCOPED_TRACE(model);
    const MigGeometry& g = Geometry(model);
    const MigProfile& g1 = Profile(g, 1, 1);
    const MigProfile& g1x2 = Profile(g, 1, 2);
    const MigProfile& g2 = Profile(g, 2, 2);
    const MigProfile& g3 = Profile(g, 3, 4);
    const MigProfile& g4 = Profile(g, 4, 4);
    const MigProfile& g7 = Profile(g, 7, 8);
    std::vector<std::vector<MigInstance>> valid = {
        {At(g7, 0)},
        {At(g4, 0), At(g3, 4)},
        {At(g3, 0), At(g3, 4)},
        {At(g2, 0), At(g1, 2), At(g1, 3), At(g3, 4)},  // 3g+2g+1g+1g
        {At(g4, 0), At(g2, 4), At(g1, 6)},
        {At(g2, 0), At(g2, 2), At(g2, 4), At(g1x2, 6)},
        {At(g1x2, 0), At(g1x2, 2), At(g1x2, 4), At(g1x2, 6)},
        {At(g1, 0), At(g1, 1), At(g1, 2), At(g1, 3), At(g1, 4), At(g1, 5), At(g1, 6)},
        {At(g1, 6)},
        {},
    };
    for (const auto& layout : valid) {
      core::Status s = ValidateMigLayout(g, layout);
      EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message());
    }
  }
}

TEST(MigGeometryTest, InvalidLayoutsOnEveryEightSliceGpu) {
  for (const std::string& model : EightSliceModels()) {
    SCOPED_TRACE(model);
    const MigGeometry& g = Geometry(model);
    const MigProfile& g1 = Profile(g, 1, 1);
    const MigProfile& g2 = Profile(g, 2, 2);
    const MigProfile& g3 = Profile(g, 3, 4);
    const MigProfile& g4 = Profile(g, 4, 4);
    const MigProfile& g7 = Profile(g, 7, 8);
    struct Case {
      std::vector<MigInstance> layout;
      std::string message_part;
    };
    std::vector<Case> invalid = {
        {{At(g3, 0), At(g2, 2)}, "overlaps"},
        {{At(g7, 0), At(g1, 0)}, "overlaps"},
        {{At(g1, 7)}, "cannot be placed"},  // slice 7 is reserved to the larger profiles
        {{At(g2, 1)}, "cannot be placed"},
        {{At(g2, 6)}, "cannot be placed"},
        {{At(g3, 2)}, "cannot be placed"},
        {{At(g4, 4)}, "cannot be placed"},
        {{MigInstance{std::string(g2.name), 0, 4}}, "cannot be placed"},  // wrong size
        {{MigInstance{"5g.50gb", 0, 5}}, "does not exist"},
    };
    for (const Case& c : invalid) {
      core::Status s = ValidateMigLayout(g, c.layout);
      ASSERT_FALSE(s.ok());
      EXPECT_NE(s.error().message().find(c.message_part), std::string::npos) << s.error().message();
    }
    // The media-extension profile exists once per GPU.
    std::string me = std::string(g1.name) + "+me";
    core::Status two_me = ValidateMigLayout(g, std::vector<MigInstance>{{me, 0, 1}, {me, 1, 1}});
    ASSERT_FALSE(two_me.ok());
    EXPECT_EQ(two_me.error().message(), "more than 1 " + me + " instances");
  }
}

TEST(MigGeometryTest, A30HasFourSlices) {
  const MigGeometry& g = Geometry("A30-24GB");
  EXPECT_TRUE(
      ValidateMigLayout(
          g, std::vector<MigInstance>{{"2g.12gb", 0, 2}, {"1g.6gb", 2, 1}, {"1g.6gb", 3, 1}})
          .ok());
  EXPECT_TRUE(ValidateMigLayout(g, std::vector<MigInstance>{{"4g.24gb", 0, 4}}).ok());
  EXPECT_FALSE(ValidateMigLayout(g, std::vector<MigInstance>{{"2g.12gb", 1, 2}}).ok());
  EXPECT_FALSE(
      ValidateMigLayout(g, std::vector<MigInstance>{{"4g.24gb", 0, 4}, {"1g.6gb", 3, 1}}).ok());
  EXPECT_FALSE(ValidateMigLayout(g, std::vector<MigInstance>{{"1g.6gb", 4, 1}}).ok());
  // A30 has two media-extension profiles but one set of media engines.
  core::Status two_me =
      ValidateMigLayout(g, std::vector<MigInstance>{{"1g.6gb+me", 0, 1}, {"2g.12gb+me", 2, 2}});
  ASSERT_FALSE(two_me.ok());
  EXPECT_EQ(two_me.error().message(), "2g.12gb+me@2: a GPU has one set of media extensions");
}

TEST(MigGeometryTest, FindPlacementTakesTheLowestFreeStart) {
  const MigGeometry& g = Geometry("H100-80GB");
  const MigProfile& g1 = *g.FindProfile("1g.10gb");
  const MigProfile& g2 = *g.FindProfile("2g.20gb");
  const MigProfile& g3 = *g.FindProfile("3g.40gb");
  const MigProfile& g7 = *g.FindProfile("7g.80gb");
  EXPECT_EQ(FindMigPlacement(g, g3, {}), 0);
  std::vector<MigInstance> existing = {{"3g.40gb", 0, 4}};
  EXPECT_EQ(FindMigPlacement(g, g2, existing), 4);
  EXPECT_EQ(FindMigPlacement(g, g3, existing), 4);
  EXPECT_EQ(FindMigPlacement(g, g1, existing), 4);
  EXPECT_EQ(FindMigPlacement(g, g7, existing), std::nullopt);
  existing = {{"3g.40gb", 4, 4}};
  EXPECT_EQ(FindMigPlacement(g, g1, existing), 0);
  existing = {{"2g.20gb", 0, 2}, {"2g.20gb", 2, 2}, {"2g.20gb", 4, 2}};
  EXPECT_EQ(FindMigPlacement(g, g2, existing), std::nullopt);  // max 3, and 6 is not a start
  EXPECT_EQ(FindMigPlacement(g, g1, existing), 6);
  existing.push_back({"1g.10gb", 6, 1});
  EXPECT_EQ(FindMigPlacement(g, g1, existing), std::nullopt);  // slice 7 is not for 1g
}

TEST(MigGeometryTest, LayoutFromCountsBacktracks) {
  const MigGeometry& g = Geometry("A100-80GB");
  std::vector<std::pair<std::string, int32_t>> balanced = {
      {"1g.10gb", 2}, {"2g.20gb", 1}, {"3g.40gb", 1}};
  auto layout = MigLayoutFromCounts(g, balanced);
  ASSERT_TRUE(layout.has_value()) << layout.error().message();
  // 3g at 0 leaves 4-7 where 2g + 1g + 1g cannot go (1g never takes slice 7), so the 3g
  // moves to 4.
  std::vector<MigInstance> want = {
      {"2g.20gb", 0, 2}, {"1g.10gb", 2, 1}, {"1g.10gb", 3, 1}, {"3g.40gb", 4, 4}};
  EXPECT_EQ(layout.value(), want);
  EXPECT_TRUE(ValidateMigLayout(g, layout.value()).ok());

  auto seven = MigLayoutFromCounts(g, std::vector<std::pair<std::string, int32_t>>{{"1g.10gb", 7}});
  ASSERT_TRUE(seven.has_value());
  EXPECT_EQ(seven.value().size(), 7u);
  EXPECT_EQ(seven.value().back().start, 6);

  auto too_many =
      MigLayoutFromCounts(g, std::vector<std::pair<std::string, int32_t>>{{"3g.40gb", 3}});
  ASSERT_FALSE(too_many.has_value());
  EXPECT_EQ(too_many.error().code(), core::ErrorCode::kResourceExhausted);
  auto no_room = MigLayoutFromCounts(
      g, std::vector<std::pair<std::string, int32_t>>{{"4g.40gb", 1}, {"2g.20gb", 2}});
  EXPECT_FALSE(no_room.has_value());
  auto unknown =
      MigLayoutFromCounts(g, std::vector<std::pair<std::string, int32_t>>{{"1g.5gb", 1}});
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().code(), core::ErrorCode::kInvalidArgument);
  auto empty = MigLayoutFromCounts(g, std::vector<std::pair<std::string, int32_t>>{});
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty.value().empty());
}

TEST(MigGeometryTest, EnumeratesEveryValidLayout) {
  // Counts checked against an independent brute force over all placement subsets: 722
  // layouts on an 8-slice GPU without media extensions, 78 of them maximal; 25 on A30.
  for (const std::string& model : EightSliceModels()) {
    SCOPED_TRACE(model);
    const MigGeometry& g = Geometry(model);
    std::vector<std::vector<MigInstance>> all = EnumerateMigLayouts(g);
    EXPECT_EQ(all.size(), 722u);
    for (const auto& layout : all) EXPECT_TRUE(ValidateMigLayout(g, layout).ok());
    std::vector<std::vector<MigInstance>> maximal = EnumerateMigLayouts(g, false, true);
    EXPECT_EQ(maximal.size(), 78u);
    for (const auto& layout : maximal) {
      for (const MigProfile& p : g.profiles) {
        if (!p.media_extensions) {
          EXPECT_FALSE(FindMigPlacement(g, p, layout).has_value()) << p.name;
        }
      }
    }
    // Deterministic and sorted.
    EXPECT_EQ(EnumerateMigLayouts(g), all);
    EXPECT_GT(EnumerateMigLayouts(g, true).size(), all.size());
  }
  EXPECT_EQ(EnumerateMigLayouts(Geometry("A30-24GB")).size(), 25u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
