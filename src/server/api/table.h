// Server-side printing: the meta.k8s.io/v1 Table kubectl asks for with
// `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, for a list or one object of a
// kind: columnDefinitions and rows (cells, and the object as PartialObjectMetadata, whole, or
// not at all per includeObject). Columns are upstream's: the CRDs' additionalPrinterColumns
// (Kueue Workload, ClusterQueue, LocalQueue; OCM ManagedCluster, Placement,
// ManifestWorkReplicaSet; the federated-learning addon's FederatedLearning), kubectl's
// printers for Pods, Nodes, Jobs, Deployments, Namespaces and ControllerRevisions as far as
// the object holds the data, and NAME + AGE for every other kind (what apiextensions prints
// for a CRD without columns); berth's additions to a CRD's columns are wide-only. Times are
// relative to a `now` the caller passes. Pure; O(objects x columns).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "model/kind_info.h"

namespace berth::server {

enum class IncludeObject { kNone, kMetadata, kObject };

struct TableOptions {
  core::Timestamp now;
  IncludeObject include_object = IncludeObject::kMetadata;
  bool no_headers = false;         // watch events after the first leave the columns out
  std::string resource_version;    // the Table's metadata.resourceVersion
  std::string continue_token;      // the Table's metadata.continue
};

// One column of a kind's table. Computed columns (built-in printers) have no json_path.
struct ColumnDefinition {
  std::string name;         // "Reserved in"
  std::string type;         // "string", "integer", "number", "boolean", "date"
  std::string format;       // "name" for the NAME column
  std::string description;
  int priority = 0;         // 1: shown by -o wide only
  std::string json_path;    // ".status.admission.clusterQueue"; empty when computed
};

// The columns for objects of `kind` read in `version` (ClusterQueue's cohort moved from
// .spec.cohort in v1beta1 to .spec.cohortName in v1beta2). NAME first.
std::vector<ColumnDefinition> ColumnsFor(const model::KindInfo& kind, std::string_view version);

// The Table for `objects` (each an object's JSON, in the order to print). A get passes one.
nlohmann::ordered_json BuildTable(const model::KindInfo& kind, std::string_view version,
                                  std::span<const nlohmann::ordered_json> objects,
                                  const TableOptions& options);

// Whether an Accept header asks for a Table (as=Table;g=meta.k8s.io;v=v1 or v1beta1) before
// any plain JSON range; nullopt otherwise. The value is the Table's version ("v1").
std::optional<std::string> NegotiateTable(std::string_view accept);
// includeObject=None|Metadata|Object (default Metadata); nullopt for any other value.
std::optional<IncludeObject> ParseIncludeObject(std::string_view value);

// kubectl's short duration (apimachinery duration.HumanDuration): "45s", "5m12s", "3h20m",
// "2d4h", "400d", "3y20d", "<invalid>" below -1 s.
std::string HumanDuration(int64_t seconds);

// The values a JSONPath as CRD printer columns write it selects in `object`: ".a.b",
// ".a[0]", ".a[*].b", ".a[?(@.type=='X')].status" (double quotes too), "['a.b']". Empty
// when nothing matches or the path is not of that subset. Pointers into `object`.
std::vector<const nlohmann::ordered_json*> EvalJsonPath(const nlohmann::ordered_json& object,
                                                        std::string_view path);

}  // namespace berth::server
