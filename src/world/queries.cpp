// CollisionWorld's scene queries: rays, circle and shape casts, overlaps with a shape, a box or a
// point, colliders within a distance. Each traverses both trees with the query's category mask,
// then asks the exact query of each candidate.
#include <algorithm>
#include <optional>
#include <type_traits>

#include "world/internal.hpp"

namespace pebble {

// ---------------------------------------------------------------------------------------------
// Scene queries.

bool WorldImpl::query_sees(std::uint32_t part, const QueryFilter& filter) const noexcept {
  const Hot& h = hot_[part];
  return (h.filter.category & filter.mask) != 0 && (filter.sensors || !h.sensor) && (filter.fixed || !h.fixed);
}

// The swept-box traversal of both trees that every cast shares: cast_one(part) casts against one
// part the filter passes; hits before the current end of the sweep go to on_hit, whose answer
// ignores (< 0), stops (0) or shortens the sweep.
void WorldImpl::sweep(const Ray& ray, Vec2 half_extents, const QueryFilter& filter,
                      detail::CallbackRef<CastResult(std::uint32_t)> cast_one,
                      detail::CallbackRef<float(const WorldCastResult&)> on_hit) const {
  float max_fraction = 1;
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    if (tree == &fixed_tree_ && !filter.fixed) break;
    max_fraction = tree->cast_box(
        ray.origin, half_extents, ray.translation, max_fraction,
        [&](ProxyId p, float current) {
          const std::uint32_t part = std::uint32_t(tree->user_data(p));
          if (!query_sees(part, filter)) return current;
          const CastResult hit = cast_one(part);
          if (!hit.hit || hit.fraction > current) return current;
          const float answer = on_hit(WorldCastResult{id_of(hot_[part].collider), hit, part_index(part)});
          if (answer < 0) return current;
          return std::min(current, answer);
        },
        filter.mask);
    if (!(max_fraction > 0)) return;
  }
}

void WorldImpl::ray_impl(const Ray& ray, float radius, const QueryFilter& filter,
                         detail::CallbackRef<float(const WorldCastResult&)> on_hit) const {
  if (!valid_ray(ray) || !(radius >= 0) || !(radius <= kMaxShapeExtent)) return;
  const auto cast_one = [&](std::uint32_t part) {
    const Part& p = parts_[part];
    if (p.chain) return pebble::cast_ray(p.piece, p.xf, ray, radius);  // one-sided
    return radius > 0 ? pebble::cast_ray(p.shape(), p.xf, ray, radius) : pebble::cast_ray(p.shape(), p.xf, ray);
  };
  const float reach = radius + coordinate_slack(ray.origin, ray.origin + ray.translation);
  sweep(ray, {reach, reach}, filter, cast_one, on_hit);
}

void WorldImpl::cast_shape_impl(const Shape& shape, const Transform& xf, Vec2 translation, const QueryFilter& filter,
                                const ShapeCastOptions& options,
                                detail::CallbackRef<float(const WorldCastResult&)> on_hit) const {
  if (!is_valid(xf) || !is_valid_point(translation)) return;
  const float target = options.target_separation;
  if (!(target >= 0) || !(target <= kMaxShapeExtent)) return;
  // The shape's box, grown by the target (shapes that far apart count as touching) and the slacks.
  const Aabb box = grown(bounds(shape, xf), target + kBoxSizeSlack * shape.extent(), shape);
  const auto cast_one = [&](std::uint32_t part) {
    const Part& p = parts_[part];
    CastResult hit = p.chain ? pebble::cast_shape(shape, xf, translation, p.piece, p.xf, Vec2{}, options)
                             : pebble::cast_shape(shape, xf, translation, p.shape(), p.xf, Vec2{}, options);
    hit.normal = -hit.normal;  // the collider's outward normal, as for rays
    return hit;
  };
#if PEBBLE_DOUBLE_POSITIONS
  // The cast's frame is at xf.p; its float work reaches the box's corners, swept.
  const float slack =
      std::max({coordinate_slack(xf.p, box.lower), coordinate_slack(xf.p, box.upper),
                coordinate_slack(xf.p, box.lower + translation), coordinate_slack(xf.p, box.upper + translation)});
#else
  const float slack = std::max(coordinate_slack(box.lower, box.upper),
                               coordinate_slack(box.lower + translation, box.upper + translation));
#endif
  const Vec2 half = extents(box) + Vec2{slack, slack};
  sweep(Ray{center(box), translation}, half, filter, cast_one, on_hit);
}

WorldCastResult WorldImpl::cast_ray(const Ray& ray, const QueryFilter& filter) const {
  WorldCastResult best;
  const auto closest = [&](const WorldCastResult& r) {
    best = r;
    return r.hit.fraction;
  };
  ray_impl(ray, 0, filter, closest);
  return best;
}

