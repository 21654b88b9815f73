#include "app/cli/slide_files.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <gif_lib.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <memory>

namespace cli {
namespace {

// PDF points per screen pixel: 72 points per inch over 96 pixels per inch.
constexpr double kPointsPerPixel = 72.0 / 96.0;

bool EndsWith(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

struct SurfaceDeleter {
  void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

// A PNG as cairo's ARGB32 image, or the error.
Surface ReadPng(const std::string& path, std::string& error) {
  Surface image(cairo_image_surface_create_from_png(path.c_str()));
  if (cairo_surface_status(image.get()) != CAIRO_STATUS_SUCCESS) {
    error = "cannot read " + path + ": " + cairo_status_to_string(cairo_surface_status(image.get()));
    return nullptr;
  }
  return image;
}

// One frame as RGBA bytes, row after row (cairo keeps premultiplied BGRA words; screenshots are opaque).
struct Rgba {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> bytes;
};

std::optional<Rgba> ReadRgba(const std::string& path, std::string& error) {
  Surface image = ReadPng(path, error);
  if (!image) return std::nullopt;
  cairo_surface_flush(image.get());
  Rgba out;
  out.width = cairo_image_surface_get_width(image.get());
  out.height = cairo_image_surface_get_height(image.get());
  const int stride = cairo_image_surface_get_stride(image.get());
  const unsigned char* data = cairo_image_surface_get_data(image.get());
  out.bytes.resize(static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.height) * 4);
  for (int y = 0; y < out.height; ++y) {
    const auto* row = reinterpret_cast<const std::uint32_t*>(data + static_cast<std::ptrdiff_t>(y) * stride);
    for (int x = 0; x < out.width; ++x) {
      std::uint8_t* px = &out.bytes[(static_cast<std::size_t>(y) * static_cast<std::size_t>(out.width) +
                                     static_cast<std::size_t>(x)) * 4];
      px[0] = static_cast<std::uint8_t>(row[x] >> 16);
      px[1] = static_cast<std::uint8_t>(row[x] >> 8);
      px[2] = static_cast<std::uint8_t>(row[x]);
      px[3] = 255;
    }
  }
  return out;
}

std::optional<std::string> WriteWebp(const std::vector<Rgba>& frames, const std::string& path, int frame_ms) {
  WebPAnimEncoderOptions options;
  if (!WebPAnimEncoderOptionsInit(&options)) return std::string("libwebp: version mismatch");
  options.anim_params.loop_count = 0;
  WebPAnimEncoder* encoder = WebPAnimEncoderNew(frames[0].width, frames[0].height, &options);
  if (!encoder) return std::string("libwebp: cannot start the animation");
  WebPConfig config;
  WebPConfigInit(&config);
  config.lossless = 1;  // text and cell borders stay sharp
  config.quality = 50;  // lossless: effort, not loss
  int timestamp = 0;
  std::optional<std::string> error;
  for (const Rgba& frame : frames) {
    WebPPicture picture;
    WebPPictureInit(&picture);
    picture.use_argb = 1;
    picture.width = frame.width;
    picture.height = frame.height;
    const bool ok = WebPPictureImportRGBA(&picture, frame.bytes.data(), frame.width * 4) &&
                    WebPAnimEncoderAdd(encoder, &picture, timestamp, &config);
    WebPPictureFree(&picture);
    if (!ok) {
      error = std::string("libwebp: cannot add a frame: ") + WebPAnimEncoderGetError(encoder);
      break;
    }
    timestamp += frame_ms;
  }
  WebPData data;
  WebPDataInit(&data);
  if (!error && !(WebPAnimEncoderAdd(encoder, nullptr, timestamp, nullptr) && WebPAnimEncoderAssemble(encoder, &data))) {
    error = std::string("libwebp: ") + WebPAnimEncoderGetError(encoder);
  }
  WebPAnimEncoderDelete(encoder);
  if (!error) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(data.bytes, 1, data.size, file) != data.size || std::fclose(file) != 0) {
      error = "cannot write " + path;
    }
  }
  WebPDataClear(&data);
  return error;
}

// GIF holds 256 colours a frame: giflib's median-cut quantizer picks them per frame.
std::optional<std::string> WriteGif(const std::vector<Rgba>& frames, const std::string& path, int frame_ms) {
  int status = 0;
  // Opened here with the usual mode (EGifOpenFileName would make it 0600); giflib closes it.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  GifFileType* gif = EGifOpenFileHandle(fd, &status);
  if (!gif) {
    ::close(fd);
    return "cannot write " + path + ": " + GifErrorString(status);
  }
  const int width = frames[0].width;
  const int height = frames[0].height;
  const std::size_t pixels = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  std::optional<std::string> error;
  EGifSetGifVersion(gif, true);
  // Each frame brings its own colours; a small global map gives the background index 0 a
  // colour, as decoders expect.
  const GifColorType background[2] = {{0, 0, 0}, {255, 255, 255}};
  ColorMapObject* screen = GifMakeMapObject(2, background);
  if (!screen || EGifPutScreenDesc(gif, width, height, 8, 0, screen) == GIF_ERROR) error = "giflib: cannot start " + path;
  GifFreeMapObject(screen);
  // NETSCAPE2.0: loop for ever.
  const unsigned char loop_name[] = "NETSCAPE2.0";
  const unsigned char loop_forever[] = {1, 0, 0};
  if (!error && (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
                 EGifPutExtensionBlock(gif, 11, loop_name) == GIF_ERROR ||
                 EGifPutExtensionBlock(gif, 3, loop_forever) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)) {
    error = "giflib: cannot mark " + path + " to loop";
  }
  std::vector<GifByteType> red(pixels), green(pixels), blue(pixels), indices(pixels);
  for (std::size_t f = 0; f < frames.size() && !error; ++f) {
    for (std::size_t i = 0; i < pixels; ++i) {
      red[i] = frames[f].bytes[i * 4];
      green[i] = frames[f].bytes[i * 4 + 1];
      blue[i] = frames[f].bytes[i * 4 + 2];
    }
    int colours = 256;
    GifColorType palette[256];
    if (GifQuantizeBuffer(static_cast<unsigned>(width), static_cast<unsigned>(height), &colours, red.data(),
                          green.data(), blue.data(), indices.data(), palette) == GIF_ERROR) {
      error = "giflib: cannot reduce frame " + std::to_string(f + 1) + " to 256 colours";
      break;
    }
    ColorMapObject* map = GifMakeMapObject(256, palette);
    GraphicsControlBlock control{};
    control.DelayTime = frame_ms / 10;  // hundredths of a second
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const std::size_t length = EGifGCBToExtension(&control, extension);
    bool ok = map && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) != GIF_ERROR &&
              EGifPutImageDesc(gif, 0, 0, width, height, false, map) != GIF_ERROR;
    for (int y = 0; ok && y < height; ++y) {
      ok = EGifPutLine(gif, indices.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width), width) !=
           GIF_ERROR;
    }
    GifFreeMapObject(map);
    if (!ok) error = "giflib: cannot write frame " + std::to_string(f + 1) + " of " + path;
  }
  if (EGifCloseFile(gif, &status) == GIF_ERROR && !error) error = "cannot finish " + path + ": " + GifErrorString(status);
  return error;
}

}  // namespace

