// Recording a CollisionWorld's changing calls and replaying them (pebble/recording.hpp,
// CollisionWorld::start_recording). The format, in docs/world.md "Recording and replay": a header
// (magic, format version, pebble's version, the settings), then one record per call, each a tag
// byte and fixed-width little-endian fields, the call's result last.
#include <bit>
#include <cstring>
#include <istream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "pebble/recording.hpp"
#include "pebble/version.hpp"
#include "world/internal.hpp"
#include "world/recorder.hpp"

namespace pebble {
namespace detail {

// ---------------------------------------------------------------------------------------------
// Writing.

Recorder::Recorder(std::ostream& out, const WorldSettings& settings, std::uint32_t world,
                   std::span<const std::byte> start)
    : out_(out), world_(world) {
  header(settings, start);
}

Recorder::Recorder(std::unique_ptr<std::ofstream> file, const WorldSettings& settings, std::uint32_t world,
                   std::span<const std::byte> start)
    : file_(std::move(file)), out_(*file_), world_(world) {
  header(settings, start);
}

Recorder::~Recorder() {
  write();
  out_.flush();
}

void Recorder::id(ColliderId id) {
  // An id of another world (or none) is kept as foreign: the replayed world refuses it as well.
  u8(id.world == world_ ? 1 : 0);
  u32(id.index);
  u32(id.generation);
}

void Recorder::filter(const Filter& f) {
  u64(f.category);
  u64(f.mask);
  u32(std::uint32_t(f.group));
}

void Recorder::options(const ColliderOptions& o) {
  filter(o.filter);
  u8(std::uint8_t((o.fixed ? 1 : 0) | (o.sensor ? 2 : 0) | (o.fresh_contacts ? 4 : 0)));
  u64(o.user_data);
}

void Recorder::shape(const Shape& s) {
  u8(std::uint8_t(s.vertex_count()));
  f32(s.radius());
  for (const Vec2 v : s.vertices()) vec(v);
}

void Recorder::header(const WorldSettings& settings, std::span<const std::byte> start) {
  for (const char c : kRecordingMagic) u8(std::uint8_t(c));
  u32(kRecordingVersion);
  const std::string version = pebble::version();
  u32(std::uint32_t(version.size()));
  for (const char c : version) u8(std::uint8_t(c));
  f32(settings.contact_margin);
  f32(settings.tree.margin);
  f32(settings.tree.margin_fraction);
  f32(settings.tree.prediction);
  u8(settings.reuse_contacts ? 1 : 0);
  f32(settings.reuse_bounds.distance);
  f32(settings.reuse_bounds.angle);
  // How the replay begins: a new world, or the recorded world's snapshot (whose ids keep this
  // serial, so the recorded ids name its colliders).
  u32(world_);
  u8(start.empty() ? 0 : 1);
  if (!start.empty()) {
    u64(start.size());
    put(start.data(), start.size());
  }
  finish(true);
}

void Recorder::start(RecordTag tag) { u8(std::uint8_t(tag)); }

void Recorder::finish(bool now) {
  // Whole records only reach the stream, at each update and whenever 64 KB have gathered: one
  // write per step, not per call (a stepper moving every body would write each set_transform).
  if (now || buffer_.size() >= (std::size_t(1) << 16)) write();
}

void Recorder::write() {
  out_.write(reinterpret_cast<const char*>(buffer_.data()), std::streamsize(buffer_.size()));
  buffer_.clear();
}

void Recorder::add_parts(std::span<const Shape> parts, const Transform& xf, const ColliderOptions& o,
                         ColliderId result) {
  start(RecordTag::add_parts);
  u32(std::uint32_t(parts.size()));
  for (const Shape& s : parts) shape(s);
  transform(xf);
  options(o);
  id(result);
  finish();
}

void Recorder::add_chain(const Chain& chain, const Transform& xf, const ColliderOptions& o, ColliderId result) {
  start(RecordTag::add_chain);
  u8(chain.closed() ? 1 : 0);
  u32(std::uint32_t(chain.points().size()));
  for (const Vec2 p : chain.points()) vec(p);
  transform(xf);
  options(o);
  id(result);
  finish();
}

void Recorder::add_heightfield(const Heightfield& field, const Transform& xf, const ColliderOptions& o,
                               ColliderId result) {
  start(RecordTag::add_heightfield);
  f32(field.spacing());
  u32(std::uint32_t(field.heights().size()));
  for (const float h : field.heights()) f32(h);
  transform(xf);
  options(o);
  id(result);
  finish();
}

void Recorder::remove(ColliderId which, bool done) {
  start(RecordTag::remove);
  id(which);
  u8(done ? 1 : 0);
  finish();
}

void Recorder::set_transform(ColliderId which, const Transform& xf, bool done) {
  start(RecordTag::set_transform);
  id(which);
  transform(xf);
  u8(done ? 1 : 0);
  finish();
}

void Recorder::set_transforms(std::span<const ColliderId> ids, std::span<const Transform> transforms, int moved) {
  const std::size_t n = std::min(ids.size(), transforms.size());
  start(RecordTag::set_transforms);
  u32(std::uint32_t(n));
  for (std::size_t i = 0; i < n; ++i) {
    id(ids[i]);
    transform(transforms[i]);
  }
  u32(std::uint32_t(moved));
  finish();
}

void Recorder::set_shape(ColliderId which, const Shape& s, bool done) {
  start(RecordTag::set_shape);
  id(which);
  shape(s);
  u8(done ? 1 : 0);
  finish();
}

void Recorder::set_filter(ColliderId which, const Filter& f, bool done) {
  start(RecordTag::set_filter);
  id(which);
  filter(f);
  u8(done ? 1 : 0);
  finish();
}

void Recorder::set_user_data(ColliderId which, std::uint64_t user_data, bool done) {
  start(RecordTag::set_user_data);
  id(which);
  u64(user_data);
  u8(done ? 1 : 0);
  finish();
}

void Recorder::optimize_fixed() {
  start(RecordTag::optimize_fixed);
  finish();
}

void Recorder::update(std::uint64_t digest, std::size_t contacts) {
  start(RecordTag::update);
  u64(digest);
  u32(std::uint32_t(contacts));
  finish(true);
}

// ---------------------------------------------------------------------------------------------
// Reading.

namespace {

/// Reads the fields the writer wrote; every shortfall is an InvalidRecording naming the record.
class Reader : public FieldReader<Reader> {
public:
  explicit Reader(std::istream& in) : in_(in) {}

