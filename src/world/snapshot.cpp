// CollisionWorld::save() and restore() (docs/world.md, "Snapshot and restore"): the whole state as
// little-endian bytes behind a header (magic, format version, pebble version, payload length,
// FNV-1a 64 of the payload). What the world computes from other state (part boxes and centroids,
// the trees' node boxes and categories, the pair set, the touching part pairs per collider pair,
// the flags each part copies from its collider) is not saved but computed again on restore by the
// same code, so to the same bits. Every count, index, link and number read is checked before it is
// used, and the result must pass validate(): bytes that do not describe a world the calls could
// have made are refused with InvalidSnapshot, never trusted.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

#include "pebble/version.hpp"
#include "world/bytes.hpp"
#include "world/internal.hpp"

namespace pebble {
namespace snapshot_format {

constexpr std::array<char, 8> kMagic = {'P', 'E', 'B', 'B', 'L', 'E', 'S', 'N'};
// Raise with any change to the layout below; restore() refuses every other version.
// A build with double positions (pebble/config.hpp) writes positions as doubles: its snapshots
// carry bit 8 in the version, so that each build refuses the other's.
constexpr std::uint32_t kFormatVersion = 1 | (PEBBLE_DOUBLE_POSITIONS ? 0x100u : 0u);
// magic, format version, pebble version (3 x u16) and 6 reserved bytes, payload length, checksum.
constexpr std::size_t kLengthAt = 24, kChecksumAt = 32, kHeaderSize = 40;
constexpr int kMaxThreads = 256;  // a larger saved thread count is taken as corruption

using detail::load_le64;

// The checksum: FNV-1a's step (xor, then multiply by the FNV 64-bit prime) on 64-bit little-endian
// words instead of bytes, word i going to lane i mod 4 (four independent chains, so the multiplies
// overlap: a 3 MB snapshot in well under a millisecond), the last word padded with zero bytes; then
// the four lanes folded by the same step. Each step is a bijection of its lane, so any change of a
// single word changes the result. The words are those of header bytes 0..31, then the payload.
class Checksum {
public:
  static constexpr std::uint64_t kBasis = 0xcbf29ce484222325ull, kPrime = 0x100000001b3ull;
  // n must be a multiple of 8 except in the last call.
  void add(const std::byte* p, std::size_t n) {
    std::size_t i = 0;
    for (; i + 32 <= n && words_ % 4 == 0; i += 32, words_ += 4) {
      for (int k = 0; k < 4; ++k) lane_[k] = (lane_[k] ^ load_le64(p + i + 8 * std::size_t(k))) * kPrime;
    }
    for (; i + 8 <= n; i += 8) step(load_le64(p + i));
    if (i < n) {
      std::byte last[8] = {};
      std::memcpy(last, p + i, n - i);
      step(load_le64(last));
    }
  }
  std::uint64_t value() const {
    std::uint64_t h = kBasis;
    for (const std::uint64_t l : lane_) h = (h ^ l) * kPrime;
    return h;
  }

private:
  void step(std::uint64_t w) {
    std::uint64_t& l = lane_[words_ % 4];
    l = (l ^ w) * kPrime;
    ++words_;
  }
  std::uint64_t lane_[4] = {kBasis, kBasis, kBasis, kBasis};
  std::size_t words_ = 0;
};

std::uint64_t checksum(const std::byte* snapshot, std::size_t size) {
  Checksum c;
  c.add(snapshot, kChecksumAt);
  c.add(snapshot + kHeaderSize, size - kHeaderSize);
  return c.value();
}

[[noreturn]] void fail(const std::string& what) { throw InvalidSnapshot("pebble: CollisionWorld::restore: " + what); }

// Appends little-endian fields (world/bytes.hpp) to a buffer grown by doubling.
class Writer : public detail::FieldWriter<Writer> {
public:
  explicit Writer(std::size_t estimate) : out(estimate) {}
  std::vector<std::byte> out;
  std::size_t size = 0;

  void put(const std::byte* p, std::size_t n) {
    if (size + n > out.size()) [[unlikely]]
      grow(n);
    std::memcpy(out.data() + size, p, n);
    size += n;
  }
  void box(const Aabb& b) {
    position(b.lower);
    position(b.upper);
  }
  void at(std::size_t where, std::uint64_t v) {
    for (int k = 0; k < 8; ++k) out[where + std::size_t(k)] = std::byte(std::uint8_t(v >> (8 * k)));
  }

private:
  [[gnu::noinline]] void grow(std::size_t n) { out.resize(std::max(2 * out.size(), size + n + 1024)); }
};

// Reads the fields back; every shortfall and every value no world holds is an InvalidSnapshot
// naming the field and the byte.
class Reader : public detail::FieldReader<Reader> {
public:
  Reader(const std::byte* data, std::size_t size, std::size_t base) : data_(data), size_(size), base_(base) {}
  std::size_t remaining() const { return size_ - pos_; }
  std::size_t offset() const { return base_ + pos_; }
  void take(std::byte* out, std::size_t n, const char* what) {
    need(n, what);
    std::memcpy(out, data_ + pos_, n);
    pos_ += n;
  }
  float finite(const char* what) {
    const float v = f32(what);
    if (!std::isfinite(v)) bad(what, "is not finite");
    return v;
  }
  Vec2 finite_vec(const char* what) {
    const float x = finite(what);
    return {x, finite(what)};
  }
  Position finite_position(const char* what) {
#if PEBBLE_DOUBLE_POSITIONS
    const Position p = position(what);
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) bad(what, "is not finite");
    return p;
#else
    return finite_vec(what);
#endif
  }
  // A count of records of at least min_bytes each: more than the bytes left could hold is refused
  // before anything is allocated for them.
  std::uint32_t count(const char* what, std::size_t min_bytes) {
    const std::uint32_t n = u32(what);
    if (std::size_t(n) > remaining() / min_bytes)
      bad(what, "(" + std::to_string(n) + ") is more than the bytes left can hold");
    return n;
  }
  [[noreturn, gnu::noinline]] void bad(const char* what, const std::string& problem) const {
    std::ostringstream out;
    out << what << ' ' << problem << " (near byte " << offset() << ")";
    fail(out.str());
  }

private:
  void need(std::size_t n, const char* what) const {
    if (remaining() < n) [[unlikely]]
      truncated(n, what);
  }
  [[noreturn, gnu::noinline]] void truncated(std::size_t n, const char* what) const {
    std::ostringstream out;
    out << "truncated: " << what << " needs " << n << " bytes at byte " << offset() << ", " << remaining() << " left";
    fail(out.str());
  }
  const std::byte* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t base_;
};

}  // namespace snapshot_format

