// The API contract of ../shared/DESIGN.md, spelled as a program outside the repository spells it:
// every fixed name, field and call form. It only has to compile (with -Werror): a renamed field,
// a changed parameter or a lost default argument breaks the build here before it breaks a user's.
#include <pebble/pebble.hpp>
#include <pebble/version.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>

namespace {

using namespace pebble;

// The value types, with the contract's field names in the contract's order.
[[maybe_unused]] constexpr Vec2 kV{1.0f, 2.0f};
static_assert(kMaxPolygonVertices == 8);
static_assert(std::same_as<decltype(Rot{}.c), float> && std::same_as<decltype(Rot{}.s), float>);
static_assert(std::same_as<decltype(Transform{}.p), Vec2> && std::same_as<decltype(Transform{}.q), Rot>);
static_assert(std::same_as<decltype(Aabb{}.lower), Vec2> && std::same_as<decltype(Aabb{}.upper), Vec2>);
// The release names: the version macros and version().
static_assert(PEBBLE_VERSION_MAJOR >= 0 && PEBBLE_VERSION_MINOR >= 0 && PEBBLE_VERSION_PATCH >= 0);
static_assert(std::same_as<decltype(pebble::version()), const char*>);

// Every call the contract lists, with the result type it promises; returns a checksum so that
// nothing is optimized into a different overload silently.
[[maybe_unused]] float use_everything() {
  const Rot r = Rot::from_angle(0.5f);
  const float angle = r.angle();
  const Transform xf{{1, 2}, r};
  const Transform id = Transform::identity();
  const Vec2 pts[] = {{0, 0}, {1, 0}, {0, 1}};

  const Shape circle = Shape::circle(0.5f);
  const Shape moved_circle = Shape::circle(0.5f, {1, 1});
  const Shape capsule = Shape::capsule({0, 0}, {1, 0}, 0.25f);
  const Shape segment = Shape::segment({0, 0}, {1, 0});
  const Shape box = Shape::box(1, 2);
  const Shape rounded = Shape::rounded_box(1, 2, 0.25f);
  const Shape triangle = Shape::polygon(std::span<const Vec2>(pts));
  const Shape rounded_triangle = Shape::polygon(pts, 0.1f);
  static_assert(std::same_as<decltype(box.vertex_count()), int>);
  static_assert(std::same_as<decltype(box.vertices()), std::span<const Vec2>>);
  static_assert(std::same_as<decltype(box.radius()), float>);

  const MassProperties mp = mass_properties(box);
  const MassProperties mp2 = mass_properties(box, 2.0f);
  const float mass = mp.mass + mp2.mass + mp.center.x + mp.inertia;
  const Aabb aabb = bounds(box, xf);

  const ProjectionResult pp = project_point(box, xf, {3, 3});
  const bool in = contains(box, xf, {1, 2});
  const float point_sum = pp.point.x + pp.normal.y + pp.distance + (pp.inside ? 1.0f : 0.0f) + (in ? 1.0f : 0.0f);

  const Manifold m = collide(box, id, circle, xf);
  const Manifold m2 = collide(box, id, circle, xf, 0.1f);
  const ContactPoint& cp = m.points[0];
  static_assert(std::same_as<decltype(cp.id), std::uint32_t>);
  const float manifold_sum = m.normal.x + float(m.count + m2.count) + cp.point.x + cp.separation + float(cp.id);

  const DistanceResult d = distance(capsule, id, segment, xf);
  const bool o = overlap(rounded, id, rounded_triangle, xf);
  const float distance_sum = d.distance + d.normal.x + d.point_a.x + d.point_b.y + (o ? 1.0f : 0.0f);

  const Ray ray{{-5, 0}, {10, 0}};
  const CastResult h = cast_ray(box, id, ray);
  const CastResult sc = cast_shape(circle, id, {5, 0}, triangle, xf, {0, 0});
  const float cast_sum = (h.hit ? 1.0f : 0.0f) + h.fraction + h.point.x + h.normal.x + sc.fraction;

  const Sweep sweep{{0, 0}, {0, 0}, {1, 0}, 0.0f, 1.0f};
  const Transform st = sweep_transform(sweep, 0.5f);
  const ToiResult toi = time_of_impact(box, sweep, moved_circle, Sweep{{0, 0}, {3, 0}, {3, 0}, 0, 0});
  const ToiResult toi2 = time_of_impact(box, sweep, moved_circle, Sweep{{0, 0}, {3, 0}, {3, 0}, 0, 0}, 0.5f);
  const bool states = toi.state == ToiResult::State::hit || toi.state == ToiResult::State::separated ||
                      toi2.state == ToiResult::State::overlapped || toi2.state == ToiResult::State::failed;
  const float toi_sum = st.p.x + toi.fraction + toi.point.x + toi.normal.y + (states ? 1.0f : 0.0f);

  const ApproachResult a = closest_approach(circle, id, {1, 0}, box, xf, {0, 0}, 2.0f);
  const float approach_sum = (a.hit ? 1.0f : 0.0f) + a.time + a.distance + a.point_a.x + a.point_b.x + a.normal.x;

  // The world: default-constructible, ids compared with ==, the calls in statement form (how a
  // program written against the contract's `void remove(ColliderId)` calls them).
  CollisionWorld world;
  const ColliderId first = world.add(box, id);
  const ColliderId second = world.add(circle, xf, std::uint64_t{7});
  const bool same = first == second;
  world.set_transform(second, id);
  world.update();
  const std::span<const ContactPair> pairs = world.contacts();
  float world_sum = float(pairs.size()) + (same ? 1.0f : 0.0f);
  for (const ContactPair& p : pairs) world_sum += (p.a == p.b ? 1.0f : 0.0f) + float(p.manifold.count);
  const WorldCastResult hit = world.cast_ray(ray);
  if (hit) world_sum += hit.hit.fraction + (hit.id == first ? 1.0f : 0.0f);
  world.remove(first);

  return angle + mass + aabb.lower.x + point_sum + manifold_sum + distance_sum + cast_sum + toi_sum + approach_sum +
         world_sum + float(rounded.vertex_count());
}

}  // namespace

float pebble_contract_checksum() { return use_everything(); }
