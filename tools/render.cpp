// Drawing a scene: the plot (grid, objects, query overlays) on the left, the legend on the right.
#include "tools/render.hpp"

#include <cairo-svg.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <set>
#include <span>
#include <string_view>

#include "tools/draw.hpp"

namespace pebble::tools {
namespace {

constexpr double kLeft = 60, kTop = 20, kBottom = 46, kLegendWidth = 250, kGap = 20;
constexpr double kNormalPx = 34;  ///< length of a drawn normal

Rgb object_color(size_t i) { return colors::fills[i % colors::fill_count]; }

/// Everything the picture must show, in world coordinates.
Aabb scene_box(const Scene& scene, const std::vector<Answer>& answers) {
  bool empty = true;
  Aabb box{};
  auto add = [&](Vec2 p) {
    if (!is_finite(p) || std::fabs(p.x) > 1e7f || std::fabs(p.y) > 1e7f) return;
    box = empty ? Aabb{p, p} : combine(box, Aabb{p, p});
    empty = false;
  };
  auto add_shape = [&](int index, const Transform& xf) {
    const Aabb b = bounds(scene.objects[static_cast<size_t>(index)].shape, xf);
    add(b.lower);
    add(b.upper);
  };
  auto add_ray = [&](const Ray& ray, float radius) {
    // The ray's ends, and the cast circle around them.
    for (const Vec2 end : {ray.origin, ray.origin + ray.translation}) {
      add(end - Vec2{radius, radius});
      add(end + Vec2{radius, radius});
    }
  };
  for (const SceneObject& o : scene.objects) {
    for (const Shape& part : o.convex() ? std::vector<Shape>{o.shape} : o.parts) {
      const Aabb b = bounds(part, o.xf);
      add(b.lower);
      add(b.upper);
    }
  }
  for (const auto& query : scene.queries) {
    std::visit(
        Overloaded{
            [&](const ProjectPointQuery& q) { add(q.point); }, [&](const ContainsQuery& q) { add(q.point); },
            [&](const RaycastQuery& q) { add_ray(q.ray, q.radius); },
            [&](const WorldRaycastQuery& q) { add_ray(q.ray, q.radius); },
            // Where moving shapes end.
            [&](const ShapeCastQuery& q) {
              for (const auto& [i, translation] : {std::pair{q.a, q.translation_a}, std::pair{q.b, q.translation_b}})
                add_shape(i, {scene.objects[static_cast<size_t>(i)].xf.p + translation,
                              scene.objects[static_cast<size_t>(i)].xf.q});
            },
            [&](const ToiQuery& q) {
              for (const auto& [i, to] : {std::pair{q.a, q.a_to}, std::pair{q.b, q.b_to}})
                add_shape(i, sweep_transform(sweep_of(scene.objects[static_cast<size_t>(i)], to), 1));
            },
            [&](const ApproachQuery& q) {
              for (const auto& [i, v] : {std::pair{q.a, q.velocity_a}, std::pair{q.b, q.velocity_b}})
                add_shape(i, {scene.objects[static_cast<size_t>(i)].xf.p + q.horizon * v,
                              scene.objects[static_cast<size_t>(i)].xf.q});
            },
            [](const auto&) {}},
        query);
  }
  for (const Answer& a : answers) {
    std::visit(Overloaded{[&](const DistanceResult& d) { add(d.point_a), add(d.point_b); },
                          [&](const ProjectionResult& p) { add(p.point); }, [](const auto&) {}},
               a);
  }
  if (empty) return {{-1, -1}, {1, 1}};
  const float pad = std::max(0.08f * std::max(box.upper.x - box.lower.x, box.upper.y - box.lower.y), 0.05f);
  return inflate(box, pad);
}

/// A label's rectangle in pixels, to keep object names from covering each other.
struct TextBox {
  double x, y, w, h;
  bool overlaps(const TextBox& o) const { return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h; }
};

/// The width in pixels of an object's name as label() draws it.
double text_width(cairo_t* cr, const std::string& text, double size = 12) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t ext;
  cairo_text_extents(cr, text.c_str(), &ext);
  return ext.x_advance;
}

/// Text with a thin halo of the background colour, readable over shapes.
void label(cairo_t* cr, double x, double y, const std::string& text, Rgb color, double size = 12) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, size);
  cairo_text_extents_t ext;
  cairo_text_extents(cr, text.c_str(), &ext);
  cairo_move_to(cr, x - 0.5 * ext.x_advance, y + 0.5 * ext.height);
  cairo_text_path(cr, text.c_str());
  set_color(cr, colors::background, 0.85);
  cairo_set_line_width(cr, 3);
  cairo_stroke_preserve(cr);
  set_color(cr, color);
  cairo_fill(cr);
}

