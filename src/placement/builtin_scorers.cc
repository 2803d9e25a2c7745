// The arithmetic follows upstream exactly, including its truncations toward zero (Go's
// int64(float) conversion): Balance truncates before doubling, Resource truncates the
// scaled ratio. Both matter for ties, which are then broken by name.
#include "placement/builtin_scorers.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "placement/addon_score_index.h"

namespace berth::placement {

namespace {

bool IsOwnDecision(const model::PlacementDecision& pd, const model::Placement& placement) {
  if (pd.meta.namespace_ != placement.meta.namespace_) return false;
  auto it = pd.meta.labels.find(model::kPlacementLabel);
  return it != pd.meta.labels.end() && it->second == placement.meta.name;
}

class BalanceScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    std::unordered_map<std::string_view, int64_t> counts;
    int64_t max_count = 0;
    for (const model::PlacementDecision& pd : context.snapshot.placement_decisions) {
      if (IsOwnDecision(pd, context.placement)) continue;
      for (const model::ClusterDecision& d : pd.decisions) {
        max_count = std::max(max_count, ++counts[d.cluster_name]);
      }
    }
    ScoreOutput out;
    out.scores.reserve(clusters.size());
    for (const model::ManagedCluster* c : clusters) {
      auto it = counts.find(c->meta.name);
      if (it == counts.end()) {
        out.scores.emplace_back(kMaxClusterScore);
        continue;
      }
      double ratio = static_cast<double>(it->second) / static_cast<double>(max_count);
      // int64(100 * (0.5 - ratio)) truncates toward zero, then doubles.
      auto half = static_cast<int64_t>(100.0 * (0.5 - ratio));
      out.scores.emplace_back(2 * half);
    }
    return out;
  }

 private:
  std::string name_ = "Balance";
};

class SteadyScorer final : public ClusterScorer {
 public:
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    ScoreOutput out;
    out.scores.reserve(clusters.size());
    for (const model::ManagedCluster* c : clusters) {
      bool existing = std::binary_search(context.existing_decisions.begin(),
                                         context.existing_decisions.end(), c->meta.name);
      out.scores.emplace_back(existing ? kMaxClusterScore : 0);
    }
    return out;
  }

 private:
  std::string name_ = "Steady";
};

class ResourceAllocatableScorer final : public ClusterScorer {
 public:
  ResourceAllocatableScorer(std::string name, std::string resource)
      : name_(std::move(name)), resource_(std::move(resource)) {}
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& /*context*/,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    // Quantity.AsApproximateFloat64 of allocatable; capacity only has to be present.
    std::vector<std::optional<double>> values(clusters.size());
    double min = 0;
    double max = 0;
    bool any = false;
    for (size_t i = 0; i < clusters.size(); ++i) {
      const model::ManagedCluster& c = *clusters[i];
      auto alloc = c.allocatable.find(resource_);
      if (alloc == c.allocatable.end() || !c.capacity.contains(resource_)) continue;
      double v = static_cast<double>(alloc->second.milli()) / 1000.0;
      values[i] = v;
      min = any ? std::min(min, v) : v;
      max = any ? std::max(max, v) : v;
      any = true;
    }
    ScoreOutput out;
    out.scores.resize(clusters.size());
    for (size_t i = 0; i < clusters.size(); ++i) {
      if (!values[i].has_value()) continue;
      if (max == min) {
        out.scores[i] = kMaxClusterScore;
      } else {
        out.scores[i] = static_cast<int64_t>(((*values[i] - min) / (max - min) - 0.5) * 200.0);
      }
    }
    return out;
  }

 private:
  std::string name_;
  std::string resource_;
};

class AddOnScorer final : public ClusterScorer {
 public:
  AddOnScorer(std::string resource_name, std::string score_name)
      : name_("AddOn/" + resource_name + "/" + score_name),
        resource_name_(std::move(resource_name)),
        score_name_(std::move(score_name)) {}
  const std::string& Name() const override { return name_; }
  ScoreOutput Score(const ScoreContext& context,
                    const std::vector<const model::ManagedCluster*>& clusters) const override {
    // The score objects by (namespace = cluster name, name): the caller's index, else one
    // built here for this call.
    std::optional<AddOnScoreIndex> own;
    const AddOnScoreIndex* index = context.addon_scores;
    if (index == nullptr) index = &own.emplace(context.snapshot.addon_placement_scores);
    ScoreOutput out;
    out.scores.reserve(clusters.size());
    std::string expired;  // upstream's one Warning lists every expired object
    for (const model::ManagedCluster* c : clusters) {
      const model::AddOnPlacementScore* found = index->Find(c->meta.name, resource_name_);
      int64_t score = 0;
      if (found != nullptr) {
        const model::AddOnPlacementScore& s = *found;
        if (s.valid_until.has_value() && context.now > *s.valid_until) {
          expired += " " + s.meta.namespace_ + "/" + s.meta.name;
        } else {
          for (const model::AddOnScore& item : s.scores) {
            if (item.name == score_name_) score = item.value;
          }
        }
      }
      out.scores.emplace_back(score);
    }
    if (!expired.empty()) out.warnings.push_back("AddOnPlacementScores" + expired + " expired");
    return out;
  }

 private:
  std::string name_;
  std::string resource_name_;
  std::string score_name_;
};

}  // namespace

std::unique_ptr<ClusterScorer> MakeBalanceScorer() { return std::make_unique<BalanceScorer>(); }

std::unique_ptr<ClusterScorer> MakeSteadyScorer() { return std::make_unique<SteadyScorer>(); }

std::unique_ptr<ClusterScorer> MakeResourceAllocatableScorer(std::string name,
                                                             std::string resource) {
  return std::make_unique<ResourceAllocatableScorer>(std::move(name), std::move(resource));
}

std::unique_ptr<ClusterScorer> MakeAddOnScorer(std::string resource_name, std::string score_name) {
  return std::make_unique<AddOnScorer>(std::move(resource_name), std::move(score_name));
}

}  // namespace berth::placement
