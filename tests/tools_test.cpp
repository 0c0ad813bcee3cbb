// The `pebble` program end to end: each subcommand run as a user would (--help, --version, query
// answers against values worked out by hand, render and demo pictures read back), every kind of bad
// input (exit code 2, a message naming the file and the place, nothing written), and the scene
// reader's error positions in process.
#include <gtest/gtest.h>

#include <pebble/pebble.hpp>

#include <cairo.h>
#include <gif_lib.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "oracle/distance.hpp"
#include "to_oracle.hpp"
#include "tools/crowd_demo.hpp"
#include "tools/query.hpp"
#include "tools/scene_file.hpp"

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

struct Outcome {
  int code;
  std::string out, err;
};

/// A fresh folder for one test, removed afterwards.
class ToolsTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("pebble_tools_test_" + std::to_string(getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }

  static std::string read(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }

  /// Runs `pebble args`, capturing both streams.
  Outcome run(const std::string& args) const {
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    const std::string command = std::string("'") + PEBBLE_CLI + "' " + args + " >'" + out + "' 2>'" + err + "'";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read(out), read(err)};
  }

  fs::path dir_;
};

/// Equal structure, keys in the same order, numbers within tol.
::testing::AssertionResult same_json(const json& got, const json& want, double tol, const std::string& at = "") {
  if (want.is_number() && got.is_number()) {
    if (std::fabs(got.get<double>() - want.get<double>()) <= tol) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << at << ": got " << got.dump() << ", want " << want.dump();
  }
  if (got.type() != want.type())
    return ::testing::AssertionFailure() << at << ": got " << got.dump() << ", want " << want.dump();
  if (want.is_object()) {
    if (got.size() != want.size())
      return ::testing::AssertionFailure() << at << ": got " << got.dump() << ", want " << want.dump();
    auto g = got.begin();
    for (auto w = want.begin(); w != want.end(); ++w, ++g) {
      if (g.key() != w.key()) return ::testing::AssertionFailure() << at << ": key " << g.key() << ", want " << w.key();
      if (auto r = same_json(g.value(), w.value(), tol, at + "/" + w.key()); !r) return r;
    }
    return ::testing::AssertionSuccess();
  }
  if (want.is_array()) {
    if (got.size() != want.size())
      return ::testing::AssertionFailure() << at << ": got " << got.dump() << ", want " << want.dump();
    for (size_t i = 0; i < want.size(); ++i)
      if (auto r = same_json(got[i], want[i], tol, at + "/" + std::to_string(i)); !r) return r;
    return ::testing::AssertionSuccess();
  }
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << at << ": got " << got.dump() << ", want " << want.dump();
}

/// A box 2 x 1 at the origin, a ball of radius 0.5 sinking 0.1 into its top face, every query.
const char* kScene = R"({
  "objects": [
    {"name": "box", "shape": {"type": "box", "half_width": 1, "half_height": 0.5}},
    {"name": "ball", "shape": {"type": "circle", "radius": 0.5}, "position": [0, 0.9], "angle": 0.25},
    {"name": "probe", "shape": {"type": "circle", "radius": 0.25}, "position": [3, 0]}
  ],
  "queries": [
    {"type": "collide", "a": "box", "b": "ball", "margin": 0.01},
    {"type": "distance", "a": "box", "b": "ball"},
    {"type": "overlap", "a": "box", "b": "ball"},
    {"type": "project_point", "object": "box", "point": [2, 0]},
    {"type": "contains", "object": "box", "point": [0.5, 0.2]},
    {"type": "mass", "object": "box", "density": 2},
    {"type": "bounds", "object": "ball"},
    {"type": "raycast", "object": "box", "origin": [-3, 0], "translation": [4, 0]},
    {"type": "raycast", "object": "box", "origin": [-3, 0], "translation": [4, 0], "radius": 0.5},
    {"type": "raycast", "object": "box", "origin": [-3, 2], "translation": [4, 0]},
    {"type": "shape_cast", "a": "probe", "translation_a": [-4, 0], "b": "box"},
    {"type": "shape_cast", "a": "probe", "translation_a": [-4, 0], "b": "box", "target_separation": 0.1},
    {"type": "world_contacts", "margin": 0.01},
    {"type": "world_raycast", "origin": [-3, 0.45], "translation": [4, 0]},
    {"type": "world_raycast", "origin": [-3, 0.45], "translation": [4, 0], "all": true},
    {"type": "world_raycast", "origin": [-3, 3], "translation": [4, 0], "radius": 0.2}
  ]
})";

// The answers worked out by hand: the box's top face is y = 0.5, the ball's bottom y = 0.4; the
// rays along y = 0 meet the box's left face x = -1 (the circle of radius 0.5 when its centre is at
// x = -1.5); the ray along y = 2 passes above it. In the world, the ray along y = 0.45 meets the
// box's face x = -1, then the ball where x^2 + 0.45^2 = 0.5^2 (x = -sqrt(0.0475)); the circle cast
// along y = 3 meets nothing. The probe (radius 0.25) moving from x = 3 by -4 touches the box's
// face x = 1 when its centre is at 1.25 (fraction 1.75 / 4), and is 0.1 away at 1.35.
const char* kExpected = R"({"results": [
  {"type": "collide", "a": "box", "b": "ball", "margin": 0.01,
   "result": {"count": 1, "normal": [0, 1], "points": [{"point": [0, 0.45], "separation": -0.1, "id": "ID"}]}},
  {"type": "distance", "a": "box", "b": "ball",
   "result": {"distance": -0.1, "normal": [0, 1], "point_a": [0, 0.5], "point_b": [0, 0.4]}},
  {"type": "overlap", "a": "box", "b": "ball", "result": {"overlap": true}},
  {"type": "project_point", "object": "box", "point": [2, 0],
   "result": {"closest": [1, 0], "normal": [1, 0], "distance": 1, "inside": false}},
  {"type": "contains", "object": "box", "point": [0.5, 0.2], "result": {"inside": true}},
  {"type": "mass", "object": "box", "density": 2, "result": {"mass": 4, "center": [0, 0], "inertia": 1.6666667}},
  {"type": "bounds", "object": "ball", "result": {"lower": [-0.5, 0.4], "upper": [0.5, 1.4]}},
  {"type": "raycast", "object": "box", "origin": [-3, 0], "translation": [4, 0], "radius": 0,
   "result": {"hit": true, "fraction": 0.5, "point": [-1, 0], "normal": [-1, 0]}},
  {"type": "raycast", "object": "box", "origin": [-3, 0], "translation": [4, 0], "radius": 0.5,
   "result": {"hit": true, "fraction": 0.375, "point": [-1, 0], "normal": [-1, 0]}},
  {"type": "raycast", "object": "box", "origin": [-3, 2], "translation": [4, 0], "radius": 0,
   "result": {"hit": false, "fraction": 1, "point": [0, 0], "normal": [0, 0]}},
  {"type": "shape_cast", "a": "probe", "translation_a": [-4, 0], "b": "box", "translation_b": [0, 0], "target_separation": 0,
   "result": {"hit": true, "fraction": 0.4375, "point": [1, 0], "normal": [-1, 0]}},
  {"type": "shape_cast", "a": "probe", "translation_a": [-4, 0], "b": "box", "translation_b": [0, 0], "target_separation": 0.1,
   "result": {"hit": true, "fraction": 0.4125, "point": [1.05, 0], "normal": [-1, 0]}},
  {"type": "world_contacts", "margin": 0.01, "result": {"pairs": [
    {"a": "box", "b": "ball", "count": 1, "normal": [0, 1], "points": [{"point": [0, 0.45], "separation": -0.1, "id": "ID"}]}]}},
  {"type": "world_raycast", "origin": [-3, 0.45], "translation": [4, 0], "radius": 0, "all": false, "result": {"hits": [
    {"object": "box", "hit": true, "fraction": 0.5, "point": [-1, 0.45], "normal": [-1, 0]}]}},
  {"type": "world_raycast", "origin": [-3, 0.45], "translation": [4, 0], "radius": 0, "all": true, "result": {"hits": [
    {"object": "box", "hit": true, "fraction": 0.5, "point": [-1, 0.45], "normal": [-1, 0]},
    {"object": "ball", "hit": true, "fraction": 0.69551377, "point": [-0.21794495, 0.45], "normal": [-0.43588989, -0.9]}]}},
  {"type": "world_raycast", "origin": [-3, 3], "translation": [4, 0], "radius": 0.2, "all": false, "result": {"hits": []}}
]})";

