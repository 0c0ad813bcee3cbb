// Runs each query through the public API, then writes its answer with the names of the objects
// it was about, so that the output reads without the scene file beside it.
#include "tools/query.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <tuple>

#include <pebble/cast.hpp>
#include <pebble/world.hpp>

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
    points.push_back({{"point", point(m.points[i].point)},
                      {"separation", number(m.points[i].separation)},
                      {"id", hex_id(m.points[i].id)}});
  return {{"count", m.count}, {"normal", point(m.normal)}, {"points", points}};
}

/// Every object of the scene in a CollisionWorld (user data: the object's index). All of the
/// program's use of the world API is here.
CollisionWorld make_world(const Scene& scene, float margin) {
  CollisionWorld world(WorldSettings{.contact_margin = margin});
  for (size_t i = 0; i < scene.objects.size(); ++i) {
    const SceneObject& o = scene.objects[i];
    // The world refuses transforms queries would treat as invalid; such an object is left out,
    // just as every pair query answers "nothing" for it.
    if (!is_valid(o.xf)) continue;
    if (o.chain) {
      ColliderOptions options;
      options.fixed = true;
      options.user_data = static_cast<uint64_t>(i);
      world.add(*o.chain, o.xf, options);
    } else if (o.heightfield) {
      ColliderOptions options;
      options.fixed = true;
      options.user_data = static_cast<uint64_t>(i);
      world.add(*o.heightfield, o.xf, options);
    } else if (!o.convex()) {
      world.add(o.parts, o.xf, static_cast<uint64_t>(i));
    } else {
      world.add(o.shape, o.xf, static_cast<uint64_t>(i));
    }
  }
  return world;
}

int object_of(const CollisionWorld& world, ColliderId id) { return static_cast<int>(world.options(id)->user_data); }

WorldContactsAnswer world_contacts(const Scene& scene, const WorldContactsQuery& q) {
  CollisionWorld world = make_world(scene, q.margin);
  world.update();
  WorldContactsAnswer answer;
  for (const ContactPair& pair : world.contacts()) {
    ObjectContact c{object_of(world, pair.a), object_of(world, pair.b), pair.manifold, pair.part_a, pair.part_b};
    if (c.a > c.b) {
      std::swap(c.a, c.b);
      std::swap(c.part_a, c.part_b);
      c.manifold = c.manifold.flipped();
    }
    answer.pairs.push_back(c);
  }
  std::sort(answer.pairs.begin(), answer.pairs.end(), [](const ObjectContact& x, const ObjectContact& y) {
    return std::tie(x.a, x.b, x.part_a, x.part_b) < std::tie(y.a, y.b, y.part_a, y.part_b);
  });
  return answer;
}

WorldRaycastAnswer world_raycast(const Scene& scene, const WorldRaycastQuery& q) {
  const CollisionWorld world = make_world(scene, kDefaultContactMargin);
  WorldRaycastAnswer answer;
  if (!q.all) {
    const WorldCastResult r = q.radius > 0 ? world.cast_circle(q.ray, q.radius) : world.cast_ray(q.ray);
    if (r) answer.hits.push_back({object_of(world, r.id), r.hit, r.part});
    return answer;
  }
  auto collect = [&](const WorldCastResult& r) {
    answer.hits.push_back({object_of(world, r.id), r.hit, r.part});
    return 1.0f;  // keep the whole ray: every hit
  };
  if (q.radius > 0) {
    world.cast_circle(q.ray, q.radius, collect);
  } else {
    world.cast_ray(q.ray, collect);
  }
  std::stable_sort(answer.hits.begin(), answer.hits.end(), [](const ObjectHit& x, const ObjectHit& y) {
    return x.hit.fraction != y.hit.fraction ? x.hit.fraction < y.hit.fraction : x.object < y.object;
  });
  return answer;
}

