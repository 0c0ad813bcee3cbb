// raycast() and the circle cast: seed 000's ray against a rounded polygon (src/ray_core.hpp) on
// the shape's own core, in the shape's frame and in double; the answer goes back to world space.
// A circle cast is the same ray against the core grown by the shape's radius plus the circle's.
#include "pebble/ray.hpp"

#include "ray_core.hpp"

namespace pebble {
namespace {

using cast_core::DFrame;
using cast_core::DVec;
using cast_core::dvec;
using cast_core::LocalHit;
using cast_core::to_float;

constexpr CastHit kNoHit{false, 1, {0, 0}, {0, 0}};

// A shape's core as cast_against_polygon() reads it: the stored vertices (slot vertex_count()
// repeats vertex 0), unit normals and offsets. A segment's second plane is the first one
// reversed, exactly (see cast_against_polygon).
struct CoreView {
  const Shape& shape;

  int vertex_count() const { return shape.vertex_count(); }
  int edge_count() const { return shape.edge_count(); }
  DVec vertex(int i) const { return dvec(shape.padded_vertices()[i]); }
  DVec normal(int i) const { return dvec(shape.normal(i)); }
  double offset(int i) const {
    return shape.vertex_count() == 2 && i == 1 ? -double(shape.offset_lanes()[0]) : double(shape.offset_lanes()[i]);
  }
};

bool valid_ray(const Ray& ray) { return is_valid_point(ray.origin) && is_valid_point(ray.translation); }

// The cast of a disc of radius `extra` (0 for a ray) along ray against shape at xf.
CastHit cast(const Shape& shape, const Transform& xf, const Ray& ray, double extra) {
  const DFrame frame(xf);
  const DVec o = frame.to_local(dvec(ray.origin)), d = frame.inv_rotate(dvec(ray.translation));
  const double r = double(shape.radius()) + extra;
  const LocalHit hit = shape.vertex_count() == 1 ? cast_core::cast_against_circle(dvec(shape.vertices()[0]), r, o, d, 0)
                                                 : cast_core::cast_against_polygon(CoreView{shape}, r, o, d);
  switch (hit.kind) {
    case LocalHit::Kind::miss: return kNoHit;
    case LocalHit::Kind::inside: return {true, 0, ray.origin, {0, 0}};
    case LocalHit::Kind::edge:
    case LocalHit::Kind::corner: break;
  }
  // On the grown surface; the disc touches the shape itself `extra` further in.
  const DVec point = hit.point - extra * hit.normal;
  return {true, float(hit.t), to_float(frame.to_world(point)), to_float(frame.rotate(hit.normal))};
}

}  // namespace

CastHit raycast(const Shape& shape, const Transform& xf, const Ray& ray) noexcept {
  if (!is_valid(xf) || !valid_ray(ray)) return kNoHit;
  return cast(shape, xf, ray, 0);
}

CastHit raycast(const Shape& shape, const Transform& xf, const Ray& ray, float radius) noexcept {
  if (!is_valid(xf) || !valid_ray(ray) || !(radius >= 0 && radius <= kMaxShapeExtent)) return kNoHit;
  return cast(shape, xf, ray, radius);
}

}  // namespace pebble