json expected_results(const json& got) {
  json want = json::parse(kExpected);
  // The feature id is whatever collide() says; its format is checked on its own.
  want["results"][0]["result"]["points"][0]["id"] = got["results"][0]["result"]["points"][0]["id"];
  want["results"][12]["result"]["pairs"][0]["points"][0]["id"] = got["results"][0]["result"]["points"][0]["id"];
  return want;
}

/// The pixels of a PNG that differ from its top-left one (the background); -1 if it does not
/// read. width and height receive its size.
long ink_pixels(const std::string& file, int& width, int& height) {
  cairo_surface_t* png = cairo_image_surface_create_from_png(file.c_str());
  width = height = 0;
  if (cairo_surface_status(png) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(png);
    return -1;
  }
  width = cairo_image_surface_get_width(png);
  height = cairo_image_surface_get_height(png);
  const unsigned char* data = cairo_image_surface_get_data(png);
  const int stride = cairo_image_surface_get_stride(png);
  const uint32_t background = reinterpret_cast<const uint32_t*>(data)[0];
  long ink = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) ink += reinterpret_cast<const uint32_t*>(data + y * stride)[x] != background;
  cairo_surface_destroy(png);
  return ink;
}

}  // namespace

TEST_F(ToolsTest, VersionAndHelpOnEverySubcommand) {
  Outcome r = run("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, std::string("pebble ") + PEBBLE_VERSION + "\n");
  r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* word : {"demo", "query", "render", "mover", "crowd", "replay", "--version"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  r = run("demo --help");
  EXPECT_EQ(r.code, 0);
  for (const char* word : {"--shapes", "--seed", "--steps", "--output", "--no-progress"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  r = run("query --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--output"), std::string::npos);
  r = run("render --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("--output"), std::string::npos);
  EXPECT_NE(r.out.find("--width"), std::string::npos);
}

TEST_F(ToolsTest, QueryAnswersMatchHandWorkedValues) {
  const Outcome r = run("query '" + write("scene.json", kScene) + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json got = json::parse(r.out);
  EXPECT_TRUE(same_json(got, expected_results(got), 1e-6));
  const std::string id = got["results"][0]["result"]["points"][0]["id"];
  EXPECT_EQ(id.size(), 10u);
  EXPECT_EQ(id.substr(0, 2), "0x");
  // Floats print with the fewest digits that read back the same: 0.45f is "0.45".
  EXPECT_NE(r.out.find("\"point\": [0, 0.45]"), std::string::npos) << r.out;
}

// Motions worked out by hand. A bar (half extents 1 x 0.05) turning a quarter turn about its
// centre (5, 0) meets a pin of radius 0.1 at (5, 0.8) when its top face is 0.1 from the pin's
// centre: 0.8 cos(a) - 0.05 = 0.1, a = acos(0.1875), at that fraction of the quarter turn. A
// probe translating onto the box is a shape cast (fraction 0.4375). Two discs of radius 0.25
// passing each other at (1, 0) and (-1, 0) per second, 0.8 apart across: closest at t = 2,
// distance 0.3; 0.3 apart across: touching when their centres are 0.5 apart, at t = 1.8.
TEST_F(ToolsTest, TimeOfImpactAndClosestApproach) {
  const char* scene = R"({
    "objects": [
      {"name": "box", "shape": {"type": "box", "half_width": 1, "half_height": 0.5}},
      {"name": "probe", "shape": {"type": "circle", "radius": 0.25}, "position": [3, 0]},
      {"name": "bar", "shape": {"type": "box", "half_width": 1, "half_height": 0.05}, "position": [5, 0]},
      {"name": "pin", "shape": {"type": "circle", "radius": 0.1}, "position": [5, 0.8]},
      {"name": "left", "shape": {"type": "circle", "radius": 0.25}, "position": [0, -3]},
      {"name": "far", "shape": {"type": "circle", "radius": 0.25}, "position": [4, -2.2]},
      {"name": "near", "shape": {"type": "circle", "radius": 0.25}, "position": [4, -2.7]}
    ],
    "queries": [
      {"type": "time_of_impact", "a": "bar", "a_to": {"angle": 1.5707963}, "b": "pin"},
      {"type": "time_of_impact", "a": "probe", "a_to": {"position": [-1, 0]}, "b": "box"},
      {"type": "time_of_impact", "a": "probe", "a_to": {"position": [3, 3]}, "b": "box", "t_max": 0.5},
      {"type": "closest_approach", "a": "left", "velocity_a": [1, 0], "b": "far", "velocity_b": [-1, 0], "horizon": 3},
      {"type": "closest_approach", "a": "left", "velocity_a": [1, 0], "b": "near", "velocity_b": [-1, 0], "horizon": 3}
    ]
  })";
  const Outcome r = run("query '" + write("motion.json", scene) + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(r.out)["results"];
  // time_of_impact stops within its tolerance before the touch, never after it.
  EXPECT_TRUE(same_json(got[0]["result"], json::parse(R"({"state": "hit", "fraction": 0.87992308,
      "point": [5.0982265, 0.78125], "normal": [-0.98226460, 0.1875]})"),
                        2e-3));
  EXPECT_LE(got[0]["result"]["fraction"].get<double>(), 0.87992308 + 1e-6);
  EXPECT_TRUE(same_json(got[1]["result"],
                        json::parse(R"({"state": "hit", "fraction": 0.4375, "point": [1, 0], "normal": [-1, 0]})"),
                        1e-3));
  EXPECT_TRUE(same_json(got[2]["result"],
                        json::parse(R"({"state": "separated", "fraction": 0.5, "point": [0, 0], "normal": [0, 0]})"),
                        0));
  EXPECT_EQ(got[0]["a_to"], json::parse(R"({"position": [5, 0], "angle": 1.5707963})"));  // the omitted position stays
  EXPECT_TRUE(same_json(got[3]["result"], json::parse(R"({"hit": false, "time": 2, "distance": 0.3,
      "point_a": [2, -2.75], "point_b": [2, -2.45], "normal": [0, 1]})"),
                        1e-5));
  EXPECT_TRUE(same_json(got[4]["result"], json::parse(R"({"hit": true, "time": 1.8, "distance": 0,
      "point_a": [2, -2.85], "point_b": [2, -2.85], "normal": [0.8, 0.6]})"),
                        1e-5));

  const Outcome picture = run("render '" + path("motion.json") + "' -o '" + path("motion.png") + "'");
  ASSERT_EQ(picture.code, 0) << picture.err;
  int width = 0, height = 0;
  EXPECT_GT(ink_pixels(path("motion.png"), width, height), 10000);
}

TEST_F(ToolsTest, QueryWritesToAFileWithDashO) {
  const std::string out = path("answers.json");
  const Outcome r = run("query '" + write("scene.json", kScene) + "' -o '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const json got = json::parse(read(out));
  EXPECT_TRUE(same_json(got, expected_results(got), 1e-6));
}

TEST_F(ToolsTest, TheDocumentedExampleRuns) {
  const Outcome r = run(std::string("query '") + PEBBLE_SOURCE_DIR + "/tools/scenes/example.json'");
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(r.out);
  ASSERT_EQ(got["results"].size(), 12u);
  EXPECT_EQ(got["results"][0]["result"]["count"], 1);
  EXPECT_EQ(got["results"][4]["result"]["inside"], true);
  const Outcome motion = run(std::string("query '") + PEBBLE_SOURCE_DIR + "/tools/scenes/motion.json'");
  ASSERT_EQ(motion.code, 0) << motion.err;
  const json moved = json::parse(motion.out);
  ASSERT_EQ(moved["results"].size(), 3u);
  EXPECT_EQ(moved["results"][0]["result"]["state"], "hit");
  EXPECT_EQ(moved["results"][1]["result"]["hit"], true);
  EXPECT_EQ(moved["results"][2]["result"]["hit"], true);
}

// Terrain and composite objects: world_contacts and world_raycast on tools/scenes/terrain.json
// against every pair of parts and every part asked one by one (collide() and cast_ray() of a chain
// segment for chains, of the shape otherwise), with no world in between; an answer names the part
// exactly when its object has several.
TEST_F(ToolsTest, TerrainSceneNamesParts) {
  using pebble::tools::SceneObject;
  const std::string file = std::string(PEBBLE_SOURCE_DIR) + "/tools/scenes/terrain.json";
  const pebble::tools::Scene scene = pebble::tools::load_scene(file);
  const Outcome r = run("query '" + file + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(r.out);
  ASSERT_EQ(got["results"].size(), 4u);
  auto index = [&](const json& name) {
    for (size_t i = 0; i < scene.objects.size(); ++i)
      if (scene.objects[i].name == name.get<std::string>()) return static_cast<int>(i);
    ADD_FAILURE() << "no object " << name;
    return -1;
  };
  auto part_count = [&](int i) {
    return scene.objects[static_cast<size_t>(i)].convex() ? 1 : int(scene.objects[static_cast<size_t>(i)].parts.size());
  };
  auto part = [&](int i, int k) -> const pebble::Shape& {
    const SceneObject& o = scene.objects[static_cast<size_t>(i)];
    return o.convex() ? o.shape : o.parts[static_cast<size_t>(k)];
  };

  // Contacts: the pairs of parts of different objects that touch within the margin, a < b.
  struct Touch {
    int a, part_a, b, part_b;
    pebble::Manifold m;
  };
  const float margin = got["results"][0]["margin"].get<float>();
  std::vector<Touch> want;
  for (int a = 0; a < int(scene.objects.size()); ++a) {
    for (int b = a + 1; b < int(scene.objects.size()); ++b) {
      const SceneObject &oa = scene.objects[static_cast<size_t>(a)], &ob = scene.objects[static_cast<size_t>(b)];
      if (oa.chain && ob.chain) continue;  // terrain does not collide with terrain
      for (int i = 0; i < part_count(a); ++i) {
        for (int j = 0; j < part_count(b); ++j) {
          const pebble::Manifold m =
              oa.chain   ? pebble::collide(oa.chain->segment(i), oa.xf, part(b, j), ob.xf, margin)
              : ob.chain ? pebble::collide(ob.chain->segment(j), ob.xf, part(a, i), oa.xf, margin).flipped()
                         : pebble::collide(part(a, i), oa.xf, part(b, j), ob.xf, margin);
          if (m.count > 0) want.push_back({a, i, b, j, m});
        }
      }
    }
  }
  const json& pairs = got["results"][0]["result"]["pairs"];
  ASSERT_EQ(pairs.size(), want.size()) << pairs.dump();
  std::set<std::string> kinds_touching;
  for (const json& pair : pairs) {
    const int a = index(pair["a"]), b = index(pair["b"]);
    EXPECT_EQ(pair.contains("part_a"), !scene.objects[static_cast<size_t>(a)].convex()) << pair.dump();
    EXPECT_EQ(pair.contains("part_b"), !scene.objects[static_cast<size_t>(b)].convex()) << pair.dump();
    const int pa = pair.value("part_a", 0), pb = pair.value("part_b", 0);
    const auto it = std::find_if(want.begin(), want.end(), [&](const Touch& t) {
      return t.a == a && t.b == b && t.part_a == pa && t.part_b == pb;
    });
    ASSERT_NE(it, want.end()) << pair.dump();
    EXPECT_EQ(pair["count"], it->m.count) << pair.dump();
    EXPECT_NEAR(pair["normal"][0].get<float>(), it->m.normal.x, 1e-5f) << pair.dump();
    EXPECT_NEAR(pair["normal"][1].get<float>(), it->m.normal.y, 1e-5f) << pair.dump();
    kinds_touching.insert(scene.objects[static_cast<size_t>(a)].kind);
    kinds_touching.insert(scene.objects[static_cast<size_t>(b)].kind);
  }
  // The scene shows each kind in a contact.
  for (const char* kind : {"chain", "loop", "concave", "compound", "circle"})
    EXPECT_EQ(kinds_touching.count(kind), 1u) << kind;

  // Rays: every hit of every part by fraction, or the closest one. Chains are hit from their front only.
  auto hits_of = [&](const pebble::Ray& ray) {
    std::vector<std::tuple<float, int, int>> hits;  // fraction, object, part
    for (int o = 0; o < int(scene.objects.size()); ++o) {
      const SceneObject& obj = scene.objects[static_cast<size_t>(o)];
      for (int k = 0; k < part_count(o); ++k) {
        const pebble::CastResult h = obj.chain ? pebble::cast_ray(obj.chain->segment(k), obj.xf, ray)
                                               : pebble::cast_ray(part(o, k), obj.xf, ray);
        if (h.hit) hits.emplace_back(h.fraction, o, k);
      }
    }
    std::sort(hits.begin(), hits.end());
    return hits;
  };
  for (const size_t q : {1u, 2u}) {
    const json& query = got["results"][q];
    const pebble::Ray ray{{query["origin"][0].get<float>(), query["origin"][1].get<float>()},
                          {query["translation"][0].get<float>(), query["translation"][1].get<float>()}};
    std::vector<std::tuple<float, int, int>> expect = hits_of(ray);
    if (!query["all"].get<bool>()) expect.resize(std::min<size_t>(expect.size(), 1));
    const json& hits = query["result"]["hits"];
    ASSERT_EQ(hits.size(), expect.size()) << hits.dump();
    for (size_t k = 0; k < hits.size(); ++k) {
      const auto& [fraction, object, part_index] = expect[k];
      EXPECT_EQ(index(hits[k]["object"]), object) << hits[k].dump();
      EXPECT_EQ(hits[k].contains("part"), !scene.objects[static_cast<size_t>(object)].convex()) << hits[k].dump();
      EXPECT_EQ(hits[k].value("part", 0), part_index) << hits[k].dump();
      EXPECT_NEAR(hits[k]["fraction"].get<float>(), fraction, 1e-5f) << hits[k].dump();
    }
  }
  // The second ray rises through the hills from below: it crosses a segment (the segment as a
  // two-sided shape is hit) but meets the chain from behind, so its hit is the rock's underside.
  const json& up = got["results"][2];
  ASSERT_EQ(up["result"]["hits"].size(), 1u);
  EXPECT_EQ(up["result"]["hits"][0]["object"], "rock");
  const SceneObject& hills = scene.objects[static_cast<size_t>(index(json("hills")))];
  const pebble::Ray up_ray{{up["origin"][0].get<float>(), up["origin"][1].get<float>()},
                           {up["translation"][0].get<float>(), up["translation"][1].get<float>()}};
  bool crosses = false;
  for (const pebble::Shape& segment : hills.parts) crosses = crosses || pebble::cast_ray(segment, hills.xf, up_ray).hit;
  EXPECT_TRUE(crosses);

  // The ell's mass: the box 1.2 x 0.3 and the arm 0.3 x 0.75 rounded by 0.02 (area + perimeter r + pi r^2).
  EXPECT_EQ(got["results"][3]["object"], "ell");
  EXPECT_NEAR(got["results"][3]["result"]["mass"].get<float>(), 0.36 + 0.225 + 2.1 * 0.02 + std::numbers::pi * 0.0004,
              1e-5);

  const std::string png = path("terrain.png");
  const Outcome drawn = run("render '" + file + "' -o '" + png + "'");
  ASSERT_EQ(drawn.code, 0) << drawn.err;
  int width = 0, height = 0;
  const long ink = ink_pixels(png, width, height);
  EXPECT_EQ(width, 960);
  EXPECT_GT(ink, 960L * height / 20);
}

// A heightfield object (tools/scenes/heightfield.json): world_contacts name the cell, as collide()
// of each cell (Heightfield::cell) with each body says, with no world in between; the rays hit the
// cells' front sides only (the one from under the ground passes through its back to the box).
TEST_F(ToolsTest, HeightfieldSceneNamesCells) {
  using pebble::tools::SceneObject;
  const std::string file = std::string(PEBBLE_SOURCE_DIR) + "/tools/scenes/heightfield.json";
  const pebble::tools::Scene scene = pebble::tools::load_scene(file);
  const SceneObject& ground = scene.objects[0];
  ASSERT_TRUE(ground.heightfield.has_value());
  ASSERT_EQ(int(ground.parts.size()), ground.heightfield->cell_count());
  const Outcome r = run("query '" + file + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const json got = json::parse(r.out);
  const float margin = got["results"][0]["margin"].get<float>();
  std::map<std::pair<std::string, int>, pebble::Manifold> want;  // (body, cell)
  for (size_t i = 1; i < scene.objects.size(); ++i)
    for (int k = 0; k < ground.heightfield->cell_count(); ++k) {
      const pebble::Manifold m =
          pebble::collide(ground.heightfield->cell(k), ground.xf, scene.objects[i].shape, scene.objects[i].xf, margin);
      if (m.count > 0) want[{scene.objects[i].name, k}] = m;
    }
  std::size_t with_ground = 0;
  for (const json& pair : got["results"][0]["result"]["pairs"]) {
    if (pair["a"] != "ground") continue;
    ++with_ground;
    const auto it = want.find({pair["b"].get<std::string>(), pair["part_a"].get<int>()});
    ASSERT_NE(it, want.end()) << pair.dump();
    EXPECT_EQ(pair["count"], it->second.count) << pair.dump();
    EXPECT_NEAR(pair["normal"][0].get<float>(), it->second.normal.x, 1e-5f) << pair.dump();
    EXPECT_NEAR(pair["normal"][1].get<float>(), it->second.normal.y, 1e-5f) << pair.dump();
  }
  EXPECT_EQ(with_ground, want.size());
  EXPECT_GE(with_ground, 5u);  // every body rests on the ground
  for (const size_t q : {1u, 2u}) {
    const json& query = got["results"][q];
    const pebble::Ray ray{{query["origin"][0].get<float>(), query["origin"][1].get<float>()},
                          {query["translation"][0].get<float>(), query["translation"][1].get<float>()}};
    std::vector<std::tuple<float, int, int>> expect;  // fraction, object, part
    for (size_t o = 0; o < scene.objects.size(); ++o) {
      const SceneObject& obj = scene.objects[o];
      for (int k = 0; k < (o == 0 ? ground.heightfield->cell_count() : 1); ++k) {
        const pebble::CastResult h = o == 0 ? pebble::cast_ray(ground.heightfield->cell(k), obj.xf, ray)
                                            : pebble::cast_ray(obj.shape, obj.xf, ray);
        if (h.hit) expect.emplace_back(h.fraction, int(o), k);
      }
    }
    std::sort(expect.begin(), expect.end());
    if (!query["all"].get<bool>()) expect.resize(std::min<size_t>(expect.size(), 1));
    const json& hits = query["result"]["hits"];
    ASSERT_EQ(hits.size(), expect.size()) << hits.dump();
    for (size_t k = 0; k < hits.size(); ++k) {
      EXPECT_EQ(hits[k]["object"], scene.objects[size_t(std::get<1>(expect[k]))].name) << hits[k].dump();
      EXPECT_EQ(hits[k].value("part", 0), std::get<2>(expect[k])) << hits[k].dump();
      EXPECT_NEAR(hits[k]["fraction"].get<float>(), std::get<0>(expect[k]), 1e-5f) << hits[k].dump();
    }
  }
  EXPECT_EQ(got["results"][2]["result"]["hits"][0]["object"], "box");
  const std::string png = path("heightfield.png");
  const Outcome drawn = run("render '" + file + "' -o '" + png + "'");
  ASSERT_EQ(drawn.code, 0) << drawn.err;
  int width = 0, height = 0;
  EXPECT_GT(ink_pixels(png, width, height), 960L * height / 40);
}

// Every kind of bad input: exit code 2, one message naming the file and the place, nothing written.
TEST_F(ToolsTest, BadInputNamesTheFileAndThePlace) {
  struct Case {
    const char* scene;
    const char* message;
  };
  const Case cases[] = {
      // The second comma, column 18 of line 3.
      {"{\n  \"objects\": [\n    {\"name\": \"a\",, }\n  ]\n}", ":3:18: malformed JSON: "},
      {"", ":1:1: malformed JSON: "},
      {"[1, 2]",
       ": (document): expected a scene {\"objects\": [...], \"queries\": [...]} (a JSON object), got an array of 2"},
      {"{\"queries\": []}", ": (document): missing field \"objects\""},
      {"{\"objects\": {}}", ": /objects: expected an array of objects, got an object"},
      {"{\"objects\": [{\"name\": \"a\"}]}", ": /objects/0: missing field \"shape\""},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": \"big\"}}]}",
       ": /objects/0/shape/radius: expected a number, got the string \"big\""},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": 1}, \"position\": [1]}]}",
       ": /objects/0/position: expected a point [x, y], got an array of 1"},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": -1}}]}",
       ": /objects/0/shape: invalid circle: "},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"polygon\", \"points\": [[0, 0], [1, 0], [2, "
       "1e39]]}}]}",
       ": /objects/0/shape/points/2/1: expected a number within float range, got "},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"hexagon\"}}]}",
       ": /objects/0/shape/type: unknown shape type \"hexagon\" (expected one of: circle, capsule, segment, box, "
       "rounded_box, polygon, "
       "chain, loop, concave, compound, heightfield)"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[0, 0]]}}]}",
       ": /objects/0/shape/points: expected an array of at least 2 points [[x, y], ...], got an array of 1"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"loop\", \"points\": [[0, 0], [1, 0], [1, 0]]}}]}",
       ": /objects/0/shape: invalid loop: pebble: Chain: segment (1, 0) -> (1, 0) is too short: its ends (nearly) "
       "coincide (segment 1, from "
       "point 1)"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [2, 2], [2, 0], [0, "
       "2]]}}]}",
       ": /objects/0/shape: invalid concave: pebble: decompose: the polygon is not simple: the edge from point 0 to "
       "point 1 and the edge "
       "from point 2 to point 3 cross at (1, 1)"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\", \"parts\": []}}]}",
       ": /objects/0/shape/parts: expected a non-empty array of convex shapes, got an array of 0"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\", \"parts\": [{\"type\": \"compound\", "
       "\"parts\": []}]}}]}",
       ": /objects/0/shape/parts/0/type: a compound's parts are convex shapes (circle, capsule, segment, box, "
       "rounded_box, polygon), "
       "not a compound"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\", \"parts\": [{\"type\": \"box\", "
       "\"half_width\": 1, "
       "\"half_height\": 1}, {\"type\": \"chain\", \"points\": [[0, 0], [1, 0]]}]}}]}",
       ": /objects/0/shape/parts/1/type: a compound's parts are convex shapes (circle, capsule, segment, box, "
       "rounded_box, polygon), "
       "not a chain"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\", \"parts\": [{\"type\": \"circle\", "
       "\"radius\": -1}]}}]}",
       ": /objects/0/shape/parts/0: invalid circle: pebble: "},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\", \"parts\": {\"type\": \"box\"}}}]}",
       ": /objects/0/shape/parts: expected a non-empty array of convex shapes, got an object"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"compound\"}}]}",
       ": /objects/0/shape: missing field \"parts\""},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"loop\", \"points\": [[0, 0], [1, 0]]}}]}",
       ": /objects/0/shape/points: expected an array of at least 3 points [[x, y], ...], got an array of 2"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [1, 0]]}}]}",
       ": /objects/0/shape/points: expected an array of at least 3 points [[x, y], ...], got an array of 2"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": \"flat\"}}]}",
       ": /objects/0/shape/points: expected an array of at least 2 points [[x, y], ...], got the string \"flat\""},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[0, 0], [1, \"up\"]]}}]}",
       ": /objects/0/shape/points/1/1: expected a number, got the string \"up\""},
      // JSON has no NaN or infinity; a number beyond float range is where a scene file comes closest.
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[0, 0], [1e39, 0]]}}]}",
       ": /objects/0/shape/points/1/0: expected a number within float range, got "},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [1, 0], [-1e39, "
       "1]]}}]}",
       ": /objects/0/shape/points/2/0: expected a number within float range, got "},
      // Beyond kMaxShapeExtent: Chain's own message, which names the point.
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[0, 0], [1e30, 0]]}}]}",
       ": /objects/0/shape: invalid chain: pebble: Chain: "},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [1, 0], [2, 0]]}}]}",
       ": /objects/0/shape: invalid concave: pebble: decompose: the polygon has zero area"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [1, 0], [1, 1]], "
       "\"radius\": -1}}]}",
       ": /objects/0/shape: invalid concave: pebble: decompose: radius -1 must be "},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[1, 0], [0, 0]], \"radius\": "
       "1}}]}",
       ": /objects/0/shape/radius: unknown field \"radius\" (expected one of: type, points)"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[1, 0], [0, 0]]}}, {\"name\": "
       "\"b\", \"shape\": "
       "{\"type\": \"circle\", \"radius\": 1}}], \"queries\": [{\"type\": \"distance\", \"a\": \"b\", \"b\": \"t\"}]}",
       ": /queries/0/b: distance takes objects of one convex shape, and \"t\" is a chain (world_contacts and "
       "world_raycast take every kind)"},
      {"{\"objects\": [{\"name\": \"u\", \"shape\": {\"type\": \"concave\", \"points\": [[0, 0], [3, 0], [3, 2], [2, "
       "2], [2, 1], [1, 1], [1, 2], "
       "[0, 2]]}}], \"queries\": [{\"type\": \"raycast\", \"object\": \"u\", \"origin\": [-1, 0.5], \"translation\": "
       "[5, 0]}]}",
       ": /queries/0/object: raycast takes objects of one convex shape, and \"u\" is a concave polygon (world_contacts "
       "and world_raycast take "
       "every kind)"},
      {"{\"objects\": [{\"name\": \"l\", \"shape\": {\"type\": \"loop\", \"points\": [[0, 0], [1, 0], [0, 1]]}}, "
       "{\"name\": \"k\", \"shape\": "
       "{\"type\": \"compound\", \"parts\": [{\"type\": \"circle\", \"radius\": 1}]}}], \"queries\": [{\"type\": "
       "\"collide\", \"a\": \"k\", "
       "\"b\": \"l\"}]}",
       ": /queries/0/a: collide takes objects of one convex shape, and \"k\" is a compound (world_contacts and "
       "world_raycast take every kind)"},
      {"{\"objects\": [{\"name\": \"t\", \"shape\": {\"type\": \"chain\", \"points\": [[1, 0], [0, 0]]}}], "
       "\"queries\": [{\"type\": "
       "\"mass\", \"object\": \"t\"}]}",
       ": /queries/0/object: \"t\" is a chain, which has no area and no mass"},
      {"{\"objects\": [{\"name\": \"h\", \"shape\": {\"type\": \"heightfield\", \"heights\": [0, 1], \"spacing\": "
       "1}}], \"queries\": "
       "[{\"type\": \"mass\", \"object\": \"h\"}]}",
       ": /queries/0/object: \"h\" is a heightfield, which has no area and no mass"},
      {"{\"objects\": [{\"name\": \"h\", \"shape\": {\"type\": \"heightfield\", \"heights\": [0], \"spacing\": 1}}]}",
       ": /objects/0/shape/heights: expected an array of at least 2 heights [y0, y1, ...], got an array of 1"},
      {"{\"objects\": [{\"name\": \"h\", \"shape\": {\"type\": \"heightfield\", \"heights\": [0, 1], \"spacing\": "
       "-0.5}}]}",
       ": /objects/0/shape: invalid heightfield: pebble: Heightfield: the spacing -0.5 is not finite and > 0"},
      {"{\"objects\": [{\"name\": \"a\", \"angel\": 1, \"shape\": {\"type\": \"circle\", \"radius\": 1}}]}",
       ": /objects/0/angel: unknown field \"angel\" (expected one of: name, shape, position, angle)"},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}, {\"name\": \"a\", "
       "\"shape\": "
       "{\"type\": \"circle\", \"radius\": 1}}]}",
       ": /objects/1/name: a second object named \"a\" (names must be unique)"},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}], \"queries\": [{\"type\": "
       "\"raycats\"}]}",
       ": /queries/0/type: unknown query \"raycats\" (expected one of: collide, "},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}], \"queries\": [{\"type\": "
       "\"distance\", \"a\": \"a\", \"b\": \"c\"}]}",
       ": /queries/0/b: no object named \"c\" (objects: a)"},
      {"{\"objects\": [{\"name\": \"a\", \"shape\": {\"type\": \"circle\", \"radius\": 1}}], \"queries\": [{\"type\": "
       "\"mass\", \"object\": \"a\", \"density\": -2}]}",
       ": /queries/0/density: expected a density >= 0, got -2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.scene);
    const std::string scene = write("bad.json", c.scene);
    for (const std::string command : {"query", "render"}) {
      const std::string out = path(command == "query" ? "out.json" : "out.png");
      const Outcome r = run(command + " '" + scene + "' -o '" + out + "'");
      EXPECT_EQ(r.code, 2);
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(r.err.find("pebble: " + scene + c.message), 0u) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_FALSE(fs::exists(out));
    }
  }
}

