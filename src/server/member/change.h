// What a round of the simulated member cluster's controllers decides (controller_round.h):
// Changes for the lead's loop to write to the cluster's store, and Diagnostics (objects the
// controllers could not act on, such as a pod whose simulated-duration annotation does not
// parse). Plain values.
#pragma once

#include <cstddef>
#include <string>

#include "server/member/member_objects.h"

namespace berth::server::member {

struct Change {
  enum class Op {
    // `object` is new: the whole body, with name, namespace, uid, creationTimestamp,
    // generation, labels and ownerReferences (controller=true, the owner's uid). The uid must
    // be kept as given: objects created in the same round already name it as their owner.
    kCreate,
    // Metadata or spec changed (status may have too): replace the whole stored object with
    // `object`. Its metadata.resourceVersion is the one the round read (optimistic
    // concurrency: a newer stored object means the round decided on stale state).
    kUpdate,
    // Only status changed: write `object`'s status (the status subresource).
    kUpdateStatus,
    // Delete the object (graceful for pods: the loop removes it once
    // metadata.deletionGracePeriodSeconds have passed). When the round also changed the
    // object (a controller removed its finalizer before deleting it), a kUpdate or
    // kUpdateStatus of the same object comes first.
    kDelete,
  };

  Op op = Op::kUpdate;
  Json object;
  // Changes with the same batch are adjacent and must be written together (one store
  // transaction) or not at all: a Job's status with the count of the pods whose tracking
  // finalizer the same round removes (written apart, a conflict on one side loses or doubles
  // a count). Every other change is a batch of its own. The batch is the index in the round's
  // list of its first change.
  size_t batch = 0;
};

// "create", "update", "update-status", "delete".
const char* OpName(Change::Op op);

struct Diagnostic {
  std::string object;   // KeyText: "Pod/ns/name"
  std::string reason;   // "InvalidSimulatedDuration", CamelCase like an Event's reason
  std::string message;  // one sentence a user can act on
};

}  // namespace berth::server::member
