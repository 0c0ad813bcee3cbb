// tools/render.hpp — the picture of a scene and its query results (`pebble render`): each object
// in its own colour, contact points and normals, closest points, projections, rays and hits, over
// a grid with labelled axes in metres, with a legend.
#pragma once

#include <string>
#include <vector>

#include "tools/query.hpp"

namespace pebble::tools {

/// Picture formats `pebble render` writes.
enum class ImageFormat { png, svg };

/// How the picture is laid out.
struct RenderSettings {
  int width = 960;  ///< pixels (PNG) or points (SVG), legend included; the height follows the scene
};

/// Draws the scene and the answers to its queries; returns the file's bytes.
std::string render_scene(const Scene& scene, const std::vector<Answer>& answers, ImageFormat format,
                         const RenderSettings& settings = {});

}  // namespace pebble::tools