TEST_F(ToolsTest, BadFilesAndFlags) {
  Outcome r = run("query '" + path("missing.json") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "pebble: " + path("missing.json") + ": cannot open the scene file (No such file or directory)\n");
  r = run("query '" + dir_.string() + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "pebble: " + dir_.string() + ": expected a scene file, got a directory\n");

  const std::string scene = write("scene.json", kScene);
  r = run("render '" + scene + "' -o '" + path("picture.jpg") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "pebble: " + path("picture.jpg") + ": expected a picture file name ending in .png or .svg\n");
  EXPECT_FALSE(fs::exists(path("picture.jpg")));
  r = run("query '" + scene + "' -o '" + path("no/such/folder/out.json") + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no/such/folder/out.json: cannot write the output (No such file or directory)"),
            std::string::npos)
      << r.err;

  // A failed run leaves an existing output as it was.
  const std::string keep = write("keep.json", "{\"old\": true}");
  r = run("query '" + write("broken.json", "{") + "' -o '" + keep + "'");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(read(keep), "{\"old\": true}");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos) << "left behind: " << entry.path();

  // Command-line mistakes are bad input too.
  for (const char* args : {"", "query", "render '" PEBBLE_SOURCE_DIR "/tools/scenes/example.json'", "demo --shapes 0",
                           "demo --shapes many", "demo --frobnicate", "frobnicate"}) {
    r = run(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err, "") << args;
  }
}

