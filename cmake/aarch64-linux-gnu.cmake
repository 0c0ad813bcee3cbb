# Cross-compiling pebble for ARM64 Linux with Debian's g++-aarch64-linux-gnu; qemu-user's
# qemu-aarch64 runs what it builds (ctest and the digest program), with the target's libraries from
# /usr/aarch64-linux-gnu. Used by scripts/arm64.sh (docs/robustness.md, Cross-platform results).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
# -DPEBBLE_ARM64_CLANG=ON: Debian's clang 14 with --target=aarch64-linux-gnu instead (the same GCC
# cross toolchain's headers, libraries and linker).
set(PEBBLE_ARM64_CLANG OFF CACHE BOOL "cross-compile with clang++-14 instead of aarch64-linux-gnu-g++")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PEBBLE_ARM64_CLANG)
if(PEBBLE_ARM64_CLANG)
  set(CMAKE_C_COMPILER clang-14)
  set(CMAKE_CXX_COMPILER clang++-14)
  set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
  set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
else()
  set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
  set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
endif()
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
# Debian ships GoogleTest as source too (/usr/src/googletest): build it for the target.
set(PEBBLE_GTEST_FROM_SOURCE ON CACHE BOOL "")
set(CMAKE_CXX_FLAGS_INIT "-Wno-psabi")  # GCC notes an ABI change of GCC 10 for pairs of long double (tests only)
