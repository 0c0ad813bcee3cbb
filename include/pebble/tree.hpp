// pebble/tree.hpp — a dynamic AABB tree (bounding volume hierarchy) for the broadphase: proxies
// with fat boxes that absorb small moves, insertion by surface-area cost with rotations, a binned
// SAH rebuild for sets that stop changing, and queries by box, point, ray, and swept box or circle
// ([seed-rounded §8]: a circle cast is a ray cast against the nodes grown by the circle's radius).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "pebble/math.hpp"

// query() tests both boxes of a node as one 4-float vector (GCC and Clang vector extensions: no
// instruction-set header, and every target gets its own vector code; PEBBLE_NO_SIMD asks for the
// plain loop).
#if !defined(PEBBLE_NO_SIMD) && !PEBBLE_DOUBLE_POSITIONS && (defined(__GNUC__) || defined(__clang__))
#define PEBBLE_TREE_VECTOR 1
#else
#define PEBBLE_TREE_VECTOR 0
#endif
// With double positions a box is two 2-double vectors, compared a corner at a time.
#if !defined(PEBBLE_NO_SIMD) && PEBBLE_DOUBLE_POSITIONS && (defined(__GNUC__) || defined(__clang__))
#define PEBBLE_TREE_VECTOR_DOUBLE 1
#else
#define PEBBLE_TREE_VECTOR_DOUBLE 0
#endif

namespace pebble {

/// Handle of a proxy in an AabbTree: an index into its proxy table, stable while the proxy lives
/// and reused after destroy_proxy().
using ProxyId = std::int32_t;

/// No proxy.
inline constexpr ProxyId kNullProxy = -1;

/// Traversals keep their pending nodes in a fixed array of this many entries (no allocation),
/// and the tree keeps its height below it: an insertion that pushes the height past
/// kMaxTreeHeight rebuilds the tree, whose builder bounds the height well below it.
inline constexpr int kMaxTreeHeight = 96;

/// How an AabbTree fattens the box of a proxy when it (re)inserts it. A fat box absorbs small
/// moves, so that move_proxy() touches the tree only when a proxy leaves its fat box; larger fat
/// boxes mean fewer reinsertions but more pairs whose fat boxes overlap.
struct TreeSettings {
  /// Added on every side of the box, world units (Box2D 2.4.1 uses 0.1 m)...
  float margin = 0.1f;
  /// ...but at most this many times the box's larger half extent, so that small objects do not get
  /// fat boxes many times their size (which would pair them with everything within 0.1); 0.25 halves
  /// the pairs kept on fast scenes (docs/world.md, Speed). 0 gives no margin at all.
  float margin_fraction = 0.25f;
  /// The fat box also reaches this many times the displacement given to move_proxy() ahead
  /// along that displacement, a prediction of where the proxy goes next (Box2D 2.4.1 uses 4).
  /// Off by default: it kept more pairs than it saved reinsertions (docs/world.md, Speed).
  float prediction = 0.0f;
};

/// A proxy found by AabbTree::nearest: its id and the distance from the query box to its fat box
/// (0 when they overlap).
struct TreeNeighbor {
  ProxyId id = kNullProxy;  ///< the proxy found
  float distance = 0;       ///< from the query box to its fat box (0 when they overlap)
};

/// Figures about a tree's shape and size, from AabbTree::stats().
struct TreeStats {
  int proxy_count = 0;           ///< live proxies
  int node_count = 0;            ///< internal nodes in use (each holds the boxes of its two children)
  int height = 0;                ///< levels of internal nodes from the root to the deepest proxy; 0 when empty
  int max_balance = 0;           ///< the largest height difference between the two children of a node
  float area_ratio = 0;          ///< the sum of the perimeters of all boxes over the root's: lower is better
  std::size_t memory_bytes = 0;  ///< heap memory held by the tree (capacity, not just use)
};

namespace detail {
struct TreeSnapshot;
}

/// A dynamic AABB tree of proxies, each an axis-aligned box with a 64-bit user value.
///
/// Layout (after Box2D v3's dynamic_tree and parry's BVH): internal nodes live in one growable
/// array by 32-bit index with a free list, and each holds the boxes of both its children, so a
/// traversal step reads the two boxes it tests from one 64-byte node. Proxies are the leaves:
/// a child slot refers either to an internal node or to a proxy. Nothing is allocated per query;
/// create, move and destroy allocate only when an array grows.
///
/// Every box of the tree contains the boxes below it. Queries are const and read only, so any
/// number of threads may query one tree at once while nobody changes it. A tree is a plain value:
/// copies are independent trees with the same proxy ids.
class AabbTree {
public:
  /// An empty tree; the settings fix how fat its boxes are.
  explicit AabbTree(const TreeSettings& settings = {});