TEST_F(ToolsTest, RenderWritesAPngAndAnSvg) {
  const std::string scene = write("scene.json", kScene);
  Outcome r = run("render '" + scene + "' -o '" + path("scene.png") + "' --width 800");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + path("scene.png") + "\n");
  int width = 0, height = 0;
  const long ink = ink_pixels(path("scene.png"), width, height);
  EXPECT_EQ(width, 800);
  EXPECT_GE(height, 240);
  // The objects, the axes and the legend: well beyond a few stray pixels.
  EXPECT_GT(ink, 800L * height / 20);

  r = run("render '" + scene + "' -o '" + path("scene.svg") + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = read(path("scene.svg"));
  xmlDocPtr doc = xmlReadMemory(svg.data(), static_cast<int>(svg.size()), "scene.svg", nullptr, XML_PARSE_NONET);
  ASSERT_NE(doc, nullptr) << "the SVG does not parse";
  const xmlNode* root = xmlDocGetRootElement(doc);
  ASSERT_NE(root, nullptr);
  EXPECT_STREQ(reinterpret_cast<const char*>(root->name), "svg");
  xmlChar* svg_width = xmlGetProp(root, reinterpret_cast<const xmlChar*>("width"));
  ASSERT_NE(svg_width, nullptr);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(svg_width)).substr(0, 3), "960");
  xmlFree(svg_width);
  xmlFreeDoc(doc);
  EXPECT_GT(std::count(svg.begin(), svg.end(), '<'), 50);
}

