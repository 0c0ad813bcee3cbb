// Chain and ChainSegment makers: validation, and the ghost vertices each segment keeps of its
// neighbours (docs/terrain.md).
#include "pebble/chain.hpp"

#include <cmath>
#include <sstream>

#include "geometry/invalid.hpp"
#include "pebble/constants.hpp"

namespace pebble {
namespace {

[[noreturn]] void fail(const std::string& what) { detail::fail("Chain", what); }

void check_point(Vec2 p, std::size_t i) {
  detail::check_point("Chain", p, i, 6, " (place the chain with its transform)");
}

}  // namespace

ChainSegment ChainSegment::make(Vec2 a, Vec2 b, const Vec2* ghost_prev, const Vec2* ghost_next) {
  const auto where = [&] {  // written only when there is something to say
    std::ostringstream out;
    out << "segment (" << a.x << ", " << a.y << ") -> (" << b.x << ", " << b.y << ")";
    return out.str();
  };
  // A chain's points are its segments' core vertices: Shape's limit on coordinates applies.
  const auto within = [](Vec2 p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::fabs(p.x) <= kMaxShapeExtent &&
           std::fabs(p.y) <= kMaxShapeExtent;
  };
  if (!within(a) || !within(b))
    fail(where() +
         " has a coordinate that is not finite or beyond kMaxShapeExtent (place the chain with its transform)");
  if (length(b - a) > kMaxShapeExtent) fail(where() + " is longer than kMaxShapeExtent");
  ChainSegment s;
  // A segment whose ends the shape maker welds into one point has no direction to collide along.
  s.shape = Shape::segment(a, b);
  if (s.shape.vertex_count() != 2) fail(where() + " is too short: its ends (nearly) coincide");
  s.a = a;
  s.b = b;
  s.normal = normalize(right_perp(b - a));
  if (ghost_prev) {
    if (!is_valid_point(*ghost_prev) || *ghost_prev == a)
      fail(where() + ": its previous point is not finite or equals its start");
    s.ghost_prev = *ghost_prev;
    s.has_prev = true;
  }
  if (ghost_next) {
    if (!is_valid_point(*ghost_next) || *ghost_next == b)
      fail(where() + ": its next point is not finite or equals its end");
    s.ghost_next = *ghost_next;
    s.has_next = true;
  }
  return s;
}

Chain Chain::make(std::span<const Vec2> points, bool closed) {
  std::size_t n = points.size();
  for (std::size_t i = 0; i < n; ++i) check_point(points[i], i);
  if (closed && n >= 2 && points[0] == points[n - 1]) --n;  // a loop given with its first point repeated
  if (n < (closed ? 3u : 2u)) {
    std::ostringstream out;
    out << (closed ? "a loop needs at least 3 distinct points" : "an open chain needs at least 2 points") << ", got "
        << n;
    fail(out.str());
  }
  Chain chain;
  chain.closed_ = closed;
  chain.points_.assign(points.begin(), points.begin() + std::ptrdiff_t(n));
  const std::size_t count = closed ? n : n - 1;
  chain.segments_.reserve(count);
  const std::vector<Vec2>& p = chain.points_;
  // Each segment is checked on its own first, so that an error names the segment at fault; then
  // each gets its neighbours' far points as ghosts.
  for (std::size_t i = 0; i < count; ++i) {
    try {
      chain.segments_.push_back(ChainSegment::make(p[i], p[(i + 1) % n]));
    } catch (const InvalidShape& e) {
      std::ostringstream out;
      out << e.what() << " (segment " << i << ", from point " << i << ")";
      throw InvalidShape(out.str());
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    ChainSegment& s = chain.segments_[i];
    if (closed || i > 0) {
      s.ghost_prev = p[(i + n - 1) % n];
      s.has_prev = true;
    }
    if (closed || i + 1 < count) {
      s.ghost_next = p[(i + 2) % n];
      s.has_next = true;
    }
  }
  return chain;
}

Chain Chain::open(std::span<const Vec2> points) { return make(points, false); }
Chain Chain::loop(std::span<const Vec2> points) { return make(points, true); }

}  // namespace pebble
