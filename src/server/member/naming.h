// Deterministic names, uids and hashes for the objects the simulated controllers create.
// Upstream draws generateName suffixes and uids at random; a simulated round must give the
// same answer every time it runs on the same state (tests, and two hub replicas deciding
// alike), so these derive them from stable inputs instead. The hashes are FNV (stable across
// builds and platforms, unlike std::hash). Pure functions.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "server/member/member_objects.h"

namespace berth::server::member {

// FNV-1a (64-bit) of the parts, each followed by a separator byte, so ("ab","c") and
// ("a","bc") differ, then MurmurHash3's 64-bit finalizer.
uint64_t StableHash(std::initializer_list<std::string_view> parts);

// apimachinery's rand.SafeEncodeString: each byte mapped onto the 27 characters
// "bcdfghjklmnpqrstvwxz2456789" (no vowels, so no words).
std::string SafeEncode(std::string_view text);

// A 5-character generateName suffix from the same alphabet, drawn from `seed`.
std::string NameSuffix(uint64_t seed);

// A version-4-shaped UUID drawn from `seed` (server::NewUuid's form).
std::string UidFromSeed(uint64_t seed);

// The SHA-1 of `text` in lowercase hex (JobSet's job-key and LeaderWorkerSet's group-key
// labels are SHA-1 digests of "<namespace>/<name>").
std::string Sha1Hex(std::string_view text);

// The pod-template-hash of a Deployment's template (and a StatefulSet's revision hash):
// FNV-32a of the template's JSON (keys sorted), then of the collision count's four little-endian
// bytes when one is given (>= 0), printed in decimal and SafeEncoded, as the deployment
// controller's ComputeHash does over its object dump. Equal templates hash equal.
std::string TemplateHash(const Json& pod_template, int64_t collision_count);

}  // namespace berth::server::member