TEST_F(ToolsTest, DemoWritesThePileAndTheFall) {
  const std::string out = path("demo");
  const Outcome r =
      run("demo --shapes 20 --steps 120 --gif-every 10 --width 320 --gif-width 200 --seed 7 -o '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* word : {"20 shapes (seed 7)", "steps per second", "contacts per step", "largest penetration",
                           "kinetic energy", "pile.png", "fall.gif"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " in\n" << r.out;
  EXPECT_EQ(r.err, "");  // no progress bar when stderr is not a terminal

  int width = 0, height = 0;
  const long ink = ink_pixels(out + "/pile.png", width, height);
  EXPECT_EQ(width, 320);
  EXPECT_GT(height, 100);
  EXPECT_GT(ink, 320L * height / 20);

  int error = 0;
  GifFileType* gif = DGifOpenFileName((out + "/fall.gif").c_str(), &error);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->SWidth, 200);
  EXPECT_GT(gif->SHeight, 50);
  EXPECT_EQ(gif->ImageCount, 120 / 10 + 1);  // a frame every 10 steps, and the last one held
  // The first frame covers the whole picture and shows the container: not all background.
  const SavedImage& first = gif->SavedImages[0];
  EXPECT_EQ(first.ImageDesc.Width, 200);
  long frame_ink = 0;
  for (int i = 0; i < first.ImageDesc.Width * first.ImageDesc.Height; ++i)
    frame_ink += first.RasterBits[i] != first.RasterBits[0];
  EXPECT_GT(frame_ink, 200L);
  DGifCloseFile(gif, &error);
}

