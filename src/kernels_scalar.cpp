// kernels.cpp compiled a third time, on lanes.hpp's plain C++ lane types instead of SSE2, into
// namespace detail::scalar. Only where the base copy is SSE2 (elsewhere the base copy is this
// one): the tests and the sanitizer build then check on one x86-64 machine that the scalar copy,
// which other CPUs run, gives the same bytes as SSE2 and AVX2 (tests/simd_test.cpp).
#define PEBBLE_KERNEL_NS scalar
#define PEBBLE_KERNEL_SCALAR 1
#include "kernels.hpp"

#if PEBBLE_BASE_SSE
#include "kernels.cpp"  // NOLINT(bugprone-suspicious-include)
#endif
