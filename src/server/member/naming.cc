#include "server/member/naming.h"

#include <openssl/evp.h>

#include <random>

#include "server/rest/uuid.h"

namespace berth::server::member {

namespace {

// apimachinery's util/rand alphanums.
constexpr std::string_view kSafeAlphabet = "bcdfghjklmnpqrstvwxz2456789";

constexpr uint64_t kFnv64Offset = 14695981039346656037ULL;
constexpr uint64_t kFnv64Prime = 1099511628211ULL;
constexpr uint32_t kFnv32Offset = 2166136261U;
constexpr uint32_t kFnv32Prime = 16777619U;

uint32_t NamingFnv32a(uint32_t h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= kFnv32Prime;
  }
  return h;
}

}  // namespace

uint64_t StableHash(std::initializer_list<std::string_view> parts) {
  uint64_t h = kFnv64Offset;
  for (std::string_view part : parts) {
    for (unsigned char c : part) {
      h ^= c;
      h *= kFnv64Prime;
    }
    h ^= 0xffU;  // a byte no UTF-8 text contains ends each part
    h *= kFnv64Prime;
  }
  // FNV's last bytes barely reach its high bits; MurmurHash3's finalizer mixes every bit into
  // every other, so "seed 7" and "seed 8" draw unrelated durations.
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

std::string SafeEncode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) out.push_back(kSafeAlphabet[c % kSafeAlphabet.size()]);
  return out;
}

std::string NameSuffix(uint64_t seed) {
  // mt19937_64's sequence is fixed by the standard, so the suffix is the same everywhere.
  std::mt19937_64 rng(seed);
  std::string out;
  for (int i = 0; i < 5; ++i) out.push_back(kSafeAlphabet[rng() % kSafeAlphabet.size()]);
  return out;
}

std::string UidFromSeed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return NewUuid(rng);
}

std::string Sha1Hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(text.data(), text.size(), digest, &len, EVP_sha1(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xf]);
  }
  return out;
}

std::string TemplateHash(const Json& pod_template, int64_t collision_count) {
  // Canonical key order (nlohmann::json sorts keys), so a template whose keys a client sent
  // in another order hashes the same.
  // Invalid UTF-8 is replaced rather than thrown on (the API refuses it; a view built some
  // other way might not have).
  constexpr auto kLenient = nlohmann::json::error_handler_t::replace;
  const nlohmann::json canonical =
      nlohmann::json::parse(pod_template.dump(-1, ' ', false, kLenient), nullptr, false);
  uint32_t h = NamingFnv32a(kFnv32Offset, canonical.dump(-1, ' ', false, kLenient));
  if (collision_count >= 0) {
    const auto c = static_cast<uint32_t>(collision_count);
    const char bytes[4] = {static_cast<char>(c & 0xff), static_cast<char>((c >> 8) & 0xff),
                           static_cast<char>((c >> 16) & 0xff),
                           static_cast<char>((c >> 24) & 0xff)};
    h = NamingFnv32a(h, std::string_view(bytes, 4));
  }
  return SafeEncode(std::to_string(h));
}

}  // namespace berth::server::member
