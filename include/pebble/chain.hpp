// pebble/chain.hpp — one-sided chains of segments for terrain, and the queries on one chain segment
// with its neighbours (ghost vertices), so that a body sliding along a chain never meets an internal
// vertex as a wall or a bump. docs/terrain.md.
#pragma once

#include <span>
#include <vector>

#include "pebble/cast.hpp"
#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"
#include "pebble/ray.hpp"
#include "pebble/shape.hpp"

namespace pebble {

/// One segment a -> b of a chain with its neighbours' far points (the ghost vertices), in the chain's
/// frame. It collides on its right side: the outward normal is the right perpendicular of b - a.
struct ChainSegment {
  Shape shape = Shape::circle(0);  ///< Shape::segment(a, b): the segment as a 2-vertex core of radius 0
  ///@{
  Vec2 a{}, b{};  ///< the segment's ends, in the chain's order
  ///@}
  Vec2 normal{};          ///< outward unit normal: the right perpendicular of b - a
  Vec2 ghost_prev{};      ///< the point before a (the previous segment is ghost_prev -> a); unused without one
  Vec2 ghost_next{};      ///< the point after b (the next segment is b -> ghost_next); unused without one
  bool has_prev = false;  ///< false at an open chain's first segment: a is a free end
  bool has_next = false;  ///< false at an open chain's last segment

  /// The segment a -> b with optional neighbours; throws InvalidShape as Chain's makers do.
  static ChainSegment make(Vec2 a, Vec2 b, const Vec2* ghost_prev = nullptr, const Vec2* ghost_next = nullptr);
};

/// A one-sided chain of segments. Its points run counter-clockwise around the solid, so a segment
/// a -> b collides on its right side (the outside of a counter-clockwise loop): a floor runs from
/// right to left. Bodies meet the chain from that side only; a ray or a body behind a segment
/// passes through it.
class Chain {
public:
  /// An open chain through the points (>= 2). The end segments have no ghost beyond them: the
  /// chain's two ends are free corners. Throws InvalidShape for a non-finite coordinate or one
  /// beyond kMaxShapeExtent (the chain's frame; place it with the collider's transform), two consecutive points that
  /// (nearly) coincide, or a segment longer than kMaxShapeExtent, naming the point.
  static Chain open(std::span<const Vec2> points);
  /// A closed loop through the points (>= 3; the last connects back to the first, which need not
  /// be repeated). Throws as open() does.
  static Chain loop(std::span<const Vec2> points);

  /// Segments: points - 1 for an open chain, points for a loop.
  int segment_count() const noexcept { return int(segments_.size()); }
  /// Segment i (0 <= i < segment_count()) with its ghost vertices, in the chain's frame.
  const ChainSegment& segment(int i) const { return segments_[std::size_t(i)]; }
  /// All segments in order, each with its ghost vertices.
  std::span<const ChainSegment> segments() const noexcept { return segments_; }
  /// The points as given (a loop's repeated first point dropped).
  std::span<const Vec2> points() const noexcept { return points_; }
  /// True for a loop (made by loop()), whose last segment joins the last point to the first.
  bool closed() const noexcept { return closed_; }

private:
  Chain() = default;
  static Chain make(std::span<const Vec2> points, bool closed);
  std::vector<Vec2> points_;
  std::vector<ChainSegment> segments_;
  bool closed_ = false;
};

/// The contact manifold of a chain segment (placed at xs) and shape b (at xb): collide() of the
/// segment's shape, with the normals a smooth surface would give. A normal inside the segment's own
/// cone is kept: its face normal, the normals around a free end, and the normals around its first
/// vertex when that vertex is a convex corner (the segment that starts at a convex corner owns it).
/// A normal that belongs to the next segment's corner is left to it (empty result); any other
/// normal (a ghost: a corner of b caught on a flat or concave joint) is replaced by the face normal,
/// with b's incident edge clipped to the segment. b's core centroid behind the segment's line gives
/// no contact (one-sided). Normal from the segment to b.
Manifold collide(const ChainSegment& s, const Transform& xs, const Shape& b, const Transform& xb,
                 float margin = 0) noexcept;

/// The signed distance between the segment and b (the segment as a shape: both sides).
inline DistanceResult distance(const ChainSegment& s, const Transform& xs, const Shape& b,
                               const Transform& xb) noexcept {
  return distance(s.shape, xs, b, xb);
}

/// A ray (or a disc of the given radius moved along it) against the segment's front side only: no
/// hit when it starts behind the segment's line or would hit it from behind.
CastResult cast_ray(const ChainSegment& s, const Transform& xs, const Ray& ray, float radius = 0) noexcept;

/// Shape a moved by translation_a against the segment (moved by translation_s), front side only: no
/// hit when a's core centroid starts behind the segment's line or a meets it from behind. Its
/// normal is chosen as collide() chooses: no hit when the normal belongs to the next segment's
/// convex corner (that segment reports it), the face normal for a ghost. As cast_shape()
/// otherwise (normal from a to the segment).
CastResult cast_shape(const Shape& a, const Transform& xa, Vec2 translation_a, const ChainSegment& s,
                      const Transform& xs, Vec2 translation_s, const ShapeCastOptions& options = {}) noexcept;

/// The old name of cast_ray() on a segment (docs/api-changes.md).
[[deprecated("use cast_ray")]] inline CastResult raycast(const ChainSegment& s, const Transform& xs, const Ray& ray,
                                                         float radius = 0) noexcept {
  return cast_ray(s, xs, ray, radius);
}
/// The old name of cast_shape() on a segment (docs/api-changes.md).
[[deprecated("use cast_shape")]] inline CastResult shape_cast(const Shape& a, const Transform& xa, Vec2 translation_a,
                                                              const ChainSegment& s, const Transform& xs,
                                                              Vec2 translation_s,
                                                              const ShapeCastOptions& options = {}) noexcept {
  return cast_shape(a, xa, translation_a, s, xs, translation_s, options);
}

/// time_of_impact() of shape a (moving by sweep sa) and the segment (moving by ss), front side only:
/// State::separated at t_max when a's core centroid starts behind the segment's line, or when the
/// first touch comes from behind (the segment's outward normal there faces away from a). Otherwise,
/// and for invalid input, as time_of_impact() on the segment's shape (normal from a to the segment).
ToiResult time_of_impact(const Shape& a, const Sweep& sa, const ChainSegment& s, const Sweep& ss, float t_max = 1,
                         const ToiOptions& options = {}) noexcept;

/// closest_approach() of shape a and the segment, front side only: a's core centroid behind the
/// segment's line at time 0 gives the empty answer {false, 0, kHugeDistance, {0,0}, {0,0}, {0,0}};
/// a first touch from behind is not a touch (hit false, at the time of least distance).
ApproachResult closest_approach(const Shape& a, const Transform& xa, Vec2 velocity_a, const ChainSegment& s,
                                const Transform& xs, Vec2 velocity_s, float horizon) noexcept;

}  // namespace pebble
