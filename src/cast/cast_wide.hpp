// Four floats at once for the cast queries (src/cast_sweep.hpp): a small wide-float type with
// the handful of operations they need, SSE2 on x86-64 and plain floats elsewhere or with
// PEBBLE_NO_SIMD, so that the code using it is written once (as Box2D v3 writes its solver on
// b2FloatW). Both versions do the same float operations, so they round alike. Not part of the API.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#if !defined(PEBBLE_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define PEBBLE_WIDE_SSE 1
#else
#define PEBBLE_WIDE_SSE 0
#endif

// The time of impact's hot helpers (the sine, the gap's probes) are forced inline: GCC inlines
// them at -O3 but not at -O2, where passing the F4 values through memory cost 18% more
// instructions per time of impact (valgrind, box / box: 2523 at -O3, 2986 at -O2).
#if defined(__GNUC__) || defined(__clang__)
#define PEBBLE_WIDE_INLINE inline __attribute__((always_inline))
#else
#define PEBBLE_WIDE_INLINE inline
#endif

namespace pebble::cast_core {

#if PEBBLE_WIDE_SSE

/// Four floats. A mask is an F4 whose lanes are all ones (true) or all zeros (false).
struct F4 {
  __m128 v;
};

inline F4 splat(float x) { return {_mm_set1_ps(x)}; }
inline F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
inline void store(float* p, F4 a) { _mm_storeu_ps(p, a.v); }
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
/// a < b ? a : b per lane (b when either is NaN), as std::min(b, a) would pick.
inline F4 min(F4 a, F4 b) { return {_mm_min_ps(a.v, b.v)}; }
inline F4 max(F4 a, F4 b) { return {_mm_max_ps(a.v, b.v)}; }
inline F4 abs(F4 a) { return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)))}; }
inline F4 less(F4 a, F4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
inline F4 less_equal(F4 a, F4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
/// mask ? a : b per lane.
inline F4 select(F4 mask, F4 a, F4 b) { return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))}; }
inline F4 operator&(F4 a, F4 b) { return {_mm_and_ps(a.v, b.v)}; }
inline F4 operator^(F4 a, F4 b) { return {_mm_xor_ps(a.v, b.v)}; }
/// Lanes x, y, z, w.
inline F4 make4(float x, float y, float z, float w) { return {_mm_setr_ps(x, y, z, w)}; }
/// For q, a number of quarter turns per lane (|q| < 2^31): k, the nearest integer (ties to even);
/// odd, a mask of the lanes where k is odd; and the sign bits (all else zero) of the lanes where
/// sin(k pi / 2 + r) and cos(k pi / 2 + r) take the sign opposite to the one of their
/// first-quadrant value, k mod 4 in {2, 3} and {1, 2}.
inline void quadrants(F4 q, F4& k, F4& odd, F4& sin_sign, F4& cos_sign) {
  const __m128i ki = _mm_cvtps_epi32(q.v), one = _mm_set1_epi32(1), sign = _mm_set1_epi32(int(0x80000000u));
  k = {_mm_cvtepi32_ps(ki)};
  odd = {_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(ki, one), one))};
  sin_sign = {_mm_castsi128_ps(_mm_and_si128(_mm_slli_epi32(ki, 30), sign))};
  cos_sign = {_mm_castsi128_ps(_mm_and_si128(_mm_slli_epi32(_mm_add_epi32(ki, one), 30), sign))};
}
/// One bit per lane of a mask, lane 0 lowest.
inline int bits(F4 mask) { return _mm_movemask_ps(mask.v); }
/// The nearest integer, ties to even (the default rounding mode), for |a| < 2^31.
inline F4 round_even(F4 a) { return {_mm_cvtepi32_ps(_mm_cvtps_epi32(a.v))}; }
/// The least (greatest) lane, in every lane.
inline F4 lowest(F4 a) {
  const __m128 m = _mm_min_ps(a.v, _mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(1, 0, 3, 2)));
  return {_mm_min_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)))};
}
inline F4 highest(F4 a) {
  const __m128 m = _mm_max_ps(a.v, _mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(1, 0, 3, 2)));
  return {_mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)))};
}
/// Lane i of a in every lane.
template <int i>
inline F4 broadcast(F4 a) {
  return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(i, i, i, i))};
}
inline float first(F4 a) { return _mm_cvtss_f32(a.v); }
/// The x and y coordinates of the four points p[0..3] (x, y interleaved).
inline void deinterleave(const float* p, F4& x, F4& y) {
  const __m128 lo = _mm_loadu_ps(p), hi = _mm_loadu_ps(p + 4);
  x = {_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))};
  y = {_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))};
}

#else

struct F4 {
  float v[4];
};

namespace wide_detail {
template <class Op>
inline F4 each(F4 a, F4 b, Op op) {
  return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}};
}
inline float mask_of(bool m) { return std::bit_cast<float>(m ? 0xffffffffu : 0u); }
inline bool is_set(float m) { return std::bit_cast<std::uint32_t>(m) != 0; }
}  // namespace wide_detail

