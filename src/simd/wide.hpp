// Internal: the lane types pebble's lanes are written in (the contact kernels, the batch queries,
// the casts' sine and swept gap, bounds()) — 4 and 8 floats with the few operations they need —
// defined once per instruction set: SSE2, AVX2, NEON and plain C++.
// contact/core.hpp uses only these, so the geometry is written once and every instruction set is
// a short section below (as Box2D v3 writes its contact solver against b2FloatW). Not installed.
//
// Every section computes the same bits, NaN and signed zero included, so that all copies of the
// kernels give the same results (pebble/simd.hpp):
//  - min(a, b) is a < b ? a : b and max(a, b) is a > b ? a : b (SSE's minps and maxps: b when
//    either is NaN, and b of two equal values such as -0 and +0);
//  - comparisons are ordered (false when either side is NaN); a mask's bit i is lane i;
//  - + - * round once each (no fused multiply-add: -ffp-contract=off, CMakeLists.txt);
//  - reductions use one fixed tree (max_lane, min_lane).
// The types live in the kernel namespace and every operation is forced inline, so no AVX2 code
// can escape into a function another copy shares (simd/config.hpp).
#pragma once

#include "simd/config.hpp"

namespace pebble::detail::PEBBLE_KERNEL_NS {

/// The x and y of two consecutive points p[0] and p[1], each broadcast to every lane: what the
/// separating-axis scan multiplies the edge normals by, two vertices per step.
template <class F>
struct PointLanes {
  F x0, y0, x1, y1;
};

// ---------------------------------------------------------------------------------------------
// 4 lanes.

#if PEBBLE_SSE
// SSE2: one __m128. The AVX2 copy compiles this same code (in VEX encodings).

/// Four float lanes.
struct Float4 {
  __m128 v;
  static PEBBLE_HOT_INLINE Float4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  static PEBBLE_HOT_INLINE Float4 splat(float x) { return {_mm_set1_ps(x)}; }
  static PEBBLE_HOT_INLINE Float4 lanes(float a, float b, float c, float d) { return {_mm_setr_ps(a, b, c, d)}; }
  static PEBBLE_HOT_INLINE PointLanes<Float4> splat_points(const Vec2* p) {
    const __m128 xy = _mm_loadu_ps(&p->x);
    return {{_mm_shuffle_ps(xy, xy, _MM_SHUFFLE(0, 0, 0, 0))},
            {_mm_shuffle_ps(xy, xy, _MM_SHUFFLE(1, 1, 1, 1))},
            {_mm_shuffle_ps(xy, xy, _MM_SHUFFLE(2, 2, 2, 2))},
            {_mm_shuffle_ps(xy, xy, _MM_SHUFFLE(3, 3, 3, 3))}};
  }
};
/// Four lanes of true or false.
struct Mask4 {
  __m128 v;
};

PEBBLE_HOT_INLINE void store(float* p, Float4 a) { _mm_storeu_ps(p, a.v); }
PEBBLE_HOT_INLINE Float4 operator+(Float4 a, Float4 b) { return {_mm_add_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 operator-(Float4 a, Float4 b) { return {_mm_sub_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 operator*(Float4 a, Float4 b) { return {_mm_mul_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 min(Float4 a, Float4 b) { return {_mm_min_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 max(Float4 a, Float4 b) { return {_mm_max_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 abs(Float4 a) { return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)))}; }
PEBBLE_HOT_INLINE Mask4 operator<=(Float4 a, Float4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator>(Float4 a, Float4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator==(Float4 a, Float4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator&(Mask4 a, Mask4 b) { return {_mm_and_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator|(Mask4 a, Mask4 b) { return {_mm_or_ps(a.v, b.v)}; }
/// Bit i set when lane i is true.
PEBBLE_HOT_INLINE unsigned bits(Mask4 m) { return unsigned(_mm_movemask_ps(m.v)); }
PEBBLE_HOT_INLINE bool any(Mask4 m) { return bits(m) != 0; }
PEBBLE_HOT_INLINE bool all(Mask4 m) { return bits(m) == 0xf; }
PEBBLE_HOT_INLINE float first_lane(Float4 a) { return _mm_cvtss_f32(a.v); }
/// Lanes 1 0 3 2 of a.
PEBBLE_HOT_INLINE Float4 swap_pairs(Float4 a) { return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(2, 3, 0, 1))}; }
/// Lanes 2 3 0 1 of a.
PEBBLE_HOT_INLINE Float4 swap_halves(Float4 a) { return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(1, 0, 3, 2))}; }
/// Lanes 0 1 of a, then 0 1 of b.
PEBBLE_HOT_INLINE Float4 low_halves(Float4 a, Float4 b) { return {_mm_movelh_ps(a.v, b.v)}; }
/// Lanes 2 3 of a, then 2 3 of b.
PEBBLE_HOT_INLINE Float4 high_halves(Float4 a, Float4 b) { return {_mm_movehl_ps(b.v, a.v)}; }
/// Lanes 0 1 of a, then 2 3 of b.
PEBBLE_HOT_INLINE Float4 join_halves(Float4 a, Float4 b) { return {_mm_shuffle_ps(a.v, b.v, _MM_SHUFFLE(3, 2, 1, 0))}; }
PEBBLE_HOT_INLINE Float4 operator/(Float4 a, Float4 b) { return {_mm_div_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator<(Float4 a, Float4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
/// The square root of each lane, correctly rounded (as std::sqrt).
PEBBLE_HOT_INLINE Float4 sqrt_lanes(Float4 a) { return {_mm_sqrt_ps(a.v)}; }
/// Columns 2..7 of four rows of 8 floats: c[k] holds rows[0..3][k + 2] (the batch queries' view
/// of four BatchBody records, src/batch/batch.cpp).
PEBBLE_HOT_INLINE void columns_2_to_7(const float* const* rows, Float4 (&c)[6]) {
  __m128 lo[4], hi[4];
  for (int j = 0; j < 4; ++j) lo[j] = _mm_loadu_ps(rows[j]), hi[j] = _mm_loadu_ps(rows[j] + 4);
  const __m128 a = _mm_unpackhi_ps(lo[0], lo[1]),
               b = _mm_unpackhi_ps(lo[2], lo[3]);  // 2 2 3 3 of rows 0 1, of rows 2 3
  const __m128 c0 = _mm_unpacklo_ps(hi[0], hi[1]), c1 = _mm_unpackhi_ps(hi[0], hi[1]);  // 4 4 5 5, 6 6 7 7 of rows 0 1
  const __m128 c2 = _mm_unpacklo_ps(hi[2], hi[3]), c3 = _mm_unpackhi_ps(hi[2], hi[3]);
  c[0] = {_mm_movelh_ps(a, b)}, c[1] = {_mm_movehl_ps(b, a)}, c[2] = {_mm_movelh_ps(c0, c2)};
  c[3] = {_mm_movehl_ps(c2, c0)}, c[4] = {_mm_movelh_ps(c1, c3)}, c[5] = {_mm_movehl_ps(c3, c1)};
}
/// The four floats at each of four rows as four columns: c[k] holds rows[0..3][k].
PEBBLE_HOT_INLINE void columns_of_4(const float* const* rows, Float4 (&c)[4]) {
  const __m128 r0 = _mm_loadu_ps(rows[0]), r1 = _mm_loadu_ps(rows[1]), r2 = _mm_loadu_ps(rows[2]),
               r3 = _mm_loadu_ps(rows[3]);
  const __m128 t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpackhi_ps(r0, r1), t2 = _mm_unpacklo_ps(r2, r3),
               t3 = _mm_unpackhi_ps(r2, r3);
  c[0] = {_mm_movelh_ps(t0, t2)}, c[1] = {_mm_movehl_ps(t2, t0)}, c[2] = {_mm_movelh_ps(t1, t3)},
  c[3] = {_mm_movehl_ps(t3, t1)};
}
/// m ? a : b per lane.
PEBBLE_HOT_INLINE Float4 select(Mask4 m, Float4 a, Float4 b) {
  return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))};
}
/// a with its sign bits flipped where `signs` has them (signs holds sign bits only).
PEBBLE_HOT_INLINE Float4 flip_signs(Float4 a, Float4 signs) { return {_mm_xor_ps(a.v, signs.v)}; }
/// Lane i of a in every lane.
template <int i>
PEBBLE_HOT_INLINE Float4 broadcast(Float4 a) {
  return {_mm_shuffle_ps(a.v, a.v, _MM_SHUFFLE(i, i, i, i))};
}
/// The x and y coordinates of the four points p[0..3] (x, y interleaved).
PEBBLE_HOT_INLINE void deinterleave(const float* p, Float4& x, Float4& y) {
  const __m128 lo = _mm_loadu_ps(p), hi = _mm_loadu_ps(p + 4);
  x = {_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))};
  y = {_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1))};
}
/// For q, a number of quarter turns per lane (|q| < 2^31): k, the nearest integer (ties to even);
/// odd, the lanes where k is odd; and the sign bits (all else zero) of the lanes where
/// sin(k pi / 2 + r) and cos(k pi / 2 + r) take the sign opposite to that of their
/// first-quadrant value, k mod 4 in {2, 3} and {1, 2}.
PEBBLE_HOT_INLINE void quadrants(Float4 q, Float4& k, Mask4& odd, Float4& sin_sign, Float4& cos_sign) {
  const __m128i ki = _mm_cvtps_epi32(q.v), one = _mm_set1_epi32(1), sign = _mm_set1_epi32(int(0x80000000u));
  k = {_mm_cvtepi32_ps(ki)};
  odd = {_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(ki, one), one))};
  sin_sign = {_mm_castsi128_ps(_mm_and_si128(_mm_slli_epi32(ki, 30), sign))};
  cos_sign = {_mm_castsi128_ps(_mm_and_si128(_mm_slli_epi32(_mm_add_epi32(ki, one), 30), sign))};
}

#elif PEBBLE_NEON
// NEON (ARM64's Advanced SIMD): one float32x4_t. NEON's own min, max and NaN rules differ from
// SSE's, so min and max are written as the comparisons and selects the contract above names.

struct Float4 {
  float32x4_t v;
  static PEBBLE_HOT_INLINE Float4 load(const float* p) { return {vld1q_f32(p)}; }
  static PEBBLE_HOT_INLINE Float4 splat(float x) { return {vdupq_n_f32(x)}; }
  static PEBBLE_HOT_INLINE Float4 lanes(float a, float b, float c, float d) {
    const float f[4] = {a, b, c, d};
    return {vld1q_f32(f)};
  }
  static PEBBLE_HOT_INLINE PointLanes<Float4> splat_points(const Vec2* p) {
    const float32x4_t xy = vld1q_f32(&p->x);
    return {{vdupq_laneq_f32(xy, 0)}, {vdupq_laneq_f32(xy, 1)}, {vdupq_laneq_f32(xy, 2)}, {vdupq_laneq_f32(xy, 3)}};
  }
};
struct Mask4 {
  uint32x4_t v;
};

PEBBLE_HOT_INLINE void store(float* p, Float4 a) { vst1q_f32(p, a.v); }
PEBBLE_HOT_INLINE Float4 operator+(Float4 a, Float4 b) { return {vaddq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 operator-(Float4 a, Float4 b) { return {vsubq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 operator*(Float4 a, Float4 b) { return {vmulq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 operator/(Float4 a, Float4 b) { return {vdivq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 min(Float4 a, Float4 b) { return {vbslq_f32(vcltq_f32(a.v, b.v), a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 max(Float4 a, Float4 b) { return {vbslq_f32(vcgtq_f32(a.v, b.v), a.v, b.v)}; }
PEBBLE_HOT_INLINE Float4 abs(Float4 a) { return {vabsq_f32(a.v)}; }
PEBBLE_HOT_INLINE Mask4 operator<=(Float4 a, Float4 b) { return {vcleq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator>(Float4 a, Float4 b) { return {vcgtq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator<(Float4 a, Float4 b) { return {vcltq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator==(Float4 a, Float4 b) { return {vceqq_f32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator&(Mask4 a, Mask4 b) { return {vandq_u32(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask4 operator|(Mask4 a, Mask4 b) { return {vorrq_u32(a.v, b.v)}; }
/// Bit i set when lane i is true (each lane all ones or all zeros): the lanes weighted 1 2 4 8 and added.
PEBBLE_HOT_INLINE unsigned bits(Mask4 m) {
  const std::uint32_t weights[4] = {1, 2, 4, 8};
  return vaddvq_u32(vandq_u32(m.v, vld1q_u32(weights)));
}
PEBBLE_HOT_INLINE bool any(Mask4 m) { return vmaxvq_u32(m.v) != 0; }
PEBBLE_HOT_INLINE bool all(Mask4 m) { return vminvq_u32(m.v) != 0; }
PEBBLE_HOT_INLINE float first_lane(Float4 a) { return vgetq_lane_f32(a.v, 0); }
/// Lanes 1 0 3 2 of a.
PEBBLE_HOT_INLINE Float4 swap_pairs(Float4 a) { return {vrev64q_f32(a.v)}; }
/// Lanes 2 3 0 1 of a.
PEBBLE_HOT_INLINE Float4 swap_halves(Float4 a) { return {vextq_f32(a.v, a.v, 2)}; }
/// Lanes 0 1 of a, then 0 1 of b.
PEBBLE_HOT_INLINE Float4 low_halves(Float4 a, Float4 b) { return {vcombine_f32(vget_low_f32(a.v), vget_low_f32(b.v))}; }
/// Lanes 2 3 of a, then 2 3 of b.
PEBBLE_HOT_INLINE Float4 high_halves(Float4 a, Float4 b) {
  return {vcombine_f32(vget_high_f32(a.v), vget_high_f32(b.v))};
}
/// Lanes 0 1 of a, then 2 3 of b.
PEBBLE_HOT_INLINE Float4 join_halves(Float4 a, Float4 b) {
  return {vcombine_f32(vget_low_f32(a.v), vget_high_f32(b.v))};
}
/// The square root of each lane, correctly rounded (as std::sqrt).
PEBBLE_HOT_INLINE Float4 sqrt_lanes(Float4 a) { return {vsqrtq_f32(a.v)}; }
/// The 4 x 4 transpose: c[k] holds r[0..3][k].
PEBBLE_HOT_INLINE void transpose(const float32x4_t (&r)[4], Float4 (&c)[4]) {
  const float32x4_t t0 = vtrn1q_f32(r[0], r[1]), t1 = vtrn2q_f32(r[0], r[1]);  // 0 0 2 2 and 1 1 3 3 of rows 0 1
  const float32x4_t t2 = vtrn1q_f32(r[2], r[3]), t3 = vtrn2q_f32(r[2], r[3]);
  c[0] = {vcombine_f32(vget_low_f32(t0), vget_low_f32(t2))}, c[1] = {vcombine_f32(vget_low_f32(t1), vget_low_f32(t3))};
  c[2] = {vcombine_f32(vget_high_f32(t0), vget_high_f32(t2))},
  c[3] = {vcombine_f32(vget_high_f32(t1), vget_high_f32(t3))};
}
/// Columns 2..7 of four rows of 8 floats: c[k] holds rows[0..3][k + 2] (as the SSE2 section's).
PEBBLE_HOT_INLINE void columns_2_to_7(const float* const* rows, Float4 (&c)[6]) {
  float32x4_t lo[4], hi[4];
  for (int j = 0; j < 4; ++j) lo[j] = vld1q_f32(rows[j]), hi[j] = vld1q_f32(rows[j] + 4);
  Float4 a[4], b[4];
  transpose(lo, a);
  transpose(hi, b);
  c[0] = a[2], c[1] = a[3], c[2] = b[0], c[3] = b[1], c[4] = b[2], c[5] = b[3];
}
/// The four floats at each of four rows as four columns: c[k] holds rows[0..3][k].
PEBBLE_HOT_INLINE void columns_of_4(const float* const* rows, Float4 (&c)[4]) {
  const float32x4_t r[4] = {vld1q_f32(rows[0]), vld1q_f32(rows[1]), vld1q_f32(rows[2]), vld1q_f32(rows[3])};
  transpose(r, c);
}
/// m ? a : b per lane.
PEBBLE_HOT_INLINE Float4 select(Mask4 m, Float4 a, Float4 b) { return {vbslq_f32(m.v, a.v, b.v)}; }
/// a with its sign bits flipped where `signs` has them (signs holds sign bits only).
PEBBLE_HOT_INLINE Float4 flip_signs(Float4 a, Float4 signs) {
  return {vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a.v), vreinterpretq_u32_f32(signs.v)))};
}
/// Lane i of a in every lane.
template <int i>
PEBBLE_HOT_INLINE Float4 broadcast(Float4 a) {
  return {vdupq_laneq_f32(a.v, i)};
}
/// The x and y coordinates of the four points p[0..3] (x, y interleaved).
PEBBLE_HOT_INLINE void deinterleave(const float* p, Float4& x, Float4& y) {
  const float32x4x2_t xy = vld2q_f32(p);
  x = {xy.val[0]};
  y = {xy.val[1]};
}
/// As the SSE2 section's: vcvtnq rounds to the nearest integer, ties to even, as cvtps2dq does
/// under the default rounding mode.
PEBBLE_HOT_INLINE void quadrants(Float4 q, Float4& k, Mask4& odd, Float4& sin_sign, Float4& cos_sign) {
  const int32x4_t ki = vcvtnq_s32_f32(q.v), one = vdupq_n_s32(1), sign = vdupq_n_s32(int(0x80000000u));
  k = {vcvtq_f32_s32(ki)};
  odd = {vceqq_s32(vandq_s32(ki, one), one)};
  sin_sign = {vreinterpretq_f32_s32(vandq_s32(vshlq_n_s32(ki, 30), sign))};
  cos_sign = {vreinterpretq_f32_s32(vandq_s32(vshlq_n_s32(vaddq_s32(ki, one), 30), sign))};
}

#else
// Plain C++: the only copy off x86-64 and ARM64 (or with PEBBLE_NO_SIMD), and a third copy beside
// SSE2 or NEON for the tests. Loops over four floats, which compilers may vectorize as they see fit: the
// operations are the same lane by lane.

struct Float4 {
  float v[4];
  static PEBBLE_HOT_INLINE Float4 load(const float* p) {
    Float4 r;
    std::memcpy(r.v, p, sizeof r.v);
    return r;
  }
  static PEBBLE_HOT_INLINE Float4 splat(float x) { return {{x, x, x, x}}; }
  static PEBBLE_HOT_INLINE Float4 lanes(float a, float b, float c, float d) { return {{a, b, c, d}}; }
  static PEBBLE_HOT_INLINE PointLanes<Float4> splat_points(const Vec2* p) {
    return {splat(p[0].x), splat(p[0].y), splat(p[1].x), splat(p[1].y)};
  }
};
struct Mask4 {
  bool v[4];
};

PEBBLE_HOT_INLINE void store(float* p, Float4 a) { std::memcpy(p, a.v, sizeof a.v); }
PEBBLE_HOT_INLINE Float4 operator+(Float4 a, Float4 b) {
  return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
}
PEBBLE_HOT_INLINE Float4 operator-(Float4 a, Float4 b) {
  return {{a.v[0] - b.v[0], a.v[1] - b.v[1], a.v[2] - b.v[2], a.v[3] - b.v[3]}};
}
PEBBLE_HOT_INLINE Float4 operator*(Float4 a, Float4 b) {
  return {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}};
}
PEBBLE_HOT_INLINE Float4 min(Float4 a, Float4 b) {
  Float4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] < b.v[i] ? a.v[i] : b.v[i];
  return r;
}
PEBBLE_HOT_INLINE Float4 max(Float4 a, Float4 b) {
  Float4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] > b.v[i] ? a.v[i] : b.v[i];
  return r;
}
PEBBLE_HOT_INLINE Float4 abs(Float4 a) {
  return {{std::fabs(a.v[0]), std::fabs(a.v[1]), std::fabs(a.v[2]), std::fabs(a.v[3])}};
}
PEBBLE_HOT_INLINE Mask4 operator<=(Float4 a, Float4 b) {
  return {{a.v[0] <= b.v[0], a.v[1] <= b.v[1], a.v[2] <= b.v[2], a.v[3] <= b.v[3]}};
}
PEBBLE_HOT_INLINE Mask4 operator>(Float4 a, Float4 b) {
  return {{a.v[0] > b.v[0], a.v[1] > b.v[1], a.v[2] > b.v[2], a.v[3] > b.v[3]}};
}
PEBBLE_HOT_INLINE Mask4 operator==(Float4 a, Float4 b) {
  return {{a.v[0] == b.v[0], a.v[1] == b.v[1], a.v[2] == b.v[2], a.v[3] == b.v[3]}};
}
PEBBLE_HOT_INLINE Mask4 operator&(Mask4 a, Mask4 b) {
  return {{a.v[0] && b.v[0], a.v[1] && b.v[1], a.v[2] && b.v[2], a.v[3] && b.v[3]}};
}
PEBBLE_HOT_INLINE Mask4 operator|(Mask4 a, Mask4 b) {
  return {{a.v[0] || b.v[0], a.v[1] || b.v[1], a.v[2] || b.v[2], a.v[3] || b.v[3]}};
}
PEBBLE_HOT_INLINE unsigned bits(Mask4 m) {
  return unsigned(m.v[0]) | unsigned(m.v[1]) << 1 | unsigned(m.v[2]) << 2 | unsigned(m.v[3]) << 3;
}
PEBBLE_HOT_INLINE bool any(Mask4 m) { return m.v[0] | m.v[1] | m.v[2] | m.v[3]; }
PEBBLE_HOT_INLINE bool all(Mask4 m) { return m.v[0] & m.v[1] & m.v[2] & m.v[3]; }
PEBBLE_HOT_INLINE float first_lane(Float4 a) { return a.v[0]; }
PEBBLE_HOT_INLINE Float4 swap_pairs(Float4 a) { return {{a.v[1], a.v[0], a.v[3], a.v[2]}}; }
PEBBLE_HOT_INLINE Float4 swap_halves(Float4 a) { return {{a.v[2], a.v[3], a.v[0], a.v[1]}}; }
PEBBLE_HOT_INLINE Float4 low_halves(Float4 a, Float4 b) { return {{a.v[0], a.v[1], b.v[0], b.v[1]}}; }
PEBBLE_HOT_INLINE Float4 high_halves(Float4 a, Float4 b) { return {{a.v[2], a.v[3], b.v[2], b.v[3]}}; }
PEBBLE_HOT_INLINE Float4 join_halves(Float4 a, Float4 b) { return {{a.v[0], a.v[1], b.v[2], b.v[3]}}; }
PEBBLE_HOT_INLINE Float4 operator/(Float4 a, Float4 b) {
  return {{a.v[0] / b.v[0], a.v[1] / b.v[1], a.v[2] / b.v[2], a.v[3] / b.v[3]}};
}
PEBBLE_HOT_INLINE Mask4 operator<(Float4 a, Float4 b) {
  return {{a.v[0] < b.v[0], a.v[1] < b.v[1], a.v[2] < b.v[2], a.v[3] < b.v[3]}};
}
PEBBLE_HOT_INLINE Float4 sqrt_lanes(Float4 a) {
  return {{std::sqrt(a.v[0]), std::sqrt(a.v[1]), std::sqrt(a.v[2]), std::sqrt(a.v[3])}};
}
PEBBLE_HOT_INLINE Float4 select(Mask4 m, Float4 a, Float4 b) {
  return {{m.v[0] ? a.v[0] : b.v[0], m.v[1] ? a.v[1] : b.v[1], m.v[2] ? a.v[2] : b.v[2], m.v[3] ? a.v[3] : b.v[3]}};
}
PEBBLE_HOT_INLINE Float4 flip_signs(Float4 a, Float4 signs) {
  Float4 r;
  for (int i = 0; i < 4; ++i)
    r.v[i] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(a.v[i]) ^ std::bit_cast<std::uint32_t>(signs.v[i]));
  return r;
}
template <int i>
PEBBLE_HOT_INLINE Float4 broadcast(Float4 a) {
  return Float4::splat(a.v[i]);
}
PEBBLE_HOT_INLINE void deinterleave(const float* p, Float4& x, Float4& y) {
  x = {{p[0], p[2], p[4], p[6]}};
  y = {{p[1], p[3], p[5], p[7]}};
}
PEBBLE_HOT_INLINE void quadrants(Float4 q, Float4& k, Mask4& odd, Float4& sin_sign, Float4& cos_sign) {
  for (int i = 0; i < 4; ++i) {
    const std::int32_t ki = static_cast<std::int32_t>(std::nearbyint(q.v[i]));
    const std::uint32_t u = static_cast<std::uint32_t>(ki);
    k.v[i] = static_cast<float>(ki);
    odd.v[i] = (u & 1) != 0;
    sin_sign.v[i] = std::bit_cast<float>((u << 30) & 0x80000000u);
    cos_sign.v[i] = std::bit_cast<float>(((u + 1) << 30) & 0x80000000u);
  }
}
#endif

PEBBLE_HOT_INLINE Float4 operator-(Float4 a) { return Float4::splat(0) - a; }
/// The least (greatest) lane in every lane, by the halves first, then the pairs (the casts' tree;
/// min_lane below keeps the kernels' own).
PEBBLE_HOT_INLINE Float4 lowest(Float4 a) {
  const Float4 m = min(a, swap_halves(a));
  return min(m, swap_pairs(m));
}
PEBBLE_HOT_INLINE Float4 highest(Float4 a) {
  const Float4 m = max(a, swap_halves(a));
  return max(m, swap_pairs(m));
}

// ---------------------------------------------------------------------------------------------
// 8 lanes: the 8 edge lanes of an 8-gon.

#if PEBBLE_KERNEL_AVX2
// AVX2: one __m256.

/// Eight float lanes.
struct Float8 {
  __m256 v;
  static PEBBLE_HOT_INLINE Float8 load(const float* p) { return {_mm256_loadu_ps(p)}; }
  static PEBBLE_HOT_INLINE Float8 splat(float x) { return {_mm256_set1_ps(x)}; }
  static PEBBLE_HOT_INLINE Float8 lanes(float a, float b, float c, float d, float e, float f, float g, float h) {
    return {_mm256_setr_ps(a, b, c, d, e, f, g, h)};
  }
  static PEBBLE_HOT_INLINE PointLanes<Float8> splat_points(const Vec2* p) {
    return {{_mm256_broadcast_ss(&p[0].x)},
            {_mm256_broadcast_ss(&p[0].y)},
            {_mm256_broadcast_ss(&p[1].x)},
            {_mm256_broadcast_ss(&p[1].y)}};
  }
};
/// Eight lanes of true or false.
struct Mask8 {
  __m256 v;
};

PEBBLE_HOT_INLINE void store(float* p, Float8 a) { _mm256_storeu_ps(p, a.v); }
PEBBLE_HOT_INLINE Float8 operator+(Float8 a, Float8 b) { return {_mm256_add_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float8 operator-(Float8 a, Float8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float8 operator*(Float8 a, Float8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float8 min(Float8 a, Float8 b) { return {_mm256_min_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float8 max(Float8 a, Float8 b) { return {_mm256_max_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask8 operator>(Float8 a, Float8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OQ)}; }
PEBBLE_HOT_INLINE Mask8 operator==(Float8 a, Float8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)}; }
PEBBLE_HOT_INLINE unsigned bits(Mask8 m) { return unsigned(_mm256_movemask_ps(m.v)); }
PEBBLE_HOT_INLINE bool any(Mask8 m) { return bits(m) != 0; }
// (The batch queries', src/batch/batch.cpp, lanes across queries.)
PEBBLE_HOT_INLINE Float8 operator/(Float8 a, Float8 b) { return {_mm256_div_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Float8 sqrt_lanes(Float8 a) { return {_mm256_sqrt_ps(a.v)}; }
PEBBLE_HOT_INLINE Float8 abs(Float8 a) {
  return {_mm256_and_ps(a.v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)))};
}
PEBBLE_HOT_INLINE Mask8 operator<(Float8 a, Float8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LT_OQ)}; }
PEBBLE_HOT_INLINE Mask8 operator<=(Float8 a, Float8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OQ)}; }
PEBBLE_HOT_INLINE Mask8 operator&(Mask8 a, Mask8 b) { return {_mm256_and_ps(a.v, b.v)}; }
PEBBLE_HOT_INLINE Mask8 operator|(Mask8 a, Mask8 b) { return {_mm256_or_ps(a.v, b.v)}; }
/// m ? a : b per lane.
PEBBLE_HOT_INLINE Float8 select(Mask8 m, Float8 a, Float8 b) { return {_mm256_blendv_ps(b.v, a.v, m.v)}; }
/// Columns 2..7 of eight rows of 8 floats: c[k] holds rows[0..7][k + 2] (the batch queries' view
/// of eight BatchBody records, src/batch/batch.cpp).
PEBBLE_HOT_INLINE void columns_2_to_7(const float* const* rows, Float8 (&c)[6]) {
  __m256 r[8];
  for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(rows[j]);
  // Within each 128-bit half: unpackhi gives 2 2 3 3 (low half) and 6 6 7 7 (high half) of two
  // rows, unpacklo 4 4 5 5 (high half).
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 u0 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)),
               u1 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 u2 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)),
               u3 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 w0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)),
               w1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 w2 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)),
               w3 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  // u0: column 2 of rows 0-3 | column 6 of rows 0-3; u2 the same of rows 4-7; w0: .. | column 4.
  c[0] = {_mm256_permute2f128_ps(u0, u2, 0x20)}, c[1] = {_mm256_permute2f128_ps(u1, u3, 0x20)};
  c[2] = {_mm256_permute2f128_ps(w0, w2, 0x31)}, c[3] = {_mm256_permute2f128_ps(w1, w3, 0x31)};
  c[4] = {_mm256_permute2f128_ps(u0, u2, 0x31)}, c[5] = {_mm256_permute2f128_ps(u1, u3, 0x31)};
}
/// The four floats at each of eight rows as four columns: c[k] holds rows[0..7][k] (the batch
/// queries' view of eight shapes' vertices, normals or offsets).
PEBBLE_HOT_INLINE void columns_of_4(const float* const* rows, Float8 (&c)[4]) {
  __m256 r[4];
  for (int j = 0; j < 4; ++j)
    r[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(rows[j])), _mm_loadu_ps(rows[j + 4]), 1);
  // Rows j and j + 4 share a register (low and high half), so the 4 x 4 transpose of each half
  // gives lanes 0-3 and 4-7 at once.
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  c[0] = {_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0))},
  c[1] = {_mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2))};
  c[2] = {_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0))},
  c[3] = {_mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2))};
}
/// Lanes 0..3 and 4..7 as 4-lane values.
PEBBLE_HOT_INLINE Float4 low(Float8 a) { return {_mm256_castps256_ps128(a.v)}; }
PEBBLE_HOT_INLINE Float4 high(Float8 a) { return {_mm256_extractf128_ps(a.v, 1)}; }

