// web/src/compat.hpp — included before every source of the WebAssembly build (web/CMakeLists.txt).
// The libc++ of Debian's Emscripten 3.1.6 predates std::bit_cast, which pebble uses; clang's
// builtin gives the same bits, so the library is compiled unchanged.
#pragma once
#include <bit>
#if !defined(__cpp_lib_bit_cast)
namespace std {
template <class To, class From>
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif
