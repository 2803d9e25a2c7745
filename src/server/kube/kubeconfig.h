// Where a client finds its cluster: a kubeconfig (already converted to JSON; io's
// yaml_json.h converts a YAML file) or the in-cluster service account, as client-go's
// clientcmd and rest.InClusterConfig do, into an HttpConfig for NewHttpTransport. Called by
// `berth agent` and the cli. Pure functions over their inputs (files are read, nothing is
// kept): thread-safe.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "server/kube/http_transport.h"
#include "server/kube/kube_client.h"

namespace berth::server::kube {

// The HttpConfig of `context` ("" = the kubeconfig's current-context). Read: clusters[]
// (server, certificate-authority, certificate-authority-data, insecure-skip-tls-verify,
// tls-server-name), users[] (token, tokenFile, client-certificate(-data),
// client-key(-data)), contexts[] (cluster, user, namespace -> default_namespace). File
// fields are read now (relative paths against `base_dir`, the kubeconfig's directory), except
// tokenFile, which is passed on as token_file so it is re-read. Errors name the field
// ("users[0].user.client-key-data: not valid base64"): InvalidArgument for a missing or
// wrongly typed field, bad base64, a data field together with its file field, a CA together
// with insecure-skip-tls-verify, a client certificate without its key; NotFound for an
// unknown context, cluster or user, or an unreadable file; Unimplemented for exec,
// auth-provider and username/password.
core::Result<HttpConfig> ConfigFromKubeconfig(const Json& kubeconfig, std::string_view context,
                                              std::string_view base_dir);

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(std::string_view name)>;
// The process environment (std::getenv).
EnvLookup ProcessEnv();

inline constexpr std::string_view kServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

// The config of a pod's service account (client-go's rest.InClusterConfig): the server from
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT (an IPv6 host in brackets), ROOT/token as
// token_file (re-read as kubelet rotates it; read once now too), ROOT/ca.crt as ca_pem (when
// absent, the system's roots, as upstream logs and goes on), ROOT/namespace as
// default_namespace when present. FailedPrecondition when the variables are unset (not in a
// cluster); NotFound when the token cannot be read.
core::Result<HttpConfig> InClusterConfig(std::string_view root = kServiceAccountDir,
                                         const EnvLookup& env = ProcessEnv());

}  // namespace berth::server::kube