#else
// SSE2, NEON and plain C++: two 4-lane halves.

struct Float8 {
  Float4 lo, hi;
  static PEBBLE_HOT_INLINE Float8 load(const float* p) { return {Float4::load(p), Float4::load(p + 4)}; }
  static PEBBLE_HOT_INLINE Float8 splat(float x) { return {Float4::splat(x), Float4::splat(x)}; }
  static PEBBLE_HOT_INLINE PointLanes<Float8> splat_points(const Vec2* p) {
    const PointLanes<Float4> h = Float4::splat_points(p);
    return {{h.x0, h.x0}, {h.y0, h.y0}, {h.x1, h.x1}, {h.y1, h.y1}};
  }
};
struct Mask8 {
  Mask4 lo, hi;
};

PEBBLE_HOT_INLINE void store(float* p, Float8 a) {
  store(p, a.lo);
  store(p + 4, a.hi);
}
PEBBLE_HOT_INLINE Float8 operator+(Float8 a, Float8 b) { return {a.lo + b.lo, a.hi + b.hi}; }
PEBBLE_HOT_INLINE Float8 operator-(Float8 a, Float8 b) { return {a.lo - b.lo, a.hi - b.hi}; }
PEBBLE_HOT_INLINE Float8 operator*(Float8 a, Float8 b) { return {a.lo * b.lo, a.hi * b.hi}; }
PEBBLE_HOT_INLINE Float8 min(Float8 a, Float8 b) { return {min(a.lo, b.lo), min(a.hi, b.hi)}; }
PEBBLE_HOT_INLINE Float8 max(Float8 a, Float8 b) { return {max(a.lo, b.lo), max(a.hi, b.hi)}; }
PEBBLE_HOT_INLINE Mask8 operator>(Float8 a, Float8 b) { return {a.lo > b.lo, a.hi > b.hi}; }
PEBBLE_HOT_INLINE Mask8 operator==(Float8 a, Float8 b) { return {a.lo == b.lo, a.hi == b.hi}; }
PEBBLE_HOT_INLINE unsigned bits(Mask8 m) { return bits(m.lo) | bits(m.hi) << 4; }
PEBBLE_HOT_INLINE bool any(Mask8 m) { return any(m.lo | m.hi); }
PEBBLE_HOT_INLINE Float4 low(Float8 a) { return a.lo; }
PEBBLE_HOT_INLINE Float4 high(Float8 a) { return a.hi; }
#endif

