// sandbox/pair_source.hpp — where the stepper gets its contacts: a small interface over "which
// bodies touch, and their manifolds". The stepper never calls collide() itself, so the same solver
// runs on a brute-force loop (BruteForcePairs, the reference) and on a CollisionWorld.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <pebble/chain.hpp>
#include <pebble/heightfield.hpp>
#include <pebble/manifold.hpp>
#include <pebble/shape.hpp>

namespace pebble::sandbox {

/// The manifold between bodies a < b (indices into the stepper), normal from a to b, world space;
/// part_a and part_b name the parts (a chain's segment; 0 for a body of one shape).
struct BodyContact {
  int a = 0, b = 0;
  Manifold manifold{};
  int part_a = 0, part_b = 0;
};

/// Finds the contacts of a set of shapes that the stepper moves. Bodies are numbered in the order
/// they were added; static bodies never move and never touch each other.
class PairSource {
public:
  virtual ~PairSource() = default;
  /// Registers body number `body` (the next number) with its parts (one shape, or a compound's
  /// shapes in the body's frame) and world transform.
  virtual void add(int body, std::span<const Shape> parts, const Transform& xf, bool is_static) = 0;
  /// Registers body number `body` (the next number) as a static chain placed at xf.
  virtual void add_chain(int body, const Chain& chain, const Transform& xf) = 0;
  /// Registers body number `body` (the next number) as a static heightfield placed at xf; its part
  /// i is cell i.
  virtual void add_heightfield(int body, const Heightfield& field, const Transform& xf) = 0;
  /// Body `body` (a moving one) is now at xf.
  virtual void move(int body, const Transform& xf) = 0;
  /// Every pair of bodies, not both static, whose manifold at `margin` has count > 0, as of the
  /// latest transforms; a < b in each entry and its manifold's normal points from a to b. The
  /// order is deterministic (it depends only on the calls made so far). Replaces out's content.
  virtual void find_contacts(float margin, std::vector<BodyContact>& out) = 0;
};

/// The reference pair source: bounds() of every body, then collide() on every pair whose boxes,
/// grown by the margin, overlap. O(n^2); fine for a few hundred bodies.
class BruteForcePairs final : public PairSource {
public:
  void add(int body, std::span<const Shape> parts, const Transform& xf, bool is_static) override;
  void add_chain(int body, const Chain& chain, const Transform& xf) override;
  void add_heightfield(int body, const Heightfield& field, const Transform& xf) override;
  void move(int body, const Transform& xf) override;
  void find_contacts(float margin, std::vector<BodyContact>& out) override;

private:
  void add_segments(int body, std::span<const ChainSegment> segments, const Transform& xf);
  struct Entry {
    std::vector<Shape> parts;
    Transform xf;
    bool is_static;
    std::vector<ChainSegment> segments;  // a chain's or a heightfield's (then parts holds their shapes)
    std::vector<Aabb> boxes;             // scratch: each part's box grown by the margin
  };
  std::vector<Entry> entries_;
};

/// The pair source the demo runs on: a CollisionWorld (its broadphase and narrowphase) whose
/// contact margin is `margin`; find_contacts() may then ask for any margin up to that one.
class WorldPairs final : public PairSource {
public:
  /// reuse_contacts: WorldSettings::reuse_contacts (off: every manifold is collide()'s own).
  explicit WorldPairs(float margin, bool reuse_contacts = true);
  ~WorldPairs() override;
  void add(int body, std::span<const Shape> parts, const Transform& xf, bool is_static) override;
  void add_chain(int body, const Chain& chain, const Transform& xf) override;
  void add_heightfield(int body, const Heightfield& field, const Transform& xf) override;
  void move(int body, const Transform& xf) override;
  /// Runs the world's update(); keeps the points within `margin` (<= the world's margin).
  void find_contacts(float margin, std::vector<BodyContact>& out) override;
  /// Records the world's calls into the file (CollisionWorld::start_recording); before any add.
  void start_recording(const std::string& path);
  /// update_digest() of the world's last update.
  std::uint64_t digest() const;

private:
  struct Impl;  // the world and the body -> collider map: world.hpp stays out of this header
  std::unique_ptr<Impl> impl_;
};

/// The pair source the demo runs on (WorldPairs), for contacts up to `margin`.
std::unique_ptr<PairSource> make_pair_source(float margin);

}  // namespace pebble::sandbox