void cross_marker(cairo_t* cr, const View& view, Vec2 at, Rgb color) {
  const double x = view.px(at.x), y = view.py(at.y), s = 5;
  set_color(cr, color);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, x - s, y - s);
  cairo_line_to(cr, x + s, y + s);
  cairo_move_to(cr, x - s, y + s);
  cairo_line_to(cr, x + s, y - s);
  cairo_stroke(cr);
}

void dashed_line(cairo_t* cr, const View& view, Vec2 a, Vec2 b, Rgb color) {
  const double dash[] = {5, 4};
  cairo_set_dash(cr, dash, 2, 0);
  set_color(cr, color);
  cairo_set_line_width(cr, 1.6);
  cairo_move_to(cr, view.px(a.x), view.py(a.y));
  cairo_line_to(cr, view.px(b.x), view.py(b.y));
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
}

std::string format(const char* f, double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, f, v);
  return buffer;
}

/// What the legend explains: one entry per kind of mark the picture shows.
enum class Mark {
  contact,
  speculative,
  normal,
  closest,
  projection,
  inside,
  outside,
  center,
  box,
  ray,
  hit,
  circle_cast,
  cast
};

void draw_manifold(cairo_t* cr, const View& view, const Manifold& m, std::set<Mark>& marks) {
  for (int k = 0; k < m.count; ++k) {
    const bool speculative = m.points[k].separation > 0;
    draw_arrow(cr, view, m.points[k].point, m.normal, kNormalPx, colors::contact, 2);
    draw_dot(cr, view, m.points[k].point, 4.5, colors::contact, speculative);
    marks.insert(speculative ? Mark::speculative : Mark::contact);
    marks.insert(Mark::normal);
  }
}

/// A ray (or circle cast), solid up to its first hit and dashed beyond; every hit with its normal.
void draw_ray(cairo_t* cr, const View& view, const Ray& ray, float radius, const std::vector<CastResult>& hits,
              std::set<Mark>& marks) {
  const Vec2 end = ray.origin + ray.translation;
  const bool hit = !hits.empty() && hits.front().hit;
  const Vec2 stop = hit ? ray.origin + hits.front().fraction * ray.translation : end;
  set_color(cr, colors::ray);
  cairo_set_line_width(cr, 2);
  cairo_move_to(cr, view.px(ray.origin.x), view.py(ray.origin.y));
  cairo_line_to(cr, view.px(stop.x), view.py(stop.y));
  cairo_stroke(cr);
  if (hit) dashed_line(cr, view, stop, end, colors::ray);
  draw_arrow(cr, view, end - 1e-3f * ray.translation, ray.translation, 0.01, colors::ray, 2);
  draw_dot(cr, view, ray.origin, 3, colors::ray);
  marks.insert(Mark::ray);
  if (radius > 0) {
    // The cast circle where it starts (faint) and where it first touches.
    for (const Vec2 c : {ray.origin, stop}) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, view.px(c.x), view.py(c.y), view.scale * radius, 0, 2 * std::numbers::pi);
      set_color(cr, colors::ray, c == stop ? 1.0 : 0.35);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
    }
    marks.insert(Mark::circle_cast);
  }
  for (const CastResult& h : hits) {
    if (!h.hit) continue;
    if (h.normal != Vec2{}) draw_arrow(cr, view, h.point, h.normal, kNormalPx, colors::hit, 2);
    draw_dot(cr, view, h.point, 4.5, colors::hit);
    marks.insert(Mark::hit);
  }
}