using snapshot_format::Reader;
using snapshot_format::Writer;

namespace detail {

// The exact layout of an AabbTree: node links and heights, proxies' fat boxes, the free lists and
// moved(). Node boxes and categories are unions of what lies below (AabbTree::validate requires
// them exact), so they are computed again; proxies' user values and categories are the world's.
struct TreeSnapshot {
  using Node = AabbTree::Node;
  using Proxy = AabbTree::Proxy;

  static void write(const AabbTree& t, Writer& w) {
    w.i32(t.root_);
    w.i32(t.free_node_);
    w.i32(t.free_proxy_);
    w.u32(std::uint32_t(t.nodes_.size()));
    for (const Node& n : t.nodes_) {
      w.i32(n.height);
      if (n.height < 1) {
        w.i32(n.parent);
        continue;
      }
      w.i32(n.child[0]);
      w.i32(n.child[1]);
      w.i32(n.parent);
    }
    w.u32(std::uint32_t(t.proxies_.size()));
    for (const Proxy& p : t.proxies_) {
      w.i32(p.node);
      w.i32(p.slot);
      if (p.node != AabbTree::kFreeProxy) w.box(p.fat);
    }
    w.u32(std::uint32_t(t.moved_.size()));
    for (const ProxyId id : t.moved_) w.i32(id);
  }

  // The structure, checked: after it, every index is in range, the nodes form one tree from the
  // root with heights that fall by at least one per level (so traversals stay within
  // kMaxTreeHeight), each live proxy sits in exactly the slot it names, and the free lists hold
  // exactly the free entries. user_data and category of the proxies are left to the caller, then
  // finish().
  static void read(AabbTree& t, Reader& r, const char* name) {
    const auto bad = [&](const std::string& what) { snapshot_format::fail(std::string(name) + ": " + what); };
    t.root_ = r.i32("tree root");
    t.free_node_ = r.i32("tree free node");
    t.free_proxy_ = r.i32("tree free proxy");
    const std::uint32_t node_count = r.count("tree node count", 8);
    t.nodes_.assign(node_count, Node{});
    for (Node& n : t.nodes_) {
      n.height = r.i32("node height");
      if (n.height == -1) {
        n.parent = r.i32("free node link");
        continue;
      }
      if (n.height < 1 || n.height > kMaxTreeHeight)
        bad("a node height " + std::to_string(n.height) + " outside [1, kMaxTreeHeight]");
      n.child[0] = r.i32("node child");
      n.child[1] = r.i32("node child");
      n.parent = r.i32("node parent");
    }
    const std::uint32_t proxy_count = r.count("tree proxy count", 8);
    t.proxies_.assign(proxy_count, Proxy{});
    for (Proxy& p : t.proxies_) {
      p.node = r.i32("proxy node");
      p.slot = r.i32("proxy slot");
      p.move_index = -1;
      p.user_data = 0;
      p.category = 0;
      if (p.node == AabbTree::kFreeProxy) continue;
      if (p.node < 0 || std::uint32_t(p.node) >= node_count || t.nodes_[std::size_t(p.node)].height < 1 ||
          (p.slot != 0 && p.slot != 1))
        bad("a proxy in a node or slot that does not exist");
      p.fat.lower = r.finite_position("proxy box");
      p.fat.upper = r.finite_position("proxy box");
      if (!is_valid(p.fat)) bad("a proxy box whose lower corner exceeds its upper");
    }
    // One tree from the root: every node in use is reached once, through the slot its parent
    // field names, and every live proxy once, through its own slot.
    std::size_t in_use = 0, live = 0;
    for (const Node& n : t.nodes_) in_use += n.height >= 1 ? 1 : 0;
    for (const Proxy& p : t.proxies_) live += p.node != AabbTree::kFreeProxy ? 1 : 0;
    std::size_t reached_nodes = 0, reached_proxies = 0;
    if (t.root_ != AabbTree::kNullNode) {
      if (t.root_ < 0 || std::uint32_t(t.root_) >= node_count || t.nodes_[std::size_t(t.root_)].height < 1 ||
          t.nodes_[std::size_t(t.root_)].parent != AabbTree::kNullNode)
        bad("a root that is not a node in use");
      std::vector<char> seen(node_count, 0);
      std::vector<std::int32_t> stack{t.root_};
      while (!stack.empty()) {
        const std::int32_t at = stack.back();
        stack.pop_back();
        if (seen[std::size_t(at)]) bad("a node reached twice (a cycle or a shared subtree)");
        seen[std::size_t(at)] = 1;
        ++reached_nodes;
        const Node& n = t.nodes_[std::size_t(at)];
        for (int k = 0; k < 2; ++k) {
          const std::int32_t c = n.child[k];
          if (c == AabbTree::kEmptySlot) {
            // Only the root holding one proxy has an empty slot, its second.
            if (at != t.root_ || k != 1 || !AabbTree::is_leaf(n.child[0]) || n.child[0] == AabbTree::kEmptySlot)
              bad("an empty child slot outside a root of one proxy");
            continue;
          }
          if (AabbTree::is_leaf(c)) {
            const std::int32_t id = ~c;
            if (std::uint32_t(id) >= proxy_count || t.proxies_[std::size_t(id)].node != at ||
                t.proxies_[std::size_t(id)].slot != k)
              bad("a leaf naming a proxy that is not there");
            ++reached_proxies;
            continue;
          }
          if (std::uint32_t(c) >= node_count || t.nodes_[std::size_t(c)].height < 1 ||
              t.nodes_[std::size_t(c)].parent != at)
            bad("a child node that is free, out of range or names another parent");
          if (t.nodes_[std::size_t(c)].height >= n.height) bad("a child node as high as its parent");
          stack.push_back(c);
        }
      }
    }
    if (reached_nodes != in_use) bad("nodes in use that the root does not reach");
    if (reached_proxies != live) bad("live proxies that the root does not reach");
    t.node_count_ = int(in_use);
    t.proxy_count_ = int(live);
    if (in_use != (live == 0 ? 0 : std::max<std::size_t>(1, live - 1)))
      bad("a node count that does not fit the proxy count");
    std::size_t free_nodes = 0;
    for (std::int32_t f = t.free_node_; f != AabbTree::kNullNode; f = t.nodes_[std::size_t(f)].parent) {
      if (f < 0 || std::uint32_t(f) >= node_count || t.nodes_[std::size_t(f)].height != -1 || ++free_nodes > node_count)
        bad("a broken free node list");
    }
    if (free_nodes + in_use != node_count) bad("free nodes missing from the free list");
    std::size_t free_proxies = 0;
    for (std::int32_t f = t.free_proxy_; f != kNullProxy; f = t.proxies_[std::size_t(f)].slot) {
      if (f < 0 || std::uint32_t(f) >= proxy_count || t.proxies_[std::size_t(f)].node != AabbTree::kFreeProxy ||
          ++free_proxies > proxy_count)
        bad("a broken free proxy list");
    }
    if (free_proxies + live != proxy_count) bad("free proxies missing from the free list");
    const std::uint32_t moved = r.count("moved proxy count", 4);
    t.moved_.assign(moved, 0);
    for (std::uint32_t i = 0; i < moved; ++i) {
      const ProxyId id = r.i32("moved proxy");
      if (!t.is_proxy(id) || t.proxies_[std::size_t(id)].move_index >= 0)
        bad("a moved proxy that is not live or listed twice");
      t.moved_[i] = id;
      t.proxies_[std::size_t(id)].move_index = std::int32_t(i);
    }
  }

