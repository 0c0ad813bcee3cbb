// `pebble replay FILE`: replays a recording of a world's calls (pebble/recording.hpp) and checks
// every update against the digest recorded with it.
#pragma once

#include <ostream>
#include <string>

namespace pebble::tools {

/// Replays the recording at `path`, prints what it found to `out`. Returns the program's exit
/// code: 0 when every call and update agrees, 1 on a mismatch. Throws InputError for a file that
/// cannot be read or is not a recording pebble can replay (InvalidRecording's reason).
int run_replay(const std::string& path, std::ostream& out);

}  // namespace pebble::tools