// ---------------------------------------------------------------------------------------------
// Written once, on the operations above.

/// The lane type for 4 or 8 lanes.
template <int Lanes>
using FloatLanes = std::conditional_t<Lanes == 4, Float4, Float8>;

/// The greatest lane by one fixed tree: the high half against the low half, then neighbouring
/// lanes, then the two pairs, i.e. max(max(max(x0, x4), max(x1, x5)), max(max(x2, x6), max(x3, x7)))
/// (for 4 lanes, x4..x7 absent). With NaN lanes the answer depends on that order, so every copy
/// keeps it.
PEBBLE_HOT_INLINE float max_lane(Float4 x) {
  x = max(x, swap_pairs(x));
  return first_lane(max(x, swap_halves(x)));
}
PEBBLE_HOT_INLINE float max_lane(Float8 x) { return max_lane(max(low(x), high(x))); }

/// The least lane, by max_lane's tree.
PEBBLE_HOT_INLINE float min_lane(Float4 x) {
  x = min(x, swap_pairs(x));
  return first_lane(min(x, swap_halves(x)));
}
PEBBLE_HOT_INLINE float min_lane(Float8 x) { return min_lane(min(low(x), high(x))); }

/// Bit i set when lane i equals v.
template <class F>
PEBBLE_HOT_INLINE unsigned lanes_equal(F x, float v) {
  return bits(x == F::splat(v));
}

