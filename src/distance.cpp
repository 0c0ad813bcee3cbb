// overlap() and detail::distance_generic. distance() itself is inline in the header: it calls
// the kernel copy in use (kernels.hpp; the algorithm is in kernels.cpp).
#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"

namespace pebble {

bool overlap(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  // The contract defines overlap as collide() at margin 0 having a point; asking collide()
  // itself makes disagreement impossible and reuses its early stop at the first separating axis.
  return collide(a, xa, b, xb, 0).count > 0;
}

namespace detail {

DistanceResult distance_generic(const Shape& a, const Transform& xa, const Shape& b, const Transform& xb) noexcept {
  return contact_kernels().distance_generic(a, xa, b, xb);
}

}  // namespace detail
}  // namespace pebble
