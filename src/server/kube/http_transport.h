// HttpTransport: a kube::Transport over HTTP or HTTPS (cpp-httplib), as client-go's transport
// speaks to kube-apiserver: server certificates checked against the cluster's CA (or not,
// when told to skip), a bearer token (fixed, or a file re-read when it changes, as the
// service-account token kubelet rotates) or a client certificate, bounded connect and read
// times, and a cap on what one reply may hold. Built from a kubeconfig (kubeconfig.h) or the
// in-cluster service account. Thread-safe: concurrent Sends take connections from a small
// pool; each Stream (watch) opens a connection of its own.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/result.h"
#include "server/kube/kube_client.h"

namespace berth::server::kube {

struct HttpConfig {
  // "https://host:port" or "http://host:port" (port defaults to 443/80), optionally with a
  // path prefix ("https://lb/k8s" sends "/k8s/api/v1/..."); an IPv6 host in brackets.
  std::string server;
  // PEM text of the CAs that sign the server's certificate; empty: the system's roots.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  // The name the server's certificate is checked against (and sent as SNI) instead of the
  // server URL's host.
  std::string tls_server_name;
  std::string bearer_token;
  // A file holding the token; re-read whenever its inode, size or modification time changes.
  // The last token read wins over bearer_token (client-go's BearerTokenFile).
  std::string token_file;
  // PEM text of a client certificate (plus optional intermediates) and its private key.
  std::string client_cert_pem, client_key_pem;
  std::chrono::milliseconds connect_timeout{5000}, read_timeout{30000};
  // A reply (or one watch event line) larger than this is a ResourceExhausted error.
  int64_t max_reply_bytes = 64 << 20;
  std::string user_agent = "berth";
  // The kubeconfig context's namespace ("" when it names none): for the caller's defaults;
  // the transport does not read it.
  std::string default_namespace;
};

// Errors: InvalidArgument for a bad server URL, PEM text that holds no certificate or key, a
// key that does not match the certificate, or only one of cert/key; NotFound when token_file
// cannot be read. Send/Stream errors: Unavailable (connection refused, TLS handshake or
// certificate verification failed, timeout), ResourceExhausted (reply over the cap).
core::Result<std::unique_ptr<Transport>> NewHttpTransport(HttpConfig config);

}  // namespace berth::server::kube