/// The lowest set bit of a lane mask known not to be 0 (std::countr_zero also handles 0, at a
/// test and a conditional move on the chain).
PEBBLE_HOT_INLINE int first_set_lane(unsigned mask) {
#if defined(__GNUC__)
  return __builtin_ctz(mask);
#else
  return std::countr_zero(mask);
#endif
}

/// The instruction set of this copy of the kernels.
#if PEBBLE_KERNEL_AVX2
inline constexpr SimdPath kLanePath = SimdPath::avx2;
#elif PEBBLE_SSE
inline constexpr SimdPath kLanePath = SimdPath::sse2;
#elif PEBBLE_NEON
inline constexpr SimdPath kLanePath = SimdPath::neon;
#else
inline constexpr SimdPath kLanePath = SimdPath::scalar;
#endif

// ---------------------------------------------------------------------------------------------
// 1 lane, and what the batch queries' lanes across queries add (src/batch/batch.cpp: one template
// per query for Float1, the single query, and for a register of queries).

/// One float lane with the operations of Float4: the single query's type.
struct Float1 {
  float v;
  static PEBBLE_HOT_INLINE Float1 splat(float x) { return {x}; }
};
struct Mask1 {
  bool v;
};
PEBBLE_HOT_INLINE Float1 operator+(Float1 a, Float1 b) { return {a.v + b.v}; }
PEBBLE_HOT_INLINE Float1 operator-(Float1 a, Float1 b) { return {a.v - b.v}; }
PEBBLE_HOT_INLINE Float1 operator*(Float1 a, Float1 b) { return {a.v * b.v}; }
PEBBLE_HOT_INLINE Float1 operator/(Float1 a, Float1 b) { return {a.v / b.v}; }
PEBBLE_HOT_INLINE Float1 min(Float1 a, Float1 b) { return {a.v < b.v ? a.v : b.v}; }
PEBBLE_HOT_INLINE Float1 max(Float1 a, Float1 b) { return {a.v > b.v ? a.v : b.v}; }
PEBBLE_HOT_INLINE Float1 abs(Float1 a) { return {std::fabs(a.v)}; }
PEBBLE_HOT_INLINE Float1 sqrt_lanes(Float1 a) { return {std::sqrt(a.v)}; }
PEBBLE_HOT_INLINE Mask1 operator<(Float1 a, Float1 b) { return {a.v < b.v}; }
PEBBLE_HOT_INLINE Mask1 operator<=(Float1 a, Float1 b) { return {a.v <= b.v}; }
PEBBLE_HOT_INLINE Mask1 operator>(Float1 a, Float1 b) { return {a.v > b.v}; }
PEBBLE_HOT_INLINE Mask1 operator==(Float1 a, Float1 b) { return {a.v == b.v}; }
PEBBLE_HOT_INLINE Mask1 operator&(Mask1 a, Mask1 b) { return {a.v && b.v}; }
PEBBLE_HOT_INLINE Mask1 operator|(Mask1 a, Mask1 b) { return {a.v || b.v}; }
PEBBLE_HOT_INLINE Float1 select(Mask1 m, Float1 a, Float1 b) { return m.v ? a : b; }
PEBBLE_HOT_INLINE unsigned bits(Mask1 m) { return m.v ? 1u : 0u; }

