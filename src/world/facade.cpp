// CollisionWorld (pebble/world.hpp): each call forwarded to the WorldImpl it holds
// (world/internal.hpp), which world.cpp, update.cpp, queries.cpp, snapshot.cpp and recording.cpp
// implement. Nothing else happens here.
#include <memory>

#include "world/internal.hpp"

namespace pebble {

CollisionWorld::CollisionWorld() : CollisionWorld(WorldSettings{}) {}
CollisionWorld::CollisionWorld(const WorldSettings& settings) : impl_(std::make_unique<WorldImpl>(settings)) {}
CollisionWorld::CollisionWorld(std::unique_ptr<WorldImpl> impl) noexcept : impl_(std::move(impl)) {}
CollisionWorld::~CollisionWorld() = default;
CollisionWorld::CollisionWorld(CollisionWorld&&) noexcept = default;
CollisionWorld& CollisionWorld::operator=(CollisionWorld&&) noexcept = default;

ColliderId CollisionWorld::add(const Shape& shape, const Transform& xf, std::uint64_t user_data) {
  return impl_->add(shape, xf, user_data);
}
ColliderId CollisionWorld::add(const Shape& shape, const Transform& xf, const ColliderOptions& options) {
  return impl_->add(shape, xf, options);
}
ColliderId CollisionWorld::add(std::span<const Shape> parts, const Transform& xf, std::uint64_t user_data) {
  return impl_->add(parts, xf, user_data);
}
ColliderId CollisionWorld::add(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& options) {
  return impl_->add(parts, xf, options);
}
ColliderId CollisionWorld::add(const Chain& chain, const Transform& xf, std::uint64_t user_data) {
  return impl_->add(chain, xf, user_data);
}
ColliderId CollisionWorld::add(const Chain& chain, const Transform& xf, const ColliderOptions& options) {
  return impl_->add(chain, xf, options);
}
ColliderId CollisionWorld::add(const Heightfield& field, const Transform& xf, std::uint64_t user_data) {
  return impl_->add(field, xf, user_data);
}
ColliderId CollisionWorld::add(const Heightfield& field, const Transform& xf, const ColliderOptions& options) {
  return impl_->add(field, xf, options);
}
bool CollisionWorld::remove(ColliderId id) { return impl_->remove(id); }
bool CollisionWorld::set_transform(ColliderId id, const Transform& xf) { return impl_->set_transform(id, xf); }
int CollisionWorld::set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms) {
  return impl_->set_transforms(ids, transforms);
}
bool CollisionWorld::set_shape(ColliderId id, const Shape& shape) { return impl_->set_shape(id, shape); }
bool CollisionWorld::set_filter(ColliderId id, const Filter& filter) { return impl_->set_filter(id, filter); }
bool CollisionWorld::set_user_data(ColliderId id, std::uint64_t user_data) {
  return impl_->set_user_data(id, user_data);
}

bool CollisionWorld::contains(ColliderId id) const noexcept { return impl_->contains(id); }
const Shape* CollisionWorld::shape(ColliderId id) const noexcept { return impl_->shape(id); }
int CollisionWorld::part_count(ColliderId id) const noexcept { return impl_->part_count(id); }
const Shape* CollisionWorld::part(ColliderId id, int part) const noexcept { return impl_->part(id, part); }
const Transform* CollisionWorld::transform(ColliderId id) const noexcept { return impl_->transform(id); }
const ColliderOptions* CollisionWorld::options(ColliderId id) const noexcept { return impl_->options(id); }
Aabb CollisionWorld::box(ColliderId id) const noexcept { return impl_->box(id); }
int CollisionWorld::size() const noexcept { return impl_->live_; }

