// Reading scene files: nlohmann-json parses, then a Reader walks the document with the JSON
// pointer of every value in hand, so each complaint says exactly where it is and what was expected.
#include "tools/scene_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <pebble/chain.hpp>
#include <pebble/decompose.hpp>
#include <pebble/heightfield.hpp>

namespace pebble::tools {
namespace {

using json = nlohmann::json;

/// The query names, in the order of docs/scene-format.md; index = variant index of Query.
const std::vector<std::string_view> kQueryNames = {
    "collide", "distance",   "overlap",        "project_point",    "contains",       "mass",         "bounds",
    "raycast", "shape_cast", "time_of_impact", "closest_approach", "world_contacts", "world_raycast"};
static_assert(std::variant_size_v<Query> == 13, "kQueryNames lists one name per Query alternative");

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (const std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

/// How a value looks, for "expected X, got Y".
std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case json::value_t::string: {
      std::string s = v.get<std::string>();
      if (s.size() > 40) s = s.substr(0, 40) + "...";
      return "the string \"" + s + "\"";
    }
    case json::value_t::array:
      return "an array of " + std::to_string(v.size());
    case json::value_t::object:
      return "an object";
    default:
      return v.dump();
  }
}

/// Walks a parsed document; every accessor takes the value's JSON pointer for its messages.
class Reader {
public:
  explicit Reader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const {
    throw InputError(source_ + ": " + (pointer.empty() ? std::string("(document)") : pointer) + ": " + what);
  }

  void expect_object(const json& v, const std::string& pointer, const char* what) const {
    if (!v.is_object()) fail(pointer, std::string("expected ") + what + " (a JSON object), got " + describe(v));
  }

  /// Complains about keys outside `allowed` (a typo would otherwise silently take a default).
  /// "comment" is allowed everywhere, since JSON has no comments.
  void only_keys(const json& obj, const std::string& pointer, std::initializer_list<std::string_view> allowed) const {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string& key = it.key();
      if (key == "comment" || std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
      std::vector<std::string_view> names(allowed);
      fail(pointer + "/" + escape(key), "unknown field \"" + key + "\" (expected one of: " + join(names) + ")");
    }
  }

  const json& required(const json& obj, const std::string& pointer, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail(pointer, std::string("missing field \"") + key + "\"");
    return *it;
  }

  float number(const json& v, const std::string& pointer) const {
    if (!v.is_number()) fail(pointer, "expected a number, got " + describe(v));
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::fabs(d) > FLT_MAX)
      fail(pointer, "expected a number within float range, got " + v.dump());
    return static_cast<float>(d);
  }
  float number(const json& obj, const std::string& pointer, const char* key) const {
    return number(required(obj, pointer, key), pointer + "/" + key);
  }
  float number_or(const json& obj, const std::string& pointer, const char* key, float fallback) const {
    return obj.contains(key) ? number(obj[key], pointer + "/" + key) : fallback;
  }

  /// An optional number that must be >= 0 (a margin, a radius, a density...); `what` names it.
  float non_negative_or(const json& obj, const std::string& pointer, const char* key, float fallback,
                        const char* what) const {
    const float v = number_or(obj, pointer, key, fallback);
    if (v < 0) fail(pointer + "/" + key, std::string("expected ") + what + " >= 0, got " + obj[key].dump());
    return v;
  }

  Vec2 vec2(const json& v, const std::string& pointer) const {
    if (!v.is_array() || v.size() != 2) fail(pointer, "expected a point [x, y], got " + describe(v));
    return {number(v[0], pointer + "/0"), number(v[1], pointer + "/1")};
  }
  Vec2 vec2(const json& obj, const std::string& pointer, const char* key) const {
    return vec2(required(obj, pointer, key), pointer + "/" + key);
  }
  Vec2 vec2_or(const json& obj, const std::string& pointer, const char* key, Vec2 fallback) const {
    return obj.contains(key) ? vec2(obj[key], pointer + "/" + key) : fallback;
  }