  // Node boxes and categories from the proxies up, lower nodes first (heights fall strictly
  // downwards, checked by read()).
  static void finish(AabbTree& t) {
    // By height, counted (heights are 1..kMaxTreeHeight).
    std::size_t start[kMaxTreeHeight + 2] = {};
    for (const Node& n : t.nodes_)
      if (n.height >= 1) ++start[std::size_t(n.height) + 1];
    for (int h = 1; h <= kMaxTreeHeight + 1; ++h) start[h] += start[h - 1];
    std::vector<std::int32_t> order(start[kMaxTreeHeight + 1]);
    for (std::size_t i = 0; i < t.nodes_.size(); ++i)
      if (t.nodes_[i].height >= 1) order[start[std::size_t(t.nodes_[i].height)]++] = std::int32_t(i);
    for (const std::int32_t i : order) {
      Node& n = t.nodes_[std::size_t(i)];
      for (int k = 0; k < 2; ++k) {
        const std::int32_t c = n.child[k];
        if (c == AabbTree::kEmptySlot) {
          n.box[k] = AabbTree::empty_box();
        } else if (AabbTree::is_leaf(c)) {
          n.box[k] = t.proxies_[std::size_t(~c)].fat;
        } else {
          const Node& below = t.nodes_[std::size_t(c)];
          n.box[k] = below.child[1] == AabbTree::kEmptySlot ? below.box[0] : combine(below.box[0], below.box[1]);
        }
        n.category[k] = t.child_category(c);
      }
      if (n.height != 1 + std::max(t.child_height(n.child[0]), t.child_height(n.child[1])))
        snapshot_format::fail("tree: a node height that is not one more than its higher child's");
    }
  }

  static std::size_t proxy_table(const AabbTree& t) { return t.proxies_.size(); }
  static bool live(const AabbTree& t, ProxyId id) { return t.is_proxy(id); }
  static void set_proxy(AabbTree& t, ProxyId id, std::uint64_t user_data, std::uint64_t category) {
    t.proxies_[std::size_t(id)].user_data = user_data;
    t.proxies_[std::size_t(id)].category = category;
  }
};

}  // namespace detail

struct WorldImpl::Snapshot {
  static constexpr std::uint8_t kChain = 1, kLive = 2;

  static void write_manifold(Writer& w, const Manifold& m) {
    w.u8(std::uint8_t(m.count));
    if (m.count == 0) return;
    w.vec(m.normal);
    for (int i = 0; i < m.count; ++i) {
      w.position(m.points[i].point);
      w.f32(m.points[i].separation);
      w.u32(m.points[i].id);
    }
  }
  static Manifold read_manifold(Reader& r) {
    Manifold m{};
    const std::uint8_t count = r.u8("manifold point count");
    if (count > 2) r.bad("manifold point count", "is more than 2");
    m.count = count;
    if (count == 0) return m;
    m.normal = r.finite_vec("manifold normal");
    if (std::fabs(length(m.normal) - 1) > 1e-3f) r.bad("manifold normal", "is not of unit length");
    for (int i = 0; i < count; ++i) {
      m.points[i].point = r.finite_position("contact point");
      m.points[i].separation = r.finite("contact separation");
      m.points[i].id = r.u32("contact id");
    }
    return m;
  }
  static bool same(const Manifold& a, const Manifold& b) {
    if (a.count != b.count || std::bit_cast<std::uint64_t>(a.normal) != std::bit_cast<std::uint64_t>(b.normal))
      return false;
    for (int i = 0; i < a.count; ++i) {
      if (std::memcmp(&a.points[i], &b.points[i], sizeof(ContactPoint)) != 0) return false;
    }
    return true;
  }