// `pebble demo --record` and `pebble replay`: the pile's world calls replayed on a new world give
// every update's digest again, and the last one is the one the demo printed; a changed recording
// is reported (exit 1), a file that is no recording refused (exit 2).
TEST_F(ToolsTest, DemoRecordingReplaysToTheSameDigest) {
  const std::string out = path("demo-record"), rec = out + "/pile.rec";
  const Outcome r = run("demo --shapes 30 --steps 150 --gif-every 50 --width 200 --gif-width 100 --seed 3 -o '" + out +
                        "' --record '" + rec + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::size_t at = r.out.find("last update's digest ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string digest = r.out.substr(at + 21, 16);
  const Outcome replayed = run("replay '" + rec + "'");
  EXPECT_EQ(replayed.code, 0) << replayed.out << replayed.err;
  EXPECT_NE(replayed.out.find("digest " + digest), std::string::npos) << digest << " in\n" << replayed.out;
  EXPECT_NE(replayed.out.find("every call and update agrees"), std::string::npos) << replayed.out;
  // 150 steps of the stepper's sub-steps, each one update.
  EXPECT_NE(replayed.out.find(" updates"), std::string::npos);

  // The last record is the last update: its digest's first byte changed is a mismatch.
  std::string bytes;
  {
    std::ifstream in(rec, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 13u);
  bytes[bytes.size() - 12] ^= 0x40;
  {
    std::ofstream changed(out + "/changed.rec", std::ios::binary);
    changed << bytes;
  }
  const Outcome mismatch = run("replay '" + out + "/changed.rec'");
  EXPECT_EQ(mismatch.code, 1) << mismatch.out << mismatch.err;
  EXPECT_NE(mismatch.out.find("1 mismatches"), std::string::npos) << mismatch.out;
  const Outcome refused = run("replay '" + out + "/pile.png'");
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("not a pebble recording"), std::string::npos) << refused.err;
  EXPECT_EQ(run("replay '" + out + "/missing.rec'").code, 2);
}

// `pebble mover`: every shape walks the whole level (hills, stairs, tile map, lift) to the wall,
// climbing steps, snapping down, riding the lift, never ending a step in the level.
TEST_F(ToolsTest, MoverWalksTheLevelToTheWall) {
  for (const char* shape : {"capsule", "box", "rounded-box", "circle", "polygon"}) {
    SCOPED_TRACE(shape);
    const std::string out = path(std::string("mover-") + shape);
    const Outcome r = run(std::string("mover --shape ") + shape + " --gif-width 160 --gif-every 20 -o '" + out + "'");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("walk.gif"), std::string::npos) << r.out;
    float end = 0, gap = 0;
    int grounded = 0, climbed = 0, snapped = 0, pushed = 0, rode = 0;
    const std::size_t g = r.out.find("  grounded");
    ASSERT_NE(g, std::string::npos) << r.out;
    ASSERT_EQ(
        std::sscanf(
            r.out.c_str() + g,
            "  grounded %d steps, climbed %d steps, snapped down %d times, pushed %d times, rode the lift %d steps",
            &grounded, &climbed, &snapped, &pushed, &rode),
        5)
        << r.out;
    const std::size_t e = r.out.find("  stopped at x = ");
    ASSERT_NE(e, std::string::npos);
    ASSERT_EQ(std::sscanf(r.out.c_str() + e, "  stopped at x = %f (the wall is at 62.0); least gap to the level %f",
                          &end, &gap),
              2)
        << r.out;
    EXPECT_GT(end, 61.4f);  // at the wall (62 less the half width and the skin)
    EXPECT_LT(end, 62.0f);
    EXPECT_GE(gap, -0.01f);  // never into the level beyond the skin
    EXPECT_GE(climbed, 5);   // the stairs up and the tile map's bumps
    EXPECT_GE(snapped, 5);   // the stairs down
    EXPECT_GE(rode, 100);    // the lift, up from the ground to the ledge
    int error = 0;
    GifFileType* gif = DGifOpenFileName((out + "/walk.gif").c_str(), &error);
    ASSERT_NE(gif, nullptr);
    ASSERT_EQ(DGifSlurp(gif), GIF_OK);
    EXPECT_EQ(gif->SWidth, 160);
    EXPECT_GT(gif->ImageCount, 40);
    DGifCloseFile(gif, &error);
  }
  EXPECT_NE(run("mover --shape blob").code, 0);
}

// `pebble crowd` as a program: the summary, the GIF, and bad flags refused.
TEST_F(ToolsTest, CrowdRunsAndRefusesBadFlags) {
  const std::string out = path("crowd");
  const Outcome r = run("crowd --agents 100 --gif-width 160 --gif-every 50 -o '" + out + "'");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* word : {"100 agents", "100 arrived", "least gap between two agents", "agents per ms", "crowd.gif"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << " in\n" << r.out;
  int error = 0;
  GifFileType* gif = DGifOpenFileName((out + "/crowd.gif").c_str(), &error);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->SWidth, 160);
  EXPECT_GT(gif->ImageCount, 5);
  DGifCloseFile(gif, &error);
  for (const char* args : {"crowd --agents 0", "crowd --agents many", "crowd --neighbors 0", "crowd --neighbors 99",
                           "crowd --gif-every 0", "crowd --frobnicate", "crowd --scene square", "crowd --split half",
                           "crowd --signals maybe", "crowd --neighbor-dist -1", "crowd --steer sideways"}) {
    const Outcome bad = run(args);
    EXPECT_EQ(bad.code, 2) << args;
    EXPECT_NE(bad.err, "") << args;
  }
  pebble::tools::CrowdOptions options;
  options.agents = 2;
  std::ostringstream ignored;
  EXPECT_THROW(pebble::tools::run_crowd_demo(options, ignored), pebble::tools::InputError);
}

// The crowd's promise, measured without its own queries: after every step, no two agents overlap
// and no agent overlaps the wall by more than a rounding tolerance (the long-double oracle on every
// pair whose bounding discs come within 1 cm, found on the test's own grid), no agent's centre
// crosses a wall piece between steps, and every agent arrives.
class CrowdSplits : public ::testing::TestWithParam<std::pair<pebble::tools::CrowdSplit, bool>> {};

TEST_P(CrowdSplits, AgentsNeverOverlapNeverCrossTheWallAndAllArrive) {
  using namespace pebble;
  // The half-planes keep a 2 mm skin; float rounding eats micrometres of it, so no overlap at all.
  constexpr long double kTolerance = 0;
  const std::vector<Aabb> walls = tools::crowd_wall_boxes();
  std::vector<oracle::RShape> wall_shapes;
  for (const Aabb& w : walls) {
    oracle::RShape s;
    s.core = {{w.lower.x, w.lower.y}, {w.upper.x, w.lower.y}, {w.upper.x, w.upper.y}, {w.lower.x, w.upper.y}};
    wall_shapes.push_back(s);
  }
  struct Seen {
    Vec2 centre{};
    bool alive = false;
  };
  std::vector<Seen> last(600);
  long double least = 1e30L, least_wall = 1e30L;
  long checked = 0;
  int crossings = 0, steps = 0;
  // Segment (p, q) meets the box (slab test).
  auto crosses = [](Vec2 p, Vec2 q, const Aabb& b) {
    float t0 = 0, t1 = 1;
    const float d[2] = {q.x - p.x, q.y - p.y}, o[2] = {p.x, p.y}, lo[2] = {b.lower.x, b.lower.y},
                hi[2] = {b.upper.x, b.upper.y};
    for (int k = 0; k < 2; ++k) {
      if (std::fabs(d[k]) < 1e-12f) {
        if (o[k] < lo[k] || o[k] > hi[k]) return false;
        continue;
      }
      float a = (lo[k] - o[k]) / d[k], c = (hi[k] - o[k]) / d[k];
      if (a > c) std::swap(a, c);
      t0 = std::max(t0, a);
      t1 = std::min(t1, c);
      if (t0 > t1) return false;
    }
    return true;
  };
  tools::CrowdOptions options;
  options.agents = 600;
  options.max_steps = 2500;
  options.output.clear();
  options.split = GetParam().first;
  options.signals = GetParam().second;
  std::ostringstream text;
  const tools::CrowdSummary summary =
      tools::run_crowd_demo(options, text, [&](int, std::span<const tools::CrowdAgentView> agents) {
        ++steps;
        // Bounding discs on a grid of 1 m cells keyed by cell coordinates.
        struct Disc {
          Vec2 c;
          float r;
          int k;
        };
        std::vector<Disc> discs;
        std::unordered_map<long long, std::vector<int>> grid;
        auto key = [](int x, int y) { return (long long)(x)*1000003LL + y; };
        for (int k = 0; k < int(agents.size()); ++k) {
          const auto& a = agents[std::size_t(k)];
          const Vec2 c = transform_point(a.transform, a.shape->core_centroid());
          discs.push_back({c, a.shape->extent(), k});
          grid[key(int(std::floor(c.x)), int(std::floor(c.y)))].push_back(k);
          // The wall: no centre path through a piece, no overlap beyond the tolerance.
          Seen& seen = last[std::size_t(a.id)];
          for (std::size_t w = 0; w < walls.size(); ++w) {
            if (seen.alive && crosses(seen.centre, c, walls[w])) ++crossings;
            if (c.x + discs.back().r + 0.01f < walls[w].lower.x || c.x - discs.back().r - 0.01f > walls[w].upper.x ||
                c.y + discs.back().r + 0.01f < walls[w].lower.y || c.y - discs.back().r - 0.01f > walls[w].upper.y)
              continue;
            least_wall = std::min(
                least_wall, oracle::distance(test_oracle::to_oracle(*a.shape, a.transform), wall_shapes[w]).distance);
          }
          seen = {c, true};
        }
        for (const Disc& d : discs) {
          const int cx = int(std::floor(d.c.x)), cy = int(std::floor(d.c.y));
          for (int y = cy - 1; y <= cy + 1; ++y) {
            for (int x = cx - 1; x <= cx + 1; ++x) {
              const auto it = grid.find(key(x, y));
              if (it == grid.end()) continue;
              for (const int o : it->second) {
                if (o <= d.k) continue;
                const Disc& e = discs[std::size_t(o)];
                if (length(e.c - d.c) - d.r - e.r > 0.01f) continue;
                const auto& a = agents[std::size_t(d.k)];
                const auto& b = agents[std::size_t(o)];
                least = std::min(least, oracle::distance(test_oracle::to_oracle(*a.shape, a.transform),
                                                         test_oracle::to_oracle(*b.shape, b.transform))
                                            .distance);
                ++checked;
              }
            }
          }
        }
      });
  EXPECT_EQ(summary.arrived, 600) << text.str();
  EXPECT_LT(summary.steps, 2500);
  EXPECT_EQ(crossings, 0);
  EXPECT_GT(checked, 1000);  // the crowd was dense enough to test something
  EXPECT_GT(least, -kTolerance) << text.str();
  EXPECT_GT(least_wall, -kTolerance) << text.str();
  std::printf("crowd of 600: %d steps, %ld close pairs checked by the oracle, least gap %.2Le m, to the wall %.2Le m\n",
              steps, checked, least, least_wall);
}

// The default (ordered split, signals) and the clamped split without signals: both promise no overlap.
INSTANTIATE_TEST_SUITE_P(Crowd, CrowdSplits,
                         ::testing::Values(std::pair{pebble::tools::CrowdSplit::ordered, true},
                                           std::pair{pebble::tools::CrowdSplit::clamped, false}));

// RVO2's Circle scenario with the ordered split: 250 discs meet in the middle, where a symmetric
// crowd jams; all must reach the opposite point, and no two may overlap at any step (every pair
// whose centres come within 3.01 m goes to the long-double oracle).
TEST(Crowd, CircleScenarioAllArriveWithoutOverlap) {
  using namespace pebble;
  tools::CrowdOptions options;
  options.scene = tools::CrowdScene::circle;
  options.agents = 250;
  options.max_steps = 8000;
  options.output.clear();
  long double least = 1e30L;
  long checked = 0;
  std::ostringstream text;
  const tools::CrowdSummary summary =
      tools::run_crowd_demo(options, text, [&](int, std::span<const tools::CrowdAgentView> agents) {
        for (std::size_t i = 0; i < agents.size(); ++i) {
          for (std::size_t j = i + 1; j < agents.size(); ++j) {
            if (length(agents[i].transform.p - agents[j].transform.p) > 3.01f) continue;
            least = std::min(least, oracle::distance(test_oracle::to_oracle(*agents[i].shape, agents[i].transform),
                                                     test_oracle::to_oracle(*agents[j].shape, agents[j].transform))
                                        .distance);
            ++checked;
          }
        }
      });
  EXPECT_EQ(summary.arrived, 250) << text.str();
  EXPECT_LT(summary.steps, 8000);
  EXPECT_GT(checked, 10000);  // they did meet
  EXPECT_GT(least, 0.0L) << text.str();
  std::printf("circle of 250: %d steps, %ld close pairs checked by the oracle, least gap %.2Le m\n", summary.steps,
              checked, least);
}

// The scene reader in process: positions of malformed JSON are those of the offending character.
TEST(SceneFile, MalformedJsonLineAndColumn) {
  try {
    pebble::tools::parse_scene("{\n  \"objects\": [\n    }\n", "x.json");
    FAIL();
  } catch (const pebble::tools::InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("x.json:3:5: malformed JSON: "), 0u) << e.what();
  }
}

