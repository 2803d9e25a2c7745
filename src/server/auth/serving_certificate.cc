// OpenSSL 3 calls, each checked; every object is freed through a unique_ptr so an early error
// return leaks nothing.
#include "server/auth/serving_certificate.h"

#include <arpa/inet.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace berth::server {

namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using KeyPtr = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, Deleter<X509, X509_free>>;

bool IsIp(const std::string& host) {
  unsigned char buf[16];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

core::Status WritePem(const std::string& path, bool key, EVP_PKEY* pkey, X509* cert) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return core::InvalidArgument("cannot write " + path);
  ::chmod(path.c_str(), 0600);
  const int ok = key ? PEM_write_PrivateKey(f, pkey, nullptr, nullptr, 0, nullptr, nullptr)
                     : PEM_write_X509(f, cert);
  const bool closed = std::fclose(f) == 0;
  if (ok != 1 || !closed) return core::InvalidArgument("cannot write " + path);
  return {};
}

}  // namespace

core::Status EnsureServingCertificate(const std::string& cert_path, const std::string& key_path,
                                      const std::vector<std::string>& hosts) {
  std::error_code ec;
  if (std::filesystem::exists(cert_path, ec) && std::filesystem::exists(key_path, ec)) return {};
  KeyPtr key(EVP_EC_gen("P-256"));
  if (!key) return core::Internal("cannot generate a P-256 key");
  CertPtr cert(X509_new());
  if (!cert) return core::Internal("cannot allocate a certificate");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), static_cast<long>(std::time(nullptr)));
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 10L * 365 * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>("berth-hub"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);

  std::string san = "DNS:localhost,IP:127.0.0.1,IP:::1";
  for (const std::string& h : hosts) {
    if (h.empty() || h == "localhost" || h == "127.0.0.1" || h == "0.0.0.0") continue;
    san += (IsIp(h) ? ",IP:" : ",DNS:") + h;
  }
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  const std::pair<int, std::string> extensions[] = {
      {NID_subject_alt_name, san},
      {NID_basic_constraints, "critical,CA:TRUE"},
      {NID_key_usage, "critical,digitalSignature,keyCertSign"},
      {NID_ext_key_usage, "serverAuth"},
  };
  for (const auto& [nid, value] : extensions) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (ext == nullptr) return core::Internal("cannot build certificate extension " + value);
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    return core::Internal("cannot sign the serving certificate");
  }
  if (auto st = WritePem(key_path, true, key.get(), nullptr); !st.ok()) return st;
  return WritePem(cert_path, false, nullptr, cert.get());
}

core::Result<std::string> Base64File(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::NotFound("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string data = ss.str();
  std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

}  // namespace berth::server
