#include "devices/internal/share_id.h"

#include <string_view>

namespace berth::devices::internal {
namespace {

// FNV-1a, 64 bits, from a given offset basis.
uint64_t Fnv1a(const std::string& text, uint64_t hash) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

void AppendHex(uint64_t v, int digits, std::string* out) {
  constexpr std::string_view kHex = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) out->push_back(kHex[(v >> (4 * i)) & 0xF]);
}

}  // namespace

std::string MakeShareId(const std::string& claim, const std::string& device, int32_t index) {
  const std::string text = claim + '\n' + device + '\n' + std::to_string(index);
  const uint64_t hi = Fnv1a(text, 0xcbf29ce484222325ULL);
  // A second, independent hash: a different basis, over the text reversed.
  const uint64_t lo = Fnv1a(std::string(text.rbegin(), text.rend()), 0x84222325cbf29ce4ULL);
  const uint64_t time_hi = (hi & 0x0FFF) | 0x4000;        // version 4
  const uint64_t clock = ((lo >> 48) & 0x3FFF) | 0x8000;  // RFC 4122 variant
  std::string out;
  out.reserve(36);
  AppendHex(hi >> 32, 8, &out);
  out.push_back('-');
  AppendHex((hi >> 16) & 0xFFFF, 4, &out);
  out.push_back('-');
  AppendHex(time_hi, 4, &out);
  out.push_back('-');
  AppendHex(clock, 4, &out);
  out.push_back('-');
  AppendHex(lo & 0xFFFFFFFFFFFFULL, 12, &out);
  return out;
}

}  // namespace berth::devices::internal
