// Manifold::flipped and detail::collide_generic. collide() itself is inline in the header: it
// calls the kernel copy in use (kernels.hpp; the algorithm is in kernels.cpp).
#include "pebble/manifold.hpp"

namespace pebble {

Manifold Manifold::flipped() const {
  Manifold out = *this;
  out.normal = -normal;
  for (int i = 0; i < count && i < 2; ++i) {
    const uint32_t id = points[i].id;
    out.points[i].id = (id >> 16) | (id << 16);
  }
  return out;
}

namespace detail {

Manifold collide_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb, float margin) noexcept {
  return contact_kernels().collide_generic(a, xa, b, xb, margin);
}

}  // namespace detail
}  // namespace pebble
