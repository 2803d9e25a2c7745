// AppliedRecord: what the work agent applied on its member cluster for one ManifestWork, the
// equivalent of OCM's AppliedManifestWork (work.open-cluster-management.io/v1): the hub's
// hash, the work's name, the agent's id, and every resource applied (group, version,
// resource, namespace, name, uid), sorted. ApplyWork reads the previous record and returns
// the next one; DeleteWork removes what a record holds. The record's JSON is an
// AppliedManifestWork document, so the agent can keep it in a file or in the member cluster.
// Plain value; thread-compatible.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace berth::server::work {

using Json = nlohmann::ordered_json;

// AppliedManifestResourceMeta.
struct AppliedResource {
  std::string group;
  std::string version;
  std::string resource;
  std::string namespace_;  // "" for a cluster-scoped resource
  std::string name;
  std::string uid;  // the uid the agent saw when it applied; "" when unknown

  bool operator==(const AppliedResource&) const = default;
  // The same object whatever its version and uid (OCM's ResourceIdentifier).
  bool SameIdentity(const AppliedResource& other) const {
    return group == other.group && resource == other.resource && namespace_ == other.namespace_ &&
           name == other.name;
  }
};

struct AppliedRecord {
  std::string hub_hash;   // HubHash(the hub's address)
  std::string work_name;  // the ManifestWork's name
  std::string agent_id;
  std::vector<AppliedResource> resources;  // sorted: SortAppliedResources

  // "<hub_hash>-<work_name>" (the AppliedManifestWork's name upstream): the owner the agent
  // marks applied resources with. The work name alone when there is no hub hash.
  std::string Name() const;

  // The record as an AppliedManifestWork document: metadata.name = Name(), spec {hubHash,
  // agentID, manifestWorkName}, status.appliedResources [{group, resource, name, namespace,
  // version, uid}].
  Json ToJson() const;
  // The record of such a document. InvalidArgument when it is not one (not an object, kind
  // other than AppliedManifestWork, no spec.manifestWorkName, a resource without resource,
  // version or name, a field of the wrong type), naming the field.
  static core::Result<AppliedRecord> FromJson(const Json& document);
};

// Sorts by (group, version, resource, namespace, name), upstream's order.
void SortAppliedResources(std::vector<AppliedResource>& resources);

// OCM's hub hash: the lower-case hex SHA-256 of the hub's server address.
std::string HubHash(std::string_view hub_server);

}  // namespace berth::server::work