WorldCastResult WorldImpl::cast_circle(const Ray& ray, float radius, const QueryFilter& filter) const {
  WorldCastResult best;
  const auto closest = [&](const WorldCastResult& r) {
    best = r;
    return r.hit.fraction;
  };
  ray_impl(ray, radius, filter, closest);
  return best;
}

WorldCastResult WorldImpl::cast_shape(const Shape& shape, const Transform& xf, Vec2 translation,
                                      const QueryFilter& filter, const ShapeCastOptions& options) const {
  WorldCastResult best;
  const auto closest = [&](const WorldCastResult& r) {
    best = r;
    return r.hit.fraction;
  };
  cast_shape_impl(shape, xf, translation, filter, options, closest);
  return best;
}

// Calls on_hit for each collider the filter passes with a part whose tree box overlaps `box` and
// that accept(part shape, transform, part box) accepts, both trees, once per collider; stops when
// on_hit returns false. A world without colliders of several parts skips the bookkeeping.
template <class Accept>
void WorldImpl::visit_overlapping(const Aabb& box, const QueryFilter& filter, Accept accept,
                                  detail::CallbackRef<bool(ColliderId)> on_hit) const {
  std::vector<std::uint32_t> reported;  // colliders of several parts reported so far
  const auto walk = [&](const AabbTree& tree, auto several) {
    bool going = true;
    tree.query(box, filter.mask, [&](ProxyId p) {
      const std::uint32_t part = std::uint32_t(tree.user_data(p));
      if (!query_sees(part, filter)) return true;
      const Part& found = parts_[part];
      if (!accept(found.shape(), found.xf, found.box)) return true;
      const Hot& h = hot_[part];
      if (decltype(several)::value && h.several) {
        if (std::find(reported.begin(), reported.end(), h.collider) != reported.end()) return true;
        reported.push_back(h.collider);
      }
      going = on_hit(id_of(h.collider));
      return going;
    });
    return going;
  };
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    if (tree == &fixed_tree_ && !filter.fixed) break;
    const bool going = several_parts_ == 0 ? walk(*tree, std::false_type{}) : walk(*tree, std::true_type{});
    if (!going) return;
  }
}

void WorldImpl::within_impl(const Shape& shape, const Transform& xf, float distance, const QueryFilter& filter,
                            detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid(xf) || !(distance >= 0) || !(distance <= kMaxWorldCoordinate)) return;
  // The query shape's box grown by the distance: every collider within it has its box overlap this.
  const Aabb query = grown(bounds(shape, xf), distance + kBoxSizeSlack * shape.extent(), shape);
  visit_overlapping(
      query, filter,
      [&](const Shape& part, const Transform& at, const Aabb&) {
        return distance == 0 ? overlap(part, at, shape, xf)
                             : pebble::distance(part, at, shape, xf).distance <= distance;
      },
      on_hit);
}

void WorldImpl::collide_impl(const Shape& shape, const Transform& xf, float margin, const QueryFilter& filter,
                             detail::CallbackRef<bool(ColliderId, int, const Manifold&)> on_contact) const {
  if (!is_valid(xf) || !(margin >= 0) || !(margin <= kMaxShapeExtent)) return;
  const Aabb query = grown(bounds(shape, xf), margin + kBoxSizeSlack * shape.extent(), shape);
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    if (tree == &fixed_tree_ && !filter.fixed) break;
    bool going = true;
    tree->query(query, filter.mask, [&](ProxyId p) {
      const std::uint32_t part = std::uint32_t(tree->user_data(p));
      if (!query_sees(part, filter)) return true;
      const Part& found = parts_[part];
      const Manifold m = found.chain ? collide(found.piece, found.xf, shape, xf, margin)
                                     : collide(found.shape(), found.xf, shape, xf, margin);
      if (m.count == 0) return true;
      going = on_contact(id_of(hot_[part].collider), part_index(part), m);
      return going;
    });
    if (!going) return;
  }
}

