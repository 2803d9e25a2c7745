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
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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

// Whether a comma list holds `name`, without allocating.
bool ListContains(const std::string* list, std::string_view name) {
  if (list == nullptr) return false;
  std::string_view text = *list;
  while (true) {
    const size_t comma = text.find(',');
    if (Trim(text.substr(0, comma)) == name) return true;
    if (comma == std::string_view::npos) return false;
    text.remove_prefix(comma + 1);
  }
}

// The fraction of `a` a cluster caches: 1 when a cache claim or FleetCapacity lists it, else
// its Fluid cache's fraction there, else 0.
double CachedFraction(const PlacementArtifact& a, const model::ManagedCluster& c,
                      const ClusterCapacity* cap, const std::string* models,
                      const std::string* datasets) {
  if (ListContains(a.is_model ? models : datasets, a.name) ||
      (cap != nullptr && cap->cached_artifacts.contains(a.capacity_name))) {
    return 1.0;
  }
  for (const auto& [cluster, fraction] : a.cluster_cached_fraction) {
    if (cluster == c.meta.name) return fraction;
  }
  return 0.0;
}

std::string Seconds(double s) {
  char buf[48];
  if (s >= 0.05) {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  } else {
    std::snprintf(buf, sizeof buf, "%.3g s", s);
  }
  return buf;
}

std::string Bytes(const PlacementArtifact& a) {
  if (!a.size_known) return "size unknown, 1 byte counted";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f GB", static_cast<double>(a.size_bytes) / 1e9);
  return buf;
}

// Old rule, kept for callers without a load-time model: share of the bytes cached.
void ScoreShareOfBytes(const ScoreContext& context, const PlacementArtifacts& artifacts,
                       const std::vector<const model::ManagedCluster*>& clusters,
                       ScoreOutput* out) {
  double total = 0;
  for (const PlacementArtifact& a : artifacts.artifacts) total += static_cast<double>(a.size_bytes);
  CapacityCursor cursor(context.capacity);
  for (size_t i = 0; i < clusters.size(); ++i) {
    const model::ManagedCluster& c = *clusters[i];
    const ClusterCapacity* cap = cursor.Find(c.meta.name);
    const std::string* models = c.FindClaim(kModelsCacheClaim);
    const std::string* datasets = c.FindClaim(kDatasetsCacheClaim);
    if (cap == nullptr && models == nullptr && datasets == nullptr) continue;
    double cached = 0;
    for (const PlacementArtifact& a : artifacts.artifacts) {
      if (CachedFraction(a, c, cap, models, datasets) >= 1.0) {
        cached += static_cast<double>(a.size_bytes);
      }
    }
    out->scores[i] = static_cast<int64_t>(200.0 * cached / total - 100.0);
  }
}

// Load time per cluster. Per Placement: the artifacts are resolved once, and each distinct
// (artifact, cluster region, cached fraction) is estimated once by the model; per cluster:
// a region lookup (one hash of a string view), the cache claims scanned in place and a
// table read per artifact. Clusters with the same estimates per artifact share a note.
class LoadTimeScoring {
 public:
  LoadTimeScoring(const ScoreContext& context, const PlacementArtifacts& artifacts,
                  ScoreOutput* out)
      : context_(context), artifacts_(artifacts.artifacts), out_(out) {
    for (const PlacementArtifact& a : artifacts_) any_origin_region_ |= !a.origin_region.empty();
  }

