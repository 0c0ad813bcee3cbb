// Internal: the recorder a CollisionWorld writes its changing calls to while recording
// (start_recording), and the byte order both it and replay() use. The format is in docs/world.md,
// "Recording and replay".
#pragma once

#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <span>

#include "pebble/world.hpp"
#include "world/bytes.hpp"

namespace pebble::detail {

/// Record tags: one byte before each record.
enum class RecordTag : std::uint8_t {
  add_parts = 1,
  add_chain = 2,
  remove = 3,
  set_transform = 4,
  set_transforms = 5,
  set_shape = 6,
  set_filter = 7,
  set_user_data = 8,
  optimize_fixed = 9,
  update = 10,
  add_heightfield = 11,
};

inline constexpr char kRecordingMagic[8] = {'P', 'E', 'B', 'B', 'L', 'R', 'E', 'C'};
// Bit 8 marks a build with double positions (pebble/config.hpp), whose records hold them as doubles.
inline constexpr std::uint32_t kRecordingVersion = 1 | (PEBBLE_DOUBLE_POSITIONS ? 0x100u : 0u);

/// Writes records to a stream, little-endian whatever the machine. Records gather in a buffer that
/// goes to the stream at each update() (and every 64 KB, and at the end), so a program stopped
/// while recording leaves whole records only (unless the stream itself is cut).
/// What update_digest() reads of a world: its contacts and this update's events.
struct UpdateOutput {
  std::span<const ContactPair> contacts;
  std::span<const ContactEvent> begin_events, end_events, begin_part_events, end_part_events;
  std::span<const SensorEvent> sensor_begin_events, sensor_end_events;
};
/// update_digest() of those.
std::uint64_t digest_of(const UpdateOutput& world) noexcept;

class Recorder : private FieldWriter<Recorder> {
public:
  /// `start`: the world's save() when it is not new (the replay restores it), else empty.
  Recorder(std::ostream& out, const WorldSettings& settings, std::uint32_t world, std::span<const std::byte> start);
  Recorder(std::unique_ptr<std::ofstream> file, const WorldSettings& settings, std::uint32_t world,
           std::span<const std::byte> start);
  ~Recorder();

  void add_parts(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& options, ColliderId id);
  void add_chain(const Chain& chain, const Transform& xf, const ColliderOptions& options, ColliderId id);
  void add_heightfield(const Heightfield& field, const Transform& xf, const ColliderOptions& options, ColliderId id);
  void remove(ColliderId id, bool done);
  void set_transform(ColliderId id, const Transform& xf, bool done);
  void set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms, int moved);
  void set_shape(ColliderId id, const Shape& shape, bool done);
  void set_filter(ColliderId id, const Filter& filter, bool done);
  void set_user_data(ColliderId id, std::uint64_t user_data, bool done);
  void optimize_fixed();
  void update(std::uint64_t digest, std::size_t contacts);

private:
  void start(RecordTag tag);
  void finish(bool now = false);
  void write();
  friend class FieldWriter<Recorder>;
  void put(const std::byte* p, std::size_t n) { buffer_.insert(buffer_.end(), p, p + n); }
  void id(ColliderId id);
  void filter(const Filter& f);
  void options(const ColliderOptions& o);
  void shape(const Shape& s);
  void header(const WorldSettings& settings, std::span<const std::byte> start);

  std::unique_ptr<std::ofstream> file_;  // when the world opened the file
  std::ostream& out_;
  std::uint32_t world_;  // the recorded world's serial: ids of other worlds are recorded as foreign
  std::vector<std::byte> buffer_;
};

}  // namespace pebble::detail
