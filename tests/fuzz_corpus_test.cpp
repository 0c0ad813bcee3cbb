// The fuzz targets (fuzz/*_fuzz.cpp) run over their committed corpus (fuzz/corpus/<target>/),
// built with the normal compiler and flags (and under ASan + UBSan by the asan preset): every
// input that once found a bug, and every hand-made seed, keeps checking its invariants in the
// ordinary test suite, without clang or libFuzzer. A violated invariant aborts the test binary
// with the input described.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define PEBBLE_FUZZ_NO_ENTRY
#include "../fuzz/decompose_fuzz.cpp"
#include "../fuzz/primitives_fuzz.cpp"
#include "../fuzz/query_fuzz.cpp"
#include "../fuzz/shape_fuzz.cpp"
#include "../fuzz/snapshot_fuzz.cpp"
#include "../fuzz/world_fuzz.cpp"

namespace {

namespace fs = std::filesystem;

/// The committed corpus of a target, in name order.
std::vector<fs::path> corpus(const char* target) {
  const fs::path dir = fs::path(__FILE__).parent_path().parent_path() / "fuzz" / "corpus" / target;
  std::vector<fs::path> files;
  if (fs::is_directory(dir)) {
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

template <class Target>
void replay(const char* target, Target run) {
  const std::vector<fs::path> files = corpus(target);
  ASSERT_FALSE(files.empty()) << "no corpus for " << target;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(f.string());
    EXPECT_EQ(run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
  }
}

TEST(FuzzCorpus, Shape) { replay("shape", pebble_fuzz::shape_target::run); }
TEST(FuzzCorpus, Query) { replay("query", pebble_fuzz::query_target::run); }
TEST(FuzzCorpus, World) { replay("world", pebble_fuzz::world_target::run); }
TEST(FuzzCorpus, Primitives) { replay("primitives", pebble_fuzz::primitives_target::run); }
TEST(FuzzCorpus, Decompose) { replay("decompose", pebble_fuzz::decompose_target::run); }
TEST(FuzzCorpus, Snapshot) { replay("snapshot", pebble_fuzz::snapshot_target::run); }

}  // namespace
