// The library's version, compiled in, so that a program can tell which library it was linked with
// (pebble/version.hpp, generated from CMake's project version).
#include "pebble/version.hpp"

namespace pebble {

const char* version() noexcept { return PEBBLE_VERSION_STRING; }

}  // namespace pebble