  /// Adds a proxy whose fat box is `box` fattened by the settings (see TreeSettings) and returns
  /// its id. The proxy counts as moved (see moved()). A box that is not valid (is_valid: finite,
  /// lower <= upper) is taken as the point {0, 0}, so that it cannot spoil the tree's boxes.
  /// `category`: the bits a masked query tests (query(box, mask, f)); every node keeps the union of
  /// its subtree's, so that a query skips subtrees that hold none of its bits (Box2D's
  /// b2DynamicTree_Query does the same).
  ProxyId create_proxy(const Aabb& box, std::uint64_t user_data = 0, std::uint64_t category = ~0ull);
  /// Removes a live proxy; its id may be reused by a later create_proxy().
  void destroy_proxy(ProxyId id);
  /// Tells the tree that proxy id now has the box `box`, having moved by `displacement` since the
  /// last call. When the box still lies inside the fat box (and the fat box is not far larger than
  /// needed), nothing changes and the call returns false. Otherwise the proxy gets a new fat box,
  /// is reinserted, counts as moved, and the call returns true. An invalid box is taken as the
  /// point {0, 0}, a non-finite displacement as none.
  bool move_proxy(ProxyId id, const Aabb& box, Vec2 displacement = {});
  /// Whether move_proxy(id, box, displacement) would change nothing (return false). Reads only
  /// proxy id, so threads may ask about different proxies at once while nothing changes the tree.
  bool keeps(ProxyId id, const Aabb& box, Vec2 displacement = {}) const;

  /// The fat box of a live proxy (world frame).
  Aabb fat_box(ProxyId id) const { return proxies_[std::size_t(id)].fat; }
  /// The user value given to create_proxy().
  std::uint64_t user_data(ProxyId id) const { return proxies_[std::size_t(id)].user_data; }
  /// Replaces the value user_data() gives back (id must be live).
  void set_user_data(ProxyId id, std::uint64_t value) { proxies_[std::size_t(id)].user_data = value; }
  /// The category bits given to create_proxy() or set_category().
  std::uint64_t category(ProxyId id) const { return proxies_[std::size_t(id)].category; }
  /// Changes a live proxy's category bits (and the unions above it); the proxy does not move.
  void set_category(ProxyId id, std::uint64_t category);
  /// True when id names a live proxy of this tree.
  bool is_proxy(ProxyId id) const {
    return id >= 0 && std::size_t(id) < proxies_.size() && proxies_[std::size_t(id)].node != kFreeProxy;
  }
  /// Number of live proxies.
  int proxy_count() const { return proxy_count_; }
  /// One past the largest proxy id in use so far (the size of a table indexed by ProxyId).
  int proxy_capacity() const { return int(proxies_.size()); }

  /// The proxies created or reinserted since the last clear_moved(), each once, in that order
  /// (a destroyed proxy leaves the list, and the last entry takes its place).
  std::span<const ProxyId> moved() const { return moved_; }
  /// True when the proxy is in moved().
  bool was_moved(ProxyId id) const { return proxies_[std::size_t(id)].move_index >= 0; }
  /// Orders moved() along a Z-order curve over the tree's bounds (by the centres of the fat boxes),
  /// so that queries made in that order visit the nodes of one region one after another and find
  /// them in the cache. Deterministic; O(m log m) for m moved proxies.
  void sort_moved();
  /// Puts a live proxy into moved() without changing its box (Box2D's TouchProxy): its pairs are
  /// found again, e.g. after its collision filter changed.
  void touch(ProxyId id) { mark_moved(id); }
  /// Empties moved().
  void clear_moved();

