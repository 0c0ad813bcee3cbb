// Shape makers: hull cleaning, degenerate cores and validation messages.
#include <gtest/gtest.h>
#include <pebble/shape.hpp>

using namespace pebble;

TEST(ShapeMakers, BoxIsCounterClockwiseWithOutwardNormals) {
  const Shape s = Shape::box(2, 1);
  ASSERT_EQ(s.vertex_count(), 4);
  const auto n = s.normals();
  for (int i = 0; i < 4; ++i) {
    const Vec2 a = s.vertices()[i], b = s.vertices()[(i + 1) % 4];
    EXPECT_GT(cross(b - a, s.vertices()[(i + 2) % 4] - a), 0);
    EXPECT_NEAR(dot(n[i], b - a), 0, 1e-6);
    EXPECT_GT(dot(n[i], a - s.core_centroid()), 0);
  }
}

TEST(ShapeMakers, CapsuleOfEqualPointsIsACircle) {
  const Shape s = Shape::capsule({1, 2}, {1, 2}, 0.5f);
  EXPECT_EQ(s.vertex_count(), 1);
  EXPECT_EQ(s.edge_count(), 0);
  EXPECT_FLOAT_EQ(s.radius(), 0.5f);
}

TEST(ShapeMakers, CollinearPointsBecomeASegment) {
  const Vec2 pts[] = {{0, 0}, {1, 1}, {3, 3}, {2, 2}};
  const Shape s = Shape::polygon(pts);
  ASSERT_EQ(s.vertex_count(), 2);
  EXPECT_EQ(s.edge_count(), 2);
}

TEST(ShapeMakers, NegativeRadiusNamesTheValue) {
  try {
    (void)Shape::circle(-2.5f);
    FAIL();
  } catch (const InvalidShape& e) {
    EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("-2.5"), std::string::npos);
  }
}
