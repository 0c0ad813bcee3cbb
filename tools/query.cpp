// Runs each query through the public API, then writes its answer with the names of the objects
// it was about, so that the output reads without the scene file beside it.
#include "tools/query.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace pebble::tools {
namespace {

using json = nlohmann::ordered_json;

/// Every number in the results is a float; pretty() prints it with the fewest digits that read
/// back as the same float.
json number(float x) { return static_cast<double>(x); }

json point(Vec2 v) { return json::array({number(v.x), number(v.y)}); }

std::string hex_id(uint32_t id) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", id);
  return buffer;
}

json manifold_json(const Manifold& m) {
  json points = json::array();
  for (int i = 0; i < m.count; ++i)
    points.push_back({{"point", point(m.points[i].point)}, {"separation", number(m.points[i].separation)}, {"id", hex_id(m.points[i].id)}});
  return {{"count", m.count}, {"normal", point(m.normal)}, {"points", points}};
}

}  // namespace

std::vector<Answer> run_queries(const Scene& scene) {
  std::vector<Answer> answers;
  const auto& o = scene.objects;
  auto at = [&](int i) -> const SceneObject& { return o[static_cast<size_t>(i)]; };
  for (size_t qi = 0; qi < scene.queries.size(); ++qi) {
    answers.push_back(std::visit(
        Overloaded{
            [&](const CollideQuery& q) -> Answer { return collide(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf, q.margin); },
            [&](const DistanceQuery& q) -> Answer { return distance(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf); },
            [&](const OverlapQuery& q) -> Answer { return OverlapAnswer{overlap(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf)}; },
            [&](const ProjectPointQuery& q) -> Answer { return project_point(at(q.object).shape, at(q.object).xf, q.point); },
            [&](const ContainsQuery& q) -> Answer { return ContainsAnswer{contains(at(q.object).shape, at(q.object).xf, q.point)}; },
            [&](const MassQuery& q) -> Answer {
              try {
                return mass_properties(at(q.object).shape, q.density);
              } catch (const InvalidShape& e) {
                throw InputError("/queries/" + std::to_string(qi) + ": " + e.what());
              }
            },
            [&](const BoundsQuery& q) -> Answer { return bounds(at(q.object).shape, at(q.object).xf); },
            [&](const RaycastQuery& q) -> Answer { return raycast(at(q.object).shape, at(q.object).xf, q.ray, q.radius); },
        },
        scene.queries[qi]));
  }
  return answers;
}

json results_json(const Scene& scene, const std::vector<Answer>& answers) {
  json results = json::array();
  auto name = [&](int i) { return scene.objects[static_cast<size_t>(i)].name; };
  for (size_t i = 0; i < answers.size() && i < scene.queries.size(); ++i) {
    json r = {{"type", query_name(scene.queries[i])}};
    std::visit(Overloaded{
                   [&](const CollideQuery& q) {
                     r["a"] = name(q.a);
                     r["b"] = name(q.b);
                     r["margin"] = number(q.margin);
                   },
                   [&](const DistanceQuery& q) { r["a"] = name(q.a), r["b"] = name(q.b); },
                   [&](const OverlapQuery& q) { r["a"] = name(q.a), r["b"] = name(q.b); },
                   [&](const ProjectPointQuery& q) { r["object"] = name(q.object), r["point"] = point(q.point); },
                   [&](const ContainsQuery& q) { r["object"] = name(q.object), r["point"] = point(q.point); },
                   [&](const MassQuery& q) { r["object"] = name(q.object), r["density"] = number(q.density); },
                   [&](const BoundsQuery& q) { r["object"] = name(q.object); },
                   [&](const RaycastQuery& q) {
                     r["object"] = name(q.object);
                     r["origin"] = point(q.ray.origin);
                     r["translation"] = point(q.ray.translation);
                     r["radius"] = number(q.radius);
                   },
               },
               scene.queries[i]);
    json answer = std::visit(
        Overloaded{
            [](const Manifold& m) { return manifold_json(m); },
            [](const DistanceResult& d) {
              return json{{"distance", number(d.distance)}, {"normal", point(d.normal)}, {"point_a", point(d.point_a)},
                          {"point_b", point(d.point_b)}};
            },
            [](const OverlapAnswer& a) { return json{{"overlap", a.overlap}}; },
            [](const PointProjection& p) {
              return json{{"closest", point(p.point)}, {"normal", point(p.normal)}, {"distance", number(p.distance)},
                          {"inside", p.inside}};
            },
            [](const ContainsAnswer& a) { return json{{"inside", a.inside}}; },
            [](const MassProperties& m) {
              return json{{"mass", number(m.mass)}, {"center", point(m.center)}, {"inertia", number(m.inertia)}};
            },
            [](const Aabb& b) { return json{{"lower", point(b.lower)}, {"upper", point(b.upper)}}; },
            [](const CastHit& h) {
              return json{{"hit", h.hit}, {"fraction", number(h.fraction)}, {"point", point(h.point)}, {"normal", point(h.normal)}};
            },
        },
        answers[i]);
    r["result"] = answer;
    results.push_back(r);
  }
  return {{"results", results}};
}

namespace {
void print(const json& v, std::string& out, int indent) {
  const std::string pad(static_cast<size_t>(indent) + 2, ' ');
  if (v.is_object() && !v.empty()) {
    out += "{\n";
    size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it, ++i) {
      out += pad + json(it.key()).dump() + ": ";
      print(it.value(), out, indent + 2);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += std::string(static_cast<size_t>(indent), ' ') + "}";
    return;
  }
  if (v.is_array() && !v.empty()) {
    const bool flat = std::all_of(v.begin(), v.end(), [](const json& e) { return !e.is_structured(); });
    out += flat ? "[" : "[\n";
    for (size_t i = 0; i < v.size(); ++i) {
      if (!flat) out += pad;
      print(v[i], out, indent + 2);
      if (i + 1 < v.size()) out += flat ? ", " : ",\n";
    }
    if (!flat) {
      out += '\n';
      out.append(static_cast<size_t>(indent), ' ');
    }
    out += ']';
    return;
  }
  if (v.is_number_float()) {
    // 0.3f as 0.3, not as the double 0.30000001192092896 (nlohmann prints doubles).
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(v.get<double>())).ptr;
    out.append(buffer, end);
    return;
  }
  out += v.dump();
}
}  // namespace

std::string pretty(const json& value) {
  std::string out;
  print(value, out, 0);
  return out + "\n";
}

}  // namespace pebble::tools
