// Internal: the contact-query kernels and how the library picks between their copies. Not
// installed; not part of the API.
//
// kernels.cpp holds the query code (collide, distance and their generic paths). It is compiled
// once for the build's target, in namespace detail::base, and, on x86-64 with GCC or Clang,
// once more by kernels_avx2.cpp for AVX2, in namespace detail::avx2. Where the base copy is
// SSE2, kernels_scalar.cpp adds the plain C++ copy too (detail::scalar), for the tests. simd.cpp
// picks one table of entry points (pebble/simd.hpp: ContactKernels) at load time; the inline
// collide() and distance() of the public headers call through it.
//
// This header also includes everything the kernels use. kernels_avx2.cpp includes it before it
// switches the target to AVX2, so that no standard-library or public pebble function is ever
// compiled for AVX2 (such a copy could be the one the linker keeps for the whole program, and
// crash a CPU without AVX2). A header the kernels need goes here, never into lanes.hpp,
// contact_core.hpp or kernels.cpp.
//
// The kernels are written once, on the lane types of lanes.hpp; that header is the only place
// where the copies differ (a section per instruction set).
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

// x86-64 always has SSE2: the base copy of the kernels uses it. Elsewhere, or with
// PEBBLE_NO_SIMD, the base copy is plain C++. All copies give identical results.
#if !defined(PEBBLE_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define PEBBLE_BASE_SSE 1
#else
#define PEBBLE_BASE_SSE 0
#endif

// kernels_scalar.cpp sets this before it includes this header: an SSE2 build also carries the
// scalar copy, so that the tests (and the sanitizer build) compare every copy on one machine.
#ifndef PEBBLE_KERNEL_SCALAR
#define PEBBLE_KERNEL_SCALAR 0
#endif

#if PEBBLE_BASE_SSE && !PEBBLE_KERNEL_SCALAR
#include <immintrin.h>
#define PEBBLE_SSE 1
#else
#define PEBBLE_SSE 0
#endif

// The AVX2 copy of the kernels: x86-64 with GCC or Clang, which can compile one file's
// functions for another target than the rest.
#if PEBBLE_BASE_SSE && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PEBBLE_HAVE_AVX2_KERNELS 1
#else
#define PEBBLE_HAVE_AVX2_KERNELS 0
#endif

// kernels_avx2.cpp sets these before it includes this header: the namespace the kernels,
// contact_core.hpp and lanes.hpp are compiled into, and whether lanes.hpp's 8-lane type is one
// 8-wide register instead of two 4-wide ones.
#ifndef PEBBLE_KERNEL_NS
#define PEBBLE_KERNEL_NS base
#endif
#ifndef PEBBLE_KERNEL_AVX2
#define PEBBLE_KERNEL_AVX2 0
#endif

// The hot helpers are inlined into each query (GCC otherwise keeps some out of line, and the
// call then spills their inputs and results through the stack: measured).
#if defined(__GNUC__)
#define PEBBLE_HOT_INLINE inline __attribute__((always_inline))
#else
#define PEBBLE_HOT_INLINE inline
#endif

namespace pebble::detail {

namespace base {
extern const ContactKernels kKernels;  // kernels.cpp: SSE2 on x86-64, else scalar
}
#if PEBBLE_BASE_SSE
namespace scalar {
extern const ContactKernels kKernels;  // kernels_scalar.cpp, beside an SSE2 base copy
}
#endif
#if PEBBLE_HAVE_AVX2_KERNELS
namespace avx2 {
extern const ContactKernels kKernels;  // kernels_avx2.cpp
}
#endif

}  // namespace pebble::detail
