// A self-signed serving certificate for the hub's HTTPS listener when the operator gives none:
// kubectl and client-go send bearer tokens only over TLS, so a hub that wants them must serve
// TLS from its first start. The certificate is its own CA (the kubeconfig carries it as
// certificate-authority-data), valid for localhost, 127.0.0.1, ::1 and the listen host, for
// ten years; its key is ECDSA P-256. Files are written 0600.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace berth::server {

// Writes `cert_path` and `key_path` (PEM) unless both exist already; `hosts` are extra
// subject alternative names (an IP address or a DNS name each).
core::Status EnsureServingCertificate(const std::string& cert_path, const std::string& key_path,
                                      const std::vector<std::string>& hosts);

// The file's bytes, base64-encoded (the kubeconfig's certificate-authority-data).
core::Result<std::string> Base64File(const std::string& path);

}  // namespace berth::server
