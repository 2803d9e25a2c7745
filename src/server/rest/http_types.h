// HttpRequest and HttpResponse: one API request and its answer as plain values, so the REST
// layer (rest_handler.h) is tested without sockets and the HTTP binding (server/http) is the
// only code that knows cpp-httplib. Thread-compatible value types.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/auth/user_info.h"

namespace berth::server {

struct HttpRequest {
  std::string method;     // "GET", "POST", ...
  std::string path;       // without the query, percent-escapes as sent
  std::string raw_query;  // after '?', as sent
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Who sent it, as the HTTP layer authenticated it; null for the hub's own requests (files
  // applied at start), which are not authorized.
  const UserInfo* user = nullptr;

  // The first value of header `name`, compared without case as HTTP does; "" when absent.
  std::string_view Header(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // beside Content-Type
};

}  // namespace berth::server