  void Run(const std::vector<const model::ManagedCluster*>& clusters) {
    std::vector<std::optional<double>> values(clusters.size());
    out_->note_of.assign(clusters.size(), -1);
    CapacityCursor cursor(context_.capacity);
    const size_t n = artifacts_.size();
    std::vector<double> fractions(n);
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      const ClusterCapacity* cap = cursor.Find(c.meta.name);
      const std::string* models = c.FindClaim(kModelsCacheClaim);
      const std::string* datasets = c.FindClaim(kDatasetsCacheClaim);
      const std::string* region = ClusterRegion(c);
      bool known = cap != nullptr || models != nullptr || datasets != nullptr ||
                   (region != nullptr && !region->empty() && any_origin_region_);
      for (size_t a = 0; a < n; ++a) {
        fractions[a] = CachedFraction(artifacts_[a], c, cap, models, datasets);
        known = known || fractions[a] > 0;
      }
      if (!known) continue;
      const int32_t r = RegionIndex(region);
      double total = 0;
      key_.clear();
      key_.push_back(static_cast<uint64_t>(r));
      bool estimated = true;
      for (size_t a = 0; a < n && estimated; ++a) {
        const std::optional<LoadTimeEstimate>& e = Estimate(a, r, fractions[a]);
        estimated = e.has_value();
        if (estimated) total += e->seconds;
        uint64_t bits = 0;
        std::memcpy(&bits, &fractions[a], sizeof bits);
        key_.push_back(bits);
      }
      if (!estimated) continue;
      values[i] = total;
      out_->note_of[i] = NoteFor(r, fractions, total);
    }
    out_->scores = MinMax(values, /*higher_is_better=*/false);
  }

 private:
  static constexpr int32_t kUnknownRegion = 0;

  int32_t RegionIndex(const std::string* region) {
    if (region == nullptr || region->empty()) return kUnknownRegion;
    auto it = region_index_.find(std::string_view(*region));
    if (it != region_index_.end()) return it->second;
    regions_.push_back(*region);
    const auto index = static_cast<int32_t>(regions_.size());
    region_index_.emplace(std::string_view(*region), index);  // views the cluster's string
    return index;
  }

  std::string_view RegionName(int32_t r) const {
    return r == kUnknownRegion ? std::string_view() : regions_[static_cast<size_t>(r) - 1];
  }

  // Memoized per (artifact, region) for the two common fractions, 0 and 1; a Fluid
  // fraction in between asks the model each time (a few clusters).
  const std::optional<LoadTimeEstimate>& Estimate(size_t a, int32_t r, double fraction) {
    const bool whole = fraction >= 1.0;
    const bool common = whole || fraction <= 0.0;
    const size_t slot = (static_cast<size_t>(r) * artifacts_.size() + a) * 2 + (whole ? 1 : 0);
    if (common && slot < memo_.size() && memo_[slot].first) return memo_[slot].second;
    const PlacementArtifact& art = artifacts_[a];
    LoadQuery q;
    q.is_model = art.is_model;
    q.size_bytes = art.size_bytes;
    q.origin_region = art.origin_region;
    q.cluster_region = RegionName(r);
    q.cluster_cached_fraction = std::clamp(fraction, 0.0, 1.0);
    std::optional<LoadTimeEstimate> e = context_.load_time->Estimate(q);
    if (!common) {
      scratch_ = e;
      return scratch_;
    }
    if (slot >= memo_.size()) memo_.resize(slot + 1);
    memo_[slot] = {true, e};
    return memo_[slot].second;
  }

  // "load 126.3 s: llama-3-70b (150.3 GB) from the cluster cache"; with several artifacts
  // each gets its time.
  int32_t NoteFor(int32_t r, const std::vector<double>& fractions, double total) {
    auto it = note_index_.find(key_);
    if (it != note_index_.end()) return it->second;
    std::string text = "load " + Seconds(total) + ":";
    for (size_t a = 0; a < artifacts_.size(); ++a) {
      const PlacementArtifact& art = artifacts_[a];
      const LoadTimeEstimate e = *Estimate(a, r, fractions[a]);
      text += a == 0 ? " " : "; ";
      text += art.name + " (" + Bytes(art) + ") ";
      if (artifacts_.size() > 1) text += Seconds(e.seconds) + " ";
      text += "from ";
      switch (e.path) {
        case LoadPath::kClusterCache:
          if (fractions[a] >= 1.0) {
            text += "the cluster cache";
          } else {
            text += "the cluster cache (" + std::to_string(std::lround(fractions[a] * 100)) +
                    "% cached, the rest from the origin)";
          }
          break;
        case LoadPath::kOriginSameRegion:
          text += "the origin in " + std::string(RegionName(r));
          break;
        case LoadPath::kOriginCrossRegion:
          text += "the origin";
          if (art.origin_region.empty()) {
            text += " (region unknown: counted across regions)";
          } else if (r == kUnknownRegion) {
            text +=
                " in " + art.origin_region + " (cluster region unknown: counted across regions)";
          } else {
            text += " in " + art.origin_region + ", across regions";
          }
          break;
      }
    }
    const auto index = static_cast<int32_t>(out_->notes.size());
    out_->notes.push_back(std::move(text));
    note_index_.emplace(key_, index);
    return index;
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  const ScoreContext& context_;
  const std::vector<PlacementArtifact>& artifacts_;
  ScoreOutput* out_;
  bool any_origin_region_ = false;
  std::vector<std::string> regions_;  // index r − 1
  std::unordered_map<std::string_view, int32_t, Hash, std::equal_to<>> region_index_;
  std::vector<std::pair<bool, std::optional<LoadTimeEstimate>>> memo_;
  std::optional<LoadTimeEstimate> scratch_;
  std::vector<uint64_t> key_;  // region, then each artifact's fraction bits
  std::map<std::vector<uint64_t>, int32_t> note_index_;
};

class DataLocalityScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    out.scores.resize(clusters.size());
    std::optional<PlacementArtifacts> own;
    const PlacementArtifacts* artifacts = context.artifacts;
    if (artifacts == nullptr) {
      own = ResolveArtifacts(context.snapshot, context.placement);
      artifacts = &*own;
      out.warnings = own->warnings;
    }
    if (artifacts->artifacts.empty()) return out;
    if (context.load_time == nullptr) {
      ScoreShareOfBytes(context, *artifacts, clusters, &out);
    } else {
      LoadTimeScoring(context, *artifacts, &out).Run(clusters);
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