  /// The next record's tag; false at the end of the stream (between records).
  bool next(RecordTag& tag) {
    const int c = in_.get();
    if (c == std::char_traits<char>::eof()) return false;
    ++record_;
    if (c < int(RecordTag::add_parts) || c > int(RecordTag::add_heightfield))
      fail("an unknown record tag " + std::to_string(c));
    tag = RecordTag(c);
    return true;
  }

  Filter filter() {
    Filter f;
    f.category = u64();
    f.mask = u64();
    f.group = std::int32_t(u32());
    return f;
  }
  ColliderOptions options() {
    ColliderOptions o;
    o.filter = filter();
    const std::uint8_t flags = u8();
    if (flags > 7) fail("unknown collider option flags");
    o.fixed = (flags & 1) != 0;
    o.sensor = (flags & 2) != 0;
    o.fresh_contacts = (flags & 4) != 0;
    o.user_data = u64();
    return o;
  }
  Shape shape() {
    const int count = u8();
    const float radius = f32();
    if (count < 1 || count > kMaxPolygonVertices) fail("a shape of " + std::to_string(count) + " vertices");
    Vec2 core[kMaxPolygonVertices];
    for (int i = 0; i < count; ++i) core[i] = vec();
    try {
      return Shape::from_vertices(std::span<const Vec2>(core, std::size_t(count)), radius);
    } catch (const InvalidShape& e) {
      fail(std::string("a shape no world could hold: ") + e.what());
    }
  }
  /// A count of items still to come, each at least `item_bytes` long: refused when the stream
  /// ends before them, so that a corrupt count never makes a huge allocation.
  std::uint32_t count(std::size_t item_bytes) {
    const std::uint32_t n = u32();
    if (n > 0 && !has_at_least(std::size_t(n) * item_bytes))
      fail("a count of " + std::to_string(n) + " beyond the end of the recording");
    return n;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidRecording("pebble recording: record " + std::to_string(record_) + ": " + what);
  }
  int record() const { return record_; }