/// One moving object: its motion as an arrow from where it starts to where it ends, its outline
/// at the moment of interest (when `at` is given) and dashed where its motion ends.
void draw_motion(cairo_t* cr, const View& view, const Scene& scene, int index, const Transform& end,
                 const Transform* at, std::set<Mark>& marks) {
  const SceneObject& o = scene.objects[static_cast<size_t>(index)];
  if (end == o.xf) return;  // not moving
  const Rgb color = mix(object_color(static_cast<size_t>(index)), colors::outline, 0.35);
  const double dash[] = {6, 4};
  cairo_set_dash(cr, dash, 2, 0);
  draw_shape(cr, view, o.shape, end, color, 0, color, 1.2);
  cairo_set_dash(cr, nullptr, 0, 0);
  if (at) draw_shape(cr, view, o.shape, *at, color, 0, color, 2);
  const Vec2 from = transform_point(o.xf, o.shape.core_centroid());
  const Vec2 to = transform_point(end, o.shape.core_centroid());
  draw_arrow(cr, view, from, to - from, view.scale * distance(from, to), color, 1.2);
  marks.insert(Mark::cast);
}

/// Twice the signed area of a closed polygon: > 0 when it runs counter-clockwise.
double twice_signed_area(std::span<const Vec2> points) {
  double sum = 0;
  for (size_t k = 0; k < points.size(); ++k) sum += double(cross(points[k], points[(k + 1) % points.size()]));
  return sum;
}

/// A chain: every segment with short ticks on its colliding side (the right of a -> b), so that
/// one-sidedness shows, over a counter-clockwise loop filled as the solid it bounds.
void draw_chain(cairo_t* cr, const View& view, const Chain& chain, const Transform& xf, Rgb color) {
  const auto points = chain.points();
  // A clockwise loop has its solid outside (a cave, a container): filling its inside would draw
  // the empty space as solid, so only its ticks show which side collides.
  if (chain.closed() && twice_signed_area(points) > 0) {
    for (size_t k = 0; k < points.size(); ++k) {
      const Vec2 p = transform_point(xf, points[k]);
      if (k == 0) {
        cairo_move_to(cr, view.px(p.x), view.py(p.y));
      } else {
        cairo_line_to(cr, view.px(p.x), view.py(p.y));
      }
    }
    cairo_close_path(cr);
    set_color(cr, color, 0.2);
    cairo_fill(cr);
  }
  const Rgb line = mix(color, colors::outline, 0.35);
  set_color(cr, line);
  cairo_set_line_width(cr, 2);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  for (const ChainSegment& s : chain.segments()) {
    const Vec2 a = transform_point(xf, s.a), b = transform_point(xf, s.b), n = rotate(xf.q, s.normal);
    cairo_move_to(cr, view.px(a.x), view.py(a.y));
    cairo_line_to(cr, view.px(b.x), view.py(b.y));
    cairo_stroke(cr);
    // Ticks every ~12 px along the segment, 5 px long, on the outward side.
    const double length_px = view.scale * double(length(b - a));
    const int ticks = std::max(1, static_cast<int>(length_px / 12));
    cairo_set_line_width(cr, 1);
    for (int t = 0; t < ticks; ++t) {
      const Vec2 at = lerp(a, b, (static_cast<float>(t) + 0.5f) / static_cast<float>(ticks));
      cairo_move_to(cr, view.px(at.x), view.py(at.y));
      cairo_line_to(cr, view.px(at.x) + 5 * n.x, view.py(at.y) - 5 * n.y);
    }
    cairo_stroke(cr);
    cairo_set_line_width(cr, 2);
  }
}

/// Both shapes of a shape cast moving, and the contact point and normal where they first touch.
void draw_shape_cast(cairo_t* cr, const View& view, const Scene& scene, const ShapeCastQuery& q, const CastResult& h,
                     std::set<Mark>& marks) {
  for (const auto& [index, translation] : {std::pair{q.a, q.translation_a}, std::pair{q.b, q.translation_b}}) {
    const Transform& xf = scene.objects[static_cast<size_t>(index)].xf;
    const Transform at{xf.p + h.fraction * translation, xf.q};
    draw_motion(cr, view, scene, index, {xf.p + translation, xf.q}, h.hit ? &at : nullptr, marks);
  }
  if (!h.hit) return;
  draw_arrow(cr, view, h.point, h.normal, kNormalPx, colors::contact, 2);
  draw_dot(cr, view, h.point, 4.5, colors::contact);
  marks.insert(Mark::contact);
  marks.insert(Mark::normal);
}

