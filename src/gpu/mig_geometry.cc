#include "gpu/mig_geometry.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <tuple>

namespace berth::gpu {

namespace {

// Placement start masks (bit i: the instance may start at memory slice i). On the 8-slice
// GPUs a 1-slice instance cannot take slice 7, which only the 3g/4g/7g profiles reach
// (nvidia-smi mig -lgipp prints {0,1,2,3,4,5,6}:1, {0,2,4,6}:2, {0,2,4}:2, {0,4}:4, {0}:4,
// {0}:8 on A100 and H100).
constexpr uint32_t kStarts1of8 = 0x7F;  // 0..6
constexpr uint32_t kStarts2of8 = 0x55;  // 0, 2, 4, 6 (the 1g profiles with 2 slices)
constexpr uint32_t kStarts2g = 0x15;    // 0, 2, 4
constexpr uint32_t kStarts4of8 = 0x11;  // 0, 4 (3g)
constexpr uint32_t kStartZero = 0x01;   // 0 (4g, 7g)
constexpr uint32_t kStarts1of4 = 0x0F;  // A30: 0..3
constexpr uint32_t kStarts2of4 = 0x05;  // A30: 0, 2

// The names and memory sizes (GB) of an 8-slice GPU's seven profiles.
struct EightSliceNames {
  std::string_view g1, g1me, g1x2, g2, g3, g4, g7;
  int32_t mem1, mem2, mem4, mem8;
};

constexpr std::array<MigProfile, 7> EightSlice(const EightSliceNames& n) {
  return {{
      {n.g1, 1, 1, n.mem1, 7, kStarts1of8, false},
      {n.g1me, 1, 1, n.mem1, 1, kStarts1of8, true},
      {n.g1x2, 1, 2, n.mem2, 4, kStarts2of8, false},
      {n.g2, 2, 2, n.mem2, 3, kStarts2g, false},
      {n.g3, 3, 4, n.mem4, 2, kStarts4of8, false},
      {n.g4, 4, 4, n.mem4, 1, kStartZero, false},
      {n.g7, 7, 8, n.mem8, 1, kStartZero, false},
  }};
}

constexpr std::array<MigProfile, 7> kA100With40Gb = EightSlice(
    {"1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb", 5, 10, 20, 40});
constexpr std::array<MigProfile, 7> kA100H100With80Gb =
    EightSlice({"1g.10gb", "1g.10gb+me", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb", 10,
                20, 40, 80});
// H100 NVL / H100 94GB: recalled from the MIG user guide, not re-read (docs/gpus.md).
constexpr std::array<MigProfile, 7> kH100With94Gb =
    EightSlice({"1g.12gb", "1g.12gb+me", "1g.24gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb", 12,
                24, 47, 94});
constexpr std::array<MigProfile, 7> kH200With141Gb =
    EightSlice({"1g.18gb", "1g.18gb+me", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb", 18,
                35, 71, 141});
constexpr std::array<MigProfile, 7> kB200Profiles =
    EightSlice({"1g.23gb", "1g.23gb+me", "1g.45gb", "2g.45gb", "3g.90gb", "4g.90gb", "7g.180gb", 23,
                45, 90, 180});

constexpr std::array<MigProfile, 5> kA30With24Gb = {{
    {"1g.6gb", 1, 1, 6, 4, kStarts1of4, false},
    {"1g.6gb+me", 1, 1, 6, 1, kStarts1of4, true},
    {"2g.12gb", 2, 2, 12, 2, kStarts2of4, false},
    {"2g.12gb+me", 2, 2, 12, 1, kStarts2of4, true},
    {"4g.24gb", 4, 4, 24, 1, kStartZero, false},
}};

constexpr std::array<MigGeometry, 7> kGeometries = {{
    {"A100-40GB", 40, 7, 8, kA100With40Gb},
    {"A100-80GB", 80, 7, 8, kA100H100With80Gb},
    {"H100-80GB", 80, 7, 8, kA100H100With80Gb},
    {"H100-94GB", 94, 7, 8, kH100With94Gb},
    {"H200-141GB", 141, 7, 8, kH200With141Gb},
    {"B200", 180, 7, 8, kB200Profiles},
    {"A30-24GB", 24, 4, 4, kA30With24Gb},
}};

uint32_t SliceMask(int32_t start, int32_t size) {
  return ((uint32_t{1} << static_cast<uint32_t>(size)) - 1) << static_cast<uint32_t>(start);
}

// What a partial layout already uses, for the budget checks.
struct Usage {
  uint32_t slices = 0;
  int32_t compute = 0;
  int32_t media = 0;
  std::vector<int32_t> per_profile;  // by index into MigGeometry::profiles
};

size_t ProfileIndex(const MigGeometry& g, const MigProfile& p) {
  return static_cast<size_t>(&p - g.profiles.data());
}

bool Fits(const MigGeometry& g, const MigProfile& p, const Usage& u, int32_t start) {
  if (!p.CanStartAt(start) || start + p.memory_slices > g.memory_slices) return false;
  if ((u.slices & SliceMask(start, p.memory_slices)) != 0) return false;
  if (u.compute + p.compute_slices > g.compute_slices) return false;
  if (p.media_extensions && u.media > 0) return false;
  return u.per_profile[ProfileIndex(g, p)] < p.max_instances;
}

void Take(const MigGeometry& g, const MigProfile& p, int32_t start, Usage* u, int sign) {
  if (sign > 0) {
    u->slices |= SliceMask(start, p.memory_slices);
  } else {
    u->slices &= ~SliceMask(start, p.memory_slices);
  }
  u->compute += sign * p.compute_slices;
  u->media += p.media_extensions ? sign : 0;
  u->per_profile[ProfileIndex(g, p)] += sign;
}

Usage EmptyUsage(const MigGeometry& g) {
  Usage u;
  u.per_profile.assign(g.profiles.size(), 0);
  return u;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool LayoutLess(const std::vector<MigInstance>& a, const std::vector<MigInstance>& b) {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](const MigInstance& x, const MigInstance& y) {
        return std::tie(x.start, x.profile) < std::tie(y.start, y.profile);
      });
}

}  // namespace

