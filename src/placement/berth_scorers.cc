// All four normalise with the same min-max rule as upstream's ResourceAllocatable (truncate
// toward zero, 100 each when every value is equal), so their scores sit on upstream's scale
// and weights mean the same thing for every prioritizer. The values are real quantities
// (GPUs, prices, milliseconds, bytes), never a fixed range: only the fleet's own spread
// matters. Every per-placement input (annotations) is parsed once per Score call; per
// cluster, lookups scan the few claims and walk FleetCapacity in name order.
#include "placement/berth_scorers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/quantity.h"

namespace berth::placement {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The non-empty items of a comma list, trimmed.
std::vector<std::string_view> SplitList(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view item = Trim(text.substr(0, comma));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

// A non-negative finite decimal ("1.85", "12"); nullopt otherwise.
std::optional<double> ParseDecimal(std::string_view text) {
  text = Trim(text);
  double v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v, std::chars_format::fixed);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0) {
    return std::nullopt;
  }
  return v;
}

const std::string* FindLabel(const model::ManagedCluster& cluster, std::string_view key) {
  auto it = cluster.meta.labels.find(key);
  return it == cluster.meta.labels.end() ? nullptr : &it->second;
}

const std::string* ClaimOrLabel(const model::ManagedCluster& cluster, std::string_view key) {
  const std::string* v = cluster.FindClaim(key);
  return v != nullptr ? v : FindLabel(cluster, key);
}

const std::string* FindAnnotation(const model::Placement& placement, std::string_view key) {
  auto it = placement.meta.annotations.find(key);
  return it == placement.meta.annotations.end() ? nullptr : &it->second;
}

// Min-max over the clusters with a value: trunc(((v − min)/(max − min) − 0.5) × 200), or
// with (max − v) when lower is better; 100 each when max == min.
std::vector<std::optional<int64_t>> MinMax(const std::vector<std::optional<double>>& values,
                                           bool higher_is_better) {
  std::optional<double> min;
  std::optional<double> max;
  for (const std::optional<double>& v : values) {
    if (!v) continue;
    min = min ? std::min(*min, *v) : *v;
    max = max ? std::max(*max, *v) : *v;
  }
  std::vector<std::optional<int64_t>> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    if (*max == *min) {
      out[i] = kMaxClusterScore;
      continue;
    }
    double ratio = higher_is_better ? (*values[i] - *min) / (*max - *min)
                                    : (*max - *values[i]) / (*max - *min);
    out[i] = static_cast<int64_t>((ratio - 0.5) * 200.0);
  }
  return out;
}

// FleetCapacity lookups for clusters that usually arrive in name order (SchedulePlacement
// passes them sorted): a few steps forward from the last hit instead of a tree search
// from the root; any order still works.
class CapacityCursor {
 public:
  explicit CapacityCursor(const FleetCapacity* capacity) : capacity_(capacity) {
    if (capacity_ != nullptr) it_ = capacity_->begin();
  }
  const ClusterCapacity* Find(const std::string& name) {
    if (capacity_ == nullptr) return nullptr;
    for (int steps = 0; steps < 4 && it_ != capacity_->end() && it_->first < name; ++steps) ++it_;
    if (it_ == capacity_->end() || it_->first < name ||
        (it_ != capacity_->begin() && std::prev(it_)->first >= name)) {
      it_ = capacity_->lower_bound(name);
    }
    if (it_ == capacity_->end() || it_->first != name) return nullptr;
    return &it_->second;
  }

 private:
  const FleetCapacity* capacity_;
  FleetCapacity::const_iterator it_;
};

// ---- ResourceAllocatableGPU ----

constexpr const char* kGpuResource = "nvidia.com/gpu";

class ResourceAllocatableGpuScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    const std::string* product = FindAnnotation(context.placement, kGpuProductAnnotation);
    CapacityCursor cursor(context.capacity);
    std::vector<std::optional<double>> values(clusters.size());
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      if (const ClusterCapacity* cap = cursor.Find(c.meta.name)) {
        if (product == nullptr) {
          values[i] = static_cast<double>(cap->free_gpus);
        } else {
          auto it = cap->free_gpus_by_product.find(*product);
          values[i] = it == cap->free_gpus_by_product.end() ? 0.0 : static_cast<double>(it->second);
        }
        continue;
      }
      // status.allocatable cannot tell products apart: with a product asked for, a cluster
      // known only by its status has no data.
      if (product != nullptr) continue;
      auto alloc = c.allocatable.find(kGpuResource);
      if (alloc != c.allocatable.end()) {
        values[i] = static_cast<double>(alloc->second.milli()) / 1000.0;
      }
    }
    ScoreOutput out;
    out.scores = MinMax(values, /*higher_is_better=*/true);
    return out;
  }

 private:
  std::string name_ = kResourceAllocatableGpuScorer;
};

// ---- Cost ----

// Relative prices of the cost classes (on-demand = 1).
std::optional<double> CostClassPrice(std::string_view cost_class) {
  if (cost_class == "spot") return 0.3;
  if (cost_class == "reserved") return 0.6;
  if (cost_class == "on-demand") return 1.0;
  if (cost_class == "premium") return 1.5;
  return std::nullopt;
}

class CostScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& /*context*/,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    std::vector<std::optional<double>> values(clusters.size());
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      if (const std::string* price = ClaimOrLabel(c, kGpuHourPriceKey)) {
        values[i] = ParseDecimal(*price);
        if (!values[i]) {
          out.warnings.push_back("Cost: cluster " + c.meta.name + ": " + kGpuHourPriceKey + " \"" +
                                 *price + "\" is not a decimal price");
        }
        continue;
      }
      if (const std::string* cost_class = ClaimOrLabel(c, kCostClassKey)) {
        values[i] = CostClassPrice(*cost_class);
        if (!values[i]) {
          out.warnings.push_back("Cost: cluster " + c.meta.name + ": " + kCostClassKey + " \"" +
                                 *cost_class +
                                 "\" is not one of spot, reserved, on-demand, premium");
        }
      }
    }
    out.scores = MinMax(values, /*higher_is_better=*/false);
    return out;
  }

 private:
  std::string name_ = kCostScorer;
};

// ---- Latency ----

class LatencyScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    out.scores.resize(clusters.size());
    const std::string* annotation = FindAnnotation(context.placement, kUserLocationsAnnotation);
    if (annotation == nullptr) return out;
    std::vector<std::string_view> locations = SplitList(*annotation);
    if (locations.empty()) return out;
    std::vector<std::optional<double>> values(clusters.size());
    std::vector<std::optional<double>> ms(locations.size());
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      std::fill(ms.begin(), ms.end(), std::nullopt);
      if (const std::string* table = c.FindClaim(kLatencyClaim)) {
        if (!ReadTable(*table, locations, &ms)) {
          out.warnings.push_back("Latency: cluster " + c.meta.name + ": claim " + kLatencyClaim +
                                 " \"" + *table + "\" is not a list of location=milliseconds");
          continue;
        }
      }
      const std::string* region = ClaimOrLabel(c, kRegionKey);
      if (region == nullptr) region = FindLabel(c, kTopologyRegionLabel);
      double sum = 0;
      bool known = true;
      for (size_t l = 0; l < locations.size() && known; ++l) {
        if (!ms[l] && region != nullptr && *region == locations[l]) ms[l] = 0.0;
        known = ms[l].has_value();
        if (known) sum += *ms[l];
      }
      if (known) values[i] = sum / static_cast<double>(locations.size());
    }
    out.scores = MinMax(values, /*higher_is_better=*/false);
    return out;
  }

 private:
  // Fills ms[l] for each location the table lists; false when an item is malformed.
  static bool ReadTable(std::string_view table, const std::vector<std::string_view>& locations,
                        std::vector<std::optional<double>>* ms) {
    for (std::string_view item : SplitList(table)) {
      size_t eq = item.find('=');
      if (eq == std::string_view::npos) return false;
      std::string_view location = Trim(item.substr(0, eq));
      std::optional<double> value = ParseDecimal(item.substr(eq + 1));
      if (location.empty() || !value) return false;
      for (size_t l = 0; l < locations.size(); ++l) {
        if (locations[l] == location) (*ms)[l] = value;
      }
    }
    return true;
  }

  std::string name_ = kLatencyScorer;
};

