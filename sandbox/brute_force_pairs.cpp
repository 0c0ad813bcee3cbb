// The O(n^2) pair source: every pair of bodies, every pair of their parts whose boxes overlap, then
// collide() (of a chain segment with its ghosts for a chain).
#include "sandbox/pair_source.hpp"

#include <stdexcept>

#include <pebble/mass.hpp>

namespace pebble::sandbox {

void BruteForcePairs::add(int body, std::span<const Shape> parts, const Transform& xf, bool is_static) {
  if (body != static_cast<int>(entries_.size()))
    throw std::logic_error("BruteForcePairs: bodies must be added in order");
  entries_.push_back({{parts.begin(), parts.end()}, xf, is_static, {}, {}});
}

void BruteForcePairs::add_chain(int body, const Chain& chain, const Transform& xf) {
  add_segments(body, chain.segments(), xf);
}

void BruteForcePairs::add_heightfield(int body, const Heightfield& field, const Transform& xf) {
  add_segments(body, field.cells(), xf);
}

void BruteForcePairs::add_segments(int body, std::span<const ChainSegment> segments, const Transform& xf) {
  if (body != static_cast<int>(entries_.size()))
    throw std::logic_error("BruteForcePairs: bodies must be added in order");
  Entry e{{}, xf, true, {segments.begin(), segments.end()}, {}};
  for (const ChainSegment& s : e.segments) e.parts.push_back(s.shape);
  entries_.push_back(std::move(e));
}

void BruteForcePairs::move(int body, const Transform& xf) { entries_[static_cast<size_t>(body)].xf = xf; }

void BruteForcePairs::find_contacts(float margin, std::vector<BodyContact>& out) {
  out.clear();
  for (Entry& e : entries_) {
    e.boxes.clear();
    for (const Shape& part : e.parts) e.boxes.push_back(inflate(bounds(part, e.xf), margin));
  }
  const size_t n = entries_.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const Entry& a = entries_[i];
      const Entry& b = entries_[j];
      if (a.is_static && b.is_static) continue;
      for (size_t ka = 0; ka < a.parts.size(); ++ka) {
        for (size_t kb = 0; kb < b.parts.size(); ++kb) {
          if (!overlaps(a.boxes[ka], b.boxes[kb])) continue;
          Manifold m;
          if (!a.segments.empty()) {
            m = collide(a.segments[ka], a.xf, b.parts[kb], b.xf, margin);
          } else if (!b.segments.empty()) {
            m = collide(b.segments[kb], b.xf, a.parts[ka], a.xf, margin).flipped();
          } else {
            m = collide(a.parts[ka], a.xf, b.parts[kb], b.xf, margin);
          }
          if (m.count > 0)
            out.push_back({static_cast<int>(i), static_cast<int>(j), m, static_cast<int>(ka), static_cast<int>(kb)});
        }
      }
    }
  }
}

}  // namespace pebble::sandbox
