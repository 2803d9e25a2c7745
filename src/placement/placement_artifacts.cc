// Resolution happens once per Placement so that the per-cluster loops of the filter and
// DataLocality compare prepared values only. Where an object is missing or says nothing,
// the artifact keeps what the Placement said (and a 1-byte size, today's fallback) and a
// warning says which annotation or object would fill the gap; residency lists that do not
// parse become rules that admit no cluster, never "anywhere".
#include "placement/placement_artifacts.h"

#include <algorithm>
#include <string_view>

#include "core/quantity.h"
#include "model/berth_names.h"
#include "model/data_residency.h"
#include "placement/berth_scorers.h"

namespace berth::placement {
namespace {

std::string_view ArtTrim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The non-empty items of a comma list, trimmed; *empty_items counts the empty ones.
std::vector<std::string_view> ArtItems(std::string_view text, int* empty_items = nullptr) {
  std::vector<std::string_view> out;
  while (true) {
    size_t comma = text.find(',');
    std::string_view item = ArtTrim(text.substr(0, comma));
    if (!item.empty()) {
      out.push_back(item);
    } else if (empty_items != nullptr) {
      ++*empty_items;
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

const std::string* ArtAnnotation(const model::ObjectMeta& meta, std::string_view key) {
  auto it = meta.annotations.find(key);
  return it == meta.annotations.end() ? nullptr : &it->second;
}

std::string ArtField(const char* key) { return std::string("metadata.annotations[") + key + "]"; }

// berth.dev/data-regions (and berth.dev/data-compliance) of `meta` as a rule, when present.
void ArtReadRule(const model::ObjectMeta& meta, const std::string& kind, std::string subject,
                 const char* prefix, PlacementArtifacts* out) {
  const std::string* regions = ArtAnnotation(meta, model::kBerthDataRegionsKey);
  const std::string* compliance = ArtAnnotation(meta, model::kBerthDataComplianceKey);
  if (regions == nullptr && compliance == nullptr) return;
  ResidencyRule rule;
  rule.subject = std::move(subject);
  rule.source = kind + " " + meta.NamespacedName();
  if (regions != nullptr) {
    auto parsed = model::ParseRegionList(*regions);
    if (parsed.has_value()) {
      rule.allowed_regions = std::move(*parsed);
    } else {
      rule.invalid = rule.source + " " + ArtField(model::kBerthDataRegionsKey) + " " +
                     parsed.error().message();
      out->warnings.push_back(std::string(prefix) + rule.invalid +
                              "; no cluster may hold the data until it is fixed");
    }
  }
  if (compliance != nullptr) {
    int empty = 0;
    for (std::string_view c : ArtItems(*compliance, &empty)) rule.compliance.emplace_back(c);
    if (empty > 0 && !ArtTrim(*compliance).empty()) {
      out->warnings.push_back(std::string(prefix) + rule.source + " " +
                              ArtField(model::kBerthDataComplianceKey) + " \"" + *compliance +
                              "\" has empty entries; they are ignored");
    }
    if (rule.compliance.empty()) {
      rule.invalid =
          rule.source + " " + ArtField(model::kBerthDataComplianceKey) + " names no requirement";
      out->warnings.push_back(std::string(prefix) + rule.invalid +
                              "; no cluster may hold the data until it is fixed");
    }
  }
  // The same object read from several clusters (the hub and members) states one rule.
  for (const ResidencyRule& r : out->rules) {
    if (r.subject == rule.subject && r.allowed_regions == rule.allowed_regions &&
        r.compliance == rule.compliance && r.invalid == rule.invalid) {
      return;
    }
  }
  out->rules.push_back(std::move(rule));
}

void ArtAddFraction(PlacementArtifact& a, const std::string& cluster,
                    const std::optional<double>& percentage) {
  if (!percentage.has_value() || *percentage <= 0) return;
  const double f = std::min(1.0, *percentage / 100.0);
  for (auto& [c, existing] : a.cluster_cached_fraction) {
    if (c == cluster) {
      existing = std::max(existing, f);
      return;
    }
  }
  a.cluster_cached_fraction.emplace_back(cluster, f);
}

void ArtResolveDataset(const model::Snapshot& snapshot, const std::string& origin_default,
                       PlacementArtifact& a, PlacementArtifacts* out) {
  const size_t slash = a.name.find('/');
  const std::string_view ns = std::string_view(a.name).substr(0, slash);
  const std::string_view name = std::string_view(a.name).substr(slash + 1);
  bool found = false;
  for (const model::Dataset& d : snapshot.datasets) {
    if (d.meta.namespace_ != ns || d.meta.name != name) continue;
    found = true;
    if (!a.size_known && d.ufs_total_bytes.has_value() && *d.ufs_total_bytes > 0) {
      a.size_bytes = *d.ufs_total_bytes;
      a.size_known = true;
    }
    if (a.origin_region.empty()) {
      if (const std::string* r = ArtAnnotation(d.meta, model::kBerthOriginRegionKey)) {
        a.origin_region = std::string(ArtTrim(*r));
      }
    }
    ArtAddFraction(a, d.cluster, d.cache.cached_percentage);
    ArtReadRule(d.meta, "Dataset", a.Subject(), "DataResidency: ", out);
  }
  for (const model::DataRuntime& rt : snapshot.data_runtimes) {
    if (rt.meta.namespace_ == ns && rt.meta.name == name) {
      ArtAddFraction(a, rt.cluster, rt.cache.cached_percentage);
    }
  }
  if (a.origin_region.empty()) a.origin_region = origin_default;
  if (!a.size_known) {
    out->warnings.push_back("DataLocality: " + a.Subject() + " has no size: " +
                            (found ? "its Dataset reports no status.ufsTotal"
                                   : "no Fluid Dataset " + a.name + " is in the input") +
                            "; give it as \"" + a.name + "=SIZE\" in " + kDatasetsAnnotation +
                            " (1 byte is counted)");
  }
}

void ArtResolveModel(const model::Snapshot& snapshot, const std::string& ns,
                     const std::string& origin_default, PlacementArtifact& a,
                     PlacementArtifacts* out) {
  for (const model::InferenceServiceModel& m : snapshot.inference_services) {
    if (m.meta.namespace_ != ns || model::ModelCacheName(m) != a.name) continue;
    if (!a.size_known && m.size_bytes.has_value() && *m.size_bytes > 0) {
      a.size_bytes = *m.size_bytes;
      a.size_known = true;
    }
    if (a.origin_region.empty()) a.origin_region = m.origin_region;
    ArtReadRule(m.meta, "InferenceService", a.Subject(), "DataResidency: ", out);
  }
  if (a.origin_region.empty()) a.origin_region = origin_default;
}

}  // namespace

const std::string* ClusterRegion(const model::ManagedCluster& cluster) {
  if (const std::string* v = cluster.FindClaim(kRegionKey)) return v;
  auto it = cluster.meta.labels.find(std::string_view(kRegionKey));
  if (it != cluster.meta.labels.end()) return &it->second;
  it = cluster.meta.labels.find(std::string_view(kTopologyRegionLabel));
  return it == cluster.meta.labels.end() ? nullptr : &it->second;
}

PlacementArtifacts ResolveArtifacts(const model::Snapshot& snapshot,
                                    const model::Placement& placement) {
  PlacementArtifacts out;
  const std::string& ns = placement.meta.namespace_;
  const std::string where = "Placement " + placement.meta.NamespacedName() + ": ";
  std::string origin_default;
  if (const std::string* r = ArtAnnotation(placement.meta, model::kBerthOriginRegionKey)) {
    origin_default = std::string(ArtTrim(*r));
  }
  for (const bool models : {true, false}) {
    const char* key = models ? kModelsAnnotation : kDatasetsAnnotation;
    const std::string* text = ArtAnnotation(placement.meta, key);
    if (text == nullptr) continue;
    for (std::string_view item : ArtItems(*text)) {
      const size_t eq = item.find('=');
      PlacementArtifact a;
      a.is_model = models;
      const std::string_view name = ArtTrim(item.substr(0, eq));
      if (eq != std::string_view::npos) {
        core::Result<core::Quantity> q = core::Quantity::Parse(ArtTrim(item.substr(eq + 1)));
        if (!q.has_value() || q->milli() <= 0 || name.empty()) {
          out.warnings.push_back("DataLocality: " + where + key + " item \"" + std::string(item) +
                                 "\" needs a name and a positive size");
          continue;
        }
        a.size_bytes = std::max<int64_t>(1, q->milli() / 1000);
        a.size_known = true;
      }
      if (models) {
        a.name = std::string(name);
        a.capacity_name = "model/" + a.name;
        ArtResolveModel(snapshot, ns, origin_default, a, &out);
      } else {
        // A dataset without a namespace is in the placement's.
        a.name = name.find('/') == std::string_view::npos ? ns + "/" + std::string(name)
                                                          : std::string(name);
        a.capacity_name = "dataset/" + a.name;
        ArtResolveDataset(snapshot, origin_default, a, &out);
      }
      out.artifacts.push_back(std::move(a));
    }
  }
  // An unsized model beside sized artifacts counts next to nothing (1 byte) in the load
  // time: say so, as for datasets. All unsized, they weigh alike and nothing is misleading.
  const bool any_sized = std::any_of(out.artifacts.begin(), out.artifacts.end(),
                                     [](const PlacementArtifact& a) { return a.size_known; });
  for (const PlacementArtifact& a : out.artifacts) {
    if (!a.is_model || a.size_known || !any_sized) continue;
    out.warnings.push_back("DataLocality: " + where + a.Subject() +
                           " has no size beside sized artifacts: give it as \"" + a.name +
                           "=SIZE\" in " + kModelsAnnotation +
                           " or annotate its InferenceService with " +
                           model::kBerthModelSizeKey + " (1 byte is counted)");
  }
  ArtReadRule(placement.meta, "Placement",
              "the data of placement " + placement.meta.NamespacedName(), "DataResidency: ", &out);
  return out;
}

}  // namespace berth::placement
