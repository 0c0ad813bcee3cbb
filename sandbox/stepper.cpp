// The soft-step solver (Catto, "Solver2D" 2024, and the soft constraints of his GDC 2011 talk):
// each sub-step finds the contacts afresh, solves them with a spring-damper bias that pushes
// penetration out smoothly, moves the bodies, then relaxes the velocities without that bias so
// the push-out adds no energy. Impulses carry over from one sub-step to the next through the
// manifolds' feature ids, which keep their meaning while the same features touch.
#include "sandbox/stepper.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

namespace pebble::sandbox {
namespace {

/// w x r for a scalar angular velocity w.
Vec2 cross(float w, Vec2 r) { return w * left_perp(r); }

/// A contact's spring-damper in the form the solver uses (Catto, GDC 2011 "Soft Constraints"):
/// bias velocity per metre of penetration, and how much of the rigid impulse and of the
/// accumulated impulse one pass applies.
struct Softness {
  float bias_rate, mass_scale, impulse_scale;
};
Softness make_softness(float hertz, float damping_ratio, float h) {
  const float omega = 2.0f * std::numbers::pi_v<float> * hertz;
  const float a1 = 2.0f * damping_ratio + h * omega;
  const float a2 = h * omega * a1;
  const float a3 = 1.0f / (1.0f + a2);
  return {omega / a1, a2 * a3, a3};
}

bool pair_less(const BodyContact& x, const BodyContact& y) {
  return std::tie(x.a, x.b, x.part_a, x.part_b) < std::tie(y.a, y.b, y.part_a, y.part_b);
}

}  // namespace

float Body::max_point_speed() const { return length(velocity) + std::fabs(angular_velocity) * reach; }

Stepper::Stepper(StepSettings settings, std::unique_ptr<PairSource> pairs)
    : settings_(settings), pairs_(pairs ? std::move(pairs) : std::make_unique<BruteForcePairs>()) {}

int Stepper::add(const BodyDef& def) {
  Body body;
  body.parts = def.parts.empty() ? std::vector<Shape>{def.shape} : def.parts;
  body.shape = body.parts[0];
  body.xf = def.xf;
  body.angle = def.xf.q.angle();
  body.xf.q = Rot::from_angle(body.angle);
  body.friction = def.friction;
  body.restitution = def.restitution;
  body.rolling_resistance = def.rolling_resistance;
  const MassProperties mp = mass_properties(body.parts, def.density);
  body.local_center = mp.center;
  body.center = transform_point(body.xf, mp.center);
  for (const Shape& part : body.parts)
    for (const Vec2 v : part.vertices()) body.reach = std::max(body.reach, distance(v, mp.center) + part.radius());
  if (mp.mass > 0 && def.density > 0) {
    body.inv_mass = 1.0f / mp.mass;
    body.inv_inertia = mp.inertia > 0 ? 1.0f / mp.inertia : 0.0f;
    body.velocity = def.velocity;
    body.angular_velocity = def.angular_velocity;
  }
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(body);
  start_center_.push_back(body.center);
  start_angle_.push_back(body.angle);
  turned_.push_back(Rot::identity());
  pairs_->add(index, body.parts, body.xf, body.is_static());
  return index;
}

int Stepper::add_chain(const Chain& chain, const Transform& xf, float friction) {
  const int index = add_terrain(chain.segments(), chain, xf, friction);
  pairs_->add_chain(index, chain, xf);
  return index;
}

int Stepper::add_heightfield(const Heightfield& field, const Transform& xf, float friction) {
  const int index = add_terrain(field.cells(), field.chain(), xf, friction);
  pairs_->add_heightfield(index, field, xf);
  return index;
}

int Stepper::add_terrain(std::span<const ChainSegment> segments, const Chain& chain, const Transform& xf,
                         float friction) {
  Body body;
  for (const ChainSegment& s : segments) body.parts.push_back(s.shape);
  body.shape = body.parts[0];
  body.xf = xf;
  body.angle = xf.q.angle();
  body.friction = friction;
  body.center = xf.p;
  body.chain = static_cast<int>(chains_.size());
  chains_.push_back(chain);
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(body);
  start_center_.push_back(body.center);
  start_angle_.push_back(body.angle);
  turned_.push_back(Rot::identity());
  return index;
}

void Stepper::step(float dt) {
  stats_ = {};
  ids_lost_ = ids_tracked_ = 0;
  if (!(dt > 0) || settings_.substeps < 1) return;
  const float h = dt / static_cast<float>(settings_.substeps);
  for (int i = 0; i < settings_.substeps; ++i) substep(h);
  stats_.manifolds = static_cast<int>(contacts_.size());
  stats_.warm_started = warm_started_;
  stats_.ids_lost = ids_lost_;
  stats_.ids_tracked = ids_tracked_;
  for (const BodyContact& c : contacts_) {
    stats_.points += c.manifold.count;
    for (int k = 0; k < c.manifold.count; ++k)
      stats_.max_penetration = std::max(stats_.max_penetration, -c.manifold.points[k].separation);
  }
}

void Stepper::substep(float h) {
  warm_started_ = 0;
  pairs_->find_contacts(settings_.margin, contacts_);
  for (size_t i = 0; i < bodies_.size(); ++i) {
    start_center_[i] = bodies_[i].center;
    start_angle_[i] = bodies_[i].angle;
    turned_[i] = Rot::identity();
  }
  prepare();

  // Gravity, then the impulses of the previous sub-step (warm start).
  const float max_turn = 0.25f * std::numbers::pi_v<float> / h;
  for (Body& b : bodies_) {
    if (b.is_static()) continue;
    b.velocity += h * settings_.gravity;
    const float speed = length(b.velocity);
    if (speed > settings_.max_speed) b.velocity *= settings_.max_speed / speed;
    b.angular_velocity = std::clamp(b.angular_velocity, -max_turn, max_turn);
  }
  for (const Constraint& c : constraints_) {
    Body& a = bodies_[static_cast<size_t>(c.a)];
    Body& b = bodies_[static_cast<size_t>(c.b)];
    const Vec2 t = right_perp(c.normal);
    a.angular_velocity -= a.inv_inertia * c.rolling_impulse;
    b.angular_velocity += b.inv_inertia * c.rolling_impulse;
    for (int k = 0; k < c.count; ++k) {
      const PointConstraint& p = c.points[k];
      const Vec2 impulse = p.normal_impulse * c.normal + p.tangent_impulse * t;
      a.velocity -= a.inv_mass * impulse;
      a.angular_velocity -= a.inv_inertia * pebble::cross(p.ra, impulse);
      b.velocity += b.inv_mass * impulse;
      b.angular_velocity += b.inv_inertia * pebble::cross(p.rb, impulse);
    }
  }

  for (int i = 0; i < settings_.solve_iterations; ++i) solve(h, true);

  for (size_t i = 0; i < bodies_.size(); ++i) {
    Body& b = bodies_[i];
    if (b.is_static()) continue;
    b.center += h * b.velocity;
    b.angle += h * b.angular_velocity;
    // Keep the stored angle small so that its float keeps full precision.
    if (std::fabs(b.angle) > 2.0f * std::numbers::pi_v<float>)
      b.angle = std::remainder(b.angle, 2.0f * std::numbers::pi_v<float>);
    b.xf.q = Rot::from_angle(b.angle);
    b.xf.p = b.center - rotate(b.xf.q, b.local_center);
    turned_[i] = Rot::from_angle(b.angle - start_angle_[i]);  // since the collision pass
    pairs_->move(static_cast<int>(i), b.xf);
  }
  for (int i = 0; i < settings_.relax_iterations; ++i) solve(h, false);
  apply_restitution();
  std::swap(previous_, constraints_);
}

void Stepper::prepare() {
  std::stable_sort(contacts_.begin(), contacts_.end(), pair_less);
  constraints_.clear();
  size_t old = 0;  // previous_ is sorted by pair too: one merge walk finds each pair's old impulses
  for (const BodyContact& contact : contacts_) {
    const Body& a = bodies_[static_cast<size_t>(contact.a)];
    const Body& b = bodies_[static_cast<size_t>(contact.b)];
    Constraint c;
    c.a = contact.a;
    c.b = contact.b;
    c.part_a = contact.part_a;
    c.part_b = contact.part_b;
    c.normal = contact.manifold.normal;
    c.count = contact.manifold.count;
    c.friction = std::sqrt(a.friction * b.friction);
    c.restitution = std::max(a.restitution, b.restitution);
    const float lever = a.is_static() ? b.reach : b.is_static() ? a.reach : std::min(a.reach, b.reach);
    c.rolling_limit = std::max(a.rolling_resistance, b.rolling_resistance) * lever;
    const float k_roll = a.inv_inertia + b.inv_inertia;
    c.rolling_mass = k_roll > 0 ? 1.0f / k_roll : 0.0f;
    const auto key = [](const Constraint& x) { return std::tie(x.a, x.b, x.part_a, x.part_b); };
    while (old < previous_.size() && key(previous_[old]) < key(c)) ++old;
    const Constraint* before = old < previous_.size() && key(previous_[old]) == key(c) ? &previous_[old] : nullptr;
    if (before) c.rolling_impulse = before->rolling_impulse;
    const Vec2 t = right_perp(c.normal);
    int matched = 0;
    for (int k = 0; k < c.count; ++k) {
      const ContactPoint& cp = contact.manifold.points[k];
      PointConstraint& p = c.points[k];
      p.id = cp.id;
      p.ra = cp.point - a.center;
      p.rb = cp.point - b.center;
      p.base_separation = cp.separation;
      const float rna = pebble::cross(p.ra, c.normal), rnb = pebble::cross(p.rb, c.normal);
      const float kn = a.inv_mass + b.inv_mass + a.inv_inertia * rna * rna + b.inv_inertia * rnb * rnb;
      p.normal_mass = kn > 0 ? 1.0f / kn : 0.0f;
      const float rta = pebble::cross(p.ra, t), rtb = pebble::cross(p.rb, t);
      const float kt = a.inv_mass + b.inv_mass + a.inv_inertia * rta * rta + b.inv_inertia * rtb * rtb;
      p.tangent_mass = kt > 0 ? 1.0f / kt : 0.0f;
      const Vec2 dv = b.velocity + cross(b.angular_velocity, p.rb) - a.velocity - cross(a.angular_velocity, p.ra);
      p.approach_speed = dot(dv, c.normal);
      if (before) {
        for (int j = 0; j < before->count; ++j) {
          if (before->points[j].id != p.id) continue;
          p.normal_impulse = before->points[j].normal_impulse;
          p.tangent_impulse = before->points[j].tangent_impulse;
          ++warm_started_;
          ++matched;
        }
      }
    }
    if (before) {
      // A point of the previous sub-step whose id is gone lost its impulses only if it had some:
      // one that carried none (a speculative point at the margin's edge, swapped for the other end
      // of a face as both hover at the margin) leaves nothing to warm-start.
      int unmatched_pushing = 0;
      for (int j = 0; j < before->count; ++j) {
        bool found = false;
        for (int k = 0; k < c.count; ++k) found = found || c.points[k].id == before->points[j].id;
        if (!found && before->points[j].normal_impulse > 0) ++unmatched_pushing;
      }
      const int could_keep = std::min(c.count, before->count);
      ids_tracked_ += could_keep;
      ids_lost_ += std::min(std::max(0, could_keep - matched), unmatched_pushing);
    }
    constraints_.push_back(c);
  }
}

float Stepper::current_separation(const Constraint& c, const PointConstraint& p) const {
  const size_t ia = static_cast<size_t>(c.a), ib = static_cast<size_t>(c.b);
  const Vec2 da = bodies_[ia].center - start_center_[ia] + rotate(turned_[ia], p.ra) - p.ra;
  const Vec2 db = bodies_[ib].center - start_center_[ib] + rotate(turned_[ib], p.rb) - p.rb;
  return p.base_separation + dot(db - da, c.normal);
}

void Stepper::solve(float h, bool use_bias) {
  const float inv_h = 1.0f / h;
  const Softness soft =
      make_softness(std::min(settings_.contact_hertz, 0.25f * inv_h), settings_.contact_damping_ratio, h);
  for (Constraint& c : constraints_) {
    Body& a = bodies_[static_cast<size_t>(c.a)];
    Body& b = bodies_[static_cast<size_t>(c.b)];
    Vec2 va = a.velocity, vb = b.velocity;
    float wa = a.angular_velocity, wb = b.angular_velocity;
    const Vec2 n = c.normal;
    for (int k = 0; k < c.count; ++k) {
      PointConstraint& p = c.points[k];
      const float s = current_separation(c, p);
      float bias = 0, mass_scale = 1, impulse_scale = 0;
      if (s > 0) {
        bias = s * inv_h;  // speculative: approach no faster than closes the gap this sub-step
      } else if (use_bias) {
        bias = std::max(soft.bias_rate * s, -settings_.max_push_speed);
        mass_scale = soft.mass_scale;
        impulse_scale = soft.impulse_scale;
      }
      const Vec2 dv = vb + cross(wb, p.rb) - va - cross(wa, p.ra);
      const float vn = dot(dv, n);
      const float lambda = -p.normal_mass * mass_scale * (vn + bias) - impulse_scale * p.normal_impulse;
      const float total = std::max(p.normal_impulse + lambda, 0.0f);
      const Vec2 impulse = (total - p.normal_impulse) * n;
      p.normal_impulse = total;
      p.max_normal_impulse = std::max(p.max_normal_impulse, total);
      va -= a.inv_mass * impulse;
      wa -= a.inv_inertia * pebble::cross(p.ra, impulse);
      vb += b.inv_mass * impulse;
      wb += b.inv_inertia * pebble::cross(p.rb, impulse);
    }
    const Vec2 t = right_perp(n);
    for (int k = 0; k < c.count; ++k) {
      PointConstraint& p = c.points[k];
      const Vec2 dv = vb + cross(wb, p.rb) - va - cross(wa, p.ra);
      const float limit = c.friction * p.normal_impulse;
      const float total = std::clamp(p.tangent_impulse - p.tangent_mass * dot(dv, t), -limit, limit);
      const Vec2 impulse = (total - p.tangent_impulse) * t;
      p.tangent_impulse = total;
      va -= a.inv_mass * impulse;
      wa -= a.inv_inertia * pebble::cross(p.ra, impulse);
      vb += b.inv_mass * impulse;
      wb += b.inv_inertia * pebble::cross(p.rb, impulse);
    }
    if (c.rolling_limit > 0) {
      float total_normal = 0;
      for (int k = 0; k < c.count; ++k) total_normal += c.points[k].normal_impulse;
      const float limit = c.rolling_limit * total_normal;
      const float total = std::clamp(c.rolling_impulse - c.rolling_mass * (wb - wa), -limit, limit);
      wa -= a.inv_inertia * (total - c.rolling_impulse);
      wb += b.inv_inertia * (total - c.rolling_impulse);
      c.rolling_impulse = total;
    }
    if (!a.is_static()) {
      a.velocity = va;
      a.angular_velocity = wa;
    }
    if (!b.is_static()) {
      b.velocity = vb;
      b.angular_velocity = wb;
    }
  }
}

void Stepper::apply_restitution() {
  const float threshold = settings_.restitution_threshold;
  for (Constraint& c : constraints_) {
    if (c.restitution == 0) continue;
    Body& a = bodies_[static_cast<size_t>(c.a)];
    Body& b = bodies_[static_cast<size_t>(c.b)];
    for (int k = 0; k < c.count; ++k) {
      PointConstraint& p = c.points[k];
      if (p.approach_speed > -threshold || p.max_normal_impulse == 0) continue;
      const Vec2 dv = b.velocity + cross(b.angular_velocity, p.rb) - a.velocity - cross(a.angular_velocity, p.ra);
      const float lambda = -p.normal_mass * (dot(dv, c.normal) + c.restitution * p.approach_speed);
      const float total = std::max(p.normal_impulse + lambda, 0.0f);
      const Vec2 impulse = (total - p.normal_impulse) * c.normal;
      p.normal_impulse = total;
      a.velocity -= a.inv_mass * impulse;
      a.angular_velocity -= a.inv_inertia * pebble::cross(p.ra, impulse);
      b.velocity += b.inv_mass * impulse;
      b.angular_velocity += b.inv_inertia * pebble::cross(p.rb, impulse);
    }
  }
}

StepStats Stepper::measure() {
  std::vector<BodyContact> touching;
  pairs_->find_contacts(0.0f, touching);
  StepStats s;
  s.manifolds = static_cast<int>(touching.size());
  for (const BodyContact& c : touching) {
    s.points += c.manifold.count;
    for (int k = 0; k < c.manifold.count; ++k)
      s.max_penetration = std::max(s.max_penetration, -c.manifold.points[k].separation);
  }
  return s;
}

float Stepper::kinetic_energy() const {
  double e = 0;
  for (const Body& b : bodies_) {
    if (b.is_static()) continue;
    const double m = 1.0 / b.inv_mass;
    const double inertia = b.inv_inertia > 0 ? 1.0 / b.inv_inertia : 0.0;
    e += 0.5 * m * length_squared(b.velocity) + 0.5 * inertia * b.angular_velocity * b.angular_velocity;
  }
  return static_cast<float>(e);
}

float Stepper::max_point_speed() const {
  float v = 0;
  for (const Body& b : bodies_)
    if (!b.is_static()) v = std::max(v, b.max_point_speed());
  return v;
}

}  // namespace pebble::sandbox
