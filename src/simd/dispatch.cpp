// Picks the copy of the kernels the library runs on (simd/config.hpp): the contact kernels
// (pebble/detail/kernels.hpp's table) and the batch kernels (simd/batch_kernels.hpp) switch together.
#include "pebble/detail/kernels.hpp"
#include "pebble/simd.hpp"

#include <cstdlib>
#include <cstring>

#include "simd/batch_kernels.hpp"
#include "simd/config.hpp"
#include "test_hooks.hpp"

namespace pebble {
namespace detail {

// Each copy's batch kernels (batch/batch.cpp).
namespace base {
extern const BatchKernels kBatchKernels;
}
#if PEBBLE_BASE_LANES
namespace scalar {
extern const BatchKernels kBatchKernels;
}
#endif
#if PEBBLE_HAVE_AVX2_KERNELS
namespace avx2 {
extern const BatchKernels kBatchKernels;
}
#endif

#if PEBBLE_DOUBLE_POSITIONS
// batch/batch.cpp: every pair by the one-at-a-time query in a build with double positions.
extern const BatchKernels kOneByOneBatchKernels;
const BatchKernels& batch_kernels() noexcept { return kOneByOneBatchKernels; }
#else
const BatchKernels& batch_kernels() noexcept {
  const SimdPath path = contact_kernels().path;
#if PEBBLE_BASE_LANES
  if (path == SimdPath::scalar) return scalar::kBatchKernels;
#endif
#if PEBBLE_HAVE_AVX2_KERNELS
  if (path == SimdPath::avx2) return avx2::kBatchKernels;
#endif
  (void)path;
  return base::kBatchKernels;
}
#endif

constinit std::atomic<const ContactKernels*> active_contact_kernels{&base::kKernels};

namespace {

/// The copy for `path`, or nullptr when this build or CPU lacks it.
const ContactKernels* kernels_for(SimdPath path) noexcept {
  if (path == base::kKernels.path) return &base::kKernels;
#if PEBBLE_BASE_LANES
  if (path == SimdPath::scalar) return &scalar::kKernels;
#endif
#if PEBBLE_HAVE_AVX2_KERNELS
  // __builtin_cpu_supports also checks that the OS saves the 256-bit registers. It may run
  // before the library's own CPU detection has run, hence __builtin_cpu_init first.
  __builtin_cpu_init();
  if (path == SimdPath::avx2 && __builtin_cpu_supports("avx2")) return &avx2::kKernels;
#endif
  return nullptr;
}

/// The best path, or the one PEBBLE_SIMD names if this build and CPU have it.
const ContactKernels* choose_kernels() noexcept {
  if (const char* wanted = std::getenv("PEBBLE_SIMD")) {
    for (SimdPath p : {SimdPath::scalar, SimdPath::sse2, SimdPath::avx2, SimdPath::neon}) {
      if (std::strcmp(wanted, simd_path_name(p)) != 0) continue;
      if (const ContactKernels* k = kernels_for(p)) return k;
    }
  }
  if (const ContactKernels* k = kernels_for(SimdPath::avx2)) return k;
  return &base::kKernels;
}

// Dynamic initialization at load time; until it has run, queries use the base copy, which gives
// the same results.
[[maybe_unused]] const bool chosen_at_load =
    (active_contact_kernels.store(choose_kernels(), std::memory_order_relaxed), true);

}  // namespace

bool use_simd_path(SimdPath path) noexcept {
  const ContactKernels* k = kernels_for(path);
  if (k == nullptr) return false;
  active_contact_kernels.store(k, std::memory_order_relaxed);
  return true;
}

}  // namespace detail

SimdPath simd_path() noexcept { return detail::contact_kernels().path; }

const char* simd_path_name(SimdPath path) noexcept {
  switch (path) {
    case SimdPath::scalar:
      return "scalar";
    case SimdPath::sse2:
      return "sse2";
    case SimdPath::avx2:
      return "avx2";
    case SimdPath::neon:
      return "neon";
  }
  return "unknown";
}

}  // namespace pebble
