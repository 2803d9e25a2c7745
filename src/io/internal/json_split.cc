#include "io/internal/json_split.h"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace berth::io::internal {

namespace {

constexpr size_t kNpos = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// t[pos] == '"'; returns the position after the closing quote, or kNpos.
size_t SkipString(std::string_view t, size_t pos) {
  size_t i = pos + 1;
  while (i < t.size()) {
    const void* q = std::memchr(t.data() + i, '"', t.size() - i);
    if (q == nullptr) return kNpos;
    auto j = static_cast<size_t>(static_cast<const char*>(q) - t.data());
    size_t k = j;
    while (k > pos + 1 && t[k - 1] == '\\') --k;
    if ((j - k) % 2 == 0) return j + 1;  // an even run of backslashes escapes only itself
    i = j + 1;
  }
  return kNpos;
}

// Bit masks of one 64-byte block: bit i set when block[i] is a quote, a backslash, '{' or
// '[' (open), '}' or ']' (close). The bracket pairs differ only in bit 0x20.
struct BlockMasks {
  uint64_t quote = 0;
  uint64_t backslash = 0;
  uint64_t open = 0;
  uint64_t close = 0;
};

BlockMasks Classify(const char* block) {
  BlockMasks m;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i case_bit = _mm_set1_epi8(0x20);
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  for (int k = 0; k < 4; ++k) {
    __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + static_cast<ptrdiff_t>(16 * k)));
    __m128i folded = _mm_or_si128(v, case_bit);
    auto bits = [](__m128i eq) {
      return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(eq)));
    };
    const int shift = 16 * k;
    m.quote |= bits(_mm_cmpeq_epi8(v, quote)) << shift;
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash)) << shift;
    m.open |= bits(_mm_cmpeq_epi8(folded, open)) << shift;
    m.close |= bits(_mm_cmpeq_epi8(folded, close)) << shift;
  }
#else
  for (int k = 0; k < 64; ++k) {
    char c = block[k];
    uint64_t bit = uint64_t{1} << k;
    if (c == '"') m.quote |= bit;
    if (c == '\\') m.backslash |= bit;
    if (c == '{' || c == '[') m.open |= bit;
    if (c == '}' || c == ']') m.close |= bit;
  }
#endif
  return m;
}

// Bit i = XOR of bits 0..i: set from an opening quote up to (not including) its closing one.
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// t[pos] is '{' or '['; returns the position after its matching close, or kNpos. This is the
// hot loop over a dump: 64 bytes at a time, finding quotes and brackets with SIMD compares
// and the bytes inside strings with a prefix XOR of the quote bits, as simdjson's stage 1
// does. Blocks holding a backslash (escaped quotes) take the byte-by-byte path.
size_t SkipContainer(std::string_view t, size_t pos) {
  int depth = 0;
  bool in_string = false;
  bool escape = false;  // the previous byte was a backslash inside a string
  std::array<char, 64> tail{};
  for (size_t b = pos; b < t.size(); b += 64) {
    const char* block = t.data() + b;
    size_t valid = t.size() - b;
    if (valid < 64) {
      tail.fill(' ');
      std::memcpy(tail.data(), block, valid);
      block = tail.data();
    }
    BlockMasks m = Classify(block);
    if (!escape && m.backslash == 0) {
      uint64_t strings = PrefixXor(m.quote);
      if (in_string) strings = ~strings;
      in_string = (strings >> 63) != 0;
      uint64_t structural = (m.open | m.close) & ~strings;
      while (structural != 0) {
        int k = std::countr_zero(structural);
        structural &= structural - 1;
        if ((m.open >> k) & 1) {
          ++depth;
        } else if (--depth == 0) {
          return b + static_cast<size_t>(k) + 1;
        }
      }
      continue;
    }
    for (size_t k = 0; k < 64; ++k) {
      char c = block[k];
      if (in_string) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return b + k + 1;
      }
    }
  }
  return kNpos;
}

// Any value: a string, a container, or a scalar running to the next delimiter.
size_t SkipValue(std::string_view t, size_t pos) {
  if (pos >= t.size()) return kNpos;
  char c = t[pos];
  if (c == '"') return SkipString(t, pos);
  if (c == '{' || c == '[') return SkipContainer(t, pos);
  size_t i = pos;
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && !IsSpace(t[i])) ++i;
  return i == pos ? kNpos : i;
}

// Records the items of the array at t[pos] == '['; returns the position after its ']', or
// kNpos when the array is malformed.
size_t SplitItems(std::string_view t, size_t pos, std::vector<std::string_view>* items) {
  size_t j = pos + 1;
  while (true) {
    j = SkipSpace(t, j);
    if (j >= t.size()) return kNpos;
    if (t[j] == ']') return j + 1;
    size_t end = SkipValue(t, j);
    if (end == kNpos) return kNpos;
    items->push_back(t.substr(j, end - j));
    j = SkipSpace(t, end);
    if (j < t.size() && t[j] == ',') {
      ++j;
    } else if (j >= t.size() || t[j] != ']') {
      return kNpos;
    }
  }
}

}  // namespace

bool SplitJsonList(std::string_view text, JsonListSplit* out) {
  out->items.clear();
  out->shell.clear();
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return false;
  size_t items_begin = kNpos;  // the '[' of items
  size_t items_end = kNpos;    // after its ']'
  bool list_kind = false;
  ++i;
  while (true) {
    i = SkipSpace(text, i);
    if (i >= text.size()) return false;
    if (text[i] == '}') {
      ++i;
      break;
    }
    if (text[i] != '"') return false;
    size_t key_end = SkipString(text, i);
    if (key_end == kNpos) return false;
    std::string_view key = text.substr(i + 1, key_end - i - 2);
    i = SkipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return false;
    i = SkipSpace(text, i + 1);
    if (i >= text.size()) return false;
    size_t value_end = kNpos;
    if (key == "items" && text[i] == '[' && items_begin == kNpos) {
      value_end = SplitItems(text, i, &out->items);
      items_begin = i;
      items_end = value_end;
    } else {
      value_end = SkipValue(text, i);
    }
    if (value_end == kNpos) return false;
    if (key == "kind" && text[i] == '"') {
      std::string_view kind = text.substr(i + 1, value_end - i - 2);
      list_kind = kind.size() >= 4 && kind.substr(kind.size() - 4) == "List";
    }
    i = SkipSpace(text, value_end);
    if (i < text.size() && text[i] == ',') ++i;
  }
  if (SkipSpace(text, i) != text.size()) return false;  // a stream, or trailing bytes
  if (!list_kind || items_begin == kNpos) return false;
  out->shell.reserve(text.size() - (items_end - items_begin) + 2);
  out->shell.append(text.substr(0, items_begin));
  out->shell.append("[]");
  out->shell.append(text.substr(items_end));
  return true;
}

}  // namespace berth::io::internal
