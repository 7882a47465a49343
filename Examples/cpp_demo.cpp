// LayerKit from C++17: the C header used as is, objects owned by
// std::unique_ptr, a property set through a key path, pixels read back into
// a std::vector.
//
// usage: cpp_demo [OUTDIR]   writes OUTDIR/cpp_demo.png (default: out)
#include <layerkit/layerkit.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Release {
    void operator()(void *object) const noexcept { lk_release(object); }
};
struct Close {
    void operator()(lk_display *display) const noexcept { lk_display_close(display); }
};
using Layer = std::unique_ptr<lk_layer, Release>;
using Display = std::unique_ptr<lk_display, Close>;

void check(lk_status status, const char *what)
{
    if (status != LK_OK)
        throw std::runtime_error(std::string(what) + ": " + lk_last_error());
}

template <typename T> T *made(T *object, const char *what)
{
    if (object == nullptr)
        throw std::runtime_error(std::string(what) + ": " + lk_last_error());
    return object;
}

int run(const std::string &outdir)
{
    constexpr std::uint32_t width = 160, height = 120;

    Layer root{made(lk_layer_create(), "lk_layer_create")};
    check(lk_layer_set_frame(root.get(), lk_rect_make(0, 0, width, height)), "root frame");
    check(lk_layer_set_background_color(root.get(), lk_color_make(0.05, 0.05, 0.08, 1)), "root colour");

    Layer tile{made(lk_layer_create(), "lk_layer_create")};
    check(lk_layer_set_bounds(tile.get(), lk_rect_make(0, 0, 60, 60)), "tile bounds");
    check(lk_layer_set_position(tile.get(), lk_point_make(width / 2.0, height / 2.0)), "tile position");
    check(lk_layer_set_background_color(tile.get(), lk_color_make(0.2, 0.8, 0.4, 1)), "tile colour");
    check(lk_layer_set_corner_radius(tile.get(), 8), "tile corner radius");
    // the same call a Core Animation program makes with setValue:forKeyPath:
    check(lk_layer_set_value(tile.get(), "transform.rotation.z", lk_value_number(0.25)), "transform.rotation.z");
    check(lk_layer_add_sublayer(root.get(), tile.get()), "add sublayer");

    lk_display_options options{};
    options.struct_size = sizeof options;
    options.backend = "software";
    options.width = width;
    options.height = height;
    options.manual_clock = true;
    Display display{made(lk_display_open(&options), "lk_display_open")};
    check(lk_display_set_root_layer(display.get(), root.get()), "set root layer");
    check(lk_display_render_frame_at(display.get(), 0.0), "render");

    std::vector<std::uint8_t> pixels(std::size_t{width} * height * 4);
    check(lk_display_read_pixels(display.get(), pixels.data(), width * 4), "read pixels");
    const auto *centre = &pixels[(std::size_t{height} / 2 * width + width / 2) * 4];
    std::printf("cpp_demo: centre pixel rgba(%u, %u, %u, %u)\n", centre[0], centre[1], centre[2], centre[3]);

    const std::string path = outdir + "/cpp_demo.png";
    check(lk_display_write_png(display.get(), path.c_str()), "write png");
    std::printf("cpp_demo: wrote %s\n", path.c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    try {
        return run(argc > 1 ? argv[1] : "out");
    } catch (const std::exception &error) {
        std::fprintf(stderr, "cpp_demo: %s\n", error.what());
        return 1;
    }
}
