// The stepper's contacts from a CollisionWorld: every use of the world API by the sandbox is here.
#include <algorithm>
#include <stdexcept>

#include <pebble/recording.hpp>
#include <pebble/world.hpp>

#include "sandbox/pair_source.hpp"

namespace pebble::sandbox {

struct WorldPairs::Impl {
  CollisionWorld world;
  std::vector<ColliderId> ids;  // by body index
  Impl(float margin, bool reuse) : world(WorldSettings{.contact_margin = margin, .reuse_contacts = reuse}) {}
};

WorldPairs::WorldPairs(float margin, bool reuse_contacts) : impl_(std::make_unique<Impl>(margin, reuse_contacts)) {}
WorldPairs::~WorldPairs() = default;

void WorldPairs::add(int body, std::span<const Shape> parts, const Transform& xf, bool is_static) {
  if (body != static_cast<int>(impl_->ids.size())) throw std::logic_error("WorldPairs: bodies must be added in order");
  ColliderOptions options;
  options.fixed = is_static;  // the container: never paired with itself, costs nothing per update
  options.user_data = static_cast<uint64_t>(body);
  impl_->ids.push_back(parts.size() == 1 ? impl_->world.add(parts[0], xf, options)
                                         : impl_->world.add(parts, xf, options));
}

void WorldPairs::add_chain(int body, const Chain& chain, const Transform& xf) {
  if (body != static_cast<int>(impl_->ids.size())) throw std::logic_error("WorldPairs: bodies must be added in order");
  ColliderOptions options;
  options.fixed = true;
  options.user_data = static_cast<uint64_t>(body);
  impl_->ids.push_back(impl_->world.add(chain, xf, options));
}

void WorldPairs::add_heightfield(int body, const Heightfield& field, const Transform& xf) {
  if (body != static_cast<int>(impl_->ids.size())) throw std::logic_error("WorldPairs: bodies must be added in order");
  ColliderOptions options;
  options.fixed = true;
  options.user_data = static_cast<uint64_t>(body);
  impl_->ids.push_back(impl_->world.add(field, xf, options));
}

void WorldPairs::start_recording(const std::string& path) { impl_->world.start_recording(path); }

std::uint64_t WorldPairs::digest() const { return update_digest(impl_->world); }

void WorldPairs::move(int body, const Transform& xf) {
  impl_->world.set_transform(impl_->ids[static_cast<size_t>(body)], xf);
}

void WorldPairs::find_contacts(float margin, std::vector<BodyContact>& out) {
  out.clear();
  CollisionWorld& world = impl_->world;
  world.update();
  for (const ContactPair& pair : world.contacts()) {
    int a = static_cast<int>(world.options(pair.a)->user_data);
    int b = static_cast<int>(world.options(pair.b)->user_data);
    Manifold m = pair.manifold;
    int part_a = pair.part_a, part_b = pair.part_b;
    if (a > b) {
      std::swap(a, b);
      std::swap(part_a, part_b);
      m = m.flipped();
    }
    // The world keeps every point within its own margin; a smaller one keeps fewer.
    int kept = 0;
    for (int i = 0; i < m.count; ++i)
      if (m.points[i].separation <= margin) m.points[kept++] = m.points[i];
    m.count = kept;
    if (kept > 0) out.push_back({a, b, m, part_a, part_b});
  }
}

std::unique_ptr<PairSource> make_pair_source(float margin) { return std::make_unique<WorldPairs>(margin); }

}  // namespace pebble::sandbox
