// Recording and replay (CollisionWorld::start_recording, pebble/recording.hpp): a world driven
// by random calls of every kind is recorded; the replay, made on a world that never saw those
// calls, must reproduce every update's contacts and events bit for bit (the digest the recorder
// took of the original). Broken recordings are refused, never crash; Shape::from_vertices gives
// back a shape bit for bit.
#include <gtest/gtest.h>

#include <pebble/chain.hpp>
#include <pebble/heightfield.hpp>
#include <pebble/recording.hpp>
#include <pebble/world.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace pebble;

namespace {

bool same_bits(const Shape& a, const Shape& b) {
  if (a.vertex_count() != b.vertex_count() || std::memcmp(&a, &b, sizeof(Shape)) != 0) return false;
  return true;
}

Shape random_shape(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1), r(0, 0.3f), size(0.1f, 0.8f);
  switch (rng() % 6) {
    case 0:
      return Shape::circle(size(rng), {0.2f * u(rng), 0.2f * u(rng)});
    case 1:
      return Shape::capsule({u(rng), u(rng)}, {u(rng), u(rng)}, r(rng));
    case 2:
      return Shape::box(size(rng), size(rng), {0.1f * u(rng), 0.1f * u(rng)}, 3 * u(rng));
    case 3:
      return Shape::rounded_box(0.5f, 0.3f, 0.1f);
    case 4:
      return Shape::segment({u(rng), u(rng)}, {u(rng), u(rng)});
    default: {
      Vec2 p[7];
      for (Vec2& v : p) v = {u(rng), u(rng)};
      return Shape::polygon(p, r(rng));
    }
  }
}

Transform random_transform(std::mt19937& rng, float reach) {
  std::uniform_real_distribution<float> u(-reach, reach), angle(-3.2f, 3.2f);
  return {{u(rng), u(rng)}, Rot::from_angle(angle(rng))};
}

/// Drives `world` through `calls` random calls of every kind a world has, updating every few;
/// returns each update's digest.
std::vector<std::uint64_t> drive(CollisionWorld& world, unsigned seed, int calls) {
  std::mt19937 rng(seed);
  std::vector<ColliderId> ids;
  std::vector<std::uint64_t> digests;
  CollisionWorld other;  // for foreign ids
  const ColliderId foreign = other.add(Shape::circle(1), Transform{});
  const Vec2 ground[] = {{6, -4}, {2, -5}, {-2, -4.5f}, {-6, -5}};
  ids.push_back(world.add(Chain::open(ground), Transform{}));
  for (int i = 0; i < calls; ++i) {
    const unsigned what = rng() % 16;
    const ColliderId some = ids.empty() ? ColliderId{} : ids[rng() % ids.size()];
    if (what < 4 || ids.size() < 4) {
      ColliderOptions options;
      options.fixed = rng() % 8 == 0;
      options.sensor = rng() % 12 == 0;
      options.fresh_contacts = rng() % 10 == 0;
      options.user_data = rng();
      if (rng() % 6 == 0) {
        std::vector<Shape> parts;
        const int n = 1 + int(rng() % 5);
        for (int k = 0; k < n; ++k) parts.push_back(random_shape(rng));
        ids.push_back(world.add(std::span<const Shape>(parts), random_transform(rng, 5), options));
      } else if (rng() % 20 == 0) {
        const Vec2 loop[] = {{0, 0}, {1, -0.2f}, {1.5f, 1}, {0.2f, 1.3f}};
        ids.push_back(world.add(Chain::loop(loop), random_transform(rng, 5), options));
      } else if (rng() % 20 == 0) {
        const float heights[] = {0.3f, -0.1f, 0.2f, 0.5f, 0.1f};
        ids.push_back(world.add(Heightfield::make(heights, 0.6f), random_transform(rng, 5), options));
      } else {
        ids.push_back(world.add(random_shape(rng), random_transform(rng, 5), options));
      }
    } else if (what == 4) {
      world.remove(some);  // sometimes twice: a stale id, refused
    } else if (what < 9) {
      Transform xf = world.contains(some) ? *world.transform(some) : Transform{};
      xf.p = xf.p + Vec2{0.05f * float(int(rng() % 5) - 2), 0.05f * float(int(rng() % 5) - 2)};
      world.set_transform(some, xf);
    } else if (what == 9) {
      std::vector<ColliderId> batch;
      std::vector<Transform> to;
      for (int k = 0; k < 6; ++k) {
        batch.push_back(ids[rng() % ids.size()]);
        to.push_back(random_transform(rng, 5));
      }
      batch.push_back(foreign);
      to.push_back(Transform{});
      world.set_transforms(batch, to);
    } else if (what == 10) {
      world.set_shape(some, random_shape(rng));
    } else if (what == 11) {
      Filter f;
      f.category = 1ull << (rng() % 3);
      f.mask = rng() % 3 == 0 ? ~0ull : 0x5;
      f.group = int(rng() % 3) - 1;
      world.set_filter(rng() % 10 == 0 ? foreign : some, f);
    } else if (what == 12) {
      world.set_user_data(some, rng());
    } else if (what == 13) {
      world.optimize_fixed();
    } else {
      world.update();
      digests.push_back(update_digest(world));
    }
  }
  world.update();
  digests.push_back(update_digest(world));
  return digests;
}