void draw_answers(cairo_t* cr, const View& view, const Scene& scene, const std::vector<Answer>& answers,
                  std::set<Mark>& marks) {
  for (size_t i = 0; i < answers.size(); ++i) {
    const Query& query = scene.queries[i];
    std::visit(
        Overloaded{
            [&](const Manifold& m) { draw_manifold(cr, view, m, marks); },
            [&](const DistanceResult& d) {
              if (d.distance >= kHugeDistance) return;
              dashed_line(cr, view, d.point_a, d.point_b, colors::closest);
              draw_dot(cr, view, d.point_a, 3.5, colors::closest);
              draw_dot(cr, view, d.point_b, 3.5, colors::closest);
              const Vec2 mid = 0.5f * (d.point_a + d.point_b);
              label(cr, view.px(mid.x) + 10, view.py(mid.y) - 10, format("d = %.4g", d.distance), colors::closest, 11);
              marks.insert(Mark::closest);
            },
            [&](const ProjectionResult& p) {
              const Vec2 from = std::get<ProjectPointQuery>(query).point;
              cross_marker(cr, view, from, colors::ray);
              if (p.distance >= kHugeDistance) return;
              dashed_line(cr, view, from, p.point, colors::ray);
              draw_arrow(cr, view, p.point, p.normal, kNormalPx, colors::ray, 2);
              draw_dot(cr, view, p.point, 3.5, colors::ray);
              marks.insert(Mark::projection);
            },
            [&](const ContainsAnswer& a) {
              const Vec2 at = std::get<ContainsQuery>(query).point;
              draw_dot(cr, view, at, 5, a.inside ? colors::hit : colors::axis, !a.inside);
              marks.insert(a.inside ? Mark::inside : Mark::outside);
            },
            [&](const MassProperties& m) {
              const SceneObject& o = scene.objects[static_cast<size_t>(std::get<MassQuery>(query).object)];
              const Vec2 c = transform_point(o.xf, m.center);
              draw_dot(cr, view, c, 5, colors::text, true);
              cross_marker(cr, view, c, colors::text);
              marks.insert(Mark::center);
            },
            [&](const Aabb& b) {
              const double dash[] = {3, 3};
              cairo_set_dash(cr, dash, 2, 0);
              set_color(cr, colors::axis);
              cairo_set_line_width(cr, 1);
              cairo_rectangle(cr, view.px(b.lower.x), view.py(b.upper.y), view.scale * (b.upper.x - b.lower.x),
                              view.scale * (b.upper.y - b.lower.y));
              cairo_stroke(cr);
              cairo_set_dash(cr, nullptr, 0, 0);
              marks.insert(Mark::box);
            },
            [&](const CastResult& h) {
              if (const auto* cast = std::get_if<ShapeCastQuery>(&query)) {
                draw_shape_cast(cr, view, scene, *cast, h, marks);
                return;
              }
              const RaycastQuery& q = std::get<RaycastQuery>(query);
              const std::vector<CastResult> hits = {h};
              draw_ray(cr, view, q.ray, q.radius, hits, marks);
            },
            [&](const ToiResult& t) {
              const ToiQuery& q = std::get<ToiQuery>(query);
              for (const auto& [index, to] : {std::pair{q.a, q.a_to}, std::pair{q.b, q.b_to}}) {
                const Sweep sweep = sweep_of(scene.objects[static_cast<size_t>(index)], to);
                const Transform at = sweep_transform(sweep, t.fraction);
                const bool touching = t.state == ToiResult::State::hit || t.state == ToiResult::State::overlapped;
                draw_motion(cr, view, scene, index, sweep_transform(sweep, 1), touching ? &at : nullptr, marks);
              }
              if (t.state != ToiResult::State::hit && t.state != ToiResult::State::overlapped) return;
              draw_arrow(cr, view, t.point, t.normal, kNormalPx, colors::contact, 2);
              draw_dot(cr, view, t.point, 4.5, colors::contact);
              marks.insert(Mark::contact);
              marks.insert(Mark::normal);
            },
            [&](const ApproachResult& a) {
              const ApproachQuery& q = std::get<ApproachQuery>(query);
              for (const auto& [index, velocity] : {std::pair{q.a, q.velocity_a}, std::pair{q.b, q.velocity_b}}) {
                const Transform& xf = scene.objects[static_cast<size_t>(index)].xf;
                const Transform at{xf.p + a.time * velocity, xf.q};
                draw_motion(cr, view, scene, index, {xf.p + q.horizon * velocity, xf.q}, &at, marks);
              }
              if (a.distance >= kHugeDistance) return;
              dashed_line(cr, view, a.point_a, a.point_b, colors::closest);
              draw_dot(cr, view, a.point_a, 3.5, colors::closest);
              draw_dot(cr, view, a.point_b, 3.5, colors::closest);
              const Vec2 mid = 0.5f * (a.point_a + a.point_b);
              const std::string text = a.hit ? format("touch at t = %.3g", a.time)
                                             : format("closest at t = %.3g", a.time) + format(", d = %.3g", a.distance);
              label(cr, view.px(mid.x) + 10, view.py(mid.y) + 16, text, colors::closest, 11);
              marks.insert(Mark::closest);
            },
            [&](const WorldContactsAnswer& w) {
              for (const ObjectContact& c : w.pairs) draw_manifold(cr, view, c.manifold, marks);
            },
            [&](const WorldRaycastAnswer& w) {
              const WorldRaycastQuery& q = std::get<WorldRaycastQuery>(query);
              std::vector<CastResult> hits;
              for (const ObjectHit& h : w.hits) hits.push_back(h.hit);
              if (hits.empty()) hits.push_back(CastResult{false, 1, {}, {}});
              draw_ray(cr, view, q.ray, q.radius, hits, marks);
            },
            [](const OverlapAnswer&) {},
        },
        answers[i]);
  }
}

