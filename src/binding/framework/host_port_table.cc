// Why a vector: a node has a handful of host ports at most (each is a port a single pod
// holds on the node), so a scan beats a map and an empty table costs no allocation on the
// thousands of nodes that have none.
#include "binding/framework/host_port_table.h"

#include <algorithm>

namespace berth::binding {

namespace {

std::string_view SanitizedIp(std::string_view ip) { return ip.empty() ? kBindAllHostIp : ip; }
std::string_view SanitizedProtocol(std::string_view protocol) {
  return protocol.empty() ? std::string_view("TCP") : protocol;
}

}  // namespace

void HostPortTable::Add(std::string_view ip, std::string_view protocol, int32_t port) {
  if (port <= 0) return;
  ip = SanitizedIp(ip);
  protocol = SanitizedProtocol(protocol);
  for (Entry& e : entries_) {
    if (e.port == port && e.ip == ip && e.protocol == protocol) {
      ++e.users;
      return;
    }
  }
  entries_.push_back(Entry{.ip = std::string(ip), .protocol = std::string(protocol), .port = port,
                           .users = 1});
}

void HostPortTable::Remove(std::string_view ip, std::string_view protocol, int32_t port) {
  if (port <= 0) return;
  ip = SanitizedIp(ip);
  protocol = SanitizedProtocol(protocol);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) {
    return e.port == port && e.ip == ip && e.protocol == protocol;
  });
  if (it == entries_.end()) return;
  if (--it->users == 0) entries_.erase(it);
}

bool HostPortTable::CheckConflict(std::string_view ip, std::string_view protocol,
                                  int32_t port) const {
  if (port <= 0) return false;
  ip = SanitizedIp(ip);
  protocol = SanitizedProtocol(protocol);
  for (const Entry& e : entries_) {
    if (e.port != port || e.protocol != protocol) continue;
    // 0.0.0.0 takes the port on every address; a specific address only clashes with itself
    // and with 0.0.0.0.
    if (ip == kBindAllHostIp || e.ip == kBindAllHostIp || e.ip == ip) return true;
  }
  return false;
}

}  // namespace berth::binding