inline F4 splat(float x) { return {{x, x, x, x}}; }
inline F4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline void store(float* p, F4 a) {
  for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
inline F4 operator+(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x + y; }); }
inline F4 operator-(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x - y; }); }
inline F4 operator*(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x * y; }); }
inline F4 operator/(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x / y; }); }
inline F4 min(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x < y ? x : y; }); }
inline F4 max(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return x > y ? x : y; }); }
inline F4 abs(F4 a) { return {{std::fabs(a.v[0]), std::fabs(a.v[1]), std::fabs(a.v[2]), std::fabs(a.v[3])}}; }
inline F4 less(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return wide_detail::mask_of(x < y); }); }
inline F4 less_equal(F4 a, F4 b) { return wide_detail::each(a, b, [](float x, float y) { return wide_detail::mask_of(x <= y); }); }
inline F4 select(F4 mask, F4 a, F4 b) {
  F4 out;
  for (int i = 0; i < 4; ++i) out.v[i] = wide_detail::is_set(mask.v[i]) ? a.v[i] : b.v[i];
  return out;
}
inline F4 operator&(F4 a, F4 b) {
  F4 out;
  for (int i = 0; i < 4; ++i) out.v[i] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(a.v[i]) & std::bit_cast<std::uint32_t>(b.v[i]));
  return out;
}
inline F4 operator^(F4 a, F4 b) {
  F4 out;
  for (int i = 0; i < 4; ++i) out.v[i] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(a.v[i]) ^ std::bit_cast<std::uint32_t>(b.v[i]));
  return out;
}
inline F4 make4(float x, float y, float z, float w) { return {{x, y, z, w}}; }
inline void quadrants(F4 q, F4& k, F4& odd, F4& sin_sign, F4& cos_sign) {
  for (int i = 0; i < 4; ++i) {
    const std::int32_t ki = static_cast<std::int32_t>(std::nearbyint(q.v[i]));
    const std::uint32_t u = static_cast<std::uint32_t>(ki);
    k.v[i] = static_cast<float>(ki);
    odd.v[i] = wide_detail::mask_of((u & 1) != 0);
    sin_sign.v[i] = std::bit_cast<float>((u << 30) & 0x80000000u);
    cos_sign.v[i] = std::bit_cast<float>(((u + 1) << 30) & 0x80000000u);
  }
}
inline int bits(F4 mask) {
  int out = 0;
  for (int i = 0; i < 4; ++i) out |= (std::bit_cast<std::uint32_t>(mask.v[i]) >> 31) << i;
  return out;
}
inline F4 round_even(F4 a) { return {{std::nearbyint(a.v[0]), std::nearbyint(a.v[1]), std::nearbyint(a.v[2]), std::nearbyint(a.v[3])}}; }
inline F4 lowest(F4 a) {
  const F4 m = min(a, F4{{a.v[2], a.v[3], a.v[0], a.v[1]}});
  return min(m, F4{{m.v[1], m.v[0], m.v[3], m.v[2]}});
}
inline F4 highest(F4 a) {
  const F4 m = max(a, F4{{a.v[2], a.v[3], a.v[0], a.v[1]}});
  return max(m, F4{{m.v[1], m.v[0], m.v[3], m.v[2]}});
}
template <int i>
inline F4 broadcast(F4 a) {
  return splat(a.v[i]);
}
inline float first(F4 a) { return a.v[0]; }
inline void deinterleave(const float* p, F4& x, F4& y) {
  x = {{p[0], p[2], p[4], p[6]}};
  y = {{p[1], p[3], p[5], p[7]}};
}

#endif

inline F4 operator-(F4 a) { return splat(0) - a; }

/// Cosine and sine of four angles, each within kWideTurnLimit radians: Cody-Waite reduction to
/// the nearest quarter turn k with pi/2 in three parts (8 and 11 significant bits for the first
/// two, so that k times them is exact for |k| < 2^13, which the limit keeps), then polynomials
/// in r^2 on |r| <= pi/4: sin(r) / r and cos(r) of degree 3, fitted to them on Chebyshev points
/// (errors 3e-9 and 3e-8, under a float's rounding; cos(0) rounds to exactly 1).
inline constexpr float kWideTurnLimit = 8192;

PEBBLE_WIDE_INLINE void cos_sin(F4 angle, F4& cos_out, F4& sin_out) {
  F4 k, odd, sin_sign, cos_sign;
  quadrants(angle * splat(0.636619772f), k, odd, sin_sign, cos_sign);
  const F4 r = ((angle - k * splat(1.5703125f)) - k * splat(4.837512969970703125e-4f)) - k * splat(7.54978995489188216e-8f);
  const F4 r2 = r * r;
  const F4 s = r * (splat(0.99999999691770356f) +
                    r2 * (splat(-0.16666650673996773f) + r2 * (splat(0.0083320357855973084f) + r2 * splat(-0.00019503904250840799f))));
  const F4 c = splat(0.99999997232849431f) +
               r2 * (splat(-0.49999856419182183f) + r2 * (splat(0.041655014924883755f) + r2 * splat(-0.0013585779264842408f)));
  sin_out = select(odd, c, s) ^ sin_sign;
  cos_out = select(odd, s, c) ^ cos_sign;
}

}  // namespace pebble::cast_core