// ---- DataLocality ----

struct Artifact {
  std::string claim_name;     // as the cache claims list it: "llama-3-70b", "team-a/corpus"
  std::string capacity_name;  // as FleetCapacity lists it: "model/...", "dataset/<ns>/<name>"
  bool is_model = true;
  double bytes = 1;
};

// "name[=size],..." into artifacts; a bad size is a warning and the artifact is skipped.
void ReadArtifacts(std::string_view text, bool models, const std::string& ns,
                   std::vector<Artifact>* out, std::vector<std::string>* warnings) {
  for (std::string_view item : SplitList(text)) {
    size_t eq = item.find('=');
    Artifact a;
    a.is_model = models;
    std::string_view name = Trim(item.substr(0, eq));
    if (eq != std::string_view::npos) {
      std::string_view size = Trim(item.substr(eq + 1));
      core::Result<core::Quantity> q = core::Quantity::Parse(size);
      if (!q.has_value() || q->milli() <= 0 || name.empty()) {
        warnings->push_back(std::string("DataLocality: ") +
                            (models ? kModelsAnnotation : kDatasetsAnnotation) + " item \"" +
                            std::string(item) + "\" needs a name and a positive size");
        continue;
      }
      a.bytes = static_cast<double>(q->milli()) / 1000.0;
    }
    if (models) {
      a.claim_name = std::string(name);
      a.capacity_name = "model/" + a.claim_name;
    } else {
      // A dataset without a namespace is in the placement's.
      a.claim_name = name.find('/') == std::string_view::npos ? ns + "/" + std::string(name)
                                                              : std::string(name);
      a.capacity_name = "dataset/" + a.claim_name;
    }
    out->push_back(std::move(a));
  }
}

bool ListContains(const std::string* list, std::string_view name) {
  if (list == nullptr) return false;
  for (std::string_view item : SplitList(*list)) {
    if (item == name) return true;
  }
  return false;
}

class DataLocalityScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    out.scores.resize(clusters.size());
    std::vector<Artifact> artifacts;
    const std::string& ns = context.placement.meta.namespace_;
    if (const std::string* m = FindAnnotation(context.placement, kModelsAnnotation)) {
      ReadArtifacts(*m, true, ns, &artifacts, &out.warnings);
    }
    if (const std::string* d = FindAnnotation(context.placement, kDatasetsAnnotation)) {
      ReadArtifacts(*d, false, ns, &artifacts, &out.warnings);
    }
    if (artifacts.empty()) return out;
    double total = 0;
    for (const Artifact& a : artifacts) total += a.bytes;
    CapacityCursor cursor(context.capacity);
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      const ClusterCapacity* cap = cursor.Find(c.meta.name);
      const std::string* models = c.FindClaim(kModelsCacheClaim);
      const std::string* datasets = c.FindClaim(kDatasetsCacheClaim);
      if (cap == nullptr && models == nullptr && datasets == nullptr) continue;
      double cached = 0;
      for (const Artifact& a : artifacts) {
        bool held = ListContains(a.is_model ? models : datasets, a.claim_name) ||
                    (cap != nullptr && cap->cached_artifacts.contains(a.capacity_name));
        if (held) cached += a.bytes;
      }
      out.scores[i] = static_cast<int64_t>(200.0 * cached / total - 100.0);
    }
    return out;
  }

 private:
  std::string name_ = kDataLocalityScorer;
};

}  // namespace

std::unique_ptr<ClusterScorer> MakeResourceAllocatableGpuScorer() {
  return std::make_unique<ResourceAllocatableGpuScorer>();
}

std::unique_ptr<ClusterScorer> MakeCostScorer() { return std::make_unique<CostScorer>(); }

std::unique_ptr<ClusterScorer> MakeLatencyScorer() { return std::make_unique<LatencyScorer>(); }

std::unique_ptr<ClusterScorer> MakeDataLocalityScorer() {
  return std::make_unique<DataLocalityScorer>();
}

}  // namespace berth::placement