  /// Every pair of proxies whose fat boxes overlap (touching counts) and at least one of which is
  /// in moved(), each pair once, as f(a, b) with a < b; then clear_moved(). The pairs come in the
  /// order of moved() after sort_moved(), each proxy's partners in traversal order (the broadphase
  /// step of Box2D's b2BroadPhase::UpdatePairs).
  template <class F>
  void find_moved_pairs(F&& f);

  /// Calls f(id) for every proxy whose fat box overlaps `box` (touching counts); f returns false
  /// to stop the query early.
  template <class F>
  void query(const Aabb& box, F&& f) const {
    query_impl<false>(box, ~0ull, f);
  }
  /// The same for the proxies whose category has a bit in `mask`; subtrees without such a proxy
  /// are not entered.
  template <class F>
  void query(const Aabb& box, std::uint64_t mask, F&& f) const {
    if (mask == ~0ull) {
      query_impl<false>(box, mask, f);
    } else {
      query_impl<true>(box, mask, f);
    }
  }
  /// Calls f(id) for every proxy whose fat box contains the point; f returns false to stop.
  template <class F>
  void query_point(Position point, F&& f) const {
    query(Aabb{point, point}, static_cast<F&&>(f));
  }

  /// A box of half extents `half_extents` centred at `origin` sweeping to origin + translation:
  /// calls f(id, max_fraction) for every proxy whose fat box the swept box touches before the
  /// fraction max_fraction of the translation, nearer boxes first (each node is entered at the
  /// fraction where the swept box first touches it, the nearer child first). f returns the new
  /// max_fraction: the same value to go on, a smaller one to shorten the sweep (what a closest-hit
  /// search does), 0 or less to stop. Half extents {0, 0} cast a ray; {r, r} bound a circle of
  /// radius r ([seed-rounded §8]: the nodes are grown by the cast radius). Returns the final max_fraction.
  /// `mask`: only proxies whose category has a bit in it (subtrees without one are not entered).
  template <class F>
  float cast_box(Position origin, Vec2 half_extents, Vec2 translation, float max_fraction, F&& f,
                 std::uint64_t mask = ~0ull) const {
    return mask == ~0ull ? cast_box_impl<false>(origin, half_extents, translation, max_fraction, f, mask)
                         : cast_box_impl<true>(origin, half_extents, translation, max_fraction, f, mask);
  }
  /// A ray from origin to origin + translation: cast_box with half extents {0, 0}.
  template <class F>
  float cast_ray(Position origin, Vec2 translation, float max_fraction, F&& f, std::uint64_t mask = ~0ull) const {
    return cast_box(origin, Vec2{}, translation, max_fraction, static_cast<F&&>(f), mask);
  }

  /// The proxies whose fat boxes are nearest to the box `box` (a point is a box of size 0): the
  /// out.size() nearest within max_distance, written to `out` nearest first (ties by id), with
  /// their box distances (Euclidean, between the boxes; 0 when they overlap). Returns how many
  /// were written. Depth first, nearer child first, pruning subtrees farther than the k-th found;
  /// nothing allocated. `mask`: only proxies whose category has a bit in it. An invalid box or a
  /// negative or NaN max_distance finds nothing. For neighbours by true shape distance, see
  /// CollisionWorld::nearest.
  int nearest(const Aabb& box, std::span<TreeNeighbor> out, float max_distance = kInf,
              std::uint64_t mask = ~0ull) const;
  /// The traversal under nearest(), for neighbours by another distance: calls
  /// f(id, gap) -> float for proxies in a depth-first, nearer-child-first order, where gap is the
  /// distance from `box` to the proxy's fat box, skipping every subtree whose box is farther than
  /// the current bound (first `bound`, then what f last returned). f returns the new bound: the
  /// same to go on, smaller to prune more (the k-th distance found so far), a negative one to
  /// stop. Every proxy within the final bound is visited.
  template <class F>
  void visit_nearest(const Aabb& box, float bound, F&& f, std::uint64_t mask = ~0ull) const;
  /// The Euclidean distance between two boxes (0 when they overlap or touch).
  static float box_gap(const Aabb& a, const Aabb& b) {
    using C = decltype(a.lower.x);  // float, or double with PEBBLE_DOUBLE_POSITIONS
    const C dx = std::max({C(0), a.lower.x - b.upper.x, b.lower.x - a.upper.x});
    const C dy = std::max({C(0), a.lower.y - b.upper.y, b.lower.y - a.upper.y});
    return float(std::sqrt(dx * dx + dy * dy));
  }
  /// nearest() for a point.
  int nearest(Position point, std::span<TreeNeighbor> out, float max_distance = kInf,
              std::uint64_t mask = ~0ull) const {
    return nearest(Aabb{point, point}, out, max_distance, mask);
  }

