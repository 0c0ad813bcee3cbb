// tools/draw.hpp — drawing pebble shapes with cairo, shared by `pebble demo` and `pebble render`:
// a view that maps the world (y up, metres) onto pixels (y down), shape outlines that follow the
// rounded boundary exactly (straight sides joined by arcs of the radius), colours and arrows.
#pragma once

#include <cairo.h>

#include <string>

#include <pebble/pebble.hpp>

namespace pebble::tools {

/// An opaque colour, components in 0..1.
struct Rgb {
  double r = 0, g = 0, b = 0;
};
/// A colour from 0xRRGGBB.
constexpr Rgb hex(unsigned v) { return {((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0}; }
/// a + t (b - a).
constexpr Rgb mix(Rgb a, Rgb b, double t) {
  return {a.r + t * (b.r - a.r), a.g + t * (b.g - a.g), a.b + t * (b.b - a.b)};
}

/// The colours the pictures use.
namespace colors {
inline constexpr Rgb background = hex(0xfbfaf7), grid = hex(0xe4e1da), axis = hex(0x6b6b6b), text = hex(0x2b2b2b);
inline constexpr Rgb outline = hex(0x2f3640), ground = hex(0x8d99a6);
/// Distinct fills for shapes (Tableau-like, readable on the light background).
inline constexpr Rgb fills[] = {hex(0x4e79a7), hex(0xf28e2b), hex(0x59a14f), hex(0xe15759), hex(0x76b7b2),
                                hex(0xedc948), hex(0xb07aa1), hex(0xff9da7), hex(0x9c755f), hex(0xbab0ac)};
inline constexpr int fill_count = 10;
inline constexpr Rgb contact = hex(0xd62728), closest = hex(0x1f77b4), ray = hex(0x7f3c8d), hit = hex(0x11a579);
}  // namespace colors

/// World to pixels: a uniform scale, y flipped, the world box `world` fitted into the pixel
/// rectangle [left, left + width] x [top, top + height] and centred there.
struct View {
  double scale = 1;                   ///< pixels per metre
  double origin_x = 0, origin_y = 0;  ///< pixel position of world (0, 0)

  static View fit(const Aabb& world, double left, double top, double width, double height);
  double px(float x) const { return origin_x + scale * x; }
  double py(float y) const { return origin_y - scale * y; }
  /// The world x, y at a pixel.
  double wx(double px_) const { return (px_ - origin_x) / scale; }
  double wy(double py_) const { return (origin_y - py_) / scale; }
  /// Makes cairo's user space the world (y up, metres); undo with cairo_restore.
  void apply(cairo_t* cr) const;
};

void set_color(cairo_t* cr, Rgb c, double alpha = 1);

/// The shape's boundary as a closed cairo path in the current user space, which must be the
/// world (View::apply). A radius-0 segment is an open path of one line; a radius-0 point, a tiny
/// circle.
void shape_path(cairo_t* cr, const Shape& shape, const Transform& xf);

/// Fills the shape and strokes its outline (line width in pixels); circles get a radius line so
/// that their rotation shows. The current user space must be the world.
void draw_shape(cairo_t* cr, const View& view, const Shape& shape, const Transform& xf, Rgb fill, double fill_alpha,
                Rgb line, double line_px);

/// An arrow from `from` along `direction` (world), `length_px` pixels long, in pixel space.
void draw_arrow(cairo_t* cr, const View& view, Vec2 from, Vec2 direction, double length_px, Rgb color, double line_px);

/// A filled (or hollow) dot of radius_px at a world point, in pixel space.
void draw_dot(cairo_t* cr, const View& view, Vec2 at, double radius_px, Rgb color, bool hollow = false);

/// Text with its left baseline at pixel (x, y); the font is the sans-serif face at size_px.
void draw_text(cairo_t* cr, double x, double y, const char* text, double size_px, Rgb color, bool bold = false);

/// An ARGB32 image surface and its cairo context, released together.
struct Canvas {
  cairo_surface_t* surface;
  cairo_t* cr;
  Canvas(int w, int h) : surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)), cr(cairo_create(surface)) {}
  ~Canvas() {
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
  }
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;
};

/// The PNG file of an image surface.
std::string png_bytes(cairo_surface_t* surface);

/// A grid with labelled axes (metres) over the pixel rectangle the view shows.
void draw_axes(cairo_t* cr, const View& view, double left, double top, double width, double height);

}  // namespace pebble::tools
