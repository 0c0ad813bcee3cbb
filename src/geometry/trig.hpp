// Internal: pebble's own cosine, sine and arctangent (trig.cpp), for the library's few uses of
// angles in double (mass.cpp's corner sectors, the mover's slope limit). Rot::from_angle and
// Rot::angle (pebble/math.hpp) are the float forms. Not installed.
#pragma once

namespace pebble::detail {

/// cos and sin of x (radians) in double, within 3 ulps of double for |x| <= kExactTurnLimit;
/// NaN for a non-finite x. Built from + - * / only, so every platform gives the same bits.
void cos_sin(double x, double& c, double& s) noexcept;

/// atan2(y, x) in double, in [-pi, pi], with C's signs for zeros and infinities; NaN when
/// either is NaN. Within 3 ulps of double.
double atan2(double y, double x) noexcept;

/// Beyond this many radians from_angle's argument reduction is no longer exact in double: the
/// result is then a unit rotation by an angle within 2^-20 rad of the argument's.
inline constexpr double kExactTurnLimit = 0x1p19;

}  // namespace pebble::detail
