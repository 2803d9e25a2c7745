#include "data/artifact.h"

namespace berth::data {

const char* ArtifactKindName(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::kModel:
      return "model";
    case ArtifactKind::kDataset:
      return "dataset";
    case ArtifactKind::kImage:
      return "image";
  }
  return "unknown";
}

}  // namespace berth::data
