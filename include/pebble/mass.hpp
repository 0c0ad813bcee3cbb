// pebble/mass.hpp — exact mass properties and bounding boxes of rounded shapes.
// mass_properties() integrates core ⊕ disc exactly (polygon + one rectangle per edge + one
// circular sector per vertex); the derivation is in docs/mass.md.
#pragma once

#include "pebble/shape.hpp"

namespace pebble {

/// Mass, centre of mass (local frame) and rotational inertia about the centre of mass.
struct MassProperties {
  float mass;     ///< density × area
  Vec2 center;    ///< centre of mass in the shape's local frame
  float inertia;  ///< about center, density × ∫ |x - center|² dA
};

/// Exact mass properties of the rounded shape at uniform density, centre in the local frame,
/// inertia about that centre (Box2D 2.4.1 reports it about the local origin instead: add
/// mass × |center|²). A zero-area shape (a segment or point of radius 0) has mass 0, inertia 0
/// and its centre at its core centroid. Throws InvalidShape, naming the value, when density is
/// negative or not finite, or so large that the mass or inertia overflows a float.
MassProperties mass_properties(const Shape& shape, float density = 1);

/// Mass properties of a compound: the parts (each in the compound's frame) taken together at one
/// density, by the parallel axis theorem: the mass is the sum of the parts' masses, the centre their
/// mass-weighted mean, the inertia the sum of each part's inertia plus its mass times the squared
/// distance from its centre to the compound's. Parts are taken as disjoint (decompose() makes them
/// so); where two overlap, the overlap counts twice, as it does for a Box2D body of several shapes.
/// A compound of zero mass has its centre at the mean of the parts' centres. Throws InvalidShape
/// for an empty list and as mass_properties(shape, density) does.
MassProperties mass_properties(std::span<const Shape> parts, float density = 1);

/// The area of the rounded shape (core area + perimeter × r + π r²).
float area(const Shape& shape) noexcept;

/// The axis-aligned box of the shape under xf (world frame), radius included: the transformed
/// core's box grown by the radius, then padded outward by at most 2⁻²¹ × (|xf.p| + |core
/// centroid|₁ + extent) per axis (a few float steps), so that it always contains the shape
/// despite float rounding. An invalid transform (see is_valid) gives the empty box {{0,0},{0,0}}
/// at the origin.
Aabb bounds(const Shape& shape, const Transform& xf) noexcept;

}  // namespace pebble
