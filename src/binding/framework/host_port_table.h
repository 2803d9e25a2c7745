// HostPortTable: the host ports the pods bound to one node use, as upstream's HostPortInfo
// (pkg/scheduler/framework/types.go) keeps them: entries of (hostIP, protocol, hostPort),
// an empty IP meaning 0.0.0.0 and an empty protocol TCP; a port <= 0 is never recorded and
// never conflicts. A wanted port conflicts with a used one of the same protocol and port
// when either IP is 0.0.0.0 or the IPs are equal. Unlike HostPortInfo (a set), each entry
// counts its users, so removing one of two pods that use the same port keeps the port used
// and RemovePod in any order restores the table exactly. Value type; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace berth::binding {

inline constexpr std::string_view kBindAllHostIp = "0.0.0.0";

class HostPortTable {
 public:
  void Add(std::string_view ip, std::string_view protocol, int32_t port);
  // Removes one use; nothing when the entry is not there.
  void Remove(std::string_view ip, std::string_view protocol, int32_t port);
  // Distinct (ip, protocol, port) entries, as HostPortInfo.Len.
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  // Whether (ip, protocol, port) would conflict with an entry. O(entries).
  bool CheckConflict(std::string_view ip, std::string_view protocol, int32_t port) const;

 private:
  struct Entry {
    std::string ip;
    std::string protocol;
    int32_t port = 0;
    int32_t users = 0;
  };
  std::vector<Entry> entries_;
};

}  // namespace berth::binding