  /// Rebuilds the whole tree from its proxies' fat boxes by a top-down binned surface-area split
  /// (16 bins on both axes). The result is usually better than insertion order gives; worth it
  /// for sets that then stay still (a level's static geometry). Proxy ids and fat boxes stay.
  void rebuild();

  /// Checks the structure: parents and children agree, every box contains the boxes below it,
  /// heights are right and below kMaxTreeHeight, the free lists and moved() are consistent, the
  /// proxy count is right. For tests; O(n).
  bool validate() const;
  /// Height, balance, area ratio and memory. O(n).
  TreeStats stats() const;
  /// The root's box (the union of all fat boxes), or the empty box {{0,0},{0,0}} when empty.
  Aabb bounds() const;
  /// The settings given at construction.
  const TreeSettings& settings() const { return settings_; }

private:
  friend struct detail::TreeSnapshot;  // CollisionWorld's snapshot keeps the layout (src/world/snapshot.cpp)

  // A child slot holds an internal node index (>= 0) or a proxy as ~id (< 0).
  static constexpr std::int32_t kNullNode = -1;
  static constexpr std::int32_t kEmptySlot = std::numeric_limits<std::int32_t>::min();
  static constexpr std::int32_t kFreeProxy = -2;
  static constexpr float kInf = std::numeric_limits<float>::infinity();

  // 64 bytes (128 with double positions): both children's boxes and categories first, so one cache line
  // (two) serves a traversal step.
  struct alignas(64) Node {
    Aabb box[2];
    std::uint64_t category[2];  // the union of the categories of the proxies below each child
    std::int32_t child[2];
    std::int32_t parent;  // the next free node while the node is free
    std::int32_t height;  // 1 + the larger child height; a proxy has height 0
  };
  static_assert(sizeof(Node) == (PEBBLE_DOUBLE_POSITIONS ? 128 : 64));
  // The fat box is also in the proxy, so that a move that stays inside it, fat_box() and the pair
  // finding read the proxy alone (one cache miss fewer per proxy in a large tree).
  struct Proxy {
    Aabb fat;                 // a copy of its slot's box
    std::int32_t node;        // the node holding it, kFreeProxy when free
    std::int32_t slot;        // its slot in that node; the next free proxy when free
    std::int32_t move_index;  // its index in moved_, or -1
    std::uint64_t user_data;
    std::uint64_t category;
  };

  static bool is_leaf(std::int32_t child) { return child < 0; }
  static void prefetch([[maybe_unused]] const void* address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address);
#endif
  }
  static constexpr Aabb empty_box() { return {{kInf, kInf}, {-kInf, -kInf}}; }

