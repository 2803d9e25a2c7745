#include "gpu/gpu_inventory.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace berth::gpu {

namespace {

constexpr std::string_view kSharedProductSuffix = "-SHARED";
constexpr std::string_view kMigProductInfix = "-MIG-";
constexpr std::string_view kMigConfigAllPrefix = "all-";
constexpr std::string_view kLabelMigPrefix = "nvidia.com/mig-";
constexpr std::string_view kCountSuffix = ".count";
constexpr std::string_view kReplicasSuffix = ".replicas";
// A GPU without a known MIG table still has 7 compute slices (every MIG GPU but A30 does).
constexpr int32_t kDefaultComputeSlices = 7;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string Get(const core::Labels& labels, std::string_view key) {
  auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

// A non-negative decimal integer label; nullopt when absent or malformed.
std::optional<int64_t> GetInt(const core::Labels& labels, std::string_view key) {
  auto it = labels.find(key);
  if (it == labels.end() || it->second.empty() || it->second.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : it->second) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

bool IsTrue(std::string_view v) { return v == "true" || v == "True" || v == "TRUE"; }

// "3g.40gb" -> (3, 40); "1g.10gb+me" -> (1, 10). Zeros when the name has another shape.
std::pair<int32_t, int32_t> ParseProfileName(std::string_view name) {
  size_t g = name.find("g.");
  if (g == std::string_view::npos) return {0, 0};
  int32_t compute = 0;
  for (char c : name.substr(0, g)) {
    if (c < '0' || c > '9') return {0, 0};
    compute = compute * 10 + (c - '0');
  }
  int32_t memory = 0;
  for (char c : name.substr(g + 2)) {
    if (c < '0' || c > '9') break;
    memory = memory * 10 + (c - '0');
  }
  return {compute, memory};
}

int64_t CeilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

// The node's NVIDIA extended resources with a non-zero allocatable amount, by name.
std::map<std::string, int64_t, std::less<>> NvidiaAllocatable(
    const model::Node& node, const model::ResourceCatalog& catalog) {
  std::map<std::string, int64_t, std::less<>> out;
  const auto& amounts = node.allocatable.amounts();
  for (size_t i = 0; i < amounts.size() && i < catalog.size(); ++i) {
    if (amounts[i] <= 0) continue;
    const std::string& name = catalog.Name(model::ResourceId{static_cast<uint16_t>(i)});
    if (IsNvidiaGpuResource(name)) out.emplace(name, amounts[i]);
  }
  return out;
}

// Builds the inventory; one object per node read, so the helpers can share the parsed labels.
class Reader {
 public:
  Reader(const model::Node& node, const model::ResourceCatalog& catalog)
      : node_(node), labels_(node.meta.labels), alloc_(NvidiaAllocatable(node, catalog)) {}

  NodeGpuInventory Read() {
    inv_.node = node_.meta.name;
    inv_.cluster = node_.cluster;
    ReadProduct();
    ReadSharing();
    ReadStrategy();
    inv_.mig_config = Get(labels_, kLabelMigConfig);
    inv_.mig_config_state = Get(labels_, kLabelMigConfigState);
    memory_label_ = GetInt(labels_, kLabelGpuMemory);
    count_label_ = GetInt(labels_, kLabelGpuCount);
    inv_.geometry = MigGeometryForProduct(
        inv_.product, inv_.mig_strategy == MigStrategy::kSingle ? 0 : memory_label_.value_or(0));
    switch (inv_.mig_strategy) {
      case MigStrategy::kNone:
        ReadNone();
        break;
      case MigStrategy::kSingle:
        ReadSingle();
        break;
      case MigStrategy::kMixed:
        ReadMixed();
        break;
    }
    return std::move(inv_);
  }

 private:
  void ReadProduct() {
    std::string product = Get(labels_, kLabelGpuProduct);
    if (EndsWith(product, kSharedProductSuffix)) {
      product_shared_ = true;
      product.resize(product.size() - kSharedProductSuffix.size());
    }
    if (size_t mig = product.find(kMigProductInfix); mig != std::string::npos) {
      single_profile_ = product.substr(mig + kMigProductInfix.size());
      product.resize(mig);
    }
    inv_.product = product;
  }

  void ReadSharing() {
    GpuSharing& s = inv_.sharing;
    for (const auto& [name, amount] : alloc_) {
      if (EndsWith(name, kSharedSuffix)) s.renamed = true;
    }
    std::optional<int64_t> replicas = GetInt(labels_, kLabelGpuReplicas);
    std::string strategy = Get(labels_, kLabelSharingStrategy);
    // Before the sharing-strategy label existed, replicas meant time-slicing.
    const bool legacy_sharing =
        strategy.empty() && (replicas.value_or(1) > 1 || product_shared_ || s.renamed);
    if (strategy == "time-slicing" || legacy_sharing) {
      s.mode = SharingMode::kTimeSlicing;
    } else if (strategy == "mps") {
      s.mode = SharingMode::kMps;
    } else if (!strategy.empty() && strategy != "none") {
      Note("unknown " + std::string(kLabelSharingStrategy) + " \"" + strategy +
           "\"; read as no sharing");
    }
    if (s.mode != SharingMode::kNone) {
      s.replicas = static_cast<int32_t>(std::max<int64_t>(1, replicas.value_or(1)));
      if (!replicas.has_value()) replicas_guessed_ = true;
    }
    std::string fail = Get(labels_, kFailRequestsGreaterThanOneKey);
    if (fail.empty()) fail = Get(node_.meta.annotations, kFailRequestsGreaterThanOneKey);
    s.fail_requests_greater_than_one = IsTrue(fail);
  }

  void ReadStrategy() {
    std::string strategy = Get(labels_, kLabelMigStrategy);
    bool mig_counts = false;
    for (const auto& [name, amount] : alloc_) mig_counts |= StartsWith(name, kResourceMigPrefix);
    for (const auto& [key, value] : labels_) {
      mig_counts |= StartsWith(key, kLabelMigPrefix) && EndsWith(key, kCountSuffix);
    }
    if (strategy == "single") {
      inv_.mig_strategy = MigStrategy::kSingle;
    } else if (strategy == "mixed") {
      inv_.mig_strategy = MigStrategy::kMixed;
    } else if (strategy.empty() || strategy == "none") {
      // Without the label, the resources tell: nvidia.com/mig-* only exist under mixed,
      // and GFD names the product <product>-MIG-<profile> only under single.
      if (mig_counts) {
        inv_.mig_strategy = MigStrategy::kMixed;
      } else if (!single_profile_.empty()) {
        inv_.mig_strategy = MigStrategy::kSingle;
      }
    } else {
      Note("unknown " + std::string(kLabelMigStrategy) + " \"" + strategy + "\"; read as none");
    }
  }

  // Notes say the same thing once per node, however many GPUs it concerns.
  void Note(std::string text) {
    if (std::find(inv_.notes.begin(), inv_.notes.end(), text) == inv_.notes.end()) {
      inv_.notes.push_back(std::move(text));
    }
  }

  // The name the device plugin advertises `base` under: <base>.shared when renamed.
  std::string Advertised(std::string_view base) const {
    std::string shared = std::string(base) + std::string(kSharedSuffix);
    if (alloc_.count(shared) > 0) return shared;
    if (alloc_.count(base) > 0) return std::string(base);
    return inv_.sharing.renamed && inv_.sharing.mode != SharingMode::kNone ? shared
                                                                           : std::string(base);
  }

  int64_t Allocatable(std::string_view base) const {
    int64_t total = 0;
    for (const std::string& name : {std::string(base), std::string(base) + ".shared"}) {
      auto it = alloc_.find(name);
      if (it != alloc_.end()) total += it->second;
    }
    return total;
  }

  PhysicalGpu NewGpu(int64_t memory_mib) {
    PhysicalGpu g;
    g.index = static_cast<int32_t>(inv_.gpus.size());
    g.product = inv_.product;
    g.memory_mib = memory_mib;
    g.family = Get(labels_, kLabelGpuFamily);
    std::string major = Get(labels_, kLabelComputeMajor);
    std::string minor = Get(labels_, kLabelComputeMinor);
    if (!major.empty()) g.compute_capability = major + "." + (minor.empty() ? "0" : minor);
    g.clique = Get(labels_, kLabelGpuClique);
    return g;
  }

  void AddWholeGpu(int64_t memory_mib, const std::string& resource, int32_t replicas) {
    PhysicalGpu g = NewGpu(memory_mib);
    inv_.devices.push_back(GpuDevice{g.index, -1, resource, replicas});
    inv_.gpus.push_back(std::move(g));
  }

  // Devices advertised per replicated resource: allocatable / replicas, with a note when
  // the division leaves a rest (a replica count the labels do not explain).
  int64_t Devices(int64_t allocatable, int32_t replicas, std::string_view resource) {
    if (allocatable % replicas != 0) {
      Note("allocatable " + std::string(resource) + " " + std::to_string(allocatable) +
           " is not a multiple of " + std::to_string(replicas) + " replicas");
    }
    return CeilDiv(allocatable, replicas);
  }

  void ReadNone() {
    int32_t replicas = inv_.sharing.replicas;
    int64_t total = Allocatable(kResourceGpu);
    if (replicas_guessed_ && total > 0 && count_label_.value_or(0) > 0 &&
        total % *count_label_ == 0) {
      replicas = inv_.sharing.replicas = static_cast<int32_t>(total / *count_label_);
    }
    int64_t n = total > 0 ? Devices(total, replicas, kResourceGpu) : count_label_.value_or(0);
    if (total > 0 && count_label_.has_value() && *count_label_ != n) {
      Note(std::string(kLabelGpuCount) + " is " + std::to_string(*count_label_) +
           " but allocatable has " + std::to_string(n) + " GPUs; using allocatable");
    }
    std::string resource = Advertised(kResourceGpu);
    for (int64_t i = 0; i < n; ++i) AddWholeGpu(memory_label_.value_or(0), resource, replicas);
  }

  // The instances of `counts` on one GPU: placed by the geometry when there is one, else
  // listed unplaced (start -1) in the order given.
  std::vector<GpuMigInstance> Layout(const std::vector<std::pair<std::string, int32_t>>& counts) {
    std::vector<GpuMigInstance> out;
    if (inv_.geometry != nullptr) {
      auto layout = MigLayoutFromCounts(*inv_.geometry, counts);
      if (layout.has_value()) {
        for (const MigInstance& m : layout.value()) {
          const MigProfile* p = inv_.geometry->FindProfile(m.profile);
          out.push_back(
              GpuMigInstance{m.profile, m.start, m.size, p->compute_slices, p->memory_gb});
        }
        return out;
      }
      Note(layout.error().message());
    }
    for (const auto& [profile, count] : counts) {
      auto [compute, memory] = ParseProfileName(profile);
      for (int32_t i = 0; i < count; ++i) {
        out.push_back(GpuMigInstance{profile, -1, 0, compute, memory});
      }
    }
    return out;
  }

  void AddMigGpu(int64_t memory_mib, std::vector<GpuMigInstance> instances,
                 const std::map<std::string, std::pair<std::string, int32_t>>& advertised) {
    PhysicalGpu g = NewGpu(memory_mib);
    g.mig_enabled = true;
    g.mig = std::move(instances);
    for (size_t i = 0; i < g.mig.size(); ++i) {
      const auto& [resource, replicas] = advertised.at(g.mig[i].profile);
      inv_.devices.push_back(GpuDevice{g.index, static_cast<int32_t>(i), resource, replicas});
    }
    inv_.gpus.push_back(std::move(g));
  }

  int64_t GeometryMemoryMib() const {
    return inv_.geometry == nullptr ? 0 : int64_t{inv_.geometry->memory_gb} * 1024;
  }

  void ReadSingle() {
    std::string profile = single_profile_;
    if (profile.empty() && StartsWith(inv_.mig_config, kMigConfigAllPrefix) &&
        inv_.geometry != nullptr) {
      std::string configured = inv_.mig_config.substr(kMigConfigAllPrefix.size());
      if (inv_.geometry->FindProfile(configured) != nullptr) profile = configured;
    }
    if (profile.empty()) {
      // GPU operators set the single strategy cluster-wide; a node whose GPUs have MIG
      // disabled (mig.config all-disabled, a product name without -MIG-) advertises them
      // whole as nvidia.com/gpu.
      ReadNone();
      return;
    }
    // Under single every GPU carries the same instances; mig-parted's all-<profile>
    // configurations fill each GPU, so a GPU holds the profile's maximum count.
    int32_t per_gpu = 1;
    const MigProfile* p = inv_.geometry ? inv_.geometry->FindProfile(profile) : nullptr;
    if (p != nullptr) {
      per_gpu = p->max_instances;
    } else {
      Note("no MIG table for " + inv_.product + " " + profile + "; one MIG device per GPU row");
    }
    int32_t replicas = inv_.sharing.replicas;
    int64_t total = Allocatable(kResourceGpu);
    int64_t mig_devices =
        total > 0 ? Devices(total, replicas, kResourceGpu) : count_label_.value_or(0);
    std::string resource = Advertised(kResourceGpu);
    std::map<std::string, std::pair<std::string, int32_t>> advertised{
        {profile, {resource, replicas}}};
    for (int64_t placed = 0; placed < mig_devices; placed += per_gpu) {
      auto k = static_cast<int32_t>(std::min<int64_t>(per_gpu, mig_devices - placed));
      AddMigGpu(GeometryMemoryMib(), Layout({{profile, k}}), advertised);
    }
  }

  void ReadMixed() {
    // Instances per profile: allocatable first (what pods consume), the GFD counts else.
    std::map<std::string, int64_t> totals;
    std::map<std::string, std::pair<std::string, int32_t>> advertised;
    auto replicas_of = [&](const std::string& profile) {
      std::optional<int64_t> r =
          GetInt(labels_, std::string(kLabelMigPrefix) + profile + std::string(kReplicasSuffix));
      if (inv_.sharing.mode == SharingMode::kNone) return 1;
      return static_cast<int32_t>(std::max<int64_t>(1, r.value_or(inv_.sharing.replicas)));
    };
    for (const auto& [name, amount] : alloc_) {
      if (!StartsWith(name, kResourceMigPrefix)) continue;
      std::string profile = name.substr(kResourceMigPrefix.size());
      if (EndsWith(profile, kSharedSuffix)) profile.resize(profile.size() - kSharedSuffix.size());
      totals[profile] += amount;
    }
    for (auto& [profile, total] : totals) {
      int32_t r = replicas_of(profile);
      std::string base = std::string(kResourceMigPrefix) + profile;
      total = Devices(total, r, base);
      advertised[profile] = {Advertised(base), r};
    }
    for (const auto& [key, value] : labels_) {
      if (!StartsWith(key, kLabelMigPrefix) || !EndsWith(key, kCountSuffix)) continue;
      std::string profile = key.substr(kLabelMigPrefix.size(),
                                       key.size() - kLabelMigPrefix.size() - kCountSuffix.size());
      std::optional<int64_t> count = GetInt(labels_, key);
      if (!count.has_value() || *count == 0) continue;
      auto it = totals.find(profile);
      if (it == totals.end()) {
        if (!alloc_.empty()) {
          Note(key + " is " + std::to_string(*count) + " but the node advertises no " +
               std::string(kResourceMigPrefix) + profile + "; using the label");
        }
        totals[profile] = *count;
        std::string base = std::string(kResourceMigPrefix) + profile;
        advertised[profile] = {Advertised(base), replicas_of(profile)};
      } else if (it->second != *count) {
        Note(key + " is " + std::to_string(*count) + " but allocatable has " +
             std::to_string(it->second) + "; using allocatable");
      }
    }
    int32_t replicas = inv_.sharing.replicas;
    int64_t whole = Allocatable(kResourceGpu);
    int64_t non_mig = whole > 0 ? Devices(whole, replicas, kResourceGpu) : 0;
    std::optional<int64_t> mig_gpus;
    if (count_label_.has_value()) mig_gpus = std::max<int64_t>(0, *count_label_ - non_mig);

    std::vector<std::vector<std::pair<std::string, int32_t>>> per_gpu =
        Distribute(totals, mig_gpus);
    for (const auto& counts : per_gpu) {
      AddMigGpu(memory_label_.value_or(GeometryMemoryMib()), Layout(counts), advertised);
    }
    std::string resource = Advertised(kResourceGpu);
    for (int64_t i = 0; i < non_mig; ++i)
      AddWholeGpu(memory_label_.value_or(0), resource, replicas);
    if (count_label_.has_value() && *count_label_ != static_cast<int64_t>(inv_.gpus.size())) {
      Note(std::string(kLabelGpuCount) + " is " + std::to_string(*count_label_) +
           " but the advertised devices need " + std::to_string(inv_.gpus.size()) + " GPUs");
    }
  }

  // Whether `counts` fit on one GPU of this node.
  bool FitsOneGpu(const std::vector<std::pair<std::string, int32_t>>& counts) const {
    if (inv_.geometry != nullptr) return MigLayoutFromCounts(*inv_.geometry, counts).has_value();
    int32_t compute = 0;
    for (const auto& [profile, count] : counts) compute += ParseProfileName(profile).first * count;
    return compute <= kDefaultComputeSlices;
  }

  // Splits the node's MIG instances over its MIG-enabled GPUs (`mig_gpus`, unknown without
  // gpu.count). mig-parted applies one layout to every GPU its configurations select, so an
  // even split that fits is taken first; otherwise the instances go first-fit, largest
  // first, over as few GPUs as hold them.
  std::vector<std::vector<std::pair<std::string, int32_t>>> Distribute(
      const std::map<std::string, int64_t>& totals, std::optional<int64_t> mig_gpus) {
    std::vector<std::vector<std::pair<std::string, int32_t>>> out;
    if (totals.empty()) {
      out.resize(static_cast<size_t>(mig_gpus.value_or(0)));
      return out;
    }
    if (mig_gpus.value_or(0) > 0) {
      std::vector<std::pair<std::string, int32_t>> share;
      bool even = true;
      for (const auto& [profile, total] : totals) {
        even = even && total % *mig_gpus == 0;
        share.emplace_back(profile, static_cast<int32_t>(total / *mig_gpus));
      }
      if (even && FitsOneGpu(share)) {
        out.assign(static_cast<size_t>(*mig_gpus), share);
        return out;
      }
    }
    struct Item {
      std::string profile;
      int32_t compute;
      int32_t memory;
    };
    std::vector<Item> items;
    for (const auto& [profile, total] : totals) {
      const MigProfile* p = inv_.geometry ? inv_.geometry->FindProfile(profile) : nullptr;
      auto [compute, memory] = ParseProfileName(profile);
      int32_t slices = p != nullptr ? p->memory_slices : memory;
      for (int64_t i = 0; i < total; ++i) items.push_back(Item{profile, compute, slices});
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return std::tie(b.memory, b.compute) < std::tie(a.memory, a.compute);
    });
    int64_t dropped = 0;
    for (const Item& item : items) {
      bool placed = false;
      for (auto& counts : out) {
        auto it = std::find_if(counts.begin(), counts.end(),
                               [&](const auto& c) { return c.first == item.profile; });
        if (it == counts.end()) {
          counts.emplace_back(item.profile, 1);
          it = counts.end() - 1;
        } else {
          ++it->second;
        }
        if (FitsOneGpu(counts)) {
          placed = true;
          break;
        }
        if (--it->second == 0) counts.erase(it);
      }
      if (placed) continue;
      if (!mig_gpus.has_value() || static_cast<int64_t>(out.size()) < *mig_gpus) {
        out.push_back({{item.profile, 1}});
      } else {
        ++dropped;
      }
    }
    if (dropped > 0) {
      Note(std::to_string(dropped) + " MIG instances do not fit on " + std::to_string(out.size()) +
           " MIG-enabled GPUs; left out");
    }
    while (mig_gpus.has_value() && static_cast<int64_t>(out.size()) < *mig_gpus) out.emplace_back();
    return out;
  }

  const model::Node& node_;
  const core::Labels& labels_;
  const std::map<std::string, int64_t, std::less<>> alloc_;
  NodeGpuInventory inv_;
  bool product_shared_ = false;
  bool replicas_guessed_ = false;
  std::string single_profile_;
  std::optional<int64_t> memory_label_;
  std::optional<int64_t> count_label_;
};

}  // namespace

std::string_view MigStrategyName(MigStrategy s) {
  switch (s) {
    case MigStrategy::kNone:
      return "none";
    case MigStrategy::kSingle:
      return "single";
    case MigStrategy::kMixed:
      return "mixed";
  }
  return "none";
}

std::string_view SharingModeName(SharingMode m) {
  switch (m) {
    case SharingMode::kNone:
      return "none";
    case SharingMode::kTimeSlicing:
      return "time-slicing";
    case SharingMode::kMps:
      return "mps";
  }
  return "none";
}

bool IsNvidiaGpuResource(std::string_view name) {
  if (name == kResourceGpu) return true;
  if (name.size() == kResourceGpu.size() + kSharedSuffix.size() && StartsWith(name, kResourceGpu) &&
      EndsWith(name, kSharedSuffix)) {
    return true;
  }
  return StartsWith(name, kResourceMigPrefix) && name.size() > kResourceMigPrefix.size();
}

bool NodeGpuInventory::FractionShareable() const {
  return std::any_of(devices.begin(), devices.end(), [](const GpuDevice& d) {
    return d.mig_instance < 0 && d.resource == kResourceGpu && d.replicas == 1;
  });
}

NodeGpuInventory ReadNodeGpus(const model::Node& node, const model::ResourceCatalog& catalog) {
  return Reader(node, catalog).Read();
}

}  // namespace berth::gpu