  static void write_events(Writer& w, const std::vector<ContactEvent>& events) {
    w.u32(std::uint32_t(events.size()));
    for (const ContactEvent& e : events) {
      w.u32(e.a.index);
      w.u32(e.a.generation);
      w.u32(e.b.index);
      w.u32(e.b.generation);
      w.i32(e.part_a);
      w.i32(e.part_b);
    }
  }
  static void write_events(Writer& w, const std::vector<SensorEvent>& events) {
    w.u32(std::uint32_t(events.size()));
    for (const SensorEvent& e : events) {
      w.u32(e.sensor.index);
      w.u32(e.sensor.generation);
      w.u32(e.visitor.index);
      w.u32(e.visitor.generation);
      w.i32(e.sensor_part);
      w.i32(e.visitor_part);
    }
  }
  // Events name colliders that may be gone by now: their ids are values to hand back, not indices.
  template <class Event>
  static void read_events(Reader& r, std::uint32_t serial, std::vector<Event>& events) {
    const std::uint32_t n = r.count("event count", 24);
    events.resize(n);
    for (Event& e : events) {
      ColliderId a, b;
      a.index = r.u32("event id");
      a.generation = r.u32("event id");
      b.index = r.u32("event id");
      b.generation = r.u32("event id");
      a.world = b.world = serial;
      const int pa = r.i32("event part"), pb = r.i32("event part");
      e = {a, b, pa, pb};  // ContactEvent {a, b, part_a, part_b}, SensorEvent {sensor, visitor, ...}
    }
  }

  static std::vector<std::byte> save(const WorldImpl& world);
  static std::unique_ptr<WorldImpl> restore(std::span<const std::byte> bytes);
};

std::vector<std::byte> WorldImpl::save() const { return Snapshot::save(*this); }
std::unique_ptr<WorldImpl> WorldImpl::restore(std::span<const std::byte> bytes) { return Snapshot::restore(bytes); }

std::vector<std::byte> WorldImpl::Snapshot::save(const WorldImpl& world) {
  Writer w(snapshot_format::kHeaderSize + 256 + world.colliders_.size() * 64 + world.parts_.size() * 48 +
           world.pairs_.size() * 120 + world.contacts_.size() * 4);
  for (const char c : snapshot_format::kMagic) w.u8(std::uint8_t(c));
  w.u32(snapshot_format::kFormatVersion);
  w.u16(PEBBLE_VERSION_MAJOR);
  w.u16(PEBBLE_VERSION_MINOR);
  w.u16(PEBBLE_VERSION_PATCH);
  w.u16(0);
  w.u32(0);
  w.u64(0);  // payload length and checksum, written last
  w.u64(0);

  const WorldSettings& s = world.settings_;
  w.f32(s.contact_margin);
  w.f32(s.tree.margin);
  w.f32(s.tree.margin_fraction);
  w.f32(s.tree.prediction);
  w.i32(s.threads);
  w.u8(s.reuse_contacts ? 1 : 0);
  w.f32(s.reuse_bounds.distance);
  w.f32(s.reuse_bounds.angle);
  w.u32(world.serial_);
  w.u32(world.step_);
  w.i32(world.fixed_changes_);
  const WorldStats& st = world.last_stats_;
  for (const int v : {st.pairs, st.contacts, st.collided, st.reused, st.separated, st.new_pairs}) w.i32(v);

  // Colliders: slots with their generations and free list.
  w.u32(std::uint32_t(world.colliders_.size()));
  w.u32(world.free_collider_);
  for (const Collider& c : world.colliders_) {
    w.u8(c.live ? 1 : 0);
    w.u32(c.generation);
    w.u32(c.first_part);
    if (!c.live) continue;
    w.u32(c.part_count);
    w.transform(c.xf);
    w.u64(c.options.filter.category);
    w.u64(c.options.filter.mask);
    w.i32(c.options.filter.group);
    w.u8(std::uint8_t((c.options.fixed ? 1 : 0) | (c.options.sensor ? 2 : 0) | (c.options.fresh_contacts ? 4 : 0)));
    w.u64(c.options.user_data);
  }

  // The part table: shapes and chain segments, tree proxies, pair lists, change stamps (only
  // whether each equals step_ matters), and the free slots.
  w.u32(std::uint32_t(world.hot_.size()));
  w.u32(world.free_part_);
  w.u32(std::uint32_t(world.free_ranges_.size()));
  for (const auto& [first, count] : world.free_ranges_) {
    w.u32(first);
    w.u32(count);
  }
  for (std::size_t i = 0; i < world.hot_.size(); ++i) {
    const Hot& h = world.hot_[i];
    if (!h.live) {
      w.u8(0);
      w.u32(h.pair_head);
      continue;
    }
    const Part& part = world.parts_[i];
    const std::uint32_t now = world.step_;
    w.u8(std::uint8_t(kLive | (part.chain ? kChain : 0) | (h.changed_at == now ? 4 : 0) | (h.moved_at == now ? 8 : 0) |
                      (h.filtered_at == now ? 16 : 0) | (h.reshaped_at == now ? 32 : 0)));
    w.i32(h.proxy);
    w.u32(h.pair_head);
    if (part.chain) {
      const ChainSegment& seg = part.piece;
      w.vec(seg.a);
      w.vec(seg.b);
      w.u8(std::uint8_t((seg.has_prev ? 1 : 0) | (seg.has_next ? 2 : 0)));
      if (seg.has_prev) w.vec(seg.ghost_prev);
      if (seg.has_next) w.vec(seg.ghost_next);
    } else {
      const Shape& shape = part.shape();
      w.u8(std::uint8_t(shape.vertex_count()));
      for (const Vec2 v : shape.vertices()) w.vec(v);
      w.f32(shape.radius());
    }
  }

  detail::TreeSnapshot::write(world.moving_tree_, w);
  detail::TreeSnapshot::write(world.fixed_tree_, w);

  // Pairs, with their lists, kept manifolds and what contact reuse keeps of them.
  w.u32(std::uint32_t(world.pairs_.size()));
  w.u32(world.free_pair_);
  for (const Pair& p : world.pairs_) {
    w.u32(p.part[0]);
    if (p.free()) {
      w.u32(p.next[0]);
      continue;
    }
    w.u32(p.part[1]);
    w.u32(p.next[0]);
    w.u32(p.next[1]);
    w.u32(p.prev[0]);
    w.u32(p.prev[1]);
    w.u8(std::uint8_t((p.touching ? 1 : 0) | (p.reusable ? 2 : 0)));
    write_manifold(w, p.manifold);
    if (!p.reusable) continue;
    for (int i = 0; i < p.manifold.count; ++i) {
      w.vec(p.anchor[i][0]);
      w.vec(p.anchor[i][1]);
    }
    w.vec(p.local_normal);
    w.vec(p.relative_p);
    w.f32(p.relative_q.c);
    w.f32(p.relative_q.s);
    w.f32(p.reuse_limit);
    w.f32(p.normal_lever);
  }

  // contacts(): an entry still equal to its live pair is saved as the pair's slot, one whose pair
  // has gone since (a removal) in full. update() lists contacts in pair slot order and only
  // update() makes pairs, so one forward pass over the pairs finds them all.
  w.u32(std::uint32_t(world.contacts_.size()));
  std::size_t cursor = 0;
  for (const ContactPair& c : world.contacts_) {
    std::uint32_t slot = kNone;
    std::size_t j = cursor;
    while (j < world.pairs_.size() && (world.pairs_[j].free() || !world.pairs_[j].touching || world.pairs_[j].sensor))
      ++j;
    cursor = j;  // the pairs skipped touch nothing: no later contact names them
    if (j < world.pairs_.size()) {
      const Pair& p = world.pairs_[j];
      if (p.id[0] == c.a && p.id[1] == c.b && p.part_no[0] == c.part_a && p.part_no[1] == c.part_b &&
          same(p.manifold, c.manifold)) {
        slot = std::uint32_t(j);
        cursor = j + 1;
      }
    }
    w.u32(slot);
    if (slot != kNone) continue;
    w.u32(c.a.index);
    w.u32(c.a.generation);
    w.u32(c.b.index);
    w.u32(c.b.generation);
    w.i32(c.part_a);
    w.i32(c.part_b);
    write_manifold(w, c.manifold);
  }

  for (const auto* events : {&world.begin_events_, &world.end_events_, &world.pending_end_events_,
                             &world.begin_part_events_, &world.end_part_events_, &world.pending_end_part_events_})
    write_events(w, *events);
  for (const auto* events : {&world.sensor_begin_events_, &world.sensor_end_events_, &world.pending_sensor_end_events_})
    write_events(w, *events);

  w.out.resize(w.size);
  w.at(snapshot_format::kLengthAt, w.size - snapshot_format::kHeaderSize);
  w.at(snapshot_format::kChecksumAt, snapshot_format::checksum(w.out.data(), w.size));
  return std::move(w.out);
}