bool IsAnimationName(const std::string& path) { return EndsWith(path, ".gif") || EndsWith(path, ".webp"); }

std::optional<std::string> WriteSlidesPdf(const std::vector<std::string>& pngs, const std::string& pdf) {
  if (pngs.empty()) return std::string("no slides to put in ") + pdf;
  cairo_surface_t* document = cairo_pdf_surface_create(pdf.c_str(), 1.0, 1.0);
  std::optional<std::string> error;
  if (cairo_surface_status(document) != CAIRO_STATUS_SUCCESS) {
    error = "cannot write " + pdf + ": " + cairo_status_to_string(cairo_surface_status(document));
  }
  for (const std::string& png : pngs) {
    if (error) break;
    std::string read_error;
    Surface image = ReadPng(png, read_error);
    if (!image) {
      error = read_error;
      break;
    }
    const double width = cairo_image_surface_get_width(image.get()) * kPointsPerPixel;
    const double height = cairo_image_surface_get_height(image.get()) * kPointsPerPixel;
    cairo_pdf_surface_set_size(document, width, height);
    cairo_t* page = cairo_create(document);
    cairo_scale(page, kPointsPerPixel, kPointsPerPixel);
    cairo_set_source_surface(page, image.get(), 0.0, 0.0);
    cairo_paint(page);
    cairo_show_page(page);
    cairo_destroy(page);
  }
  cairo_surface_finish(document);
  if (!error && cairo_surface_status(document) != CAIRO_STATUS_SUCCESS) {
    error = "cannot write " + pdf + ": " + cairo_status_to_string(cairo_surface_status(document));
  }
  cairo_surface_destroy(document);
  return error;
}

std::optional<std::string> WriteAnimation(const std::vector<std::string>& pngs, const std::string& path, int frame_ms) {
  if (!IsAnimationName(path)) return path + ": an animation is a .gif or a .webp";
  if (pngs.empty()) return "no frames to put in " + path;
  std::vector<Rgba> frames;
  for (const std::string& png : pngs) {
    std::string error;
    std::optional<Rgba> frame = ReadRgba(png, error);
    if (!frame) return error;
    if (!frames.empty() && (frame->width != frames[0].width || frame->height != frames[0].height)) {
      return png + " is not the size of the first frame";
    }
    frames.push_back(std::move(*frame));
  }
  return EndsWith(path, ".gif") ? WriteGif(frames, path, frame_ms) : WriteWebp(frames, path, frame_ms);
}

}  // namespace cli
