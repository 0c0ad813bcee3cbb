// giflib's streaming encoder writing into a byte vector.
#include "tools/gif_writer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <gif_lib.h>

namespace pebble::tools {
namespace {

uint8_t byte(double v) { return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); }

int write_bytes(GifFileType* gif, const GifByteType* data, int length) {
  auto* out = static_cast<std::vector<uint8_t>*>(gif->UserData);
  out->insert(out->end(), data, data + length);
  return length;
}

}  // namespace

Palette::Palette(std::span<const Rgb> keys) {
  std::vector<Rgb> colors(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(keys.size(), 12)));
  const size_t n = colors.size();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      colors.push_back(mix(colors[i], colors[j], 1.0 / 3));
      colors.push_back(mix(colors[i], colors[j], 2.0 / 3));
    }
  // A 4 x 4 x 4 cube catches whatever else appears (at most 12 + 132 + 64 = 208 entries).
  for (int r = 0; r < 4; ++r)
    for (int g = 0; g < 4; ++g)
      for (int b = 0; b < 4; ++b) colors.push_back({r / 3.0, g / 3.0, b / 3.0});
  rgb_.assign(256 * 3, 0);
  for (size_t i = 0; i < colors.size() && i < 256; ++i) {
    rgb_[3 * i] = byte(colors[i].r);
    rgb_[3 * i + 1] = byte(colors[i].g);
    rgb_[3 * i + 2] = byte(colors[i].b);
  }
  const int used = static_cast<int>(std::min<size_t>(colors.size(), 256));
  lookup_.resize(32 * 32 * 32);
  for (int key = 0; key < 32 * 32 * 32; ++key) {
    const int r = ((key >> 10) & 31) * 8 + 4, g = ((key >> 5) & 31) * 8 + 4, b = (key & 31) * 8 + 4;
    int best = 0, best_d = 1 << 30;
    for (int i = 0; i < used; ++i) {
      const int dr = r - rgb_[3 * i], dg = g - rgb_[3 * i + 1], db = b - rgb_[3 * i + 2];
      const int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;  // rough perceptual weights
      if (d < best_d) best_d = d, best = i;
    }
    lookup_[static_cast<size_t>(key)] = static_cast<uint8_t>(best);
  }
}

GifWriter::GifWriter(int width, int height, const Palette& palette)
    : width_(width), height_(height), palette_(palette) {
  int error = 0;
  GifFileType* gif = EGifOpen(&bytes_, write_bytes, &error);
  gif_ = gif;
  if (!gif) {
    failed_ = true;
    return;
  }
  EGifSetGifVersion(gif, true);
  std::vector<GifColorType> colors(256);
  for (size_t i = 0; i < 256; ++i)
    colors[i] = {palette.entries()[3 * i], palette.entries()[3 * i + 1], palette.entries()[3 * i + 2]};
  ColorMapObject* map = GifMakeMapObject(256, colors.data());
  failed_ |= !map || EGifPutScreenDesc(gif, width, height, 8, 0, map) == GIF_ERROR;
  GifFreeMapObject(map);
  // The Netscape application extension: loop forever.
  const GifByteType app[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
  const GifByteType loop[] = {1, 0, 0};
  failed_ |= EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
             EGifPutExtensionBlock(gif, sizeof app, app) == GIF_ERROR ||
             EGifPutExtensionBlock(gif, sizeof loop, loop) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR;
  current_.resize(static_cast<size_t>(width) * static_cast<size_t>(height));
}

GifWriter::~GifWriter() {
  if (gif_) EGifCloseFile(static_cast<GifFileType*>(gif_), nullptr);
}

void GifWriter::add_frame(const unsigned char* argb, int stride, int delay_cs) {
  for (int y = 0; y < height_; ++y) {
    const auto* row = reinterpret_cast<const uint32_t*>(argb + static_cast<ptrdiff_t>(y) * stride);
    uint8_t* out = current_.data() + static_cast<size_t>(y) * static_cast<size_t>(width_);
    for (int x = 0; x < width_; ++x) out[x] = palette_.index(row[x] & 0xffffff);
  }
  // Store only the rectangle that differs from the previous frame (which stays on screen).
  int left = 0, top = 0, right = width_ - 1, bottom = height_ - 1;
  if (!previous_.empty()) {
    left = width_, top = height_, right = -1, bottom = -1;
    for (int y = 0; y < height_; ++y) {
      const size_t row = static_cast<size_t>(y) * static_cast<size_t>(width_);
      for (int x = 0; x < width_; ++x) {
        if (current_[row + static_cast<size_t>(x)] == previous_[row + static_cast<size_t>(x)]) continue;
        left = std::min(left, x), right = std::max(right, x), top = std::min(top, y), bottom = std::max(bottom, y);
      }
    }
    if (right < 0) left = right = top = bottom = 0;  // unchanged: one pixel keeps the timing
  }
  put_frame(left, top, right - left + 1, bottom - top + 1, delay_cs);
  previous_ = current_;
}

void GifWriter::put_frame(int left, int top, int w, int h, int delay_cs) {
  auto* gif = static_cast<GifFileType*>(gif_);
  if (failed_ || !gif) return;
  GraphicsControlBlock gcb{};
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.UserInputFlag = false;
  gcb.DelayTime = delay_cs;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const size_t n = EGifGCBToExtension(&gcb, ext);
  failed_ |= EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(n), ext) == GIF_ERROR;
  failed_ |= EGifPutImageDesc(gif, left, top, w, h, false, nullptr) == GIF_ERROR;
  for (int y = top; y < top + h && !failed_; ++y) {
    uint8_t* line = current_.data() + static_cast<size_t>(y) * static_cast<size_t>(width_) + static_cast<size_t>(left);
    failed_ |= EGifPutLine(gif, line, w) == GIF_ERROR;
  }
  ++frames_;
}

std::vector<uint8_t> GifWriter::finish() {
  int error = 0;
  if (gif_ && EGifCloseFile(static_cast<GifFileType*>(gif_), &error) == GIF_ERROR) failed_ = true;
  gif_ = nullptr;
  if (failed_) throw std::runtime_error("giflib could not encode the animation");
  return std::move(bytes_);
}

}  // namespace pebble::tools
