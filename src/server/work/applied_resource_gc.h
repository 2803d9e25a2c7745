// DeleteAppliedResources: removes resources a work applied, as OCM's
// helper.DeleteAppliedResources does when a work is deleted or a new generation drops a
// manifest: an object that is gone is done; one without this work's owner mark (orphaned, or
// made by someone else) or whose uid is not the recorded one (recreated since) is left alone
// and forgotten; one other works also mark only loses this work's mark; the rest are deleted
// with a uid precondition. Called by ApplyWork and DeleteWork; thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "server/kube/kube_client.h"
#include "server/work/applied_record.h"
#include "server/work/delete_option.h"

namespace berth::server::work {

struct AppliedDeletion {
  // Still to track: deletion issued but finalizers hold the object, or a request failed.
  std::vector<AppliedResource> kept;
  std::vector<std::string> errors;  // one per failed request, naming the resource
  int deleted = 0;                  // objects this call deleted
};

// `owner` is AppliedRecord::Name(). `option` null: every marked resource may go; otherwise a
// resource the option orphans is skipped without being read.
AppliedDeletion DeleteAppliedResources(kube::Client& client,
                                       const std::vector<AppliedResource>& resources,
                                       std::string_view owner, const DeleteOption* option);

}  // namespace berth::server::work
