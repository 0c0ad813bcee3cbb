// tools/gif_writer.hpp — animated GIFs with giflib, in memory: frames drawn by cairo (ARGB32) are
// mapped to one 256-colour palette made for the picture's own colours and the blends that
// anti-aliasing makes between them, and only the rectangle that changed is stored per frame.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tools/draw.hpp"

namespace pebble::tools {

/// A 256-colour palette built from a few key colours, with nearest-colour lookup.
class Palette {
public:
  /// The key colours, their pairwise blends at 1/3 and 2/3 (anti-aliased edges between two
  /// colours land near those), then a coarse colour cube for everything else. At most 12 keys.
  explicit Palette(std::span<const Rgb> keys);
  /// Index of the palette colour nearest to the 0xRRGGBB pixel.
  uint8_t index(uint32_t rgb) const {
    return lookup_[((rgb >> 9) & 0x7c00) | ((rgb >> 6) & 0x3e0) | ((rgb >> 3) & 0x1f)];
  }
  /// Red, green, blue bytes of entry i.
  const std::vector<uint8_t>& entries() const { return rgb_; }

private:
  std::vector<uint8_t> rgb_;     // 256 x 3 bytes
  std::vector<uint8_t> lookup_;  // 32 x 32 x 32: nearest entry for each 5-bit colour
};

/// Builds an animated GIF (looping forever) in memory.
class GifWriter {
public:
  GifWriter(int width, int height, const Palette& palette);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  /// Adds a frame from cairo ARGB32 pixels (width x height, `stride` bytes per row), shown for
  /// delay_cs hundredths of a second.
  void add_frame(const unsigned char* argb, int stride, int delay_cs);
  /// Finishes the file and returns its bytes. Throws std::runtime_error if giflib failed.
  std::vector<uint8_t> finish();
  int frame_count() const { return frames_; }

private:
  void put_frame(int left, int top, int w, int h, int delay_cs);

  int width_, height_;
  const Palette& palette_;
  std::vector<uint8_t> bytes_;
  std::vector<uint8_t> current_, previous_;  // indexed pixels
  void* gif_ = nullptr;                      // GifFileType*
  int frames_ = 0;
  bool failed_ = false;
};

}  // namespace pebble::tools
