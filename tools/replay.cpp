#include "tools/replay.hpp"

#include <cstdio>
#include <fstream>

#include <pebble/recording.hpp>

#include "tools/scene_file.hpp"

namespace pebble::tools {

int run_replay(const std::string& path, std::ostream& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the recording");
  ReplayReport report;
  try {
    report = replay(in);
  } catch (const InvalidRecording& e) {
    throw InputError(path + ": " + e.what());
  }
  char digest[32];
  std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(report.digest));
  out << "pebble replay: " << path << ": " << report.calls << " calls, " << report.updates
      << " updates, last update's digest " << digest << "\n";
  if (report.mismatches == 0) {
    out << "  every call and update agrees with the recording\n";
    return 0;
  }
  out << "  " << report.mismatches << " mismatches; the first: " << report.first_problem << "\n";
  return 1;
}

}  // namespace pebble::tools
