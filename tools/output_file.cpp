#include "tools/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "tools/scene_file.hpp"

namespace pebble::tools {

void write_file(const std::string& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path + ": cannot write the output: it is a directory");
  // A name of our own beside the target, so that the rename stays within one file system.
  std::random_device entropy;
  const std::string temporary = path + ".tmp-" + std::to_string(entropy());
  std::FILE* f = std::fopen(temporary.c_str(), "wb");
  if (!f) throw InputError(path + ": cannot write the output (" + std::strerror(errno) + ")");
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int saved = errno;
  const bool closed = std::fclose(f) == 0;
  if (!written || !closed) {
    std::remove(temporary.c_str());
    throw InputError(path + ": cannot write the output (" + std::strerror(written ? errno : saved) + ")");
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    std::remove(temporary.c_str());
    throw InputError(path + ": cannot write the output (" + ec.message() + ")");
  }
}

}  // namespace pebble::tools
