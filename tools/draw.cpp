// Shape outlines follow seed 000's picture of a rounded polygon: each core edge moved out by the
// radius along its normal, consecutive ones joined by an arc of the radius around their vertex.
#include "tools/draw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace pebble::tools {

View View::fit(const Aabb& world, double left, double top, double width, double height) {
  const double w = std::max(1e-6, double(world.upper.x) - world.lower.x);
  const double h = std::max(1e-6, double(world.upper.y) - world.lower.y);
  View v;
  v.scale = std::min(width / w, height / h);
  const double cx = 0.5 * (double(world.lower.x) + world.upper.x), cy = 0.5 * (double(world.lower.y) + world.upper.y);
  v.origin_x = left + 0.5 * width - v.scale * cx;
  v.origin_y = top + 0.5 * height + v.scale * cy;
  return v;
}

void View::apply(cairo_t* cr) const {
  cairo_save(cr);
  cairo_translate(cr, origin_x, origin_y);
  cairo_scale(cr, scale, -scale);
}

void set_color(cairo_t* cr, Rgb c, double alpha) { cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha); }

void shape_path(cairo_t* cr, const Shape& shape, const Transform& xf) {
  const auto vertices = shape.vertices();
  const int n = shape.vertex_count();
  const double r = shape.radius();
  cairo_new_sub_path(cr);
  if (n == 1) {
    const Vec2 c = transform_point(xf, vertices[0]);
    // A point of radius 0 still shows, as a dot of a thousandth of a metre.
    cairo_arc(cr, c.x, c.y, r > 0 ? r : 1e-3, 0, 2 * std::numbers::pi);
    cairo_close_path(cr);
    return;
  }
  if (r == 0) {
    for (int i = 0; i < n; ++i) {
      const Vec2 p = transform_point(xf, vertices[static_cast<size_t>(i)]);
      if (i == 0)
        cairo_move_to(cr, p.x, p.y);
      else
        cairo_line_to(cr, p.x, p.y);
    }
    if (n > 2) cairo_close_path(cr);
    return;
  }
  // Vertex i's arc runs from the normal of the edge before it to the normal of the edge after it
  // (counter-clockwise); cairo joins consecutive arcs with the straight, moved-out edges.
  for (int i = 0; i < n; ++i) {
    const Vec2 c = transform_point(xf, vertices[static_cast<size_t>(i)]);
    const Vec2 before = rotate(xf.q, shape.normal((i + n - 1) % n));
    const Vec2 after = rotate(xf.q, shape.normal(i));
    const double a0 = std::atan2(before.y, before.x);
    double a1 = std::atan2(after.y, after.x);
    if (a1 < a0) a1 += 2 * std::numbers::pi;
    cairo_arc(cr, c.x, c.y, r, a0, a1);
  }
  cairo_close_path(cr);
}

void draw_shape(cairo_t* cr, const View& view, const Shape& shape, const Transform& xf, Rgb fill, double fill_alpha,
                Rgb line, double line_px) {
  view.apply(cr);
  shape_path(cr, shape, xf);
  cairo_restore(cr);
  const bool has_area = shape.radius() > 0 || shape.vertex_count() > 2;
  if (has_area && fill_alpha > 0) {
    set_color(cr, fill, fill_alpha);
    cairo_fill_preserve(cr);
  }
  set_color(cr, line);
  cairo_set_line_width(cr, line_px);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_stroke(cr);
  if (shape.vertex_count() == 1 && shape.radius() > 0) {
    // A radius line shows how a circle has turned.
    const Vec2 c = transform_point(xf, shape.vertices()[0]);
    const Vec2 e = c + shape.radius() * Vec2{xf.q.c, xf.q.s};
    cairo_move_to(cr, view.px(c.x), view.py(c.y));
    cairo_line_to(cr, view.px(e.x), view.py(e.y));
    cairo_stroke(cr);
  }
}