  bool has_at_least(std::size_t n) {
    const std::istream::pos_type here = in_.tellg();
    if (here == std::istream::pos_type(-1)) return true;  // not seekable: reading will tell
    in_.seekg(0, std::ios::end);
    const std::istream::pos_type end = in_.tellg();
    in_.seekg(here);
    return end != std::istream::pos_type(-1) && std::size_t(end - here) >= n;
  }

  /// n more bytes onto out, read in chunks: a corrupt length in a stream that cannot tell its
  /// size allocates no more than the bytes that are there.
  void append(std::vector<std::byte>& out, std::size_t n) {
    constexpr std::size_t kChunk = std::size_t(1) << 16;
    for (std::size_t done = 0; done < n;) {
      const std::size_t chunk = std::min(kChunk, n - done);
      const std::size_t at = out.size();
      out.resize(at + chunk);
      take(out.data() + at, chunk);
      done += chunk;
    }
  }

  void take(std::byte* out, std::size_t n, const char* /*what: the record number names it*/ = nullptr) {
    in_.read(reinterpret_cast<char*>(out), std::streamsize(n));
    if (std::size_t(in_.gcount()) != n) fail("truncated (the recording ends inside it)");
  }

  std::istream& in_;
  int record_ = 0;
};

/// A recorded id in the replayed world (whose serial is `world`; 0 before its first add, when no
/// recorded id can name a live collider anyway).
ColliderId replayed(std::uint8_t own, std::uint32_t index, std::uint32_t generation, std::uint32_t world) {
  return {index, generation, own != 0 ? world : 0};
}

}  // namespace
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// The world's side.

namespace {
bool is_new(std::size_t colliders, std::uint32_t step) { return colliders == 0 && step == 0; }
}  // namespace

void WorldImpl::start_recording(std::ostream& out) {
  recorder_.reset();
  const std::vector<std::byte> start = is_new(colliders_.size(), step_) ? std::vector<std::byte>() : save();
  recorder_ = std::make_unique<detail::Recorder>(out, settings_, serial_, start);
}

void WorldImpl::start_recording(const std::string& path) {
  auto file = std::make_unique<std::ofstream>(path, std::ios::binary | std::ios::trunc);
  if (!*file) throw std::runtime_error("pebble: cannot open '" + path + "' to record into");
  recorder_.reset();
  const std::vector<std::byte> start = is_new(colliders_.size(), step_) ? std::vector<std::byte>() : save();
  recorder_ = std::make_unique<detail::Recorder>(std::move(file), settings_, serial_, start);
}

void WorldImpl::stop_recording() noexcept { recorder_.reset(); }

std::uint64_t detail::digest_of(const UpdateOutput& world) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  const auto add = [&h](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) {
      h ^= (v >> (8 * i)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  };
  const auto add_float = [&add](float v) { add(std::bit_cast<std::uint32_t>(v)); };
  const auto add_id = [&add](ColliderId id) {
    add(id.index);
    add(id.generation);
  };
  for (const ContactPair& c : world.contacts) {
    add_id(c.a);
    add_id(c.b);
    add(std::uint32_t(c.part_a));
    add(std::uint32_t(c.part_b));
    add_float(c.manifold.normal.x);
    add_float(c.manifold.normal.y);
    add(std::uint32_t(c.manifold.count));
    for (int i = 0; i < c.manifold.count && i < 2; ++i) {
#if PEBBLE_DOUBLE_POSITIONS
      for (const double v : {c.manifold.points[i].point.x, c.manifold.points[i].point.y}) {
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
        add(std::uint32_t(bits));
        add(std::uint32_t(bits >> 32));
      }
#else
      add_float(c.manifold.points[i].point.x);
      add_float(c.manifold.points[i].point.y);
#endif
      add_float(c.manifold.points[i].separation);
      add(c.manifold.points[i].id);
    }
  }
  const auto add_events = [&](std::span<const ContactEvent> events) {
    add(std::uint32_t(events.size()));
    for (const ContactEvent& e : events) {
      add_id(e.a);
      add_id(e.b);
      add(std::uint32_t(e.part_a));
      add(std::uint32_t(e.part_b));
    }
  };
  add_events(world.begin_events);
  add_events(world.end_events);
  add_events(world.begin_part_events);
  add_events(world.end_part_events);
  for (const auto& events : {world.sensor_begin_events, world.sensor_end_events}) {
    add(std::uint32_t(events.size()));
    for (const SensorEvent& e : events) {
      add_id(e.sensor);
      add_id(e.visitor);
      add(std::uint32_t(e.sensor_part));
      add(std::uint32_t(e.visitor_part));
    }
  }
  return h;
}

std::uint64_t update_digest(const CollisionWorld& world) noexcept {
  return detail::digest_of({world.contacts(), world.touch_begin_events(), world.touch_end_events(),
                            world.part_touch_begin_events(), world.part_touch_end_events(), world.sensor_begin_events(),
                            world.sensor_end_events()});
}

ReplayReport replay(std::istream& in) {
  using detail::RecordTag;
  detail::Reader r(in);
  char magic[8];
  in.read(magic, 8);
  if (in.gcount() != 8 || std::memcmp(magic, detail::kRecordingMagic, 8) != 0) {
    throw InvalidRecording("pebble recording: not a pebble recording (its first 8 bytes are not PEBBLREC)");
  }
  const std::uint32_t format = r.u32();
  if (format != detail::kRecordingVersion) {
    throw InvalidRecording("pebble recording: format version " + std::to_string(format) +
                           ", this pebble reads version " + std::to_string(detail::kRecordingVersion));
  }
  const std::uint32_t version_length = r.u32();
  if (version_length > 64) r.fail("a version string of " + std::to_string(version_length) + " bytes");
  for (std::uint32_t i = 0; i < version_length; ++i) r.u8();
  WorldSettings settings;
  settings.contact_margin = r.f32();
  settings.tree.margin = r.f32();
  settings.tree.margin_fraction = r.f32();
  settings.tree.prediction = r.f32();
  settings.reuse_contacts = r.u8() != 0;
  settings.reuse_bounds.distance = r.f32();
  settings.reuse_bounds.angle = r.f32();
  settings.threads = 1;
  const std::uint32_t recorded_serial = r.u32();
  const std::uint8_t start = r.u8();
  if (start > 1) r.fail("an unknown start " + std::to_string(start));
  std::vector<std::byte> snapshot;
  if (start == 1) {
    const std::uint64_t n = r.u64();
    if (n > std::uint64_t(1) << 40) r.fail("a snapshot of " + std::to_string(n) + " bytes");
    if (!r.has_at_least(std::size_t(n))) r.fail("truncated (inside the snapshot it starts from)");
    r.append(snapshot, std::size_t(n));
  }
  // A new world, or the recorded one's snapshot: its ids keep the recorded serial.
  const auto begin = [&]() -> CollisionWorld {
    if (start == 0) return CollisionWorld(settings);
    try {
      return CollisionWorld::restore(snapshot);
    } catch (const InvalidSnapshot& e) {
      r.fail(std::string("the snapshot it starts from: ") + e.what());
    }
  };
  CollisionWorld world = begin();
  std::uint32_t serial = start == 1 ? recorded_serial : 0;  // the replayed world's, from its first add otherwise
  ReplayReport report;
  const auto mismatch = [&report](const std::string& what) {
    if (report.mismatches++ == 0) {
      report.first_mismatch = report.calls;
      report.first_problem = what;
    }
  };
  const auto read_id = [&r, &serial] {
    const std::uint8_t own = r.u8();
    const std::uint32_t index = r.u32();
    return detail::replayed(own, index, r.u32(), serial);
  };
  const auto check_add = [&](ColliderId got, ColliderId recorded) {
    if (got.index != recorded.index || got.generation != recorded.generation) {
      mismatch("call " + std::to_string(report.calls) + ": add gave slot " + std::to_string(got.index) +
               " where the recording has " + std::to_string(recorded.index));
    }
  };
  const auto check_bool = [&](const char* what, bool got) {
    if (got != (r.u8() != 0))
      mismatch("call " + std::to_string(report.calls) + ": " + what + " returned " + (got ? "true" : "false"));
  };
  // The world refuses an invalid add by throwing; the recorder never wrote one.
  const auto add_or_fail = [&r](auto&& add) {
    try {
      return add();
    } catch (const std::invalid_argument& e) {
      r.fail(std::string("an add the world refuses: ") + e.what());
    }
  };

  RecordTag tag;
  while (r.next(tag)) {
    switch (tag) {
      case RecordTag::add_parts: {
        const std::uint32_t n = r.count(5);
        if (n == 0) r.fail("a compound of no parts");
        std::vector<Shape> parts;
        for (std::uint32_t i = 0; i < n; ++i) parts.push_back(r.shape());
        const Transform xf = r.transform();
        const ColliderOptions options = r.options();
        const ColliderId recorded = read_id();
        const ColliderId got = add_or_fail([&] { return world.add(std::span<const Shape>(parts), xf, options); });
        serial = got.world;
        check_add(got, recorded);
        break;
      }
      case RecordTag::add_chain: {
        const bool closed = r.u8() != 0;
        const std::uint32_t n = r.count(8);
        std::vector<Vec2> points;
        for (std::uint32_t i = 0; i < n; ++i) points.push_back(r.vec());
        const Transform xf = r.transform();
        const ColliderOptions options = r.options();
        const ColliderId recorded = read_id();
        const ColliderId got = add_or_fail([&] {
          try {
            const Chain chain = closed ? Chain::loop(points) : Chain::open(points);
            return world.add(chain, xf, options);
          } catch (const InvalidShape& e) {
            r.fail(std::string("a chain no world could hold: ") + e.what());
          }
        });
        serial = got.world;
        check_add(got, recorded);
        break;
      }
      case RecordTag::add_heightfield: {
        const float spacing = r.f32();
        const std::uint32_t n = r.count(4);
        std::vector<float> heights;
        for (std::uint32_t i = 0; i < n; ++i) heights.push_back(r.f32());
        const Transform xf = r.transform();
        const ColliderOptions options = r.options();
        const ColliderId recorded = read_id();
        const ColliderId got = add_or_fail([&] {
          try {
            return world.add(Heightfield::make(heights, spacing), xf, options);
          } catch (const InvalidShape& e) {
            r.fail(std::string("a heightfield no world could hold: ") + e.what());
          }
        });
        serial = got.world;
        check_add(got, recorded);
        break;
      }
      case RecordTag::remove: {
        const ColliderId id = read_id();
        check_bool("remove", world.remove(id));
        break;
      }
      case RecordTag::set_transform: {
        const ColliderId id = read_id();
        const Transform xf = r.transform();
        check_bool("set_transform", world.set_transform(id, xf));
        break;
      }
      case RecordTag::set_transforms: {
        const std::uint32_t n = r.count(25);
        std::vector<ColliderId> ids;
        std::vector<Transform> transforms;
        for (std::uint32_t i = 0; i < n; ++i) {
          ids.push_back(read_id());
          transforms.push_back(r.transform());
        }
        const int moved = world.set_transforms(ids, transforms);
        if (std::uint32_t(moved) != r.u32())
          mismatch("call " + std::to_string(report.calls) + ": set_transforms moved " + std::to_string(moved));
        break;
      }
      case RecordTag::set_shape: {
        const ColliderId id = read_id();
        const Shape shape = r.shape();
        check_bool("set_shape", world.set_shape(id, shape));
        break;
      }
      case RecordTag::set_filter: {
        const ColliderId id = read_id();
        const Filter filter = r.filter();
        check_bool("set_filter", world.set_filter(id, filter));
        break;
      }
      case RecordTag::set_user_data: {
        const ColliderId id = read_id();
        const std::uint64_t user_data = r.u64();
        check_bool("set_user_data", world.set_user_data(id, user_data));
        break;
      }
      case RecordTag::optimize_fixed:
        world.optimize_fixed();
        break;
      case RecordTag::update: {
        const std::uint64_t recorded = r.u64();
        const std::uint32_t contacts = r.u32();
        world.update();
        ++report.updates;
        report.digest = update_digest(world);
        if (report.digest != recorded || world.contacts().size() != contacts) {
          std::ostringstream what;
          what << "update " << report.updates << " (call " << report.calls << "): " << world.contacts().size()
               << " contacts, digest " << std::hex << report.digest << ", the recording has " << std::dec << contacts
               << " contacts, digest " << std::hex << recorded;
          mismatch(what.str());
        }
        break;
      }
    }
    ++report.calls;
  }
  return report;
}

}  // namespace pebble
