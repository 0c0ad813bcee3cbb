// The O(n^2) pair source: every pair of boxes, then collide() where they overlap.
#include "sandbox/pair_source.hpp"

#include <stdexcept>

#include <pebble/mass.hpp>

namespace pebble::sandbox {

void BruteForcePairs::add(int body, const Shape& shape, const Transform& xf, bool is_static) {
  if (body != static_cast<int>(entries_.size())) throw std::logic_error("BruteForcePairs: bodies must be added in order");
  entries_.push_back({shape, xf, is_static});
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
      if ((a.is_static && b.is_static) || !overlaps(boxes_[i], boxes_[j])) continue;
      const Manifold m = collide(a.shape, a.xf, b.shape, b.xf, margin);
      if (m.count > 0) out.push_back({static_cast<int>(i), static_cast<int>(j), m});
    }
  }
}

}  // namespace pebble::sandbox