TEST(SceneFile, PointersEscapeSlashAndTilde) {
  try {
    pebble::tools::parse_scene(R"({"objects": [{"name": "a", "shape": {"type": "circle", "radius": 1}, "a/b~c": 1}]})",
                               "x.json");
    FAIL();
  } catch (const pebble::tools::InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("x.json: /objects/0/a~1b~0c: unknown field"), 0u) << e.what();
  }
}

TEST(SceneFile, EveryShapeKindReads) {
  const pebble::tools::Scene scene = pebble::tools::parse_scene(R"({"objects": [
    {"name": "c", "shape": {"type": "circle", "radius": 0.5, "center": [1, 2]}},
    {"name": "p", "shape": {"type": "capsule", "a": [0, 0], "b": [1, 0], "radius": 0.2}},
    {"name": "s", "shape": {"type": "segment", "a": [0, 0], "b": [1, 1]}},
    {"name": "b", "shape": {"type": "box", "half_width": 1, "half_height": 2}, "position": [3, 4], "angle": 1.5},
    {"name": "r", "shape": {"type": "rounded_box", "half_width": 1, "half_height": 2, "corner_radius": 0.5}},
    {"name": "g", "shape": {"type": "polygon", "points": [[0, 0], [1, 0], [0, 1], [0.2, 0.2]], "radius": 0.1}}
  ], "comment": "JSON has no comments, so scenes may carry this key anywhere"})",
                                                                "x.json");
  ASSERT_EQ(scene.objects.size(), 6u);
  EXPECT_EQ(scene.objects[0].shape.vertices()[0], (pebble::Vec2{1, 2}));
  EXPECT_EQ(scene.objects[1].shape.vertex_count(), 2);
  EXPECT_EQ(scene.objects[2].shape.radius(), 0.0f);
  EXPECT_EQ(scene.objects[3].xf.p, (pebble::Vec2{3, 4}));
  EXPECT_FLOAT_EQ(scene.objects[3].xf.q.angle(), 1.5f);
  EXPECT_FLOAT_EQ(scene.objects[4].shape.radius(), 0.5f);
  EXPECT_EQ(scene.objects[5].shape.vertex_count(), 3);  // (0.2, 0.2) is inside the hull
  EXPECT_EQ(scene.objects[5].kind, "polygon");
}