std::unique_ptr<WorldImpl> WorldImpl::Snapshot::restore(std::span<const std::byte> bytes) {
  using snapshot_format::fail;
  // Header.
  if (bytes.size() < snapshot_format::kHeaderSize)
    fail("truncated: " + std::to_string(bytes.size()) + " bytes, fewer than the " +
         std::to_string(snapshot_format::kHeaderSize) + "-byte header");
  Reader head(bytes.data(), snapshot_format::kHeaderSize, 0);
  for (const char c : snapshot_format::kMagic)
    if (head.u8("magic") != std::uint8_t(c)) fail("not a pebble world snapshot (wrong magic bytes)");
  const std::uint32_t format = head.u32("format version");
  const std::uint32_t major = head.u8("version") | std::uint32_t(head.u8("version")) << 8;
  const std::uint32_t minor = head.u8("version") | std::uint32_t(head.u8("version")) << 8;
  const std::uint32_t patch = head.u8("version") | std::uint32_t(head.u8("version")) << 8;
  if ((head.u8("reserved") | head.u8("reserved") | head.u32("reserved")) != 0)
    fail("corrupt: reserved header bytes are not 0");
  if (format != snapshot_format::kFormatVersion) {
    std::ostringstream out;
    out << "snapshot format version " << format << " (written by pebble " << major << '.' << minor << '.' << patch
        << "); this pebble (" << PEBBLE_VERSION_STRING << ") reads version " << snapshot_format::kFormatVersion
        << " only";
    fail(out.str());
  }
  const std::uint64_t length = head.u64("payload length");
  const std::uint64_t sum = head.u64("checksum");
  const std::size_t available = bytes.size() - snapshot_format::kHeaderSize;
  if (length != available) {
    std::ostringstream out;
    out << (length > available ? "truncated" : "trailing bytes") << ": the header gives a payload of " << length
        << " bytes, " << available << " follow it";
    fail(out.str());
  }
  const std::byte* payload = bytes.data() + snapshot_format::kHeaderSize;
  if (snapshot_format::checksum(bytes.data(), bytes.size()) != sum) fail("corrupt: the checksum does not match");
  Reader r(payload, available, snapshot_format::kHeaderSize);

  // Settings and counters.
  WorldSettings s;
  s.contact_margin = r.finite("contact margin");
  s.tree.margin = r.finite("tree margin");
  s.tree.margin_fraction = r.finite("tree margin fraction");
  s.tree.prediction = r.finite("tree prediction");
  if (s.contact_margin < 0 || s.tree.margin < 0 || s.tree.margin_fraction < 0 || s.tree.prediction < 0)
    fail("a negative world setting");
  s.threads = r.i32("threads");
  if (s.threads > snapshot_format::kMaxThreads) fail("a thread count of " + std::to_string(s.threads));
  const std::uint8_t reuse = r.u8("reuse_contacts");
  if (reuse > 1) fail("reuse_contacts is neither 0 nor 1");
  s.reuse_contacts = reuse == 1;
  s.reuse_bounds.distance = r.f32("reuse distance");
  s.reuse_bounds.angle = r.f32("reuse angle");
  auto impl = std::make_unique<WorldImpl>(s);
  WorldImpl& world = *impl;
  world.serial_ = r.u32("world serial");
  if (world.serial_ == 0) fail("world serial 0");
  world.step_ = r.u32("step");
  world.fixed_changes_ = r.i32("fixed changes");
  // update() multiplies it by kFixedRebuildFraction: a world could not have reached more.
  if (world.fixed_changes_ < 0 || world.fixed_changes_ > std::numeric_limits<int>::max() / kFixedRebuildFraction)
    fail("a count of fixed changes (" + std::to_string(world.fixed_changes_) + ") outside [0, INT_MAX / 4]");
  WorldStats& st = world.last_stats_;
  for (int* v : {&st.pairs, &st.contacts, &st.collided, &st.reused, &st.separated, &st.new_pairs}) {
    *v = r.i32("statistics");
    if (*v < 0) fail("a negative statistic");
  }

  // Colliders.
  const std::uint32_t collider_count = r.count("collider count", 9);
  world.free_collider_ = r.u32("free collider");
  world.colliders_.resize(collider_count);
  for (Collider& c : world.colliders_) {
    const std::uint8_t live = r.u8("collider live flag");
    if (live > 1) r.bad("collider live flag", "is neither 0 nor 1");
    c.live = live == 1;
    c.generation = r.u32("collider generation");
    if (c.generation == 0) r.bad("collider generation", "is 0");
    c.first_part = r.u32("collider first part");
    c.part_count = 0;
    if (!c.live) continue;
    c.part_count = r.u32("collider part count");
    c.xf.p = r.finite_position("collider position");
    c.xf.q.c = r.finite("collider rotation");
    c.xf.q.s = r.finite("collider rotation");
    if (!is_valid(c.xf))
      r.bad("collider transform", "is not valid (beyond kMaxWorldCoordinate or not a unit rotation)");
    c.options.filter.category = r.u64("filter");
    c.options.filter.mask = r.u64("filter");
    c.options.filter.group = r.i32("filter");
    const std::uint8_t flags = r.u8("collider flags");
    if (flags > 7) r.bad("collider flags", "has unknown bits");
    c.options.fixed = (flags & 1) != 0;
    c.options.sensor = (flags & 2) != 0;
    c.options.fresh_contacts = (flags & 4) != 0;
    c.options.user_data = r.u64("user data");
    ++world.live_;
    world.fixed_count_ += c.options.fixed ? 1 : 0;
    world.several_parts_ += c.part_count > 1 ? 1 : 0;
  }
  {
    std::vector<char> listed(collider_count, 0);
    std::size_t steps = 0;
    for (std::uint32_t f = world.free_collider_; f != kNone; f = world.colliders_[f].first_part) {
      if (f >= collider_count || world.colliders_[f].live || listed[f] || ++steps > collider_count)
        fail("a broken free collider list");
      listed[f] = 1;
    }
    for (std::uint32_t i = 0; i < collider_count; ++i) {
      const Collider& c = world.colliders_[i];
      if (!c.live && !listed[i] && c.generation != std::numeric_limits<std::uint32_t>::max())
        fail("a free collider slot missing from the free list");
    }
  }

  // The part table.
  const std::uint32_t part_count = r.count("part slot count", 5);
  world.free_part_ = r.u32("free part");
  const std::uint32_t range_count = r.count("free run count", 8);
  world.free_ranges_.resize(range_count);
  for (auto& [first, count] : world.free_ranges_) {
    first = r.u32("free run");
    count = r.u32("free run");
  }
  world.hot_.assign(part_count, Hot{});
  world.parts_.assign(part_count, Part{});
  std::vector<std::uint8_t> flags(part_count, 0);
  std::array<Shape, 4> recent{Shape::circle(0), Shape::circle(0), Shape::circle(0), Shape::circle(0)};
  std::size_t next_recent = 0;
  for (std::uint32_t i = 0; i < part_count; ++i) {
    Hot& h = world.hot_[i];
    Part& part = world.parts_[i];
    flags[i] = r.u8("part flags");
    if (flags[i] > 63 || (!(flags[i] & kLive) && flags[i] != 0)) r.bad("part flags", "has unknown bits");
    if (!(flags[i] & kLive)) {
      h.pair_head = r.u32("free part link");
      continue;
    }
    h.live = true;
    h.proxy = r.i32("part proxy");
    h.pair_head = r.u32("part pair list");
    const std::uint32_t now = world.step_;
    h.changed_at = flags[i] & 4 ? now : now - 1;
    h.moved_at = flags[i] & 8 ? now : now - 1;
    h.filtered_at = flags[i] & 16 ? now : now - 1;
    h.reshaped_at = flags[i] & 32 ? now : now - 1;
    try {
      if (flags[i] & kChain) {
        const Vec2 a = r.finite_vec("segment end"), b = r.finite_vec("segment end");
        const std::uint8_t ghosts = r.u8("segment ghosts");
        if (ghosts > 3) r.bad("segment ghosts", "has unknown bits");
        Vec2 prev{}, next{};
        if (ghosts & 1) prev = r.finite_vec("ghost vertex");
        if (ghosts & 2) next = r.finite_vec("ghost vertex");
        part.piece = ChainSegment::make(a, b, ghosts & 1 ? &prev : nullptr, ghosts & 2 ? &next : nullptr);
        part.chain = true;
      } else {
        const std::uint8_t n = r.u8("shape vertex count");
        if (n < 1 || n > kMaxPolygonVertices)
          r.bad("shape vertex count", std::to_string(n) + " is outside [1, kMaxPolygonVertices]");
        Vec2 v[kMaxPolygonVertices];
        for (int k = 0; k < n; ++k) v[k] = r.finite_vec("shape vertex");
        const float radius = r.finite("shape radius");
        const auto same_core = [&](const Shape& shape) {
          if (shape.vertex_count() != n ||
              std::bit_cast<std::uint32_t>(shape.radius()) != std::bit_cast<std::uint32_t>(radius))
            return false;
          for (int k = 0; k < n; ++k)
            if (std::bit_cast<std::uint64_t>(shape.vertices()[std::size_t(k)]) != std::bit_cast<std::uint64_t>(v[k]))
              return false;
          return true;
        };
        // Shape::from_vertices gives a saved core back bit for bit and refuses anything the
        // makers could not have made (not convex, not counter-clockwise, to be welded). Worlds
        // repeat a few shapes: the last few made are kept.
        const Shape* known = nullptr;
        for (std::size_t k = 0; k < std::min(next_recent, recent.size()); ++k)
          if (same_core(recent[k])) known = &recent[k];
        if (known == nullptr) {
          const Shape shape = Shape::from_vertices(std::span<const Vec2>(v, n), radius);
          if (!same_core(shape)) r.bad("shape", "is not a core the shape maker gives back unchanged");
          recent[next_recent++ % recent.size()] = shape;
          known = &recent[(next_recent - 1) % recent.size()];
        }
        part.piece.shape = *known;
        part.chain = false;
      }
    } catch (const InvalidShape& e) {
      r.bad("part", std::string("is refused by the shape maker: ") + e.what());
    }
    part.shape_changed();
  }
  // Each live collider owns its run of live slots, each live slot one collider.
  std::vector<char> owned(part_count, 0);
  for (std::uint32_t i = 0; i < collider_count; ++i) {
    Collider& c = world.colliders_[i];
    if (!c.live) continue;
    if (c.part_count == 0 || std::uint64_t(c.first_part) + c.part_count > part_count)
      fail("a collider's parts beyond the part table");
    for (std::uint32_t k = 0; k < c.part_count; ++k) {
      const std::uint32_t slot = c.first_part + k;
      if (!world.hot_[slot].live || owned[slot]) fail("a collider part that is free or owned twice");
      owned[slot] = 1;
      Hot& h = world.hot_[slot];
      Part& part = world.parts_[slot];
      h.filter = c.options.filter;
      h.collider = i;
      h.part_no = k;
      h.several = c.part_count > 1;
      h.reuse = world.settings_.reuse_contacts && !c.options.fresh_contacts;
      h.chain = part.chain;
      h.fixed = c.options.fixed;
      h.sensor = c.options.sensor;
      part.place(c.xf);
      part.box = collider_box(part.shape(), c.xf, world.settings_.contact_margin);
    }
  }
  {
    // Every free slot on exactly one of the single-slot list and the runs.
    std::vector<char> free_slot(part_count, 0);
    std::size_t steps = 0;
    for (std::uint32_t f = world.free_part_; f != kNone; f = world.hot_[f].pair_head) {
      if (f >= part_count || world.hot_[f].live || free_slot[f] || ++steps > part_count)
        fail("a broken free part list");
      free_slot[f] = 1;
    }
    std::uint64_t end = 0;
    for (const auto& [first, count] : world.free_ranges_) {
      if (count == 0 || first < end || std::uint64_t(first) + count > part_count)
        fail("free part runs out of order or beyond the table");
      end = std::uint64_t(first) + count;
      for (std::uint32_t k = 0; k < count; ++k) {
        if (world.hot_[first + k].live || free_slot[first + k]) fail("a free part run over a live or listed slot");
        free_slot[first + k] = 1;
      }
    }
    for (std::uint32_t i = 0; i < part_count; ++i) {
      if (world.hot_[i].live && !owned[i]) fail("a live part slot no collider owns");
      if (!world.hot_[i].live && !free_slot[i]) fail("a free part slot on no free list");
    }
  }

  // Trees, then their proxies' values from the parts that own them.
  detail::TreeSnapshot::read(world.moving_tree_, r, "moving tree");
  detail::TreeSnapshot::read(world.fixed_tree_, r, "fixed tree");
  {
    std::vector<char> moving(detail::TreeSnapshot::proxy_table(world.moving_tree_), 0);
    std::vector<char> fixed(detail::TreeSnapshot::proxy_table(world.fixed_tree_), 0);
    std::size_t in_moving = 0, in_fixed = 0;
    for (std::uint32_t i = 0; i < part_count; ++i) {
      const Hot& h = world.hot_[i];
      if (!h.live) continue;
      AabbTree& tree = h.fixed ? world.fixed_tree_ : world.moving_tree_;
      std::vector<char>& taken = h.fixed ? fixed : moving;
      if (!detail::TreeSnapshot::live(tree, h.proxy) || taken[std::size_t(h.proxy)])
        fail("a part whose proxy is not live or is shared");
      taken[std::size_t(h.proxy)] = 1;
      (h.fixed ? in_fixed : in_moving) += 1;
      if (!pebble::contains(tree.fat_box(h.proxy), world.parts_[i].box)) fail("a tree box that does not hold its part");
      detail::TreeSnapshot::set_proxy(tree, h.proxy, i, h.filter.category);
    }
    if (in_moving != std::size_t(world.moving_tree_.proxy_count()) ||
        in_fixed != std::size_t(world.fixed_tree_.proxy_count()))
      fail("tree proxies no part owns");
  }
  detail::TreeSnapshot::finish(world.moving_tree_);
  detail::TreeSnapshot::finish(world.fixed_tree_);

  // Pairs.
  const std::uint32_t pair_count = r.count("pair count", 8);
  world.free_pair_ = r.u32("free pair");
  world.pairs_.resize(pair_count);
  std::size_t live_pairs = 0;
  for (std::uint32_t i = 0; i < pair_count; ++i) {
    Pair& p = world.pairs_[i];  // value-initialized by resize()
    p.part[0] = r.u32("pair part");
    if (p.free()) {
      p.next[0] = r.u32("free pair link");
      continue;
    }
    ++live_pairs;
    p.part[1] = r.u32("pair part");
    for (std::uint32_t* link : {&p.next[0], &p.next[1], &p.prev[0], &p.prev[1]}) {
      *link = r.u32("pair link");
      if (*link != kNone && *link >= pair_count) r.bad("pair link", "is beyond the pair table");
    }
    if (p.part[0] >= part_count || p.part[1] >= part_count || !world.hot_[p.part[0]].live ||
        !world.hot_[p.part[1]].live)
      r.bad("pair", "names a part slot that is free or beyond the table");
    const Hot& ha = world.hot_[p.part[0]];
    const Hot& hb = world.hot_[p.part[1]];
    if (!(ha.collider < hb.collider)) r.bad("pair", "does not have the lower collider slot first");
    const std::uint8_t f = r.u8("pair flags");
    if (f > 3) r.bad("pair flags", "has unknown bits");
    p.touching = p.touching_now = (f & 1) != 0;
    p.reusable = (f & 2) != 0;
    p.fresh = p.doomed = false;
    p.id[0] = world.id_of(ha.collider);
    p.id[1] = world.id_of(hb.collider);
    p.part_no[0] = int(ha.part_no);
    p.part_no[1] = int(hb.part_no);
    p.sensor = ha.sensor ? 1 : hb.sensor ? 2 : 0;
    // A pair the rules refuse lives only until the update after its filter changed.
    if (!world.can_pair(p.part[0], p.part[1]) && ha.filtered_at != world.step_ && hb.filtered_at != world.step_)
      r.bad("pair", "joins parts that may not pair");
    p.manifold = read_manifold(r);
    if (p.sensor && (p.manifold.count != 0 || p.reusable)) r.bad("sensor pair", "has a manifold");
    if (!p.sensor && p.touching != (p.manifold.count > 0))
      r.bad("pair", "is touching without points or the other way round");
    if (!p.reusable) continue;
    for (int k = 0; k < p.manifold.count; ++k) {
      p.anchor[k][0] = r.finite_vec("reuse anchor");
      p.anchor[k][1] = r.finite_vec("reuse anchor");
    }
    // A kept manifold's normal is this one turned by part a's rotation (update.cpp,
    // reuse_manifold), and the next save() writes it: a tenth of the manifold check's tolerance
    // leaves room for the rotation's own (kRotationTolerance), so that snapshot restores too. What
    // pebble writes is unit to float rounding, but for an empty manifold (kept under looser
    // reuse_bounds), whose normal no one reads.
    p.local_normal = r.finite_vec("reuse normal");
    if (p.manifold.count > 0 && std::fabs(pebble::length(p.local_normal) - 1) > 1e-4f)
      r.bad("reuse normal", "is not of unit length");
    p.relative_p = r.finite_vec("reuse position");
    p.relative_q.c = r.finite("reuse rotation");
    p.relative_q.s = r.finite("reuse rotation");
    p.reuse_limit = r.finite("reuse limit");
    p.normal_lever = r.f32("reuse lever");
    if (!(p.reuse_limit >= 0) || !(p.normal_lever >= 0)) r.bad("reuse bounds", "are negative or not numbers");
  }
  {
    std::size_t steps = 0;
    for (std::uint32_t f = world.free_pair_; f != kNone; f = world.pairs_[f].next[0]) {
      if (f >= pair_count || !world.pairs_[f].free() || ++steps > pair_count) fail("a broken free pair list");
    }
    if (steps + live_pairs != pair_count) fail("free pairs missing from the free list");
    // Each part's list: pairs that name it, linked both ways; together they hold each pair twice.
    std::size_t links = 0;
    for (std::uint32_t i = 0; i < part_count; ++i) {
      if (!world.hot_[i].live) continue;
      std::uint32_t prev = kNone;
      for (std::uint32_t at = world.hot_[i].pair_head; at != kNone;) {
        if (at >= pair_count || world.pairs_[at].free()) fail("a pair list through a free or missing pair");
        const Pair& p = world.pairs_[at];
        const int side = p.part[0] == i ? 0 : p.part[1] == i ? 1 : -1;
        if (side < 0 || p.prev[side] != prev || ++links > 2 * live_pairs) fail("a broken pair list");
        prev = at;
        at = p.next[side];
      }
    }
    if (links != 2 * live_pairs) fail("pairs missing from their parts' lists");
    while (2 * (live_pairs + 1) > world.pair_set_->keys.size()) world.pair_set_->grow();  // empty: no rehashing
    for (std::uint32_t i = 0; i < pair_count; ++i) {
      const Pair& p = world.pairs_[i];
      if (p.free()) continue;
      if (!world.pair_set_->insert(pair_key(p.a(), p.b()), i)) fail("the same part pair twice");
      if (p.touching && (world.hot_[p.a()].several || world.hot_[p.b()].several))
        ++world.touching_parts_[pair_key(p.id[0].index, p.id[1].index)];
    }
  }

  // contacts() and the events.
  const std::uint32_t contact_count = r.count("contact count", 4);
  world.contacts_.resize(contact_count);
  for (ContactPair& c : world.contacts_) {
    const std::uint32_t slot = r.u32("contact pair");
    if (slot != kNone) {
      if (slot >= pair_count || world.pairs_[slot].free() || !world.pairs_[slot].touching || world.pairs_[slot].sensor)
        fail("a contact naming a pair that is not a touching contact pair");
      const Pair& p = world.pairs_[slot];
      c = {p.id[0], p.id[1], p.manifold, p.part_no[0], p.part_no[1]};
      continue;
    }
    c.a.index = r.u32("contact id");
    c.a.generation = r.u32("contact id");
    c.b.index = r.u32("contact id");
    c.b.generation = r.u32("contact id");
    c.a.world = c.b.world = world.serial_;
    c.part_a = r.i32("contact part");
    c.part_b = r.i32("contact part");
    c.manifold = read_manifold(r);
  }
  for (auto* events : {&world.begin_events_, &world.end_events_, &world.pending_end_events_, &world.begin_part_events_,
                       &world.end_part_events_, &world.pending_end_part_events_})
    read_events(r, world.serial_, *events);
  for (auto* events : {&world.sensor_begin_events_, &world.sensor_end_events_, &world.pending_sensor_end_events_})
    read_events(r, world.serial_, *events);
  if (r.remaining() != 0) fail("trailing bytes after the last section");
  // contacts() is the touching contact pairs, as of the last update unless a removal came since.
  if (world.pending_end_part_events_.empty() && world.pending_sensor_end_events_.empty()) {
    std::size_t touching = 0;
    for (const Pair& p : world.pairs_) touching += !p.free() && p.touching && !p.sensor ? 1 : 0;
    if (touching != contact_count) fail("contacts that are not the touching pairs");
  }
  // What validate() checks holds by now: every check it makes was made above or holds by
  // construction (the tests and the fuzzer call validate() on every world restore() accepts).
  return impl;
}

}  // namespace pebble
