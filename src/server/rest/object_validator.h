// ObjectValidator: the check an object must pass before the hub stores it. The server may not
// depend on io (DESIGN.md module table), yet the API must refuse exactly what `berth plan`
// refuses, with the same field; so the CLI, which may use io, implements this interface with
// io's decoders and hands it to the REST handler. Implementations must be thread-safe: the
// HTTP layer calls Validate from many request threads at once.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "model/kind_info.h"

namespace berth::server {

class ObjectValidator {
 public:
  virtual ~ObjectValidator() = default;
  // The problems of `object` (a whole object of `kind`, metadata as it will be stored), each
  // located at its field (core::Location::field, "spec.queueName"); empty when it is valid.
  virtual std::vector<core::Error> Validate(const model::KindInfo& kind,
                                            const nlohmann::ordered_json& object) const = 0;
};

}  // namespace berth::server