void draw_mark(cairo_t* cr, Mark mark, double x, double y) {
  View pixel;  // identity: world = pixels with y down flipped back
  pixel.scale = 1;
  auto at = [&](double px, double py) { return Vec2{static_cast<float>(px), static_cast<float>(-py)}; };
  switch (mark) {
    case Mark::contact:
      draw_dot(cr, pixel, at(x + 10, y), 4.5, colors::contact);
      break;
    case Mark::speculative:
      draw_dot(cr, pixel, at(x + 10, y), 4.5, colors::contact, true);
      break;
    case Mark::normal:
      draw_arrow(cr, pixel, at(x, y), {1, 0}, 22, colors::contact, 2);
      break;
    case Mark::closest:
      dashed_line(cr, pixel, at(x, y), at(x + 22, y), colors::closest);
      draw_dot(cr, pixel, at(x, y), 3, colors::closest);
      draw_dot(cr, pixel, at(x + 22, y), 3, colors::closest);
      break;
    case Mark::projection:
      cross_marker(cr, pixel, at(x + 2, y), colors::ray);
      draw_dot(cr, pixel, at(x + 20, y), 3, colors::ray);
      break;
    case Mark::inside:
      draw_dot(cr, pixel, at(x + 10, y), 5, colors::hit);
      break;
    case Mark::outside:
      draw_dot(cr, pixel, at(x + 10, y), 5, colors::axis, true);
      break;
    case Mark::center:
      draw_dot(cr, pixel, at(x + 10, y), 5, colors::text, true);
      cross_marker(cr, pixel, at(x + 10, y), colors::text);
      break;
    case Mark::ray:
      set_color(cr, colors::ray);
      cairo_set_line_width(cr, 2);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, x + 12, y);
      cairo_stroke(cr);
      dashed_line(cr, pixel, at(x + 12, y), at(x + 22, y), colors::ray);
      break;
    case Mark::hit:
      draw_arrow(cr, pixel, at(x + 4, y), {1, 0}, 18, colors::hit, 2);
      draw_dot(cr, pixel, at(x + 4, y), 4.5, colors::hit);
      break;
    case Mark::circle_cast:
      cairo_new_sub_path(cr);
      cairo_arc(cr, x + 11, y, 6.5, 0, 2 * std::numbers::pi);
      set_color(cr, colors::ray);
      cairo_set_line_width(cr, 1.5);
      cairo_stroke(cr);
      break;
    case Mark::cast: {
      draw_arrow(cr, pixel, at(x, y), {1, 0}, 22, colors::axis, 1.2);
      break;
    }
    case Mark::box: {
      const double dash[] = {3, 3};
      cairo_set_dash(cr, dash, 2, 0);
      set_color(cr, colors::axis);
      cairo_set_line_width(cr, 1);
      cairo_rectangle(cr, x + 1.5, y - 6.5, 20, 13);
      cairo_stroke(cr);
      cairo_set_dash(cr, nullptr, 0, 0);
      break;
    }
  }
}

