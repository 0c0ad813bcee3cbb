// pebble/simd.hpp — which instruction set the contact queries run on.
//
// The kernels of collide(), distance(), overlap() and the batch queries are compiled more than once:
// on x86-64 with GCC or Clang for the build's own target (SSE2), for AVX2, whose 8-wide registers
// hold all the edge lanes of an 8-gon at once, and as portable scalar loops; on ARM64 for NEON and
// as the scalar loops; elsewhere as the scalar loops alone. The AVX2 copy is chosen once, when the
// library loads, if the CPU and the OS support it. All copies do the same float operations in the
// same order (no fused multiply-add), so they give the same results: a simulation does not change
// with the machine (docs/robustness.md has the table of platforms and paths).
#pragma once

#include <cstdint>

namespace pebble {

/// An instruction set the contact queries can run on.
enum class SimdPath : std::uint8_t {
  scalar,  ///< plain C++: the only copy off x86-64 and ARM64 or with PEBBLE_NO_SIMD; beside SSE2 or NEON, for tests
  sse2,    ///< 4-wide, every x86-64 CPU
  avx2,    ///< 8-wide, chosen at load time when the CPU and OS support it
  neon,    ///< 4-wide, every ARM64 CPU
};

/// The path the contact queries use now. The environment variable PEBBLE_SIMD (scalar, sse2,
/// avx2 or neon), read once at load time, asks for a path; a path this build or CPU lacks is
/// ignored and the best available one is used.
SimdPath simd_path() noexcept;

/// "scalar", "sse2", "avx2" or "neon".
const char* simd_path_name(SimdPath path) noexcept;

}  // namespace pebble