std::string record(unsigned seed, int calls, std::vector<std::uint64_t>* digests = nullptr,
                   WorldSettings settings = {}) {
  std::ostringstream out(std::ios::binary);
  CollisionWorld world(settings);
  world.start_recording(out);
  std::vector<std::uint64_t> d = drive(world, seed, calls);
  world.stop_recording();
  if (digests) *digests = d;
  return out.str();
}

ReplayReport replay_bytes(const std::string& bytes) {
  std::istringstream in(bytes, std::ios::binary);
  return replay(in);
}

}  // namespace

TEST(Recording, ReplaysEveryUpdateBitForBit) {
  WorldSettings looser;
  looser.reuse_bounds = ReuseBounds::box2d_v3();
  looser.contact_margin = 0.05f;
  looser.threads = 2;
  for (const WorldSettings& settings : {WorldSettings{}, looser}) {
    for (unsigned seed = 1; seed <= 12; ++seed) {
      std::vector<std::uint64_t> digests;
      const std::string bytes = record(seed, 600, &digests, settings);
      const ReplayReport report = replay_bytes(bytes);
      EXPECT_EQ(report.mismatches, 0) << "seed " << seed << ": " << report.first_problem;
      EXPECT_EQ(report.updates, int(digests.size())) << "seed " << seed;
      EXPECT_EQ(report.digest, digests.back()) << "seed " << seed;
      EXPECT_GT(report.calls, 600) << "seed " << seed;
    }
  }
}

TEST(Recording, AChangedDigestOrCallIsReportedAsAMismatch) {
  std::vector<std::uint64_t> digests;
  const std::string bytes = record(3, 300, &digests);
  // The last record is the final update: tag, digest (8 bytes), contact count (4 bytes).
  ASSERT_GE(bytes.size(), 13u);
  ASSERT_EQ(bytes[bytes.size() - 13], char(10));
  std::string changed = bytes;
  changed[changed.size() - 12] ^= 1;
  const ReplayReport report = replay_bytes(changed);
  EXPECT_EQ(report.mismatches, 1);
  EXPECT_NE(report.first_problem.find("digest"), std::string::npos) << report.first_problem;
  // A recorded world that differs from the replayed one: the replay of a recording whose settings
  // say a margin of 0.2 instead of the default (the header's first float, after 8 + 4 + 4 + n bytes).
  std::string margin = bytes;
  std::uint32_t version_length = 0;
  std::memcpy(&version_length, margin.data() + 12, 4);
  const float wide = 0.2f;
  std::memcpy(margin.data() + 16 + version_length, &wide, 4);
  EXPECT_GT(replay_bytes(margin).mismatches, 0);
}

TEST(Recording, ACutRecordingReplaysItsWholeRecordsOrIsRefused) {
  const std::string bytes = record(5, 80);
  int whole = 0, refused = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      const ReplayReport report = replay_bytes(bytes.substr(0, n));
      EXPECT_EQ(report.mismatches, 0) << "cut at " << n;  // a prefix of whole records
      ++whole;
    } catch (const InvalidRecording&) {
      ++refused;
    }
  }
  EXPECT_GT(whole, 50);
  EXPECT_GT(refused, int(bytes.size() / 2));
}

TEST(Recording, CorruptBytesAreRefusedOrReplayedNeverACrash) {
  const std::string bytes = record(7, 120);
  std::mt19937 rng(11);
  int refused = 0, replayed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string changed = bytes;
    const int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; ++k) changed[rng() % changed.size()] = char(rng());
    try {
      (void)replay_bytes(changed);
      ++replayed;
    } catch (const InvalidRecording&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(replayed, 100);
}

TEST(Recording, ForeignInputIsRefusedWithAReason) {
  const std::string bytes = record(2, 20);
  EXPECT_THROW(replay_bytes(""), InvalidRecording);
  EXPECT_THROW(replay_bytes("not a recording at all"), InvalidRecording);
  std::string other_version = bytes;
  other_version[8] = 2;
  try {
    replay_bytes(other_version);
    FAIL() << "another format version was replayed";
  } catch (const InvalidRecording& e) {
    EXPECT_NE(std::string(e.what()).find("version"), std::string::npos) << e.what();
  }
  std::string bad_tag = bytes;
  bad_tag.push_back(char(77));
  EXPECT_THROW(replay_bytes(bad_tag), InvalidRecording);
}

