// A first look at pebble: builds a few shapes and prints what the queries say about them.
#include <cstdio>
#include <pebble/pebble.hpp>

int main() {
  using namespace pebble;
  const Shape ball = Shape::circle(0.5f);
  const Shape crate = Shape::rounded_box(1.0f, 0.5f, 0.1f);
  const Vec2 tri_points[] = {{0, 0}, {2, 0}, {0, 1}, {0.5f, 0.25f}};  // the last is inside
  const Shape wedge = Shape::polygon(tri_points, 0.05f);

  const Transform crate_at{{2, 1}, Rot::from_angle(0.3f)};
  std::printf("shapes: ball (%d core vertex), crate (%d), wedge (%d, hull of 4 points)\n", ball.vertex_count(),
              crate.vertex_count(), wedge.vertex_count());

  const MassProperties m = mass_properties(crate, 2.0f);
  std::printf("crate mass %.4f, center (%.3f, %.3f), inertia %.4f\n", m.mass, m.center.x, m.center.y, m.inertia);

  const Aabb box = bounds(crate, crate_at);
  std::printf("crate bounds [%.3f, %.3f] x [%.3f, %.3f]\n", box.lower.x, box.upper.x, box.lower.y, box.upper.y);

  const Vec2 probe{3.5f, 1.0f};
  const ProjectionResult pp = project_point(crate, crate_at, probe);
  std::printf("probe (%.2f, %.2f): closest (%.3f, %.3f), normal (%.3f, %.3f), distance %.4f, %s\n", probe.x, probe.y,
              pp.point.x, pp.point.y, pp.normal.x, pp.normal.y, pp.distance, pp.inside ? "inside" : "outside");
  std::printf("crate contains its center: %s\n", contains(crate, crate_at, crate_at.p) ? "yes" : "no");

  // The ball resting on the crate's top face, 1 mm into it, and the wedge beside them.
  const Transform ball_at{transform_point(crate_at, {0.2f, 0.5f + 0.5f - 0.001f}), Rot::identity()};
  const Manifold contact = collide(crate, crate_at, ball, ball_at, kLinearSlop);
  std::printf("crate/ball manifold: %d point(s), normal (%.3f, %.3f)\n", contact.count, contact.normal.x,
              contact.normal.y);
  for (int i = 0; i < contact.count; ++i)
    std::printf("  point (%.3f, %.3f) separation %.4f id 0x%08x\n", contact.points[i].point.x,
                contact.points[i].point.y, contact.points[i].separation, contact.points[i].id);

  const Transform wedge_at{{-1.5f, 0.8f}, Rot::from_angle(-0.4f)};
  const DistanceResult gap = distance(crate, crate_at, wedge, wedge_at);
  std::printf("crate/wedge distance %.4f between (%.3f, %.3f) and (%.3f, %.3f); overlap: %s\n", gap.distance,
              gap.point_a.x, gap.point_a.y, gap.point_b.x, gap.point_b.y,
              overlap(crate, crate_at, wedge, wedge_at) ? "yes" : "no");
  return 0;
}
