// The CSV dialect is encoding/csv's, which kube-apiserver reads the file with: fields split
// on commas, a field may be quoted ("a,b" keeps its comma, "" is a quote).
#include "server/auth/token_authenticator.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <vector>

namespace berth::server {

namespace {

core::Result<std::vector<std::string>> SplitCsvLine(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"' && fields.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) return core::InvalidArgument("unterminated quoted field");
  return fields;
}

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(n * 2);
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 0xf];
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), digest, &len, EVP_sha256(), nullptr);
  return Hex(digest, len);
}

core::Result<std::string> RandomHex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (RAND_bytes(buf.data(), static_cast<int>(buf.size())) != 1) {
    return core::Internal("the system's random generator failed");
  }
  return Hex(buf.data(), buf.size());
}

core::Result<TokenAuthenticator> TokenAuthenticator::Parse(std::string_view text) {
  TokenAuthenticator out;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::string where = "line " + std::to_string(line_no) + ": ";
    auto fields = SplitCsvLine(line);
    if (!fields) return core::InvalidArgument(where + fields.error().message());
    if (fields->size() < 3) {
      return core::InvalidArgument(where + "want token,user,uid[,\"group1,group2\"]");
    }
    const std::string& token = (*fields)[0];
    if (token.empty()) return core::InvalidArgument(where + "empty token");
    UserInfo user{(*fields)[1], (*fields)[2], {}};
    if (user.name.empty()) return core::InvalidArgument(where + "empty user name");
    if (fields->size() > 3) {
      std::string_view groups = (*fields)[3];
      while (!groups.empty()) {
        const size_t comma = groups.find(',');
        std::string_view g = groups.substr(0, comma);
        if (!g.empty()) user.groups.emplace_back(g);
        groups = comma == std::string_view::npos ? std::string_view() : groups.substr(comma + 1);
      }
    }
    const std::string hash = Sha256Hex(token);
    if (out.users_.count(hash) != 0) return core::InvalidArgument(where + "token given twice");
    out.AddHashed(hash, std::move(user));
  }
  return out;
}

void TokenAuthenticator::AddHashed(std::string sha256_hex, UserInfo user) {
  if (!user.InGroup(kAuthenticatedGroup)) user.groups.emplace_back(kAuthenticatedGroup);
  users_[std::move(sha256_hex)] = std::move(user);
}

std::optional<UserInfo> TokenAuthenticator::Authenticate(std::string_view authorization) const {
  constexpr std::string_view kBearer = "Bearer ";
  if (authorization.size() <= kBearer.size() || !authorization.starts_with(kBearer)) {
    return std::nullopt;
  }
  std::string_view token = authorization.substr(kBearer.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  auto it = users_.find(Sha256Hex(token));
  if (it == users_.end()) return std::nullopt;
  return it->second;
}

}  // namespace berth::server
