// Kubernetes' protobuf encoding (the "k8s\0" envelope around a runtime.Unknown), read just far
// enough for objects that are only metadata: typed clients send protobuf for built-in kinds,
// and `kubectl create namespace NAME` is the everyday case (a Namespace with a name, maybe
// labels and annotations, and nothing else). berth reads no other protobuf: an object with a
// spec, status or any field besides the ones below is refused, so nothing is ever silently
// dropped. Called by the REST handler for a body of type application/vnd.kubernetes.protobuf.
// Pure; bounded by the body's length.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "server/api/api_error.h"

namespace berth::server {

// {"apiVersion", "kind", "metadata": {name, generateName, namespace, labels, annotations,
// finalizers}} from the envelope's type meta and the object's ObjectMeta (field 1), with an
// empty spec (field 2) allowed for Namespace. 415 UnsupportedMediaType for anything else
// (another field, a spec with content, a body that is not the envelope), 400 for bytes that
// do not parse as protobuf.
ApiResult<nlohmann::ordered_json> MetadataObjectFromProtobuf(std::string_view body);

}  // namespace berth::server