  std::int32_t allocate_node();
  void free_node(std::int32_t node);
  float margin_for(const Aabb& box) const {
    const Vec2 half = extents(box);
    return std::max(0.0f, std::min(settings_.margin, settings_.margin_fraction * std::max(half.x, half.y)));
  }
  Aabb fatten(const Aabb& box, Vec2 displacement) const;
  void insert_leaf(ProxyId id, const Aabb& fat);
  void remove_leaf(ProxyId id);
  void set_child(std::int32_t node, int slot, std::int32_t child, const Aabb& box);
  int child_height(std::int32_t child) const { return is_leaf(child) ? 0 : nodes_[std::size_t(child)].height; }
  std::uint64_t child_category(std::int32_t child) const {
    if (child == kEmptySlot) return 0;
    if (is_leaf(child)) return proxies_[std::size_t(~child)].category;
    const Node& n = nodes_[std::size_t(child)];
    return n.category[0] | n.category[1];
  }
  template <bool kMasked, class F>
  void query_impl(const Aabb& box, std::uint64_t mask, F& f) const;
  template <bool kMasked, class F>
  float cast_box_impl(Position origin, Vec2 half_extents, Vec2 translation, float max_fraction, F& f,
                      std::uint64_t mask) const;
  int slot_in_parent(std::int32_t node) const;
  void refit_up(std::int32_t node, bool rotate);
  void rotate(std::int32_t node);
  void mark_moved(ProxyId id);
  int validate_node(std::int32_t node, std::int32_t parent, int& proxies) const;

