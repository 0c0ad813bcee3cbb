// kernels.cpp compiled a second time, for AVX2, into namespace detail::avx2 (kernels.hpp says
// why; simd.cpp runs it only on a CPU with AVX2). Everything the kernels include is included
// first, for the build's own target; only the functions defined after the switch are AVX2 code.
// No FMA: the AVX2 copy does the same float operations as the base copy and gives the same
// results.
#define PEBBLE_KERNEL_NS avx2
#define PEBBLE_KERNEL_AVX2 1
#include "kernels.hpp"

#if PEBBLE_HAVE_AVX2_KERNELS
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "kernels.cpp"  // NOLINT(bugprone-suspicious-include)

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
