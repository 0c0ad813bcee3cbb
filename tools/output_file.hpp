// tools/output_file.hpp — writing results so that a failure leaves nothing behind: the bytes go
// to a temporary file beside the target, which is renamed over it only once complete.
#pragma once

#include <string>
#include <string_view>

namespace pebble::tools {

/// Writes bytes to path all at once (temporary file + rename). Throws InputError naming the path
/// and the reason when the folder does not exist or cannot be written; the target is then unchanged.
void write_file(const std::string& path, std::string_view bytes);

}  // namespace pebble::tools
