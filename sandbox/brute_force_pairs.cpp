// The O(n^2) pair source: every pair of boxes, then collide() where they overlap.
#include "sandbox/pair_source.hpp"

#include <stdexcept>

#include <pebble/mass.hpp>

namespace pebble::sandbox {

void BruteForcePairs::add(int body, const Shape& shape, const Transform& xf, bool is_static) {
  if (body != static_cast<int>(entries_.size())) throw std::logic_error("BruteForcePairs: bodies must be added in order");
  entries_.push_back({shape, xf, is_static, {}});
}

void BruteForcePairs::add_chain(int body, const Chain& chain, const Transform& xf) {
  if (body != static_cast<int>(entries_.size())) throw std::logic_error("BruteForcePairs: bodies must be added in order");
  entries_.push_back({chain.segment(0).shape, xf, true, {chain.segments().begin(), chain.segments().end()}});
}

void BruteForcePairs::move(int body, const Transform& xf) { entries_[static_cast<size_t>(body)].xf = xf; }

void BruteForcePairs::find_contacts(float margin, std::vector<BodyContact>& out) {
  out.clear();
  const size_t n = entries_.size();
  boxes_.resize(n);
  for (size_t i = 0; i < n; ++i) boxes_[i] = inflate(bounds(entries_[i].shape, entries_[i].xf), margin);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const Entry& a = entries_[i];
      const Entry& b = entries_[j];
      if (a.is_static && b.is_static) continue;
      if (!a.segments.empty() || !b.segments.empty()) {
        // A chain against a shape: each segment whose box meets the shape's.
        const bool chain_first = !a.segments.empty();
        const Entry& chain = chain_first ? a : b;
        const Entry& other = chain_first ? b : a;
        const Aabb box = chain_first ? boxes_[j] : boxes_[i];
        for (size_t k = 0; k < chain.segments.size(); ++k) {
          if (!overlaps(inflate(bounds(chain.segments[k].shape, chain.xf), margin), box)) continue;
          const Manifold m = collide(chain.segments[k], chain.xf, other.shape, other.xf, margin);
          if (m.count == 0) continue;
          if (chain_first) {
            out.push_back({static_cast<int>(i), static_cast<int>(j), m, static_cast<int>(k), 0});
          } else {
            out.push_back({static_cast<int>(i), static_cast<int>(j), m.flipped(), 0, static_cast<int>(k)});
          }
        }
        continue;
      }
      if (!overlaps(boxes_[i], boxes_[j])) continue;
      const Manifold m = collide(a.shape, a.xf, b.shape, b.xf, margin);
      if (m.count > 0) out.push_back({static_cast<int>(i), static_cast<int>(j), m});
    }
  }
}

}  // namespace pebble::sandbox