  TreeSettings settings_;
  std::vector<Node> nodes_;
  std::vector<Proxy> proxies_;
  std::vector<ProxyId> moved_;
  std::vector<std::uint64_t> sort_keys_;  // sort_moved()'s scratch
  std::int32_t root_ = kNullNode;
  std::int32_t free_node_ = kNullNode;
  std::int32_t free_proxy_ = kNullProxy;
  int node_count_ = 0;
  int proxy_count_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Traversals, inline so that the callback inlines into them.

template <bool kMasked, class F>
void AabbTree::query_impl(const Aabb& box, std::uint64_t mask, F& f) const {
  if (root_ == kNullNode) return;
  std::int32_t stack[kMaxTreeHeight + 1];
  int top = 0;
  std::int32_t node = root_;
#if PEBBLE_TREE_VECTOR
  // b overlaps box when (b.lower, -b.upper) <= (box.upper, -box.lower) in all four lanes.
  using V4 = float __attribute__((vector_size(16)));
  const V4 limit = {box.upper.x, box.upper.y, -box.lower.x, -box.lower.y};
  using M4 = std::int32_t __attribute__((vector_size(16)));
  const M4 flip = {0, 0, std::int32_t(0x80000000u), std::int32_t(0x80000000u)};  // the sign bits of the upper corner
  const auto overlaps = [&](const Aabb& b) {
    V4 v;
    __builtin_memcpy(&v, &b, sizeof v);
    const V4 moved = V4(M4(v) ^ flip);
#if defined(__SSE__)
    return int(__builtin_ia32_movmskps(V4(moved <= limit)) == 0xf);  // the compiler's own builtin: no header
#else
    using Q2 = long long __attribute__((vector_size(16)));
    const Q2 le = Q2(moved <= limit);  // all ones in each lane that holds
    return int((le[0] & le[1]) == -1);
#endif
  };
#endif
#if PEBBLE_TREE_VECTOR_DOUBLE
  // b overlaps box when b.lower <= box.upper and box.lower <= b.upper in both lanes: the same
  // compares as the loop below, two at a time.
  using V2 = double __attribute__((vector_size(16)));
  const V2 box_lower = {box.lower.x, box.lower.y}, box_upper = {box.upper.x, box.upper.y};
  const auto overlaps = [&](const Aabb& b) {
    V2 lower, upper;
    __builtin_memcpy(&lower, &b.lower, sizeof lower);
    __builtin_memcpy(&upper, &b.upper, sizeof upper);
#if defined(__SSE2__)
    // The compiler's own builtin (no header); the masks joined as bits, since GCC 12 turns an &
    // of the two compare vectors into lane-by-lane integer code.
    return int((__builtin_ia32_movmskpd(V2(lower <= box_upper)) & __builtin_ia32_movmskpd(V2(box_lower <= upper))) ==
               0x3);
#else
    const auto le = (lower <= box_upper) & (box_lower <= upper);  // all ones in each lane that holds
    return int((le[0] & le[1]) == -1);
#endif
  };
#endif
  for (;;) {
    const Node& n = nodes_[std::size_t(node)];
#if PEBBLE_TREE_VECTOR || PEBBLE_TREE_VECTOR_DOUBLE
    int hit = overlaps(n.box[0]) | overlaps(n.box[1]) << 1;
#else
    int hit = 0;
    for (int k = 0; k < 2; ++k) {
      const Aabb& b = n.box[k];
      // & rather than &&: four compares and one branch.
      hit |= int((b.lower.x <= box.upper.x) & (box.lower.x <= b.upper.x) & (b.lower.y <= box.upper.y) &
                 (box.lower.y <= b.upper.y))
             << k;
    }
#endif
    if constexpr (kMasked) hit &= int((n.category[0] & mask) != 0) | int((n.category[1] & mask) != 0) << 1;
    std::int32_t next = kNullNode;
    for (int k = 0; k < 2; ++k) {
      if ((hit >> k & 1) == 0) continue;
      const std::int32_t c = n.child[k];
      if (is_leaf(c)) {
        if (c != kEmptySlot && !f(ProxyId(~c))) return;
      } else if (next == kNullNode) {
        next = c;
      } else {
        prefetch(&nodes_[std::size_t(c)]);  // popped later: start loading it now
        stack[top++] = c;
      }
    }
    if (next == kNullNode) {
      if (top == 0) return;
      next = stack[--top];
    }
    node = next;
  }
}

template <class F>
void AabbTree::visit_nearest(const Aabb& box, float bound, F&& f, std::uint64_t mask) const {
  if (root_ == kNullNode || !is_valid(box) || !(bound >= 0)) return;
  struct Entry {
    std::int32_t node;
    float gap;
  };
  Entry stack[kMaxTreeHeight + 1];
  int top = 0;
  stack[top++] = {root_, 0};
  while (top > 0) {
    const Entry e = stack[--top];
    if (!(e.gap <= bound)) continue;
    const Node& n = nodes_[std::size_t(e.node)];
    float gap[2];
    for (int c = 0; c < 2; ++c)
      gap[c] = n.child[c] == kEmptySlot || (n.category[c] & mask) == 0 ? kInf : box_gap(box, n.box[c]);
    // Leaves at once (nearer first); of the internal children the farther is pushed first, so
    // that the nearer is visited next.
    const int first = gap[1] < gap[0] ? 1 : 0;
    for (const int c : {first, 1 - first}) {
      if (!(gap[c] <= bound) || !is_leaf(n.child[c])) continue;
      bound = f(ProxyId(~n.child[c]), gap[c]);
      if (bound < 0) return;
    }
    for (const int c : {1 - first, first}) {
      if (gap[c] <= bound && !is_leaf(n.child[c])) stack[top++] = {n.child[c], gap[c]};
    }
  }
}

template <class F>
void AabbTree::find_moved_pairs(F&& f) {
  sort_moved();
  for (const ProxyId a : moved_) {
    query(fat_box(a), [&](ProxyId b) {
      // Both moved: the pair is reported from the larger id's query only.
      if (b != a && (proxies_[std::size_t(b)].move_index < 0 || b < a)) f(b < a ? b : a, b < a ? a : b);
      return true;
    });
  }
  clear_moved();
}

template <bool kMasked, class F>
float AabbTree::cast_box_impl(Position origin, Vec2 half_extents, Vec2 translation, float max_fraction, F& f,
                              std::uint64_t mask) const {
  if (root_ == kNullNode || !(max_fraction > 0)) return max_fraction;
  if (!is_finite(origin) || !is_finite(translation) || !is_finite(half_extents)) return max_fraction;
  // Slab test against each child box grown by half_extents (the Minkowski sum of the node and the
  // swept box), the near plane of each axis picked by the sign of the direction. A zero direction
  // component gives 1/d = +-inf and plane times of +-inf (outside the slab: never entered; inside:
  // no limit) or NaN (the origin exactly on the plane): the comparisons below are written so that
  // a NaN limits nothing.
  const float inv_x = 1.0f / translation.x, inv_y = 1.0f / translation.y;
  const bool neg_x = std::signbit(inv_x), neg_y = std::signbit(inv_y);
#if PEBBLE_TREE_VECTOR_DOUBLE
  // The same operations as below on both axes at once: the planes and their offsets from the
  // origin in double, the times rounded to float; the near plane picked by bit masks.
  using V2 = double __attribute__((vector_size(16)));
  using M2 = long long __attribute__((vector_size(16)));
  using F2 = float __attribute__((vector_size(8)));
  const V2 half = {double(half_extents.x), double(half_extents.y)}, from = {origin.x, origin.y};
  const V2 inv = {double(inv_x), double(inv_y)};
  const M2 down = {neg_x ? -1LL : 0LL, neg_y ? -1LL : 0LL};  // the axes the cast runs down
  const auto enter = [&](const Aabb& b) {
    V2 lower, upper;
    __builtin_memcpy(&lower, &b.lower, sizeof lower);
    __builtin_memcpy(&upper, &b.upper, sizeof upper);
    const V2 lo = lower - half, hi = upper + half;
    const V2 near = V2((M2(hi) & down) | (M2(lo) & ~down)), far = V2((M2(lo) & down) | (M2(hi) & ~down));
    const F2 t0 = __builtin_convertvector((near - from) * inv, F2);
    const F2 t1 = __builtin_convertvector((far - from) * inv, F2);
    float t_near = 0, t_far = kInf;
    if (t0[0] > t_near) t_near = t0[0];
    if (t0[1] > t_near) t_near = t0[1];
    if (t1[0] < t_far) t_far = t1[0];
    if (t1[1] < t_far) t_far = t1[1];
    return t_near <= t_far ? t_near : kInf;  // kInf: missed
  };
#else
  const auto enter = [&](const Aabb& b) {
    // (In a build with double positions the planes and their offsets from the origin are in
    // double, the times rounded to float.)
    const auto near_x = neg_x ? b.upper.x + half_extents.x : b.lower.x - half_extents.x;
    const auto far_x = neg_x ? b.lower.x - half_extents.x : b.upper.x + half_extents.x;
    const auto near_y = neg_y ? b.upper.y + half_extents.y : b.lower.y - half_extents.y;
    const auto far_y = neg_y ? b.lower.y - half_extents.y : b.upper.y + half_extents.y;
    const float tx0 = float((near_x - origin.x) * inv_x), tx1 = float((far_x - origin.x) * inv_x);
    const float ty0 = float((near_y - origin.y) * inv_y), ty1 = float((far_y - origin.y) * inv_y);
    float t_near = 0, t_far = kInf;
    if (tx0 > t_near) t_near = tx0;
    if (ty0 > t_near) t_near = ty0;
    if (tx1 < t_far) t_far = tx1;
    if (ty1 < t_far) t_far = ty1;
    return t_near <= t_far ? t_near : kInf;  // kInf: missed
  };
#endif
  struct Entry {
    std::int32_t child;
    float t;
  };
  Entry stack[kMaxTreeHeight + 1];
  int top = 0;
  Entry current{root_, 0};
  for (;;) {
    if (is_leaf(current.child)) {
      if (current.child != kEmptySlot) {
        max_fraction = f(ProxyId(~current.child), max_fraction);
        if (!(max_fraction > 0)) return max_fraction;
      }
    } else {
      const Node& n = nodes_[std::size_t(current.child)];
      const float t0 = enter(n.box[0]), t1 = enter(n.box[1]);
      bool hit0 = t0 <= max_fraction, hit1 = t1 <= max_fraction;
      if constexpr (kMasked) {
        hit0 = hit0 && (n.category[0] & mask) != 0;
        hit1 = hit1 && (n.category[1] & mask) != 0;
      }
      if (hit0 & hit1) {
        const int near = t1 < t0 ? 1 : 0;
        stack[top++] = {n.child[1 - near], near ? t0 : t1};
        current = {n.child[near], near ? t1 : t0};
        continue;
      }
      if (hit0 | hit1) {
        current = hit0 ? Entry{n.child[0], t0} : Entry{n.child[1], t1};
        continue;
      }
    }
    // Next pending entry that the (possibly shortened) sweep still reaches.
    do {
      if (top == 0) return max_fraction;
      current = stack[--top];
    } while (current.t > max_fraction);
  }
}

}  // namespace pebble
