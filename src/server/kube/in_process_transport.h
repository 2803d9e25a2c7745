// InProcessTransport: a kube::Transport that hands each request to a RestHandler directly,
// without sockets: for tests, and for a simulated member cluster's own controllers that run in
// the process serving its API. Watches pull the handler's WatchSession line by line. The
// handler (and the user, when given) must outlive the transport. Thread-safe: the handler is,
// and each Stream drives its own session.
#pragma once

#include <chrono>
#include <functional>
#include <string_view>

#include "server/kube/kube_client.h"
#include "server/rest/rest_handler.h"

namespace berth::server::kube {

class InProcessTransport : public Transport {
 public:
  // `user` null: the requests are the hub's own (not authorized), as a handler's files applied
  // at start are; otherwise every request carries that user to the handler's authorizer.
  explicit InProcessTransport(RestHandler& handler, const UserInfo* user = nullptr);

  core::Result<Reply> Send(const Request& request) override;
  // Ends when the session ends (its timeoutSeconds, an ERROR event, the feed closing),
  // `on_line` returns false, or request.cancel is set. The status is the handler's (a
  // refused watch delivers its Status body's lines).
  core::Result<int> Stream(const Request& request,
                           const std::function<bool(std::string_view line)>& on_line) override;

 private:
  RestHandler& handler_;
  const UserInfo* user_;
  // How long one pull of a watch session waits for an event (bounds the reaction to cancel).
  static constexpr std::chrono::milliseconds kPoll{100};
};

}  // namespace berth::server::kube
