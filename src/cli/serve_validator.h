// IoValidator: the hub's ObjectValidator made of io's decoders, so the API refuses exactly the
// objects `berth plan` refuses, naming the same field (issue 15). Each call decodes the one
// object with a fresh io::Reader: thread-safe, and nothing carries over between requests.
// Cross-object checks (a LocalQueue naming a missing ClusterQueue, pod expansion caps) are
// not the API's: they belong to the scheduling loop, as upstream admits such objects too.
#pragma once

#include "server/rest/object_validator.h"

namespace berth::cli {

class IoValidator : public server::ObjectValidator {
 public:
  std::vector<core::Error> Validate(const model::KindInfo& kind,
                                    const nlohmann::ordered_json& object) const override;
};

}  // namespace berth::cli