void draw_arrow(cairo_t* cr, const View& view, Vec2 from, Vec2 direction, double length_px, Rgb color, double line_px) {
  const double len = std::hypot(direction.x, direction.y);
  if (!(len > 0)) return;
  const double dx = direction.x / len, dy = -direction.y / len;  // pixel space: y down
  const double x0 = view.px(from.x), y0 = view.py(from.y);
  const double x1 = x0 + length_px * dx, y1 = y0 + length_px * dy;
  set_color(cr, color);
  cairo_set_line_width(cr, line_px);
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1, y1);
  cairo_stroke(cr);
  const double head = std::max(5.0, 3.5 * line_px);
  cairo_move_to(cr, x1, y1);
  cairo_line_to(cr, x1 - head * dx - 0.5 * head * dy, y1 - head * dy + 0.5 * head * dx);
  cairo_line_to(cr, x1 - head * dx + 0.5 * head * dy, y1 - head * dy - 0.5 * head * dx);
  cairo_close_path(cr);
  cairo_fill(cr);
}

void draw_dot(cairo_t* cr, const View& view, Vec2 at, double radius_px, Rgb color, bool hollow) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, view.px(at.x), view.py(at.y), radius_px, 0, 2 * std::numbers::pi);
  if (hollow) {
    set_color(cr, colors::background);
    cairo_fill_preserve(cr);
    set_color(cr, color);
    cairo_set_line_width(cr, 1.5);
    cairo_stroke(cr);
  } else {
    set_color(cr, color);
    cairo_fill(cr);
  }
}

void draw_text(cairo_t* cr, double x, double y, const char* text, double size_px, Rgb color, bool bold) {
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size_px);
  set_color(cr, color);
  cairo_move_to(cr, x, y);
  cairo_show_text(cr, text);
}

std::string png_bytes(cairo_surface_t* surface) {
  std::string bytes;
  cairo_surface_write_to_png_stream(
      surface,
      [](void* closure, const unsigned char* data, unsigned int length) {
        static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
        return CAIRO_STATUS_SUCCESS;
      },
      &bytes);
  return bytes;
}

namespace {
/// The grid step: 1, 2 or 5 x a power of ten, about `target_px` pixels apart.
double nice_step(double scale, double target_px) {
  const double raw = target_px / scale;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) return m * power;
  return 10 * power;
}

void format_tick(char* out, size_t size, double value, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  if (std::fabs(value) < 0.5 * step) value = 0;  // no "-0"
  std::snprintf(out, size, "%.*f", decimals, value);
}
}  // namespace

void draw_axes(cairo_t* cr, const View& view, double left, double top, double width, double height) {
  const double step = nice_step(view.scale, 70);
  const double x0 = view.wx(left), x1 = view.wx(left + width);
  const double y0 = view.wy(top + height), y1 = view.wy(top);
  char label[32];
  cairo_set_line_width(cr, 1);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 11);
  for (double x = std::ceil(x0 / step) * step; x <= x1 + 1e-9 * step; x += step) {
    const double px = std::round(view.px(static_cast<float>(x))) + 0.5;
    set_color(cr, std::fabs(x) < 0.5 * step ? colors::axis : colors::grid);
    cairo_move_to(cr, px, top);
    cairo_line_to(cr, px, top + height);
    cairo_stroke(cr);
    format_tick(label, sizeof label, x, step);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, label, &ext);
    draw_text(cr, px - 0.5 * ext.x_advance, top + height + 15, label, 11, colors::axis);
  }
  for (double y = std::ceil(y0 / step) * step; y <= y1 + 1e-9 * step; y += step) {
    const double py = std::round(view.py(static_cast<float>(y))) + 0.5;
    set_color(cr, std::fabs(y) < 0.5 * step ? colors::axis : colors::grid);
    cairo_move_to(cr, left, py);
    cairo_line_to(cr, left + width, py);
    cairo_stroke(cr);
    format_tick(label, sizeof label, y, step);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, label, &ext);
    draw_text(cr, left - 6 - ext.x_advance, py + 4, label, 11, colors::axis);
  }
  set_color(cr, colors::axis);
  cairo_rectangle(cr, left + 0.5, top + 0.5, width - 1, height - 1);
  cairo_stroke(cr);
  draw_text(cr, left + width - 34, top + height + 30, "x (m)", 11, colors::axis);
  cairo_save(cr);
  cairo_translate(cr, left - 40, top + 40);
  cairo_rotate(cr, -0.5 * std::numbers::pi);
  draw_text(cr, 0, 0, "y (m)", 11, colors::axis);
  cairo_restore(cr);
}

}  // namespace pebble::tools