const char* mark_text(Mark mark) {
  switch (mark) {
    case Mark::contact:
      return "contact point (touching)";
    case Mark::speculative:
      return "contact point within the margin";
    case Mark::normal:
      return "contact normal, from A to B";
    case Mark::closest:
      return "closest points (distance)";
    case Mark::projection:
      return "point and its projection, normal";
    case Mark::inside:
      return "point inside (contains)";
    case Mark::outside:
      return "point outside (contains)";
    case Mark::center:
      return "centre of mass";
    case Mark::box:
      return "bounding box";
    case Mark::ray:
      return "ray (dashed past the hit)";
    case Mark::hit:
      return "ray hit and surface normal";
    case Mark::circle_cast:
      return "cast circle at start and at hit";
    case Mark::cast:
      return "motion: first touch / closest, end";
  }
  return "";
}

double legend_height(const Scene& scene, size_t marks) {
  return 30 + 20.0 * static_cast<double>(scene.objects.size()) + (marks ? 34 + 20.0 * static_cast<double>(marks) : 0);
}

void draw_legend(cairo_t* cr, const Scene& scene, const std::set<Mark>& marks, double x, double y) {
  draw_text(cr, x, y + 12, "Objects", 13, colors::text, true);
  y += 30;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const Rgb c = object_color(i);
    cairo_rectangle(cr, x + 0.5, y - 7.5, 22, 13);
    set_color(cr, c, 0.45);
    cairo_fill_preserve(cr);
    set_color(cr, c);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
    const std::string text = scene.objects[i].name + "  (" + scene.objects[i].kind + ")";
    draw_text(cr, x + 32, y + 4, text.c_str(), 12, colors::text);
    y += 20;
  }
  if (marks.empty()) return;
  y += 14;
  draw_text(cr, x, y + 6, "Query results", 13, colors::text, true);
  y += 26;
  for (const Mark m : marks) {
    draw_mark(cr, m, x, y);
    draw_text(cr, x + 32, y + 4, mark_text(m), 12, colors::text);
    y += 20;
  }
}