void CollisionWorld::update() { impl_->update(); }
std::span<const ContactPair> CollisionWorld::contacts() const noexcept { return impl_->contacts_; }
std::span<const ContactEvent> CollisionWorld::touch_begin_events() const noexcept { return impl_->begin_events_; }
std::span<const ContactEvent> CollisionWorld::touch_end_events() const noexcept { return impl_->end_events_; }
std::span<const ContactEvent> CollisionWorld::part_touch_begin_events() const noexcept {
  return impl_->begin_part_events_;
}
std::span<const ContactEvent> CollisionWorld::part_touch_end_events() const noexcept { return impl_->end_part_events_; }
std::span<const SensorEvent> CollisionWorld::sensor_begin_events() const noexcept {
  return impl_->sensor_begin_events_;
}
std::span<const SensorEvent> CollisionWorld::sensor_end_events() const noexcept { return impl_->sensor_end_events_; }
WorldStats CollisionWorld::stats() const { return impl_->stats(); }
bool CollisionWorld::validate() const { return impl_->validate(); }
void CollisionWorld::optimize_fixed() { impl_->optimize_fixed(); }
const WorldSettings& CollisionWorld::settings() const noexcept { return impl_->settings_; }

void CollisionWorld::start_recording(std::ostream& out) { impl_->start_recording(out); }
void CollisionWorld::start_recording(const std::string& path) { impl_->start_recording(path); }
void CollisionWorld::stop_recording() noexcept { impl_->stop_recording(); }
bool CollisionWorld::recording() const noexcept { return impl_->recorder_ != nullptr; }

std::vector<std::byte> CollisionWorld::save() const { return impl_->save(); }
CollisionWorld CollisionWorld::restore(std::span<const std::byte> bytes) {
  return CollisionWorld(WorldImpl::restore(bytes));
}

WorldCastResult CollisionWorld::cast_ray(const Ray& ray, const QueryFilter& filter) const {
  return impl_->cast_ray(ray, filter);
}
WorldCastResult CollisionWorld::cast_circle(const Ray& ray, float radius, const QueryFilter& filter) const {
  return impl_->cast_circle(ray, radius, filter);
}
WorldCastResult CollisionWorld::cast_shape(const Shape& shape, const Transform& xf, Vec2 translation,
                                           const QueryFilter& filter, const ShapeCastOptions& options) const {
  return impl_->cast_shape(shape, xf, translation, filter, options);
}
int CollisionWorld::nearest(const Shape& shape, const Transform& xf, std::span<Neighbor> out, float max_distance,
                            const QueryFilter& filter) const noexcept {
  return impl_->nearest(shape, xf, out, max_distance, filter);
}
int CollisionWorld::parts_in_box(const Aabb& box, std::span<PartView> out, const QueryFilter& filter) const noexcept {
  return impl_->parts_in_box(box, out, filter);
}

void CollisionWorld::ray_impl(const Ray& ray, float radius, const QueryFilter& filter,
                              detail::CallbackRef<float(const WorldCastResult&)> on_hit) const {
  impl_->ray_impl(ray, radius, filter, on_hit);
}
void CollisionWorld::cast_shape_impl(const Shape& shape, const Transform& xf, Vec2 translation,
                                     const QueryFilter& filter, const ShapeCastOptions& options,
                                     detail::CallbackRef<float(const WorldCastResult&)> on_hit) const {
  impl_->cast_shape_impl(shape, xf, translation, filter, options, on_hit);
}
void CollisionWorld::within_impl(const Shape& shape, const Transform& xf, float distance, const QueryFilter& filter,
                                 detail::CallbackRef<bool(ColliderId)> on_hit) const {
  impl_->within_impl(shape, xf, distance, filter, on_hit);
}
void CollisionWorld::aabb_impl(const Aabb& box, const QueryFilter& filter,
                               detail::CallbackRef<bool(ColliderId)> on_hit) const {
  impl_->aabb_impl(box, filter, on_hit);
}
void CollisionWorld::collide_impl(const Shape& shape, const Transform& xf, float margin, const QueryFilter& filter,
                                  detail::CallbackRef<bool(ColliderId, int, const Manifold&)> on_contact) const {
  impl_->collide_impl(shape, xf, margin, filter, on_contact);
}
void CollisionWorld::point_impl(Position point, const QueryFilter& filter,
                                detail::CallbackRef<bool(ColliderId)> on_hit) const {
  impl_->point_impl(point, filter, on_hit);
}

}  // namespace pebble
