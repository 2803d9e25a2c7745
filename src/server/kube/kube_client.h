// kube::Client: berth's client of a Kubernetes API server (a member cluster's, or the hub's),
// as a controller speaks to one: typed paths from io's table of kinds, JSON bodies, the
// server's Status returned as it was sent. Requests go through a Transport: HttpTransport
// (http_transport.h: HTTP or HTTPS with a bearer token or a client certificate, from a
// kubeconfig or the in-cluster service account) or InProcessTransport (in_process_transport.h:
// a RestHandler called directly, for tests and for a simulated cluster's own controllers).
// An HTTP error is not a Result error: the Reply carries the status code and the body (a
// Status object), so callers can report the API server's own message; a Result error means
// the request never got an answer (connection refused, TLS failure, timeout, a body over the
// cap). Thread-safe when the Transport is (both shipped ones are).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace berth::server::kube {

using Json = nlohmann::ordered_json;

struct Request {
  std::string method;        // "GET", "POST", "PUT", "PATCH", "DELETE"
  std::string path;          // "/apis/batch/v1/namespaces/ns/jobs/name"
  std::string query;         // "a=b&c=d" (already escaped), no '?'
  std::string body;
  std::string content_type;  // for bodies; "" when there is none
  std::string accept = "application/json";
  // Stream only, optional: when it becomes true the stream ends within a poll interval
  // (about 100 ms) and Stream returns the status it got, so a reflector's stop is prompt
  // even while no event arrives. Borrowed; must outlive the call.
  const std::atomic<bool>* cancel = nullptr;
};

struct Reply {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-cased names

  bool ok() const { return status >= 200 && status < 300; }
  // The body parsed (a discarded value when it is not JSON).
  Json Parsed() const;
  // A Status body's message and reason ("" when the body is not a Status); Message() falls
  // back to "HTTP <status>" plus the body's first 200 bytes.
  std::string Message() const;
  std::string Reason() const;
};

// How the client reaches the server. Send returns a whole reply; Stream delivers a streamed
// body (watch) line by line until the server ends it, `on_line` returns false, or the
// transport's read timeout passes, and returns the status code it got (the lines of an error
// reply are delivered too).
class Transport {
 public:
  virtual ~Transport() = default;
  virtual core::Result<Reply> Send(const Request& request) = 0;
  virtual core::Result<int> Stream(const Request& request,
                                   const std::function<bool(std::string_view line)>& on_line) = 0;
};

// A served resource: where its objects live.
struct Resource {
  std::string group;     // "" for the core group
  std::string version;   // "v1"
  std::string resource;  // lower-case plural: "jobs"
  std::string kind;      // "Job"
  bool namespaced = true;

  std::string ApiVersion() const;  // "batch/v1", "v1"
  // "/apis/batch/v1/namespaces/NS/jobs[/NAME[/SUB]]"; NS ignored for cluster-scoped
  // resources; NS "" on a namespaced resource lists across namespaces.
  std::string Path(std::string_view ns, std::string_view name = "",
                   std::string_view subresource = "") const;
};

// The resource of (apiVersion, kind) from io's table of kinds (model/kind_info.h).
// NotFound for a kind berth does not know.
core::Result<Resource> ResourceFor(std::string_view api_version, std::string_view kind);

struct ListQuery {
  std::string label_selector;
  std::string field_selector;
  int64_t limit = 0;             // 0: no limit
  std::string continue_token;
  std::string resource_version;  // "" = most recent
};

struct WatchQuery {
  std::string label_selector;
  std::string field_selector;
  std::string resource_version;  // "" or "0": the current objects first, as ADDED events
  bool allow_bookmarks = true;
  int64_t timeout_s = 0;  // timeoutSeconds; 0: the server's default
  const std::atomic<bool>* cancel = nullptr;  // Request::cancel
};

struct PatchOptions {
  std::string field_manager;  // required by server-side apply
  bool force = false;         // server-side apply: take fields other managers own
  std::string subresource;    // "status", ""
};

struct DeleteOptions {
  std::string propagation_policy;  // "Foreground", "Background", "Orphan", "" = server default
  std::string precondition_uid;
};

// `value` percent-escaped for a query string (every byte but RFC 3986's unreserved ones).
std::string QueryEscape(std::string_view value);

class Client {
 public:
  explicit Client(std::unique_ptr<Transport> transport);

  core::Result<Reply> Get(const Resource& r, std::string_view ns, std::string_view name,
                          std::string_view subresource = "");
  // One page: the reply's body is the List (metadata.continue when more follow).
  core::Result<Reply> List(const Resource& r, std::string_view ns, const ListQuery& query = {});
  // Every page of a list, items concatenated; the List's resourceVersion is the first page's.
  // A reply that is not 2xx is returned as it came.
  core::Result<Reply> ListAll(const Resource& r, std::string_view ns, ListQuery query = {});
  // A watch stream (?watch=1): each line one event {"type", "object"} (a refused watch
  // delivers its Status body's line), until it ends as Transport::Stream says; returns the
  // HTTP status.
  core::Result<int> Watch(const Resource& r, std::string_view ns, const WatchQuery& query,
                          const std::function<bool(std::string_view line)>& on_line);
  core::Result<Reply> Create(const Resource& r, std::string_view ns, const Json& body);
  core::Result<Reply> Update(const Resource& r, std::string_view ns, std::string_view name,
                             const Json& body, std::string_view subresource = "");
  // patch_type: "merge" (application/merge-patch+json), "json" (json-patch+json),
  // "strategic" (strategic-merge-patch+json), "apply" (apply-patch+yaml; body JSON).
  core::Result<Reply> Patch(const Resource& r, std::string_view ns, std::string_view name,
                            std::string_view patch_type, std::string body,
                            const PatchOptions& options = {});
  core::Result<Reply> Delete(const Resource& r, std::string_view ns, std::string_view name,
                             const DeleteOptions& options = {});

  Transport& transport() { return *transport_; }

 private:
  std::unique_ptr<Transport> transport_;
};

}  // namespace berth::server::kube
