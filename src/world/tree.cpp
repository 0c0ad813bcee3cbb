// The dynamic AABB tree: insertion by surface-area cost, rotations, removal, moves, the binned
// SAH rebuild, validation and statistics. The traversals are inline in pebble/tree.hpp.
//
// Cost model (Goldsmith and Salmon's surface-area heuristic, in 2D the perimeter): the cost of a
// tree is the sum of the perimeters of its internal nodes' boxes, which is proportional to the
// expected number of nodes a random query visits. Insertion picks the sibling that adds the least
// cost (a branch and bound descent, as in Box2D v3's b2FindBestSibling: the cost of pairing the new
// box with a node is that node's new box plus the growth of all its ancestors); rotations then
// swap a child with a grandchild wherever that shrinks a box (Kopta et al., "Fast, effective BVH
// updates for animated scenes", 2012, as used by Box2D v3).
#include "pebble/tree.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "tolerances.hpp"

namespace pebble {
namespace {

// A rebuild splits by median instead of by surface area below this depth, so that its height stays
// at most kBuildDepthLimit + log2(n) (< kMaxTreeHeight for any int count), whatever the boxes.
constexpr int kBuildDepthLimit = 40;

// The fat box is re-made (smaller) when it reaches beyond the desired fat box grown by this many
// margins: the proxy slowed down and its stretched fat box is mostly empty (Box2D 2.4.1 uses 4).
constexpr float kShrinkMargins = 4.0f;

// Bins per axis of the rebuild's surface-area split.
constexpr int kBins = 16;

}  // namespace

AabbTree::AabbTree(const TreeSettings& settings) : settings_(settings) {}

std::int32_t AabbTree::allocate_node() {
  std::int32_t index;
  if (free_node_ != kNullNode) {
    index = free_node_;
    free_node_ = nodes_[std::size_t(index)].parent;
  } else {
    index = std::int32_t(nodes_.size());
    nodes_.emplace_back();
  }
  Node& n = nodes_[std::size_t(index)];
  n.box[0] = n.box[1] = empty_box();
  n.category[0] = n.category[1] = 0;
  n.child[0] = n.child[1] = kEmptySlot;
  n.parent = kNullNode;
  n.height = 1;
  ++node_count_;
  return index;
}

void AabbTree::free_node(std::int32_t node) {
  Node& n = nodes_[std::size_t(node)];
  n.height = -1;
  n.parent = free_node_;
  free_node_ = node;
  --node_count_;
}

// Puts child into slot `slot` of node with the given box and points the child back at the node.
void AabbTree::set_child(std::int32_t node, int slot, std::int32_t child, const Aabb& box) {
  Node& n = nodes_[std::size_t(node)];
  n.child[slot] = child;
  n.box[slot] = box;
  n.category[slot] = child_category(child);
  if (child == kEmptySlot) return;
  if (is_leaf(child)) {
    Proxy& p = proxies_[std::size_t(~child)];
    p.fat = box;
    p.node = node;
    p.slot = slot;
  } else {
    nodes_[std::size_t(child)].parent = node;
  }
}

int AabbTree::slot_in_parent(std::int32_t node) const {
  return nodes_[std::size_t(nodes_[std::size_t(node)].parent)].child[0] == node ? 0 : 1;
}

inline Aabb AabbTree::fatten(const Aabb& box, Vec2 displacement) const {
  Aabb fat = inflate(box, margin_for(box));
  const Vec2 ahead = settings_.prediction * displacement;
  if (std::isfinite(ahead.x) && std::isfinite(ahead.y)) {
    (ahead.x < 0 ? fat.lower.x : fat.upper.x) += ahead.x;
    (ahead.y < 0 ? fat.lower.y : fat.upper.y) += ahead.y;
  }
  return fat;
}

ProxyId AabbTree::create_proxy(const Aabb& given, std::uint64_t user_data, std::uint64_t category) {
  const Aabb box = is_valid(given) ? given : Aabb{};
  ProxyId id;
  if (free_proxy_ != kNullProxy) {
    id = free_proxy_;
    free_proxy_ = proxies_[std::size_t(id)].slot;
  } else {
    id = ProxyId(proxies_.size());
    proxies_.emplace_back();
  }
  proxies_[std::size_t(id)] = {{}, kNullNode, 0, -1, user_data, category};
  ++proxy_count_;
  insert_leaf(id, fatten(box, {}));
  mark_moved(id);
  return id;
}

void AabbTree::destroy_proxy(ProxyId id) {
  assert(is_proxy(id));
  Proxy& p = proxies_[std::size_t(id)];
  if (p.move_index >= 0) {
    // Swap-remove from moved_ (its order stays a function of the calls made).
    const ProxyId last = moved_.back();
    moved_[std::size_t(p.move_index)] = last;
    proxies_[std::size_t(last)].move_index = p.move_index;
    moved_.pop_back();
  }
  remove_leaf(id);
  Proxy& freed = proxies_[std::size_t(id)];
  freed.node = kFreeProxy;
  freed.slot = free_proxy_;
  freed.move_index = -1;
  free_proxy_ = id;
  --proxy_count_;
}

bool AabbTree::keeps(ProxyId id, const Aabb& given, Vec2 displacement) const {
  assert(is_proxy(id));
  const Aabb box = is_valid(given) ? given : Aabb{};
  const Aabb fat = fat_box(id);
  // Still inside: the fat box stays unless it reaches beyond a new one grown by kShrinkMargins
  // margins (with no margin at all: unless it differs from the box, so a tight tree stays tight).
#if PEBBLE_TREE_VECTOR_DOUBLE && defined(__SSE2__)
  // The same sums and compares on both axes at once (the double box is what makes this check cost
  // more than in the float build). fatten()'s step ahead is added as +0 on the side it does not
  // reach, which changes no comparison.
  using V2 = double __attribute__((vector_size(16)));
  using M2 = long long __attribute__((vector_size(16)));
  const auto lanes = [](const Position& p) {
    V2 v;
    __builtin_memcpy(&v, &p, sizeof v);
    return v;
  };
  const auto all_le = [](V2 a, V2 b) { return __builtin_ia32_movmskpd(V2(a <= b)); };  // 3: both lanes
  const float margin = margin_for(box);
  Vec2 ahead = settings_.prediction * displacement;
  if (!(std::isfinite(ahead.x) && std::isfinite(ahead.y))) ahead = {};
  const V2 step = {double(ahead.x), double(ahead.y)}, zero = {0, 0};
  const V2 m = {double(margin), double(margin)};
  const float shrink = kShrinkMargins * margin;
  const V2 k = {double(shrink), double(shrink)};
  const V2 lo = lanes(box.lower), hi = lanes(box.upper), fat_lo = lanes(fat.lower), fat_hi = lanes(fat.upper);
  const V2 need_lo = ((lo - m) + V2(M2(step) & M2(step < zero))) - k;
  const V2 need_hi = ((hi + m) + V2(M2(step) & M2(step > zero))) + k;
  return (all_le(fat_lo, lo) & all_le(hi, fat_hi) & all_le(need_lo, fat_lo) & all_le(fat_hi, need_hi)) == 3;
#else
  return contains(fat, box) && contains(inflate(fatten(box, displacement), kShrinkMargins * margin_for(box)), fat);
#endif
}

bool AabbTree::move_proxy(ProxyId id, const Aabb& given, Vec2 displacement) {
  if (keeps(id, given, displacement)) return false;
  const Aabb box = is_valid(given) ? given : Aabb{};
  const Aabb fat = fat_box(id);
  const Aabb new_fat = fatten(box, displacement);
  if (overlaps(new_fat, fat)) {
    // A short move: the proxy keeps its place, its ancestors are refitted, and rotations on the
    // way up repair the tree where the move made it worse (the refit-and-rotate update of Kopta et
    // al. for animated scenes). No descent from the root, and the nodes touched are already warm.
    Proxy& p = proxies_[std::size_t(id)];
    nodes_[std::size_t(p.node)].box[p.slot] = new_fat;
    p.fat = new_fat;
    refit_up(p.node, true);
    // Rotations choose by area, not height: keep the traversal stacks' bound.
    if (nodes_[std::size_t(root_)].height > kMaxTreeHeight) rebuild();
  } else {
    remove_leaf(id);
    insert_leaf(id, new_fat);
  }
  mark_moved(id);
  return true;
}

void AabbTree::mark_moved(ProxyId id) {
  Proxy& p = proxies_[std::size_t(id)];
  if (p.move_index >= 0) return;
  p.move_index = std::int32_t(moved_.size());
  moved_.push_back(id);
}

void AabbTree::clear_moved() {
  for (const ProxyId id : moved_) proxies_[std::size_t(id)].move_index = -1;
  moved_.clear();
}

namespace {

// The bits of v spread to the even positions of a 32-bit word.
std::uint32_t spread_bits(std::uint32_t v) {
  v &= 0xffff;
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  v = (v | (v << 1)) & 0x55555555;
  return v;
}

}  // namespace

void AabbTree::sort_moved() {
  if (moved_.size() < 2) return;
  const Aabb world = bounds();
  const Vec2 size = world.upper - world.lower;
  // (A size so small that 65535 / size overflows quantizes to 0 on that axis: no spread to order.)
  const auto quantum = [](float extent) {
    const float q = extent > 0 ? 65535.0f / extent : 0;
    return std::isfinite(q) ? q : 0.0f;
  };
  const float sx = quantum(size.x), sy = quantum(size.y);
  sort_keys_.clear();
  for (const ProxyId id : moved_) {
    const Vec2 c = center(fat_box(id)) - world.lower;
    const auto qx = std::uint32_t(std::clamp(c.x * sx, 0.0f, 65535.0f));
    const auto qy = std::uint32_t(std::clamp(c.y * sy, 0.0f, 65535.0f));
    // Z-order code above, proxy id below: a total order, so the result never depends on the sort.
    sort_keys_.push_back(std::uint64_t(spread_bits(qx) | spread_bits(qy) << 1) << 32 | std::uint32_t(id));
  }
  std::sort(sort_keys_.begin(), sort_keys_.end());
  for (std::size_t i = 0; i < sort_keys_.size(); ++i) {
    const auto id = ProxyId(std::uint32_t(sort_keys_[i]));
    moved_[i] = id;
    proxies_[std::size_t(id)].move_index = std::int32_t(i);
  }
}

void AabbTree::insert_leaf(ProxyId id, const Aabb& fat) {
  const std::int32_t leaf = ~id;
  if (root_ == kNullNode) {
    root_ = allocate_node();
    set_child(root_, 0, leaf, fat);
    return;
  }
  Node& root = nodes_[std::size_t(root_)];
  if (root.child[1] == kEmptySlot) {  // a root holding one proxy
    set_child(root_, 1, leaf, fat);
    return;
  }

  // Branch and bound for the sibling of least cost (see the top of this file). The candidate is a
  // child slot (node, slot), or the root itself (slot -1).
  const float leaf_area = perimeter(fat);
  const Aabb root_box = combine(root.box[0], root.box[1]);
  float best_cost = perimeter(combine(root_box, fat));
  std::int32_t best_node = root_;
  int best_slot = -1;
  float inherited = best_cost - perimeter(root_box);  // growth of the root's box
  std::int32_t node = root_;
  for (;;) {
    const Node& n = nodes_[std::size_t(node)];
    float lower[2];
    float growth[2];
    for (int k = 0; k < 2; ++k) {
      const float area = perimeter(n.box[k]);
      const float direct = perimeter(combine(n.box[k], fat));
      const float cost = direct + inherited;
      if (cost < best_cost) {
        best_cost = cost;
        best_node = node;
        best_slot = k;
      }
      growth[k] = direct - area;
      // Any node below child k costs at least the new parent's box (>= the leaf's) plus the
      // growth of child k and of everything above it.
      lower[k] = is_leaf(n.child[k]) ? kInfinity : inherited + growth[k] + leaf_area;
    }
    const int k = lower[1] < lower[0] ? 1 : 0;
    if (!(lower[k] < best_cost)) break;
    inherited += growth[k];
    node = n.child[k];
  }

  // A new internal node takes the sibling's place and holds the sibling and the leaf.
  const std::int32_t parent = allocate_node();
  if (best_slot < 0) {
    const std::int32_t old_root = root_;
    set_child(parent, 0, old_root, root_box);
    set_child(parent, 1, leaf, fat);
    nodes_[std::size_t(parent)].parent = kNullNode;
    root_ = parent;
  } else {
    Node& holder = nodes_[std::size_t(best_node)];
    const std::int32_t sibling = holder.child[best_slot];
    const Aabb sibling_box = holder.box[best_slot];
    set_child(parent, 0, sibling, sibling_box);
    set_child(parent, 1, leaf, fat);
    set_child(best_node, best_slot, parent, combine(sibling_box, fat));  // after: it reads parent's categories
  }
  nodes_[std::size_t(parent)].height = 1 + child_height(nodes_[std::size_t(parent)].child[0]);
  refit_up(nodes_[std::size_t(parent)].parent, true);
  if (nodes_[std::size_t(root_)].height > kMaxTreeHeight) rebuild();
}

void AabbTree::remove_leaf(ProxyId id) {
  const Proxy& p = proxies_[std::size_t(id)];
  const std::int32_t node = p.node;
  const int slot = p.slot;
  Node& n = nodes_[std::size_t(node)];
  const std::int32_t sibling = n.child[1 - slot];
  const Aabb sibling_box = n.box[1 - slot];
  if (node == root_) {
    if (sibling == kEmptySlot) {
      free_node(node);
      root_ = kNullNode;
    } else if (!is_leaf(sibling)) {
      root_ = sibling;
      nodes_[std::size_t(sibling)].parent = kNullNode;
      free_node(node);
    } else {
      // The root keeps the last proxy in slot 0.
      set_child(node, 0, sibling, sibling_box);
      set_child(node, 1, kEmptySlot, empty_box());
      n.height = 1;
    }
    return;
  }
  const std::int32_t grandparent = n.parent;
  set_child(grandparent, slot_in_parent(node), sibling, sibling_box);
  free_node(node);
  refit_up(grandparent, false);
}

// Walks from node toward the root: recomputes each node's height and its box in its parent's slot,
// rotating on the way when asked (after insertion), and stops where neither changes: everything
// above is then unchanged too.
void AabbTree::refit_up(std::int32_t node, bool rotate_nodes) {
  while (node != kNullNode) {
    if (rotate_nodes) rotate(node);
    Node& n = nodes_[std::size_t(node)];
    const int height = 1 + std::max(child_height(n.child[0]), child_height(n.child[1]));
    const std::int32_t parent = n.parent;
    const Aabb box = combine(n.box[0], n.box[1]);
    const std::uint64_t category = n.category[0] | n.category[1];
    if (parent == kNullNode) {
      n.height = height;
      return;
    }
    const int slot = slot_in_parent(node);
    Node& up = nodes_[std::size_t(parent)];
    if (height == n.height && up.box[slot] == box && up.category[slot] == category) return;
    n.height = height;
    up.box[slot] = box;
    up.category[slot] = category;
    node = parent;
  }
}

// Swaps a child of node with a grandchild on the other side when that shrinks the perimeter of
// the box that changes (the other child's): the best of the four such swaps, if any reduces it.
void AabbTree::rotate(std::int32_t node) {
  Node& a = nodes_[std::size_t(node)];
  float best_gain = 0;
  int best_side = -1, best_grandslot = -1;
  for (int side = 0; side < 2; ++side) {
    // Swap child `side` with a grandchild under child 1 - side.
    const std::int32_t other = a.child[1 - side];
    if (is_leaf(other) || other == kEmptySlot) continue;
    const Node& o = nodes_[std::size_t(other)];
    const float before = perimeter(a.box[1 - side]);
    for (int g = 0; g < 2; ++g) {
      const float after = perimeter(combine(a.box[side], o.box[1 - g]));
      if (before - after > best_gain) {
        best_gain = before - after;
        best_side = side;
        best_grandslot = g;
      }
    }
  }
  if (best_side < 0) return;
  const std::int32_t other = a.child[1 - best_side];
  Node& o = nodes_[std::size_t(other)];
  const std::int32_t moved_down = a.child[best_side];
  const Aabb moved_down_box = a.box[best_side];
  const std::int32_t moved_up = o.child[best_grandslot];
  const Aabb moved_up_box = o.box[best_grandslot];
  set_child(node, best_side, moved_up, moved_up_box);
  set_child(other, best_grandslot, moved_down, moved_down_box);
  o.height = 1 + std::max(child_height(o.child[0]), child_height(o.child[1]));
  a.box[1 - best_side] = combine(o.box[0], o.box[1]);
  a.category[1 - best_side] = o.category[0] | o.category[1];
}

void AabbTree::set_category(ProxyId id, std::uint64_t category) {
  Proxy& p = proxies_[std::size_t(id)];
  p.category = category;
  std::int32_t node = p.node;
  nodes_[std::size_t(node)].category[p.slot] = category;
  // Up to where the union stops changing.
  for (std::int32_t parent = nodes_[std::size_t(node)].parent; parent != kNullNode;
       parent = nodes_[std::size_t(node)].parent) {
    const Node& n = nodes_[std::size_t(node)];
    std::uint64_t& slot = nodes_[std::size_t(parent)].category[slot_in_parent(node)];
    if (slot == (n.category[0] | n.category[1])) return;
    slot = n.category[0] | n.category[1];
    node = parent;
  }
}

Aabb AabbTree::bounds() const {
  if (root_ == kNullNode) return {};
  const Node& r = nodes_[std::size_t(root_)];
  return r.child[1] == kEmptySlot ? r.box[0] : combine(r.box[0], r.box[1]);
}

// ---------------------------------------------------------------------------------------------
// Rebuild.

namespace {

struct BuildItem {
  Aabb box;
  Position center;
  std::int32_t child;  // ~proxy
};

struct BuildTask {
  int begin, end, depth;
  std::int32_t parent;  // node to attach to, kNullNode for the root
  int slot;
};

// Index of the best split point in items[begin, end): items[begin, split) go left. Binned SAH on
// both axes of the centre bounds; median of the longer axis when the centres coincide or below
// kBuildDepthLimit.
int split_items(std::vector<BuildItem>& items, int begin, int end, int depth) {
  Position lo{kInfinity, kInfinity}, hi{-kInfinity, -kInfinity};
  for (int i = begin; i < end; ++i) {
    lo = min(lo, items[std::size_t(i)].center);
    hi = max(hi, items[std::size_t(i)].center);
  }
  const Vec2 span = hi - lo;
  const int count = end - begin;
  const auto median_split = [&](int axis) {
    const int mid = begin + count / 2;
    std::nth_element(items.begin() + begin, items.begin() + mid, items.begin() + end,
                     [axis](const BuildItem& a, const BuildItem& b) {
                       return axis == 0 ? a.center.x < b.center.x : a.center.y < b.center.y;
                     });
    return mid;
  };
  if (depth >= kBuildDepthLimit || !(std::max(span.x, span.y) > 0)) return median_split(span.y > span.x ? 1 : 0);

  float best_cost = kInfinity;
  int best_axis = -1, best_bin = -1;
  for (int axis = 0; axis < 2; ++axis) {
    const float extent = axis == 0 ? span.x : span.y;
    if (!(extent > 0)) continue;
    const auto origin = axis == 0 ? lo.x : lo.y;  // float, or double with PEBBLE_DOUBLE_POSITIONS
    const float scale = float(kBins) / extent;
    // Centres a denormal apart: kBins / extent overflows, and binning by it would convert an
    // infinite or NaN product to an int (undefined behaviour). Such a spread is no spread.
    if (!std::isfinite(scale)) continue;
    Aabb bin_box[kBins];
    int bin_count[kBins] = {};
    for (Aabb& b : bin_box) b = {{kInfinity, kInfinity}, {-kInfinity, -kInfinity}};
    for (int i = begin; i < end; ++i) {
      const BuildItem& item = items[std::size_t(i)];
      const auto c = axis == 0 ? item.center.x : item.center.y;
      const int bin = std::min(kBins - 1, int((c - origin) * scale));
      bin_box[bin] = combine(bin_box[bin], item.box);
      ++bin_count[bin];
    }
    // Cost of splitting after bin b: perimeter x count on each side.
    float right_cost[kBins];
    Aabb acc{{kInfinity, kInfinity}, {-kInfinity, -kInfinity}};
    int acc_count = 0;
    for (int b = kBins - 1; b > 0; --b) {
      acc = combine(acc, bin_box[b]);
      acc_count += bin_count[b];
      right_cost[b] = acc_count > 0 ? perimeter(acc) * float(acc_count) : 0;
    }
    acc = {{kInfinity, kInfinity}, {-kInfinity, -kInfinity}};
    acc_count = 0;
    for (int b = 0; b + 1 < kBins; ++b) {
      acc = combine(acc, bin_box[b]);
      acc_count += bin_count[b];
      if (acc_count == 0 || acc_count == count) continue;
      const float cost = perimeter(acc) * float(acc_count) + right_cost[b + 1];
      if (cost < best_cost) {
        best_cost = cost;
        best_axis = axis;
        best_bin = b;
      }
    }
  }
  if (best_axis < 0) return median_split(span.y > span.x ? 1 : 0);
  const auto origin = best_axis == 0 ? lo.x : lo.y;
  const float scale = float(kBins) / (best_axis == 0 ? span.x : span.y);
  const auto mid = std::partition(items.begin() + begin, items.begin() + end, [&](const BuildItem& item) {
    const auto c = best_axis == 0 ? item.center.x : item.center.y;
    return std::min(kBins - 1, int((c - origin) * scale)) <= best_bin;
  });
  return int(mid - items.begin());
}

}  // namespace

void AabbTree::rebuild() {
  std::vector<BuildItem> items;
  items.reserve(std::size_t(proxy_count_));
  for (std::size_t i = 0; i < proxies_.size(); ++i) {
    const Proxy& p = proxies_[i];
    if (p.node == kFreeProxy) continue;
    const Aabb box = p.fat;
    items.push_back({box, center(box), ~std::int32_t(i)});
  }
  nodes_.clear();
  free_node_ = kNullNode;
  node_count_ = 0;
  root_ = kNullNode;
  if (items.empty()) return;
  nodes_.reserve(items.size());
  if (items.size() == 1) {
    root_ = allocate_node();
    set_child(root_, 0, items[0].child, items[0].box);
    return;
  }

  // Depth first, first child right after its parent: a query that goes left walks forward in
  // memory. Each task makes the node of one range and attaches it to its parent's slot.
  std::vector<BuildTask> tasks;
  tasks.push_back({0, int(items.size()), 0, kNullNode, 0});
  while (!tasks.empty()) {
    const BuildTask task = tasks.back();
    tasks.pop_back();
    const std::int32_t node = allocate_node();
    if (task.parent == kNullNode) {
      root_ = node;
    } else {
      nodes_[std::size_t(task.parent)].child[task.slot] = node;
      nodes_[std::size_t(node)].parent = task.parent;
    }
    const int split = split_items(items, task.begin, task.end, task.depth);
    const int ranges[2][2] = {{task.begin, split}, {split, task.end}};
    for (int slot = 1; slot >= 0; --slot) {
      const int b = ranges[slot][0], e = ranges[slot][1];
      Aabb box = items[std::size_t(b)].box;
      for (int i = b + 1; i < e; ++i) box = combine(box, items[std::size_t(i)].box);
      nodes_[std::size_t(node)].box[slot] = box;
      if (e - b == 1) {
        set_child(node, slot, items[std::size_t(b)].child, box);
      } else {
        tasks.push_back({b, e, task.depth + 1, node, slot});
      }
    }
  }
  // Pre-order allocation puts children after parents: heights and categories in reverse order.
  for (std::size_t i = nodes_.size(); i-- > 0;) {
    Node& n = nodes_[i];
    n.height = 1 + std::max(child_height(n.child[0]), child_height(n.child[1]));
    for (int k = 0; k < 2; ++k) n.category[k] = child_category(n.child[k]);
  }
}

// ---------------------------------------------------------------------------------------------
// Nearest neighbours.

namespace {

// (distance, id) order: nearer first, ties by id.
bool before(const TreeNeighbor& a, const TreeNeighbor& b) {
  return a.distance < b.distance || (a.distance == b.distance && a.id < b.id);
}

}  // namespace

int AabbTree::nearest(const Aabb& box, std::span<TreeNeighbor> out, float max_distance, std::uint64_t mask) const {
  if (out.empty() || !is_valid(box) || !(max_distance >= 0)) return 0;
  const int k = int(std::min<std::size_t>(out.size(), std::size_t(std::numeric_limits<int>::max())));
  int found = 0;
  visit_nearest(
      box, max_distance,
      [&](ProxyId id, float gap) {
        const TreeNeighbor candidate{id, gap};
        if (found == k && !before(candidate, out[std::size_t(k - 1)])) return out[std::size_t(k - 1)].distance;
        // Insertion into the sorted list (k is small).
        int at = found < k ? found++ : k - 1;
        while (at > 0 && before(candidate, out[std::size_t(at - 1)])) {
          out[std::size_t(at)] = out[std::size_t(at - 1)];
          --at;
        }
        out[std::size_t(at)] = candidate;
        return found < k ? max_distance : out[std::size_t(k - 1)].distance;
      },
      mask);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Validation and statistics.

// Returns the height of the subtree at node (or -1 when something is wrong) and counts proxies.
int AabbTree::validate_node(std::int32_t node, std::int32_t parent, int& proxies) const {
  if (node < 0 || std::size_t(node) >= nodes_.size()) return -1;
  const Node& n = nodes_[std::size_t(node)];
  if (n.parent != parent || n.height < 1) return -1;
  int height = 0;
  for (int k = 0; k < 2; ++k) {
    const std::int32_t c = n.child[k];
    if (n.category[k] != child_category(c)) return -1;
    if (c == kEmptySlot) {
      // Only the root, holding one proxy, has an empty slot (its second).
      if (node != root_ || k != 1 || n.child[0] == kEmptySlot || !is_leaf(n.child[0])) return -1;
      if (!(n.box[1] == empty_box())) return -1;
      continue;
    }
    if (is_leaf(c)) {
      const ProxyId id = ~c;
      if (!is_proxy(id)) return -1;
      const Proxy& p = proxies_[std::size_t(id)];
      if (p.node != node || p.slot != k || !is_valid(n.box[k]) || !(p.fat == n.box[k])) return -1;
      ++proxies;
    } else {
      const int h = validate_node(c, node, proxies);
      if (h < 0) return -1;
      const Node& cn = nodes_[std::size_t(c)];
      // The slot's box is exactly the union of the child's two boxes (so it contains them).
      const Aabb below = cn.child[1] == kEmptySlot ? cn.box[0] : combine(cn.box[0], cn.box[1]);
      if (!(n.box[k] == below) || !contains(n.box[k], cn.box[0])) return -1;
      height = std::max(height, h);
    }
  }
  if (n.height != 1 + height) return -1;
  return n.height;
}

bool AabbTree::validate() const {
  int proxies = 0;
  int height = 0;
  if (root_ != kNullNode) {
    height = validate_node(root_, kNullNode, proxies);
    if (height < 0 || height > kMaxTreeHeight) return false;
  }
  if (proxies != proxy_count_) return false;
  // Free nodes: count them; every node is in use or free.
  int free_nodes = 0;
  for (std::int32_t f = free_node_; f != kNullNode; f = nodes_[std::size_t(f)].parent) {
    if (f < 0 || std::size_t(f) >= nodes_.size() || nodes_[std::size_t(f)].height != -1) return false;
    if (++free_nodes > int(nodes_.size())) return false;
  }
  if (free_nodes + node_count_ != int(nodes_.size())) return false;
  const int expected_nodes = proxy_count_ == 0 ? 0 : std::max(1, proxy_count_ - 1);
  if (node_count_ != expected_nodes) return false;
  int free_proxies = 0;
  for (ProxyId f = free_proxy_; f != kNullProxy; f = proxies_[std::size_t(f)].slot) {
    if (f < 0 || std::size_t(f) >= proxies_.size() || proxies_[std::size_t(f)].node != kFreeProxy) return false;
    if (++free_proxies > int(proxies_.size())) return false;
  }
  if (free_proxies + proxy_count_ != int(proxies_.size())) return false;
  for (std::size_t i = 0; i < moved_.size(); ++i) {
    const ProxyId id = moved_[i];
    if (!is_proxy(id) || proxies_[std::size_t(id)].move_index != std::int32_t(i)) return false;
  }
  for (std::size_t i = 0; i < proxies_.size(); ++i) {
    const Proxy& p = proxies_[i];
    if (p.node != kFreeProxy && p.move_index >= 0 &&
        (std::size_t(p.move_index) >= moved_.size() || moved_[std::size_t(p.move_index)] != ProxyId(i)))
      return false;
  }
  return true;
}

TreeStats AabbTree::stats() const {
  TreeStats s;
  s.proxy_count = proxy_count_;
  s.node_count = node_count_;
  s.memory_bytes =
      nodes_.capacity() * sizeof(Node) + proxies_.capacity() * sizeof(Proxy) + moved_.capacity() * sizeof(ProxyId);
  if (root_ == kNullNode) return s;
  s.height = nodes_[std::size_t(root_)].height;
  const float root_area = perimeter(bounds());
  double total = 0;
  for (const Node& n : nodes_) {
    if (n.height < 1) continue;  // free
    for (int k = 0; k < 2; ++k)
      if (n.child[k] != kEmptySlot) total += double(perimeter(n.box[k]));
    s.max_balance = std::max(s.max_balance, std::abs(child_height(n.child[0]) - child_height(n.child[1])));
  }
  total += double(root_area);
  s.area_ratio = root_area > 0 ? float(total / double(root_area)) : 0;
  return s;
}

}  // namespace pebble
