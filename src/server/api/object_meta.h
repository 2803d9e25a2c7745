// What the API server's registry does to an object's metadata on create and update, before
// validation and storage: the name and namespace checked against the URL (generateName
// expanded), uid, creationTimestamp, generation and resourceVersion kept as kube-apiserver
// keeps them, the status subresource's split (a main-resource write leaves status as stored,
// a /status write changes only status), and optimistic concurrency (a stale
// resourceVersion is 409 Conflict). Called by the HTTP layer for POST, PUT and (after
// patching) PATCH. Pure; the caller passes the uid, the next resourceVersion and the time.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "server/api/api_error.h"
#include "server/api/request_info.h"

namespace berth::server {

struct CreateContext {
  std::string uid;                // a fresh UUID
  int64_t resource_version = 0;   // the write's resourceVersion
  core::Timestamp now;
  std::string generate_suffix;    // 5 characters for generateName (the caller's RNG)
};

// The object to store for a create at `request` (verb create). Fills apiVersion and kind
// from the route when absent; sets metadata.namespace from the URL (cluster-scoped kinds
// have none), name from generateName + suffix when the name is empty, uid,
// creationTimestamp, resourceVersion and generation 1; drops deletionTimestamp and, for a
// kind with a status subresource, status (a CRD's status is written through /status only).
// Errors: 400 for an apiVersion/kind other than the route's, a namespace other than the
// URL's, or a resourceVersion already set; 422 when there is neither name nor generateName.
ApiResult<nlohmann::ordered_json> PrepareCreate(const RequestInfo& request,
                                                nlohmann::ordered_json object,
                                                const CreateContext& context);

struct UpdateResult {
  nlohmann::ordered_json object;
  bool changed = false;  // false: the stored object already equals it (no write, no new RV)
};

// The object to store for an update (PUT, or a patch's result) at `request` of `stored`.
// `resource_version` is what the write will get if anything changed. The main resource keeps
// the stored status when the kind has a status subresource; /status takes only the new
// status. uid and creationTimestamp come from `stored`; generation is bumped when anything
// but metadata (and status, for kinds with a status subresource) changed.
// Errors: 400 when name or namespace differ from the URL; 409 Conflict when
// metadata.resourceVersion is set and is not the stored one, or uid differs; 422 when a
// custom resource (any non-core, non-built-in group) comes without resourceVersion, as
// apiextensions refuses unconditional updates.
ApiResult<UpdateResult> PrepareUpdate(const RequestInfo& request,
                                      const nlohmann::ordered_json& stored,
                                      nlohmann::ordered_json updated, int64_t resource_version);

}  // namespace berth::server
