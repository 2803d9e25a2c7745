// What Reader::Finish does for pods that reference a ResourceClaimTemplate: it plays the
// resourceclaim controller, generating one ResourceClaim per (pod, claim reference) from the
// template. Internal to io; works on the snapshot and document store it is given.
#pragma once

#include "core/diagnostics.h"
#include "io/document_store.h"
#include "model/snapshot.h"

namespace berth::io::internal {

// For every pod reference with a template name: the claim the pod uses is the one
// status.resourceClaimStatuses named when that claim was read; otherwise `<pod>-<claim>`
// (DESIGN.md naming). When no claim of that name exists in the pod's cluster and namespace,
// one is generated from the template: the template's spec, labels and annotations, the
// annotation resource.kubernetes.io/pod-claim-name, template_name and owner_pod set, and a
// complete ResourceClaim document (owner reference to the pod) so writers treat it like a
// claim that was read. A template that does not exist is a warning (the pod stays and
// binding rejects it as waiting for its claim, as kube-scheduler does). Linear in pods,
// claims and templates.
void ResolveClaimTemplates(model::Snapshot* snapshot, DocumentStore* documents,
                           core::Diagnostics& diags);

}  // namespace berth::io::internal