TEST(Recording, AUsedWorldsRecordingStartsFromItsSnapshot) {
  // A world driven for a while (adds, removes, updates) starts recording: the recording holds its
  // save(), and the replay restores it before the recorded calls, with the recorded ids.
  for (unsigned seed = 20; seed < 26; ++seed) {
    CollisionWorld world;
    drive(world, seed, 300);
    std::ostringstream out(std::ios::binary);
    world.start_recording(out);
    EXPECT_TRUE(world.recording());
    const std::vector<std::uint64_t> digests = drive(world, seed + 100, 300);
    world.stop_recording();
    EXPECT_FALSE(world.recording());
    const ReplayReport report = replay_bytes(out.str());
    EXPECT_EQ(report.mismatches, 0) << "seed " << seed << ": " << report.first_problem;
    EXPECT_EQ(report.updates, int(digests.size()));
    EXPECT_EQ(report.digest, digests.back());
    // Its snapshot cut short is refused as the snapshot it starts from.
    const std::string bytes = out.str();
    try {
      replay_bytes(bytes.substr(0, 200));
      ADD_FAILURE() << "a recording cut inside its snapshot was replayed";
    } catch (const InvalidRecording& e) {
      EXPECT_NE(std::string(e.what()).find("snapshot"), std::string::npos) << e.what();
    }
  }
  CollisionWorld updated;  // no collider, one update: not new either
  updated.update();
  std::ostringstream out(std::ios::binary);
  updated.start_recording(out);
  updated.add(Shape::circle(1), Transform{});
  updated.update();
  const std::uint64_t digest = update_digest(updated);
  updated.stop_recording();
  const ReplayReport report = replay_bytes(out.str());
  EXPECT_EQ(report.mismatches, 0) << report.first_problem;
  EXPECT_EQ(report.digest, digest);
  EXPECT_THROW(CollisionWorld().start_recording(std::string("/nonexistent-dir/x.rec")), std::runtime_error);
}

TEST(Recording, AFileRecordingReplaysFromTheFile) {
  const std::string path = ::testing::TempDir() + "pebble_recording_test.rec";
  std::vector<std::uint64_t> digests;
  {
    CollisionWorld world;
    world.start_recording(path);
    digests = drive(world, 9, 200);
  }  // the world's end closes the file
  std::ifstream in(path, std::ios::binary);
  const ReplayReport report = replay(in);
  EXPECT_EQ(report.mismatches, 0) << report.first_problem;
  EXPECT_EQ(report.digest, digests.back());
  std::remove(path.c_str());
}

TEST(ShapeFromVertices, GivesBackEveryShapeBitForBit) {
  std::mt19937 rng(4);
  for (int i = 0; i < 5000; ++i) {
    const Shape s = random_shape(rng);
    std::vector<Vec2> core;
    for (const Vec2 v : s.vertices()) core.push_back(v);
    const Shape back = Shape::from_vertices(core, s.radius());
    ASSERT_TRUE(same_bits(s, back)) << i;
  }
}

TEST(ShapeFromVertices, RefusesWhatPolygonWouldChange) {
  const Vec2 clockwise[] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};
  const Vec2 concave[] = {{0, 0}, {2, 0}, {1, 0.2f}, {2, 2}, {0, 2}};
  const Vec2 collinear[] = {{0, 0}, {1, 0}, {2, 0}, {2, 2}};
  const Vec2 repeated[] = {{0, 0}, {1, 0}, {1, 0}, {0, 1}};
  const Vec2 nine[] = {{1, 0},           {0.77f, 0.64f},  {0.17f, 0.98f},  {-0.5f, 0.87f}, {-0.94f, 0.34f},
                       {-0.94f, -0.34f}, {-0.5f, -0.87f}, {0.17f, -0.98f}, {0.77f, -0.64f}};
  const Vec2 nan[] = {{0, 0}, {std::nanf(""), 1}};
  EXPECT_THROW(Shape::from_vertices(clockwise, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(concave, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(collinear, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(repeated, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(nine, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(nan, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices({}, 0), InvalidShape);
  EXPECT_THROW(Shape::from_vertices(std::span<const Vec2>(clockwise, 1), -1), InvalidShape);
  // A core given from another vertex keeps that order.
  const Vec2 square[] = {{1, 0}, {1, 1}, {0, 1}, {0, 0}};
  const Shape s = Shape::from_vertices(square, 0.1f);
  EXPECT_EQ(s.vertices()[0], (Vec2{1, 0}));
  EXPECT_EQ(s.vertex_count(), 4);
}