// The kinds of several parts: what each becomes, checked against the library's own makers and
// against areas worked out by hand.
TEST(SceneFile, EveryCompositeKindReads) {
  const pebble::tools::Scene scene = pebble::tools::parse_scene(R"({"objects": [
    {"name": "floor", "shape": {"type": "chain", "points": [[2, 0], [0, 0.5], [-2, 0]]}, "position": [1, -1], "angle": 0.5},
    {"name": "ring", "shape": {"type": "loop", "points": [[0, 0], [1, 0], [1, 1], [0, 1]]}},
    {"name": "u", "shape": {"type": "concave", "points": [[0, 2], [0, 0], [3, 0], [3, 2], [2, 2], [2, 1], [1, 1], [1, 2]]}},
    {"name": "r", "shape": {"type": "concave", "points": [[0, 0], [3, 0], [3, 2], [2, 2], [2, 1], [1, 1], [1, 2], [0, 2]], "radius": 0.1}},
    {"name": "k", "shape": {"type": "compound", "parts": [{"type": "box", "half_width": 1, "half_height": 0.25},
                                                            {"type": "circle", "radius": 0.5, "center": [0, 1]}]}}
  ]})",
                                                                "x.json");
  ASSERT_EQ(scene.objects.size(), 5u);
  for (const pebble::tools::SceneObject& o : scene.objects) EXPECT_FALSE(o.convex()) << o.name;

  const pebble::tools::SceneObject& floor = scene.objects[0];
  EXPECT_EQ(floor.kind, "chain");
  ASSERT_TRUE(floor.chain.has_value());
  EXPECT_FALSE(floor.chain->closed());
  EXPECT_EQ(floor.chain->segment_count(), 2);
  EXPECT_EQ(floor.chain->segment(1).a, (pebble::Vec2{0, 0.5f}));
  EXPECT_EQ(floor.chain->segment(1).b, (pebble::Vec2{-2, 0}));
  EXPECT_GT(floor.chain->segment(0).normal.y, 0.0f);  // right to left: collides on top
  // One part per segment, as the world numbers them.
  ASSERT_EQ(floor.parts.size(), 2u);
  for (int s = 0; s < 2; ++s) {
    const pebble::Shape& part = floor.parts[static_cast<size_t>(s)];
    ASSERT_EQ(part.vertex_count(), 2);
    for (int v = 0; v < 2; ++v)
      EXPECT_EQ(part.vertices()[static_cast<size_t>(v)],
                floor.chain->segment(s).shape.vertices()[static_cast<size_t>(v)]);
  }
  EXPECT_EQ(floor.xf.p, (pebble::Vec2{1, -1}));
  EXPECT_FLOAT_EQ(floor.xf.q.angle(), 0.5f);

  const pebble::tools::SceneObject& ring = scene.objects[1];
  EXPECT_EQ(ring.kind, "loop");
  ASSERT_TRUE(ring.chain.has_value());
  EXPECT_TRUE(ring.chain->closed());
  EXPECT_EQ(ring.chain->segment_count(), 4);
  EXPECT_EQ(ring.parts.size(), 4u);

  // The U (2 x 3 less a 1 x 1 notch) in either winding: convex parts, no chain, area 5. Rounded by
  // 0.1, each part grows by its own perimeter x 0.1 + pi 0.01, and the parts' perimeters add up to
  // the U's (12) plus twice the cuts: at least 5 + 1.2 + pi 0.01 in all.
  for (const int i : {2, 3}) {
    const pebble::tools::SceneObject& u = scene.objects[static_cast<size_t>(i)];
    EXPECT_EQ(u.kind, "concave");
    EXPECT_FALSE(u.chain.has_value());
    ASSERT_GE(u.parts.size(), 2u);
    float area = 0;
    for (const pebble::Shape& part : u.parts) {
      EXPECT_GE(part.vertex_count(), 3);
      EXPECT_FLOAT_EQ(part.radius(), i == 2 ? 0.0f : 0.1f);
      area += pebble::area(part);
    }
    if (i == 2) {
      EXPECT_NEAR(area, 5.0f, 1e-5f);
    } else {
      EXPECT_GE(area, 5.0f + 1.2f + 3.14159f * 0.01f - 1e-5f);
    }
    EXPECT_EQ(u.shape.vertex_count(), u.parts.front().vertex_count());
  }

  const pebble::tools::SceneObject& k = scene.objects[4];
  EXPECT_EQ(k.kind, "compound");
  ASSERT_EQ(k.parts.size(), 2u);
  EXPECT_EQ(k.parts[0].vertex_count(), 4);
  EXPECT_EQ(k.parts[1].vertex_count(), 1);
  EXPECT_EQ(k.parts[1].vertices()[0], (pebble::Vec2{0, 1}));
  EXPECT_FLOAT_EQ(k.parts[1].radius(), 0.5f);
}
