// The OpenAPI v3 documents kubectl reads before it writes (/openapi/v3 and
// /openapi/v3/{api/v1|apis/G/V}). kubectl 1.32 validates `create`/`apply` input by asking
// whether the server validates fields itself (a PATCH operation of the object's
// group-version-kind that takes the `fieldValidation` query parameter); when the documents
// are missing it falls back to downloading /openapi/v2 and refuses to write without it. berth
// validates on the server (io's decoders), so each document lists every served resource's
// paths and operations with their group-version-kind and parameters, and no schemas
// (`kubectl explain` needs schemas and is not served). Pure; derived from model's table.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"

namespace berth::server {

// {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}, "apis/G/V": ...}}
// for every served group-version. The hash changes when the table of kinds does.
nlohmann::ordered_json OpenApiV3Index();

// The document of one group-version, `path` being "api/v1" or "apis/G/V" (what the index
// lists); 404 for any other.
ApiResult<nlohmann::ordered_json> OpenApiV3Document(std::string_view path);

}  // namespace berth::server