const MigProfile* MigGeometry::FindProfile(std::string_view profile_name) const {
  for (const MigProfile& p : profiles) {
    if (p.name == profile_name) return &p;
  }
  return nullptr;
}

std::span<const MigGeometry> AllMigGeometries() { return kGeometries; }

const MigGeometry* FindMigGeometry(std::string_view name) {
  for (const MigGeometry& g : kGeometries) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

const MigGeometry* MigGeometryForProduct(std::string_view product, int64_t memory_mib) {
  std::string p = Upper(product);
  // GFD appends "-SHARED" when sharing is on and replaces the name by
  // "<product>-MIG-<profile>" under the single strategy.
  constexpr std::string_view kShared = "-SHARED";
  if (p.size() >= kShared.size() &&
      p.compare(p.size() - kShared.size(), kShared.size(), kShared.data()) == 0) {
    p.resize(p.size() - kShared.size());
  }
  if (size_t mig = p.find("-MIG-"); mig != std::string::npos) p.resize(mig);
  // Match whole dash-separated tokens so that "A30" does not match "A3000" and "H200" does
  // not match "GH200" (a Grace Hopper superchip, whose MIG table berth does not carry).
  std::vector<std::string> tokens;
  size_t begin = 0;
  while (begin <= p.size()) {
    size_t end = p.find('-', begin);
    if (end == std::string::npos) end = p.size();
    tokens.push_back(p.substr(begin, end - begin));
    begin = end + 1;
  }
  auto has = [&](std::string_view t) {
    return std::find(tokens.begin(), tokens.end(), t) != tokens.end();
  };
  if (has("A100")) {
    if (has("80GB")) return FindMigGeometry("A100-80GB");
    if (has("40GB")) return FindMigGeometry("A100-40GB");
    return FindMigGeometry(memory_mib > int64_t{48} * 1024 ? "A100-80GB" : "A100-40GB");
  }
  if (has("H100")) {
    if (has("NVL") || has("94GB") || memory_mib > int64_t{88} * 1024)
      return FindMigGeometry("H100-94GB");
    return FindMigGeometry("H100-80GB");
  }
  if (has("H200")) return FindMigGeometry("H200-141GB");
  if (has("B200")) return FindMigGeometry("B200");
  if (has("A30")) return FindMigGeometry("A30-24GB");
  return nullptr;
}

core::Status ValidateMigLayout(const MigGeometry& geometry, std::span<const MigInstance> layout) {
  Usage u = EmptyUsage(geometry);
  for (const MigInstance& inst : layout) {
    const MigProfile* p = geometry.FindProfile(inst.profile);
    std::string what = inst.profile + "@" + std::to_string(inst.start);
    if (p == nullptr) {
      return core::InvalidArgument("profile " + inst.profile + " does not exist on " +
                                   std::string(geometry.name));
    }
    if (inst.size != p->memory_slices || !p->CanStartAt(inst.start) ||
        inst.start + p->memory_slices > geometry.memory_slices) {
      return core::InvalidArgument(what + ": " + inst.profile + " cannot be placed at " +
                                   std::to_string(inst.start) + ":" + std::to_string(inst.size));
    }
    if ((u.slices & SliceMask(inst.start, p->memory_slices)) != 0) {
      return core::InvalidArgument(what + " overlaps another instance's memory slices");
    }
    if (u.per_profile[ProfileIndex(geometry, *p)] >= p->max_instances) {
      return core::InvalidArgument("more than " + std::to_string(p->max_instances) + " " +
                                   inst.profile + " instances");
    }
    if (p->media_extensions && u.media > 0) {
      return core::InvalidArgument(what + ": a GPU has one set of media extensions");
    }
    Take(geometry, *p, inst.start, &u, +1);
  }
  if (u.compute > geometry.compute_slices) {
    return core::InvalidArgument("the layout uses " + std::to_string(u.compute) +
                                 " compute slices; " + std::string(geometry.name) + " has " +
                                 std::to_string(geometry.compute_slices));
  }
  return core::OkStatus();
}

std::optional<int32_t> FindMigPlacement(const MigGeometry& geometry, const MigProfile& profile,
                                        std::span<const MigInstance> existing) {
  Usage u = EmptyUsage(geometry);
  for (const MigInstance& inst : existing) {
    const MigProfile* p = geometry.FindProfile(inst.profile);
    if (p != nullptr) Take(geometry, *p, inst.start, &u, +1);
  }
  for (int32_t start = 0; start < geometry.memory_slices; ++start) {
    if (Fits(geometry, profile, u, start)) return start;
  }
  return std::nullopt;
}

core::Result<std::vector<MigInstance>> MigLayoutFromCounts(
    const MigGeometry& geometry, std::span<const std::pair<std::string, int32_t>> counts) {
  std::vector<const MigProfile*> todo;
  for (const auto& [name, count] : counts) {
    const MigProfile* p = geometry.FindProfile(name);
    if (p == nullptr) {
      return core::InvalidArgument("profile " + name + " does not exist on " +
                                   std::string(geometry.name));
    }
    for (int32_t i = 0; i < count; ++i) todo.push_back(p);
  }
  // Larger instances first: they have the fewest placements, so the search fails fast.
  std::stable_sort(todo.begin(), todo.end(), [](const MigProfile* a, const MigProfile* b) {
    if (a->memory_slices != b->memory_slices) return a->memory_slices > b->memory_slices;
    if (a->compute_slices != b->compute_slices) return a->compute_slices > b->compute_slices;
    return a->name < b->name;
  });
  Usage u = EmptyUsage(geometry);
  std::vector<int32_t> starts(todo.size(), -1);
  // Instances of one profile take increasing starts, so no permutation of a set is tried
  // twice; with at most 8 instances and 8 starts the search is tiny.
  std::function<bool(size_t)> place = [&](size_t i) -> bool {
    if (i == todo.size()) return true;
    const MigProfile& p = *todo[i];
    int32_t first = (i > 0 && todo[i - 1] == todo[i]) ? starts[i - 1] + 1 : 0;
    for (int32_t s = first; s < geometry.memory_slices; ++s) {
      if (!Fits(geometry, p, u, s)) continue;
      Take(geometry, p, s, &u, +1);
      starts[i] = s;
      if (place(i + 1)) return true;
      Take(geometry, p, s, &u, -1);
    }
    return false;
  };
  if (!place(0)) {
    std::string what;
    for (const auto& [name, count] : counts) {
      if (count == 0) continue;
      what += what.empty() ? "" : " + ";
      what += std::to_string(count) + "x " + name;
    }
    return core::Error(core::ErrorCode::kResourceExhausted,
                       what + " do not fit on one " + std::string(geometry.name));
  }
  std::vector<MigInstance> layout;
  for (size_t i = 0; i < todo.size(); ++i) {
    layout.push_back(MigInstance{std::string(todo[i]->name), starts[i], todo[i]->memory_slices});
  }
  std::sort(layout.begin(), layout.end(),
            [](const MigInstance& a, const MigInstance& b) { return a.start < b.start; });
  return layout;
}

std::vector<std::vector<MigInstance>> EnumerateMigLayouts(const MigGeometry& geometry,
                                                          bool with_media_extensions,
                                                          bool maximal_only) {
  std::vector<std::vector<MigInstance>> out;
  std::vector<MigInstance> current;
  Usage u = EmptyUsage(geometry);
  auto considered = [&](const MigProfile& p) {
    return with_media_extensions || !p.media_extensions;
  };
  auto maximal = [&]() {
    for (const MigProfile& p : geometry.profiles) {
      if (!considered(p)) continue;
      for (int32_t s = 0; s < geometry.memory_slices; ++s) {
        if (Fits(geometry, p, u, s)) return false;
      }
    }
    return true;
  };
  // Walks the memory slices left to right: each slice is either left empty or starts one
  // instance, so every layout is produced once, already sorted by start.
  std::function<void(int32_t)> walk = [&](int32_t slice) {
    if (slice == geometry.memory_slices) {
      if (!current.empty() && (!maximal_only || maximal())) out.push_back(current);
      return;
    }
    if ((u.slices >> static_cast<uint32_t>(slice)) & 1U) {
      walk(slice + 1);
      return;
    }
    walk(slice + 1);
    for (const MigProfile& p : geometry.profiles) {
      if (!considered(p) || !Fits(geometry, p, u, slice)) continue;
      Take(geometry, p, slice, &u, +1);
      current.push_back(MigInstance{std::string(p.name), slice, p.memory_slices});
      walk(slice + p.memory_slices);
      current.pop_back();
      Take(geometry, p, slice, &u, -1);
    }
  };
  walk(0);
  std::sort(out.begin(), out.end(), LayoutLess);
  return out;
}

}  // namespace berth::gpu