/// -x, exactly (the sign bit flipped, as unary minus does; 0 - x differs at x = 0).
PEBBLE_HOT_INLINE Float1 neg(Float1 a) { return {-a.v}; }
#if PEBBLE_KERNEL_AVX2
PEBBLE_HOT_INLINE Float8 neg(Float8 a) { return {_mm256_xor_ps(a.v, _mm256_set1_ps(-0.0f))}; }
#else
PEBBLE_HOT_INLINE Float4 neg(Float4 a) { return flip_signs(a, Float4::splat(-0.0f)); }
#endif

/// Lanes 0..n-1 of seven fields f0..f6 as n consecutive records of seven floats at o (lane j's
/// record at o + 7 j): the lanes transposed into rows, each record written as two 16-byte stores
/// whose last float spills into the next record's first (written after it), the last record's 12
/// bytes exactly.
#if PEBBLE_KERNEL_AVX2
PEBBLE_HOT_INLINE void store_records7(float* o, Float8 f0, Float8 f1, Float8 f2, Float8 f3, Float8 f4, Float8 f5,
                                      Float8 f6) {
  const __m256 t0 = _mm256_unpacklo_ps(f0.v, f1.v), t1 = _mm256_unpackhi_ps(f0.v, f1.v);
  const __m256 t2 = _mm256_unpacklo_ps(f2.v, f3.v), t3 = _mm256_unpackhi_ps(f2.v, f3.v);
  const __m256 t4 = _mm256_unpacklo_ps(f4.v, f5.v), t5 = _mm256_unpackhi_ps(f4.v, f5.v);
  const __m256 t6 = _mm256_unpacklo_ps(f6.v, f6.v), t7 = _mm256_unpackhi_ps(f6.v, f6.v);
  // u[j]: fields 0-3 of lane j (low half) and lane j + 4 (high half); w[j]: fields 4-6 (and 6 again).
  const __m256 u[4] = {
      _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2)),
      _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2))};
  const __m256 w[4] = {
      _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2)),
      _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2))};
  for (int j = 0; j < 4; ++j) {
    _mm_storeu_ps(o + 7 * j, _mm256_castps256_ps128(u[j]));
    _mm_storeu_ps(o + 7 * j + 4, _mm256_castps256_ps128(w[j]));
  }
  for (int j = 0; j < 3; ++j) {
    _mm_storeu_ps(o + 7 * (j + 4), _mm256_extractf128_ps(u[j], 1));
    _mm_storeu_ps(o + 7 * (j + 4) + 4, _mm256_extractf128_ps(w[j], 1));
  }
  _mm_storeu_ps(o + 49, _mm256_extractf128_ps(u[3], 1));
  const __m128 last = _mm256_extractf128_ps(w[3], 1);
  _mm_storel_pi(reinterpret_cast<__m64*>(o + 53), last);
  _mm_store_ss(o + 55, _mm_movehl_ps(last, last));
}
#elif PEBBLE_SSE
PEBBLE_HOT_INLINE void store_records7(float* o, Float4 f0, Float4 f1, Float4 f2, Float4 f3, Float4 f4, Float4 f5,
                                      Float4 f6) {
  const __m128 t0 = _mm_unpacklo_ps(f0.v, f1.v), t1 = _mm_unpackhi_ps(f0.v, f1.v);
  const __m128 t2 = _mm_unpacklo_ps(f2.v, f3.v), t3 = _mm_unpackhi_ps(f2.v, f3.v);
  const __m128 t4 = _mm_unpacklo_ps(f4.v, f5.v), t5 = _mm_unpackhi_ps(f4.v, f5.v);
  const __m128 t6 = _mm_unpacklo_ps(f6.v, f6.v), t7 = _mm_unpackhi_ps(f6.v, f6.v);
  const __m128 u[4] = {_mm_movelh_ps(t0, t2), _mm_movehl_ps(t2, t0), _mm_movelh_ps(t1, t3), _mm_movehl_ps(t3, t1)};
  const __m128 w[4] = {_mm_movelh_ps(t4, t6), _mm_movehl_ps(t6, t4), _mm_movelh_ps(t5, t7), _mm_movehl_ps(t7, t5)};
  for (int j = 0; j < 3; ++j) {
    _mm_storeu_ps(o + 7 * j, u[j]);
    _mm_storeu_ps(o + 7 * j + 4, w[j]);
  }
  _mm_storeu_ps(o + 21, u[3]);
  _mm_storel_pi(reinterpret_cast<__m64*>(o + 25), w[3]);
  _mm_store_ss(o + 27, _mm_movehl_ps(w[3], w[3]));
}
#endif

/// Every entry point calls this before it returns. In the AVX2 copy it clears the upper halves of
/// the ymm registers: GCC 12's vzeroupper pass can miss a path, and the caller's SSE code would then
/// run with a false dependency on every instruction (docs/contacts.md).
PEBBLE_HOT_INLINE void leave_lanes() {
#if PEBBLE_KERNEL_AVX2
  _mm256_zeroupper();
#endif
}

}  // namespace pebble::detail::PEBBLE_KERNEL_NS
