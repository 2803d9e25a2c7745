// The in-process path builds the same HttpRequest the HTTP binding (server/http) builds, so a
// test through this transport exercises the handler exactly as a socket client would, minus
// authentication (the user is given, not established).
#include "server/kube/in_process_transport.h"

#include <cctype>
#include <optional>
#include <string>
#include <utility>

namespace berth::server::kube {

namespace {

HttpRequest InProcessRequestOf(const Request& request, const UserInfo* user) {
  HttpRequest http;
  http.method = request.method;
  http.path = request.path;
  http.raw_query = request.query;
  http.body = request.body;
  if (!request.content_type.empty()) http.headers.emplace_back("Content-Type", request.content_type);
  if (!request.accept.empty()) http.headers.emplace_back("Accept", request.accept);
  http.user = user;
  return http;
}

std::string InProcessLowerName(std::string_view name) {
  std::string out(name);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Calls on_line for every non-empty line of `text` (a session's chunk is whole lines; an
// error body may lack the final '\n'); false when the callback asked to stop.
bool InProcessDeliverLines(std::string_view text,
                           const std::function<bool(std::string_view line)>& on_line) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && !on_line(line)) return false;
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return true;
}

}  // namespace

InProcessTransport::InProcessTransport(RestHandler& handler, const UserInfo* user)
    : handler_(handler), user_(user) {}

core::Result<Reply> InProcessTransport::Send(const Request& request) {
  RestReply served = handler_.Serve(InProcessRequestOf(request, user_));
  Reply reply;
  if (served.watch) {
    // A watch asked through Send: drain what the session holds now rather than block on it.
    reply.status = served.response.status;
    std::optional<std::string> chunk;
    while ((chunk = served.watch->Next(std::chrono::milliseconds(0))) && !chunk->empty()) {
      reply.body += *chunk;
    }
  } else {
    reply.status = served.response.status;
    reply.body = std::move(served.response.body);
  }
  reply.headers["content-type"] = served.response.content_type;
  for (const auto& [name, value] : served.response.headers) {
    reply.headers[InProcessLowerName(name)] = value;
  }
  return reply;
}

core::Result<int> InProcessTransport::Stream(
    const Request& request, const std::function<bool(std::string_view line)>& on_line) {
  RestReply served = handler_.Serve(InProcessRequestOf(request, user_));
  if (!served.watch) {
    InProcessDeliverLines(served.response.body, on_line);
    return served.response.status;
  }
  while (request.cancel == nullptr || !request.cancel->load()) {
    std::optional<std::string> chunk = served.watch->Next(kPoll);
    if (!chunk) break;
    if (!InProcessDeliverLines(*chunk, on_line)) break;
  }
  return served.response.status;
}

}  // namespace berth::server::kube