json hit_json(const CastResult& h) {
  return {{"hit", h.hit}, {"fraction", number(h.fraction)}, {"point", point(h.point)}, {"normal", point(h.normal)}};
}

}  // namespace

Sweep sweep_of(const SceneObject& object, const Pose& to) {
  // The centre of mass (the area centroid: mass_properties() at any density), as a body turns.
  const Vec2 center = area(object.shape) > 0 ? mass_properties(object.shape).center : object.shape.core_centroid();
  const Transform end{to.position, Rot::from_angle(to.angle)};
  return Sweep{center, transform_point(object.xf, center), transform_point(end, center), object.angle, to.angle};
}

std::vector<Answer> run_queries(const Scene& scene) {
  std::vector<Answer> answers;
  const auto& o = scene.objects;
  auto at = [&](int i) -> const SceneObject& { return o[static_cast<size_t>(i)]; };
  for (size_t qi = 0; qi < scene.queries.size(); ++qi) {
    answers.push_back(
        std::visit(Overloaded{
                       [&](const CollideQuery& q) -> Answer {
                         return collide(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf, q.margin);
                       },
                       [&](const DistanceQuery& q) -> Answer {
                         return distance(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf);
                       },
                       [&](const OverlapQuery& q) -> Answer {
                         return OverlapAnswer{overlap(at(q.a).shape, at(q.a).xf, at(q.b).shape, at(q.b).xf)};
                       },
                       [&](const ProjectPointQuery& q) -> Answer {
                         return project_point(at(q.object).shape, at(q.object).xf, q.point);
                       },
                       [&](const ContainsQuery& q) -> Answer {
                         return ContainsAnswer{contains(at(q.object).shape, at(q.object).xf, q.point)};
                       },
                       [&](const MassQuery& q) -> Answer {
                         try {
                           const SceneObject& object = at(q.object);
                           return object.convex() ? mass_properties(object.shape, q.density)
                                                  : mass_properties(object.parts, q.density);
                         } catch (const InvalidShape& e) {
                           throw InputError("/queries/" + std::to_string(qi) + ": " + e.what());
                         }
                       },
                       [&](const BoundsQuery& q) -> Answer { return bounds(at(q.object).shape, at(q.object).xf); },
                       [&](const RaycastQuery& q) -> Answer {
                         return cast_ray(at(q.object).shape, at(q.object).xf, q.ray, q.radius);
                       },
                       [&](const ShapeCastQuery& q) -> Answer {
                         return cast_shape(at(q.a).shape, at(q.a).xf, q.translation_a, at(q.b).shape, at(q.b).xf,
                                           q.translation_b, ShapeCastOptions{q.target_separation});
                       },
                       [&](const ToiQuery& q) -> Answer {
                         ToiOptions options;
                         options.target_separation = q.target_separation;
                         return time_of_impact(at(q.a).shape, sweep_of(at(q.a), q.a_to), at(q.b).shape,
                                               sweep_of(at(q.b), q.b_to), q.t_max, options);
                       },
                       [&](const ApproachQuery& q) -> Answer {
                         return closest_approach(at(q.a).shape, at(q.a).xf, q.velocity_a, at(q.b).shape, at(q.b).xf,
                                                 q.velocity_b, q.horizon);
                       },
                       [&](const WorldContactsQuery& q) -> Answer { return world_contacts(scene, q); },
                       [&](const WorldRaycastQuery& q) -> Answer { return world_raycast(scene, q); },
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
                   [&](const ShapeCastQuery& q) {
                     r["a"] = name(q.a);
                     r["translation_a"] = point(q.translation_a);
                     r["b"] = name(q.b);
                     r["translation_b"] = point(q.translation_b);
                     r["target_separation"] = number(q.target_separation);
                   },
                   [&](const ToiQuery& q) {
                     r["a"] = name(q.a);
                     r["a_to"] = {{"position", point(q.a_to.position)}, {"angle", number(q.a_to.angle)}};
                     r["b"] = name(q.b);
                     r["b_to"] = {{"position", point(q.b_to.position)}, {"angle", number(q.b_to.angle)}};
                     r["t_max"] = number(q.t_max);
                     r["target_separation"] = number(q.target_separation);
                   },
                   [&](const ApproachQuery& q) {
                     r["a"] = name(q.a);
                     r["velocity_a"] = point(q.velocity_a);
                     r["b"] = name(q.b);
                     r["velocity_b"] = point(q.velocity_b);
                     r["horizon"] = number(q.horizon);
                   },
                   [&](const WorldContactsQuery& q) { r["margin"] = number(q.margin); },
                   [&](const WorldRaycastQuery& q) {
                     r["origin"] = point(q.ray.origin);
                     r["translation"] = point(q.ray.translation);
                     r["radius"] = number(q.radius);
                     r["all"] = q.all;
                   },
               },
               scene.queries[i]);
    json answer = std::visit(
        Overloaded{
            [](const Manifold& m) { return manifold_json(m); },
            [](const DistanceResult& d) {
              return json{{"distance", number(d.distance)},
                          {"normal", point(d.normal)},
                          {"point_a", point(d.point_a)},
                          {"point_b", point(d.point_b)}};
            },
            [](const OverlapAnswer& a) {
              return json{{"overlap", a.overlap}};
            },
            [](const ProjectionResult& p) {
              return json{{"closest", point(p.point)},
                          {"normal", point(p.normal)},
                          {"distance", number(p.distance)},
                          {"inside", p.inside}};
            },
            [](const ContainsAnswer& a) {
              return json{{"inside", a.inside}};
            },
            [](const MassProperties& m) {
              return json{{"mass", number(m.mass)}, {"center", point(m.center)}, {"inertia", number(m.inertia)}};
            },
            [](const Aabb& b) {
              return json{{"lower", point(b.lower)}, {"upper", point(b.upper)}};
            },
            [](const CastResult& h) { return hit_json(h); },
            [](const ToiResult& t) {
              static constexpr const char* kStates[] = {"hit", "separated", "overlapped", "failed"};
              return json{{"state", kStates[static_cast<int>(t.state)]},
                          {"fraction", number(t.fraction)},
                          {"point", point(t.point)},
                          {"normal", point(t.normal)}};
            },
            [](const ApproachResult& a) {
              return json{{"hit", a.hit},
                          {"time", number(a.time)},
                          {"distance", number(a.distance)},
                          {"point_a", point(a.point_a)},
                          {"point_b", point(a.point_b)},
                          {"normal", point(a.normal)}};
            },
            [&](const WorldContactsAnswer& w) {
              json pairs = json::array();
              for (const ObjectContact& c : w.pairs) {
                json m = manifold_json(c.manifold);
                json pair = {{"a", name(c.a)}, {"b", name(c.b)}};
                // Objects of several parts name theirs (a chain's segment, a compound's part).
                if (!scene.objects[static_cast<size_t>(c.a)].convex()) pair["part_a"] = c.part_a;
                if (!scene.objects[static_cast<size_t>(c.b)].convex()) pair["part_b"] = c.part_b;
                pair["count"] = m["count"];
                pair["normal"] = m["normal"];
                pair["points"] = m["points"];
                pairs.push_back(pair);
              }
              return json{{"pairs", pairs}};
            },
            [&](const WorldRaycastAnswer& w) {
              json hits = json::array();
              for (const ObjectHit& h : w.hits) {
                json one = {{"object", name(h.object)}};
                if (!scene.objects[static_cast<size_t>(h.object)].convex()) one["part"] = h.part;
                const json fields = hit_json(h.hit);  // (items() of a temporary would dangle)
                for (auto it = fields.begin(); it != fields.end(); ++it) one[it.key()] = it.value();
                hits.push_back(one);
              }
              return json{{"hits", hits}};
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
