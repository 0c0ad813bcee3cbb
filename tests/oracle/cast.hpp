// tests/oracle/cast.hpp — reference answers for ray casts, circle casts, shape casts, closest
// approach and time of impact, in long double, measured on the geometry itself.
//
// Along a straight motion the signed distance between two convex shapes (a ray is a point
// moving, a circle cast a disc moving) is a convex function of time: the distance from a point
// moving on a line to a convex set is convex. So golden-section search finds its least value,
// and bisection on the falling side finds the first time it reaches any level. Under rotation
// the distance is no longer convex, but it is Lipschitz: it changes no faster than the largest
// speed of a point of one shape relative to the other; interval subdivision with that bound
// finds the first touch without missing brief ones. No pebble header is included.
#pragma once

#include <functional>
#include <vector>

#include "oracle/oracle.hpp"

namespace oracle {

/// A convex function of time on [0, t_max], sampled to find where it is least and where it
/// first falls to given levels.
class ConvexTrack {
public:
  ConvexTrack(std::function<real(real)> f, real t_max = 1);

  real least() const { return least_; }        ///< least value on [0, t_max]
  real least_at() const { return least_at_; }  ///< the earliest time (to search precision) of that value
  real at(real t) const { return f_(t); }
  /// The first time in [0, t_max] at which the value is <= level, or -1 when it never is.
  real first_at_or_below(real level) const;
  /// The last time in [0, t_max] at which the value is <= level, or -1 when it never is.
  real last_at_or_below(real level) const;

private:
  std::function<real(real)> f_;
  real t_max_, least_, least_at_;
};

/// A rigid motion over time: the shape's core points (its own frame, relative to the rotation
/// centre) turned by angle a0 + t (a1 - a0) and carried to c0 + t (c1 - c0).
struct Motion {
  V c0, c1;  ///< world position of the rotation centre at t = 0 and t = 1
  real a0 = 0, a1 = 0;
  /// The shape at time t, given its core relative to the rotation centre.
  RShape at(const RShape& centred, real t) const;
  /// Largest speed (per unit of t) of any point of a shape whose points lie within `reach` of
  /// the rotation centre.
  real speed_bound(real reach) const;
};

/// Largest distance of a point of the shape (radius included) from the origin of its frame.
real reach(const RShape& centred);

/// Signed distance between two shapes at time t under their motions.
real moving_distance(const RShape& a, const Motion& ma, const RShape& b, const Motion& mb, real t);

/// When the signed distance of two shapes under rigid motion first falls to `level` or below, in
/// [0, t_max]. The distance is Lipschitz with constant L (the sum of both speed bounds): an
/// interval [t0, t1] whose end values d0, d1 satisfy (d0 + d1 - L (t1 - t0)) / 2 > level cannot
/// reach level; any other interval is halved, in time order, down to a width of `resolution`.
struct FirstTouch {
  /// The first sampled time at which the distance is <= level (the true first time lies at most
  /// resolution before it), or -1 when no sample is.
  real certain = -1;
  /// The earliest time at which reaching level could not be ruled out: <= certain; a brief graze
  /// narrower than resolution may hide here. -1 when the level is never reached nor possible.
  real possible = -1;
};
FirstTouch first_time_at_or_below(const RShape& a, const Motion& ma, const RShape& b, const Motion& mb, real level,
                                  real t_max = 1, real resolution = 1e-9L);

/// A rounded convex polygon with its hull computed once, for the many distance evaluations of a
/// search: the hull of `points` (any order, any count >= 1) grown by radius.
class RoundedHull {
public:
  RoundedHull(const std::vector<V>& points, real radius);
  /// Signed distance from p to the surface (negative inside).
  real signed_distance(V p) const;
  const std::vector<V>& hull() const { return hull_; }
  real radius() const { return radius_; }

private:
  std::vector<V> hull_;
  real radius_;
};

/// The Minkowski difference A - B of two rounded shapes: the hull of every difference of core
/// points, grown by both radii. The signed distance of A and B moved by da and db is the signed
/// distance of the point db - da from it, so a shape cast is a ray cast against it.
RoundedHull minkowski_difference(const RShape& a, const RShape& b);

/// Signed distance between two rounded shapes through their Minkowski difference (cheaper than
/// oracle::distance, which tests cross-check it against).
real signed_distance_between(const RShape& a, const RShape& b);

/// The outward unit normal of the surface of s at p (p on the surface, up to rounding). With a
/// radius the normal is the direction from the nearest core point, always unique. A sharp core
/// (radius 0) has a whole cone of normals at a vertex: *unique is set false when p lies within
/// `corner` of a core vertex. A sharp segment has two sides: the normal is the one facing
/// `from` (where the query came from), not unique when `from` lies within `corner` of its line.
V surface_normal(const RShape& s, V p, V from, real corner, bool* unique);

/// True when u is an outward normal of s somewhere at p: no point of s lies further along u
/// than p, by more than slack.
bool is_supporting_normal(const RShape& s, V p, V u, real slack);

}  // namespace oracle
