// slide_files.h — what a lecturer takes away from a tour: the stops' screenshots as one PDF
// (a page per image, through cairo) and a range of steps as an animation (GIF through giflib,
// WebP through libwebp's animation encoder). The images are PNGs the window saved; nothing
// here draws the app.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace cli {

// One PDF page per PNG, in order, each page the image's size at 96 pixels per inch. The error
// names the file that could not be read or written.
std::optional<std::string> WriteSlidesPdf(const std::vector<std::string>& pngs, const std::string& pdf);

// The PNGs as an animation that loops, `frame_ms` each; the format from the name's ending
// (".gif" or ".webp"), refused otherwise.
std::optional<std::string> WriteAnimation(const std::vector<std::string>& pngs, const std::string& path, int frame_ms);
bool IsAnimationName(const std::string& path);

}  // namespace cli
