// Internal: which instruction sets this build compiles the contact kernels for, and the macros
// the kernels are written with. Not installed; not part of the API.
//
// The kernels (contact/manifold.cpp, contact/distance.cpp and batch/batch.cpp) are compiled up to
// three times by CMakeLists.txt, each copy with PEBBLE_KERNEL_COPY set and into a namespace of its
// own; the target processor decides which copies exist:
//   0  detail::base    the build's own target: SSE2 on x86-64, NEON on ARM64, else plain C++
//   1  detail::scalar  plain C++ beside an SSE2 or NEON base copy, so that tests compare every copy
//   2  detail::avx2    AVX2, x86-64 with GCC or Clang; chosen at load time (simd/dispatch.cpp)
// A copy this build cannot have compiles to nothing. Each kernel file includes this header (and
// through it every standard and public header the kernels use) first, for the build's target,
// then switches the target (PEBBLE_KERNEL_TARGET_BEGIN) and only then includes the kernel
// headers: no standard-library or public pebble function is ever compiled for AVX2, which could
// be the copy the linker keeps and crash a CPU without AVX2.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "pebble/distance.hpp"
#include "pebble/manifold.hpp"
#include "pebble/shape.hpp"
#include "pebble/simd.hpp"

// x86-64 always has SSE2, and ARM64 always has NEON (Advanced SIMD): the base copy uses it.
// Elsewhere, or with PEBBLE_NO_SIMD, the base copy is plain C++. All copies give identical results.
#if !defined(PEBBLE_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define PEBBLE_BASE_SSE 1
#else
#define PEBBLE_BASE_SSE 0
#endif
#if !defined(PEBBLE_NO_SIMD) && (defined(__aarch64__) || defined(_M_ARM64)) && \
    (defined(__ARM_NEON) || defined(_M_ARM64))
#define PEBBLE_BASE_NEON 1
#else
#define PEBBLE_BASE_NEON 0
#endif
// A base copy with lanes in hardware has the plain C++ copy beside it.
#define PEBBLE_BASE_LANES (PEBBLE_BASE_SSE || PEBBLE_BASE_NEON)

// The AVX2 copy: x86-64 with GCC or Clang, which can compile one file's functions for another
// target than the rest.
#if PEBBLE_BASE_SSE && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PEBBLE_HAVE_AVX2_KERNELS 1
#else
#define PEBBLE_HAVE_AVX2_KERNELS 0
#endif

#ifndef PEBBLE_KERNEL_COPY
#define PEBBLE_KERNEL_COPY 0
#endif

// Per copy: PEBBLE_SSE and PEBBLE_NEON say which section of simd/wide.hpp it is written in
// (neither: plain C++), PEBBLE_KERNEL_AVX2 that its 8 lanes are one AVX2 register.
#if PEBBLE_KERNEL_COPY == 1
#define PEBBLE_KERNEL_NS scalar
#define PEBBLE_KERNEL_ENABLED PEBBLE_BASE_LANES
#define PEBBLE_KERNEL_AVX2 0
#define PEBBLE_SSE 0
#define PEBBLE_NEON 0
#elif PEBBLE_KERNEL_COPY == 2
#define PEBBLE_KERNEL_NS avx2
#define PEBBLE_KERNEL_ENABLED PEBBLE_HAVE_AVX2_KERNELS
#define PEBBLE_KERNEL_AVX2 PEBBLE_HAVE_AVX2_KERNELS
#define PEBBLE_SSE PEBBLE_HAVE_AVX2_KERNELS
#define PEBBLE_NEON 0
#else
#define PEBBLE_KERNEL_NS base
#define PEBBLE_KERNEL_ENABLED 1
#define PEBBLE_KERNEL_AVX2 0
#define PEBBLE_SSE PEBBLE_BASE_SSE
#define PEBBLE_NEON PEBBLE_BASE_NEON
#endif

#if PEBBLE_SSE
#include <immintrin.h>
#endif
#if PEBBLE_NEON
#include <arm_neon.h>
#endif

// The hot helpers are inlined into each query (GCC otherwise keeps some out of line, and the call
// then spills their inputs and results through the stack).
#if defined(__GNUC__)
#define PEBBLE_HOT_INLINE inline __attribute__((always_inline))
#else
#define PEBBLE_HOT_INLINE inline
#endif

// Everything between these two is compiled for the copy's target (AVX2 for copy 2). No FMA: every
// copy does the same float operations and gives the same results.
#if PEBBLE_KERNEL_AVX2 && defined(__clang__)
#define PEBBLE_KERNEL_TARGET_BEGIN \
  _Pragma("clang attribute push(__attribute__((target(\"avx2\"))), apply_to = function)")
#define PEBBLE_KERNEL_TARGET_END _Pragma("clang attribute pop")
#elif PEBBLE_KERNEL_AVX2
#define PEBBLE_KERNEL_TARGET_BEGIN _Pragma("GCC push_options") _Pragma("GCC target(\"avx2\")")
#define PEBBLE_KERNEL_TARGET_END _Pragma("GCC pop_options")
#else
#define PEBBLE_KERNEL_TARGET_BEGIN
#define PEBBLE_KERNEL_TARGET_END
#endif

namespace pebble::detail {

// The table of each copy (defined at the end of contact/distance.cpp), read by simd/dispatch.cpp.
namespace base {
extern const ContactKernels kKernels;
}
#if PEBBLE_BASE_LANES
namespace scalar {
extern const ContactKernels kKernels;
}
#endif
#if PEBBLE_HAVE_AVX2_KERNELS
namespace avx2 {
extern const ContactKernels kKernels;
}
#endif

}  // namespace pebble::detail
