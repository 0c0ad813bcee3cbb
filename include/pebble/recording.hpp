// pebble/recording.hpp — replaying a recording of a CollisionWorld's calls
// (CollisionWorld::start_recording): the bug report that reproduces itself. docs/world.md,
// "Recording and replay".
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace pebble {

class CollisionWorld;

/// A recording that cannot be replayed: not a recording, from another format version, truncated
/// inside a record, or holding a call the recorded world could not have made (a shape that
/// Shape::from_vertices refuses, an invalid transform in an add). The message names the record.
class InvalidRecording : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// What replay() found.
struct ReplayReport {
  int calls = 0;              ///< calls replayed (adds, removes, set_*, optimize_fixed, updates)
  int updates = 0;            ///< of which update()
  int mismatches = 0;         ///< updates whose digest, and calls whose result, differ from the recording's
  int first_mismatch = -1;    ///< the index (in calls) of the first mismatch; -1 when none
  std::uint64_t digest = 0;   ///< the last update's digest (update_digest), 0 before any update
  std::string first_problem;  ///< what the first mismatch was, in words; empty when none
};

/// Builds a world with the recorded settings (on one thread: the results do not depend on the
/// thread count), makes every recorded call on it in order and compares each call's result (the id
/// an add gave, what remove and the setters returned) and each update's digest with the
/// recording's. Reads to the end of the stream: a recording cut between two records (a program
/// that stopped while recording) is replayed as far as it goes. Throws InvalidRecording.
ReplayReport replay(std::istream& in);

/// A 64-bit digest (FNV-1a) of the world's last update(): contacts() with every bit of each
/// manifold, and the begin, end, part and sensor events, with the colliders' slots and
/// generations (not the world serial, so two worlds given the same calls agree).
std::uint64_t update_digest(const CollisionWorld& world) noexcept;

}  // namespace pebble