  std::string string(const json& obj, const std::string& pointer, const char* key) const {
    const json& v = required(obj, pointer, key);
    if (!v.is_string()) fail(pointer + "/" + key, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }

  /// RFC 6901: "~" and "/" in a key are written "~0" and "~1" in a pointer.
  static std::string escape(const std::string& key) {
    std::string out;
    for (const char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return out;
  }

private:
  const std::string& source_;
};

Shape read_shape(const Reader& r, const json& v, const std::string& pointer, std::string& kind) {
  r.expect_object(v, pointer, "a shape");
  kind = r.string(v, pointer, "type");
  try {
    if (kind == "circle") {
      r.only_keys(v, pointer, {"type", "radius", "center"});
      return Shape::circle(r.number(v, pointer, "radius"), r.vec2_or(v, pointer, "center", {}));
    }
    if (kind == "capsule") {
      r.only_keys(v, pointer, {"type", "a", "b", "radius"});
      return Shape::capsule(r.vec2(v, pointer, "a"), r.vec2(v, pointer, "b"), r.number(v, pointer, "radius"));
    }
    if (kind == "segment") {
      r.only_keys(v, pointer, {"type", "a", "b"});
      return Shape::segment(r.vec2(v, pointer, "a"), r.vec2(v, pointer, "b"));
    }
    if (kind == "box") {
      r.only_keys(v, pointer, {"type", "half_width", "half_height"});
      return Shape::box(r.number(v, pointer, "half_width"), r.number(v, pointer, "half_height"));
    }
    if (kind == "rounded_box") {
      r.only_keys(v, pointer, {"type", "half_width", "half_height", "corner_radius"});
      return Shape::rounded_box(r.number(v, pointer, "half_width"), r.number(v, pointer, "half_height"),
                                r.number(v, pointer, "corner_radius"));
    }
    if (kind == "polygon") {
      r.only_keys(v, pointer, {"type", "points", "radius"});
      const json& points = r.required(v, pointer, "points");
      if (!points.is_array() || points.empty())
        r.fail(pointer + "/points", "expected a non-empty array of points [[x, y], ...], got " + describe(points));
      std::vector<Vec2> pts;
      for (size_t i = 0; i < points.size(); ++i)
        pts.push_back(r.vec2(points[i], pointer + "/points/" + std::to_string(i)));
      return Shape::polygon(pts, r.number_or(v, pointer, "radius", 0));
    }
  } catch (const InvalidShape& e) {
    r.fail(pointer, std::string("invalid ") + kind + ": " + e.what());
  }
  r.fail(pointer + "/type",
         "unknown shape type \"" + kind + "\" (expected one of: circle, capsule, segment, box, rounded_box, polygon)");
}

class SceneReader {
public:
  SceneReader(const Reader& r, Scene& scene) : r_(r), scene_(scene) {}

  void objects(const json& list, const std::string& pointer) {
    if (!list.is_array()) r_.fail(pointer, "expected an array of objects, got " + describe(list));
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string p = pointer + "/" + std::to_string(i);
      const json& v = list[i];
      r_.expect_object(v, p, "an object {\"name\", \"shape\", \"position\", \"angle\"}");
      r_.only_keys(v, p, {"name", "shape", "position", "angle"});
      SceneObject o;
      o.name = r_.string(v, p, "name");
      if (o.name.empty()) r_.fail(p + "/name", "expected a non-empty name");
      if (find(o.name) >= 0) r_.fail(p + "/name", "a second object named \"" + o.name + "\" (names must be unique)");
      read_object_shape(r_.required(v, p, "shape"), p + "/shape", o);
      o.angle = r_.number_or(v, p, "angle", 0);
      o.xf = {r_.vec2_or(v, p, "position", {}), Rot::from_angle(o.angle)};
      scene_.objects.push_back(o);
    }
  }

  void queries(const json& list, const std::string& pointer) {
    if (!list.is_array()) r_.fail(pointer, "expected an array of queries, got " + describe(list));
    for (size_t i = 0; i < list.size(); ++i)
      scene_.queries.push_back(query(list[i], pointer + "/" + std::to_string(i)));
  }

private:
  // A point list of at least `least` points.
  std::vector<Vec2> points(const json& v, const std::string& pointer, std::size_t least) const {
    const json& list = r_.required(v, pointer, "points");
    if (!list.is_array() || list.size() < least)
      r_.fail(pointer + "/points", "expected an array of at least " + std::to_string(least) +
                                       " points [[x, y], ...], got " + describe(list));
    std::vector<Vec2> out;
    for (size_t i = 0; i < list.size(); ++i) out.push_back(r_.vec2(list[i], pointer + "/points/" + std::to_string(i)));
    return out;
  }

  static bool several_parts(const json& type) {
    const std::string t = type.get<std::string>();
    return t == "chain" || t == "loop" || t == "concave" || t == "compound" || t == "heightfield";
  }

  // One convex shape, or the kinds of several parts: chain, loop, concave, compound, heightfield.
  void read_object_shape(const json& v, const std::string& pointer, SceneObject& o) const {
    r_.expect_object(v, pointer, "a shape");
    const std::string type = r_.string(v, pointer, "type");
    try {
      if (type == "chain" || type == "loop") {
        r_.only_keys(v, pointer, {"type", "points"});
        const std::vector<Vec2> pts = points(v, pointer, type == "chain" ? 2 : 3);
        o.chain = type == "chain" ? Chain::open(pts) : Chain::loop(pts);
        for (const ChainSegment& s : o.chain->segments()) o.parts.push_back(s.shape);
      } else if (type == "heightfield") {
        r_.only_keys(v, pointer, {"type", "heights", "spacing"});
        const json& list = r_.required(v, pointer, "heights");
        if (!list.is_array() || list.size() < 2)
          r_.fail(pointer + "/heights", "expected an array of at least 2 heights [y0, y1, ...], got " + describe(list));
        std::vector<float> heights;
        for (size_t i = 0; i < list.size(); ++i)
          heights.push_back(r_.number(list[i], pointer + "/heights/" + std::to_string(i)));
        o.heightfield = Heightfield::make(heights, r_.number(v, pointer, "spacing"));
        for (const ChainSegment& s : o.heightfield->cells()) o.parts.push_back(s.shape);
      } else if (type == "concave") {
        r_.only_keys(v, pointer, {"type", "points", "radius"});
        o.parts = decompose(points(v, pointer, 3), r_.number_or(v, pointer, "radius", 0));
      } else if (type == "compound") {
        r_.only_keys(v, pointer, {"type", "parts"});
        const json& list = r_.required(v, pointer, "parts");
        if (!list.is_array() || list.empty())
          r_.fail(pointer + "/parts", "expected a non-empty array of convex shapes, got " + describe(list));
        for (size_t i = 0; i < list.size(); ++i) {
          const std::string part = pointer + "/parts/" + std::to_string(i);
          // Said outright: "unknown shape type" would puzzle someone who just used the kind above.
          if (list[i].is_object() && list[i].contains("type") && list[i]["type"].is_string() &&
              several_parts(list[i]["type"]))
            r_.fail(
                part + "/type",
                "a compound's parts are convex shapes (circle, capsule, segment, box, rounded_box, polygon), not a " +
                    list[i]["type"].get<std::string>());
          std::string kind;
          o.parts.push_back(read_shape(r_, list[i], part, kind));
        }
      } else {
        static const std::vector<std::string_view> convex = {"circle", "capsule",     "segment",
                                                             "box",    "rounded_box", "polygon"};
        if (std::find(convex.begin(), convex.end(), type) == convex.end())
          r_.fail(pointer + "/type", "unknown shape type \"" + type +
                                         "\" (expected one of: circle, capsule, segment, box, rounded_box, polygon, "
                                         "chain, loop, concave, compound, heightfield)");
        o.shape = read_shape(r_, v, pointer, o.kind);
        return;
      }
    } catch (const InvalidShape& e) {
      r_.fail(pointer, "invalid " + type + ": " + e.what());
    }
    o.kind = type;
    o.shape = o.parts.front();
  }

  int find(const std::string& name) const {
    for (size_t i = 0; i < scene_.objects.size(); ++i)
      if (scene_.objects[i].name == name) return static_cast<int>(i);
    return -1;
  }

  int object(const json& q, const std::string& pointer, const char* key) const {
    const std::string name = r_.string(q, pointer, key);
    const int index = find(name);
    if (index < 0) {
      std::vector<std::string_view> names;
      for (const SceneObject& o : scene_.objects) names.push_back(o.name);
      r_.fail(pointer + "/" + key,
              "no object named \"" + name + "\" (objects: " + (names.empty() ? "none" : join(names)) + ")");
    }
    return index;
  }

  // An object a query of one convex shape may name. The pair queries answer for one convex shape
  // each side; a chain or compound would need one answer per part, which would change their
  // output, so they refuse it and the message points at the world queries, which take every kind.
  int convex_object(const json& q, const std::string& pointer, const char* key) const {
    const int index = object(q, pointer, key);
    const SceneObject& o = scene_.objects[static_cast<size_t>(index)];
    if (!o.convex())
      r_.fail(pointer + "/" + key, q.at("type").get<std::string>() + " takes objects of one convex shape, and \"" +
                                       o.name + "\" is " + (o.kind == "concave" ? "a concave polygon" : "a " + o.kind) +
                                       " (world_contacts and world_raycast take every kind)");
    return index;
  }

  Query query(const json& q, const std::string& p) const {
    r_.expect_object(q, p, "a query {\"type\", ...}");
    const std::string type = r_.string(q, p, "type");
    if (type == "collide") {
      r_.only_keys(q, p, {"type", "a", "b", "margin"});
      return CollideQuery{convex_object(q, p, "a"), convex_object(q, p, "b"), r_.number_or(q, p, "margin", 0)};
    }
    if (type == "distance") {
      r_.only_keys(q, p, {"type", "a", "b"});
      return DistanceQuery{convex_object(q, p, "a"), convex_object(q, p, "b")};
    }
    if (type == "overlap") {
      r_.only_keys(q, p, {"type", "a", "b"});
      return OverlapQuery{convex_object(q, p, "a"), convex_object(q, p, "b")};
    }
    if (type == "project_point") {
      r_.only_keys(q, p, {"type", "object", "point"});
      return ProjectPointQuery{convex_object(q, p, "object"), r_.vec2(q, p, "point")};
    }
    if (type == "contains") {
      r_.only_keys(q, p, {"type", "object", "point"});
      return ContainsQuery{convex_object(q, p, "object"), r_.vec2(q, p, "point")};
    }
    if (type == "mass") {
      r_.only_keys(q, p, {"type", "object", "density"});
      const float density = r_.non_negative_or(q, p, "density", 1, "a density");
      const int index = object(q, p, "object");
      const SceneObject& o = scene_.objects[static_cast<size_t>(index)];
      if (o.chain || o.heightfield)
        r_.fail(p + "/object", "\"" + o.name + "\" is a " + (o.heightfield ? "heightfield" : "chain") +
                                   ", which has no area and no mass");
      return MassQuery{index, density};
    }
    if (type == "bounds") {
      r_.only_keys(q, p, {"type", "object"});
      return BoundsQuery{convex_object(q, p, "object")};
    }
    if (type == "raycast") {
      r_.only_keys(q, p, {"type", "object", "origin", "translation", "radius"});
      const float radius = r_.non_negative_or(q, p, "radius", 0, "a radius");
      return RaycastQuery{convex_object(q, p, "object"), Ray{r_.vec2(q, p, "origin"), r_.vec2(q, p, "translation")},
                          radius};
    }
    if (type == "shape_cast") {
      r_.only_keys(q, p, {"type", "a", "b", "translation_a", "translation_b", "target_separation"});
      const float target = r_.non_negative_or(q, p, "target_separation", 0, "a separation");
      return ShapeCastQuery{convex_object(q, p, "a"), convex_object(q, p, "b"), r_.vec2_or(q, p, "translation_a", {}),
                            r_.vec2_or(q, p, "translation_b", {}), target};
    }
    if (type == "time_of_impact") {
      r_.only_keys(q, p, {"type", "a", "b", "a_to", "b_to", "t_max", "target_separation"});
      const int a = convex_object(q, p, "a"), b = convex_object(q, p, "b");
      const float t_max = r_.number_or(q, p, "t_max", 1);
      if (!(t_max >= 0 && t_max <= 1)) r_.fail(p + "/t_max", "expected a time in [0, 1], got " + q["t_max"].dump());
      const float target = r_.non_negative_or(q, p, "target_separation", 0, "a separation");
      return ToiQuery{a, b, pose(q, p, "a_to", a), pose(q, p, "b_to", b), t_max, target};
    }
    if (type == "closest_approach") {
      r_.only_keys(q, p, {"type", "a", "b", "velocity_a", "velocity_b", "horizon"});
      const float horizon = r_.non_negative_or(q, p, "horizon", 1, "a time");
      return ApproachQuery{convex_object(q, p, "a"), convex_object(q, p, "b"), r_.vec2_or(q, p, "velocity_a", {}),
                           r_.vec2_or(q, p, "velocity_b", {}), horizon};
    }
    if (type == "world_contacts") {
      r_.only_keys(q, p, {"type", "margin"});
      const float margin = r_.non_negative_or(q, p, "margin", kDefaultContactMargin, "a margin");
      return WorldContactsQuery{margin};
    }
    if (type == "world_raycast") {
      r_.only_keys(q, p, {"type", "origin", "translation", "radius", "all"});
      const float radius = r_.non_negative_or(q, p, "radius", 0, "a radius");
      const json all = q.contains("all") ? q["all"] : json(false);
      if (!all.is_boolean()) r_.fail(p + "/all", "expected true or false, got " + describe(all));
      return WorldRaycastQuery{Ray{r_.vec2(q, p, "origin"), r_.vec2(q, p, "translation")}, radius, all.get<bool>()};
    }
    r_.fail(p + "/type", "unknown query \"" + type + "\" (expected one of: " + join(kQueryNames) + ")");
  }

  /// {"position": [x, y], "angle": a}: where object `index` ends; an omitted field keeps its start.
  Pose pose(const json& q, const std::string& pointer, const char* key, int index) const {
    const SceneObject& o = scene_.objects[static_cast<size_t>(index)];
    if (!q.contains(key)) return {o.xf.p, o.angle};
    const std::string p = pointer + "/" + key;
    const json& v = q[key];
    r_.expect_object(v, p, "a pose {\"position\": [x, y], \"angle\": radians}");
    r_.only_keys(v, p, {"position", "angle"});
    return {r_.vec2_or(v, p, "position", o.xf.p), r_.number_or(v, p, "angle", o.angle)};
  }

  const Reader& r_;
  Scene& scene_;
};

/// Line and column (1-based) of byte offset `byte` in text.
std::pair<size_t, size_t> line_column(std::string_view text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

}  // namespace

std::string_view query_name(const Query& query) { return kQueryNames[query.index()]; }

const std::vector<std::string_view>& query_names() { return kQueryNames; }

Scene parse_scene(std::string_view text, const std::string& source) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // nlohmann's byte is one past the offending character (1-based); the message starts with its
    // own location, which we replace with file:line:column.
    const auto [line, column] = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string what = e.what();
    const size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": malformed JSON: " + what);
  }
  const Reader r(source);
  r.expect_object(doc, "", "a scene {\"objects\": [...], \"queries\": [...]}");
  r.only_keys(doc, "", {"objects", "queries"});
  Scene scene;
  SceneReader reader(r, scene);
  reader.objects(r.required(doc, "", "objects"), "/objects");
  if (doc.contains("queries")) reader.queries(doc["queries"], "/queries");
  return scene;
}

Scene load_scene(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": expected a scene file, got a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open the scene file (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read the scene file");
  return parse_scene(text.str(), path);
}

}  // namespace pebble::tools
