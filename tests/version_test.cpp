// pebble/version.hpp: the library's version() is the headers' numbers, and both are CMake's
// project version (PEBBLE_PROJECT_VERSION, passed by tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <pebble/version.hpp>

#include <string>

TEST(Version, MatchesTheMacros) {
  const std::string expected = std::to_string(PEBBLE_VERSION_MAJOR) + "." + std::to_string(PEBBLE_VERSION_MINOR) + "." +
                               std::to_string(PEBBLE_VERSION_PATCH);
  EXPECT_EQ(std::string(pebble::version()), expected);
  EXPECT_EQ(std::string(PEBBLE_VERSION_STRING), expected);
}

TEST(Version, IsTheProjectVersion) { EXPECT_EQ(std::string(pebble::version()), PEBBLE_PROJECT_VERSION); }