int WorldImpl::nearest(const Shape& shape, const Transform& xf, std::span<Neighbor> out, float max_distance,
                       const QueryFilter& filter) const noexcept {
  if (out.empty() || !is_valid(xf) || !(max_distance >= 0)) return 0;
  const int k = int(std::min<std::size_t>(out.size(), std::size_t(std::numeric_limits<int>::max())));
  const Aabb box = bounds(shape, xf);
  const auto before = [](const Neighbor& a, const Neighbor& b) {
    return a.distance < b.distance ||
           (a.distance == b.distance && (a.id.index < b.id.index || (a.id.index == b.id.index && a.part < b.part)));
  };
  int found = 0;
  // Box gaps are >= 0 and only bound the distance from below when it is positive: while the k-th
  // distance is negative (overlaps), every subtree that touches the shape's box is still entered.
  const auto bound = [&] { return found < k ? max_distance : std::max(0.0f, out[std::size_t(k - 1)].distance); };
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    if (tree == &fixed_tree_ && !filter.fixed) break;
    tree->visit_nearest(
        box, bound(),
        [&](ProxyId p, float) {
          const std::uint32_t part = std::uint32_t(tree->user_data(p));
          if (!query_sees(part, filter)) return bound();
          const Part& found_part = parts_[part];
          const float d = found_part.chain ? distance(found_part.piece, found_part.xf, shape, xf).distance
                                           : distance(found_part.shape(), found_part.xf, shape, xf).distance;
          if (!(d <= max_distance)) return bound();
          const Neighbor candidate{id_of(hot_[part].collider), part_index(part), d};
          // A collider of several parts appears once, at its nearest part.
          int at = -1;
          for (int i = 0; i < found && hot_[part].several; ++i)
            if (out[std::size_t(i)].id == candidate.id) at = i;
          if (at >= 0) {
            if (!before(candidate, out[std::size_t(at)])) return bound();
          } else {
            if (found == k && !before(candidate, out[std::size_t(k - 1)])) return bound();
            at = found < k ? found++ : k - 1;
          }
          while (at > 0 && before(candidate, out[std::size_t(at - 1)])) {
            out[std::size_t(at)] = out[std::size_t(at - 1)];
            --at;
          }
          out[std::size_t(at)] = candidate;
          return bound();
        },
        filter.mask);
  }
  return found;
}

void WorldImpl::aabb_impl(const Aabb& box, const QueryFilter& filter,
                          detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid(box) || !is_valid_point(box.lower) || !is_valid_point(box.upper)) return;
  const Vec2 half = extents(box);
  if (half.x <= kMaxShapeExtent && half.y <= kMaxShapeExtent) {
    Transform at;
    const Shape shape = box_shape(box, at);
    within_impl(shape, at, 0, filter, on_hit);
    return;
  }
  // Too large for a Shape: a collider overlaps the box exactly when it overlaps the part of the box
  // inside its own tree box, which holds it.
  visit_overlapping(
      box, filter,
      [&](const Shape& shape, const Transform& at, const Aabb& part_box) {
        Aabb part{max(box.lower, part_box.lower), min(box.upper, part_box.upper)};
        if (!is_valid(part)) return false;
        if (!(extents(part).x <= kMaxShapeExtent && extents(part).y <= kMaxShapeExtent)) {
          // A shape up to 2.4e7 from its position, or a large contact margin: clipped also to the
          // shape's bounds grown by 1e-3 of its size (beyond what overlap() could call touching),
          // which are at most 4.9e7 wide, then asked tile by tile.
          const Aabb near = grown(bounds(shape, at), kBoxSizeSlack * shape.extent(), shape);
          part = {max(part.lower, near.lower), min(part.upper, near.upper)};
          return is_valid(part) && overlaps_box(shape, at, part);
        }
        Transform box_at;
        const Shape box_part = box_shape(part, box_at);
        return overlap(shape, at, box_part, box_at);
      },
      on_hit);
}

int WorldImpl::parts_in_box(const Aabb& box, std::span<PartView> out, const QueryFilter& filter) const noexcept {
  if (!is_valid(box) || !is_valid_point(box.lower) || !is_valid_point(box.upper)) return 0;
  int found = 0;
  for (const AabbTree* tree : {&moving_tree_, &fixed_tree_}) {
    if (tree == &fixed_tree_ && !filter.fixed) break;
    tree->query(box, filter.mask, [&](ProxyId p) {
      const std::uint32_t part = std::uint32_t(tree->user_data(p));
      if (!query_sees(part, filter)) return true;
      if (std::size_t(found) < out.size()) {
        const Hot& h = hot_[part];
        const Part& f = parts_[part];
        out[std::size_t(found)] = {
            id_of(h.collider), int(h.part_no), &f.shape(), f.chain ? &f.piece : nullptr, f.xf, f.box, h.fixed};
      }
      ++found;
      return true;
    });
  }
  return found;
}

void WorldImpl::point_impl(Position point, const QueryFilter& filter,
                           detail::CallbackRef<bool(ColliderId)> on_hit) const {
  if (!is_valid_point(point)) return;
  visit_overlapping(
      Aabb{point, point}, filter,
      [&](const Shape& shape, const Transform& at, const Aabb&) { return pebble::contains(shape, at, point); }, on_hit);
}

}  // namespace pebble