/// Where an object's name goes, in its frame: the centroid of a counter-clockwise loop (the solid
/// it bounds), the middle of any other chain (its middle segment's midpoint), the centroid of a
/// compound's parts (its first part's would sit at one end of it), the centroid of a single shape's
/// core.
Vec2 label_point(const SceneObject& o) {
  if (o.chain) {
    const auto points = o.chain->points();
    const double area2 = twice_signed_area(points);
    if (o.chain->closed() && area2 > 0) {
      // The polygon's centroid: the triangles from the origin, weighted by their signed areas.
      double cx = 0, cy = 0;
      for (size_t k = 0; k < points.size(); ++k) {
        const Vec2 a = points[k], b = points[(k + 1) % points.size()];
        const double w = double(cross(a, b));
        cx += w * (double(a.x) + double(b.x));
        cy += w * (double(a.y) + double(b.y));
      }
      return {static_cast<float>(cx / (3 * area2)), static_cast<float>(cy / (3 * area2))};
    }
    const ChainSegment& s = o.chain->segment(o.chain->segment_count() / 2);
    return 0.5f * (s.a + s.b);
  }
  if (o.heightfield) {
    const ChainSegment& s = o.heightfield->cell(o.heightfield->cell_count() / 2);
    return 0.5f * (s.a + s.b);
  }
  if (o.convex()) return o.shape.core_centroid();
  try {
    const MassProperties m = mass_properties(o.parts, 1);
    if (m.mass > 0) return m.center;
  } catch (const InvalidShape&) {
    // A mass beyond float range: a picture still has a place for the name.
  }
  return o.shape.core_centroid();
}

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string render_scene(const Scene& scene, const std::vector<Answer>& answers, ImageFormat format,
                         const RenderSettings& settings) {
  const Aabb world = scene_box(scene, answers);
  const double width = std::max(settings.width, 480);
  const double plot_w = width - kLeft - kGap - kLegendWidth;
  const double aspect = double(world.upper.y - world.lower.y) / double(world.upper.x - world.lower.x);
  double plot_h = std::clamp(plot_w * aspect, 240.0, 1.5 * width);
  const double height = std::ceil(std::max(kTop + plot_h + kBottom, legend_height(scene, 13) + kTop));
  plot_h = height - kTop - kBottom;

  std::string bytes;
  cairo_surface_t* surface =
      format == ImageFormat::svg
          ? cairo_svg_surface_create_for_stream(append, &bytes, width, height)
          : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(width), static_cast<int>(height));
  cairo_t* cr = cairo_create(surface);
  set_color(cr, colors::background);
  cairo_paint(cr);

  const View view = View::fit(world, kLeft, kTop, plot_w, plot_h);
  draw_axes(cr, view, kLeft, kTop, plot_w, plot_h);
  cairo_save(cr);
  cairo_rectangle(cr, kLeft, kTop, plot_w, plot_h);
  cairo_clip(cr);
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const SceneObject& o = scene.objects[i];
    if (o.chain) {
      draw_chain(cr, view, *o.chain, o.xf, object_color(i));
      continue;
    }
    if (o.heightfield) {
      draw_chain(cr, view, o.heightfield->chain(), o.xf, object_color(i));
      continue;
    }
    // A compound or concave object: every part, thin lines between them.
    for (const Shape& part : o.convex() ? std::vector<Shape>{o.shape} : o.parts)
      draw_shape(cr, view, part, o.xf, object_color(i), 0.35, mix(object_color(i), colors::outline, 0.35),
                 o.convex() ? 2 : 1);
  }
  std::set<Mark> marks;
  draw_answers(cr, view, scene, answers, marks);
  std::vector<TextBox> names;
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const SceneObject& o = scene.objects[i];
    const Vec2 c = transform_point(o.xf, label_point(o));
    // Just below that point, where a centre-of-mass mark would be, unless an earlier name is there
    // (a ball inside a crate has its name where the crate's would go): then above, right or left.
    const double x = view.px(c.x), y = view.py(c.y);
    const double w = text_width(cr, o.name) + 4, h = 16;
    const std::pair<double, double> spots[] = {{x, y + 14}, {x, y - 14}, {x + 0.5 * w + 10, y}, {x - 0.5 * w - 10, y}};
    std::pair<double, double> at = spots[0];
    for (const auto& spot : spots) {
      const TextBox box{spot.first - 0.5 * w, spot.second - 0.5 * h, w, h};
      if (std::none_of(names.begin(), names.end(), [&](const TextBox& b) { return b.overlaps(box); })) {
        at = spot;
        break;
      }
    }
    names.push_back({at.first - 0.5 * w, at.second - 0.5 * h, w, h});
    label(cr, at.first, at.second, o.name, mix(object_color(i), colors::text, 0.55));
  }
  cairo_restore(cr);
  draw_legend(cr, scene, marks, kLeft + plot_w + kGap, kTop);
  cairo_destroy(cr);

  if (format == ImageFormat::png) bytes = png_bytes(surface);
  cairo_surface_finish(surface);
  const cairo_status_t status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) throw std::runtime_error(std::string("cairo: ") + cairo_status_to_string(status));
  return bytes;
}

}  // namespace pebble::tools
