// Compiles against the public API only; exits non-zero if a basic query is wrong.
#include <cmath>
#include <cstdio>
#include <pebble/pebble.hpp>

float pebble_contract_checksum();  // contract.cpp

int main() {
  const pebble::Shape s = pebble::Shape::box(1, 2);
  // A world on two threads (its pool needs the thread library find_package brings along).
  pebble::WorldSettings settings;
  settings.threads = 2;
  pebble::CollisionWorld world(settings);
  world.add(s, pebble::Transform::identity());
  world.add(pebble::Shape::circle(0.5f), {{1.4f, 0}, {}});
  world.update();
  const bool ok = s.vertex_count() == 4 && pebble::contains(s, pebble::Transform::identity(), {0.5f, 1.5f}) &&
                  !pebble::contains(s, pebble::Transform::identity(), {1.5f, 0}) && world.contacts().size() == 1 &&
                  std::isfinite(pebble_contract_checksum());
  std::printf("consumer: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
