// GeneratedJob: a batch/v1 Job berth makes rather than reads, described by the few fields it
// sets, so that a planned ManifestWork can carry an object no input document holds (a
// FederatedLearning's server and client Jobs, engine/federated_learning.h). io prints it as a
// whole batch/v1 Job (io/internal/federated_learning_json.h). Plain data.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/labels.h"
#include "core/quantity.h"

namespace berth::model {

// A volume of the pod and where its one container mounts it: a PersistentVolumeClaim
// (claim_name) or a host path (host_path); exactly one is set.
struct GeneratedVolume {
  std::string name;
  std::string mount_path;
  std::string claim_name;
  std::string host_path;
};

struct GeneratedJob {
  std::string name;
  std::string namespace_;
  core::Labels labels;    // metadata.labels, also on the pod template
  std::string container;  // the one container's name
  std::string image;
  std::vector<std::string> args;
  std::map<std::string, core::Quantity> requests;  // resources.requests, by resource name
  std::map<std::string, core::Quantity> limits;    // resources.limits
  std::vector<GeneratedVolume> volumes;
};

}  // namespace berth::model
