// Artifact: one model, dataset or image that pods need on their node before they can start,
// with where its bytes come from (the origin) and where they may go (residency). Plain value;
// the engine maps Kubernetes objects (KServe LocalModelCache, Fluid Dataset, image volumes)
// onto it. Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace berth::data {

enum class ArtifactKind { kModel, kDataset, kImage };

const char* ArtifactKindName(ArtifactKind kind);

// Where the authoritative copy lives: an object store bucket, a registry, a model hub.
struct ArtifactOrigin {
  std::string scheme;    // "s3", "gs", "hf", "oci", "https": informational
  std::string location;  // bucket, registry host or hub; matches OriginLink::location
  std::string region;    // the origin's region; "" = unknown, always treated as remote
};

struct Artifact {
  std::string id;  // e.g. "llama-3-70b@sha256:..."; names the artifact in errors
  ArtifactKind kind = ArtifactKind::kModel;
  int64_t size_bytes = 0;  // must be > 0
  ArtifactOrigin origin;
  // Regions where the artifact may be stored and processed; empty = anywhere. A node whose
  // cluster is in another region is "forbidden", never a number (data_locality.md §4).
  std::vector<std::string> allowed_regions;
};

}  // namespace berth::data
