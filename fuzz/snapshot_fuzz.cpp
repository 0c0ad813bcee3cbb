// Fuzz target: CollisionWorld::restore() on arbitrary bytes (world.hpp, docs/world.md "Snapshot
// and restore"). Each input is tried twice: as it is, and with its header's length and checksum
// made right (and its thread count set to 1), so that mutations reach the sections behind the
// checksum. restore() must either throw InvalidSnapshot or give a world that works: validate()
// holds, a snapshot of it restores to the same bytes, and two updates and the scene queries run
// with finite answers, validate() still holding. The seeds (fuzz/corpus/snapshot/seed-*) are
// snapshots of small worlds of every collider kind, written by make_seeds.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "invariants.hpp"

namespace pebble_fuzz::snapshot_target {
namespace {

using pebble::ColliderId;
using pebble::CollisionWorld;
using Bytes = std::vector<std::byte>;

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }
#if PEBBLE_DOUBLE_POSITIONS
bool finite(Position v) { return std::isfinite(v.x) && std::isfinite(v.y); }
#endif

void check_manifold(const Manifold& m) {
  FUZZ_REQUIRE(m.count >= 0 && m.count <= 2);
  FUZZ_REQUIRE(finite(m.normal));
  for (int i = 0; i < m.count; ++i) FUZZ_REQUIRE(finite(m.points[i].point) && std::isfinite(m.points[i].separation));
}

void check_world(CollisionWorld& w) {
  FUZZ_REQUIRE(w.validate());
  const Bytes saved = w.save();
  FUZZ_REQUIRE(CollisionWorld::restore(saved).save() == saved);
  for (int round = 0; round < 2; ++round) {
    w.update();
    FUZZ_REQUIRE(w.validate());
    for (const pebble::ContactPair& c : w.contacts()) check_manifold(c.manifold);
    const pebble::QueryFilter all{~0ull, true, true};
    for (int k = 0; k < 8; ++k) {
      const float a = 0.785f * float(k);
      const pebble::Ray ray{{-20 * std::cos(a), -20 * std::sin(a)}, {40 * std::cos(a), 40 * std::sin(a)}};
      if (const auto r = w.cast_ray(ray, all))
        FUZZ_REQUIRE(std::isfinite(r.hit.fraction) && finite(r.hit.point) && finite(r.hit.normal));
      if (const auto r = w.cast_circle(ray, 0.5f, all))
        FUZZ_REQUIRE(std::isfinite(r.hit.fraction) && finite(r.hit.point));
      const pebble::Shape probe = pebble::Shape::box(1, 0.5f);
      if (const auto r = w.cast_shape(probe, {ray.origin, pebble::Rot::identity()}, ray.translation, all))
        FUZZ_REQUIRE(std::isfinite(r.hit.fraction) && finite(r.hit.point));
    }
    int seen = 0;
    w.overlap_aabb(
        Aabb{{-50, -50}, {50, 50}},
        [&](ColliderId id) {
          FUZZ_REQUIRE(w.contains(id));
          ++seen;
          return true;
        },
        all);
    FUZZ_REQUIRE(seen <= w.size());
    pebble::Neighbor near[4];
    const int n = w.nearest(pebble::Shape::circle(0.1f), pebble::Transform::identity(), near, 100.0f, all);
    for (int i = 0; i < n; ++i) FUZZ_REQUIRE(std::isfinite(near[i].distance) && w.contains(near[i].id));
  }
  const Bytes after = w.save();
  FUZZ_REQUIRE(CollisionWorld::restore(after).save() == after);
}

void attempt(std::span<const std::byte> bytes) {
  CollisionWorld w;
  try {
    w = CollisionWorld::restore(bytes);
  } catch (const pebble::InvalidSnapshot&) {
    return;
  } catch (...) {
    FUZZ_REQUIRE(!"restore() threw something other than InvalidSnapshot");
  }
  check_world(w);
}

// The header's length and checksum made to agree with the bytes (docs/world.md: FNV-1a's step on
// 64-bit little-endian words in four lanes, over header bytes 0..31 and the payload), the thread
// count (payload bytes 16..19) set to 1.
void fix_header(Bytes& b) {
  constexpr std::size_t kHeader = 40;
  if (b.size() >= kHeader + 20) {
    b[kHeader + 16] = std::byte{1};
    b[kHeader + 17] = b[kHeader + 18] = b[kHeader + 19] = std::byte{0};
  }
  const std::uint64_t length = b.size() - kHeader;
  for (int k = 0; k < 8; ++k) b[24 + std::size_t(k)] = std::byte(std::uint8_t(length >> (8 * k)));
  constexpr std::uint64_t kBasis = 0xcbf29ce484222325ull, kPrime = 0x100000001b3ull;
  std::uint64_t lane[4] = {kBasis, kBasis, kBasis, kBasis};
  std::size_t word = 0;
  for (std::size_t i = 0; i < b.size(); i += 8) {
    if (i == 32) i = kHeader;  // the checksum's own eight bytes are left out
    if (i >= b.size()) break;
    std::uint64_t w = 0;
    for (std::size_t k = 0; k < 8 && i + k < b.size(); ++k) w |= std::uint64_t(b[i + k]) << (8 * k);
    lane[word % 4] = (lane[word % 4] ^ w) * kPrime;
    ++word;
  }
  std::uint64_t h = kBasis;
  for (const std::uint64_t l : lane) h = (h ^ l) * kPrime;
  for (int k = 0; k < 8; ++k) b[32 + std::size_t(k)] = std::byte(std::uint8_t(h >> (8 * k)));
}

}  // namespace

int run(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  attempt(bytes);
  if (size >= 40) {
    Bytes fixed(bytes.begin(), bytes.end());
    fix_header(fixed);
    attempt(fixed);
  }
  return 0;
}

}  // namespace pebble_fuzz::snapshot_target

#ifndef PEBBLE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return pebble_fuzz::snapshot_target::run(data, size);
}
#endif
