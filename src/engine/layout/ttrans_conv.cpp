// TTRANS of convolution tiles: the format changes between the convolution layouts (NCHW <-> NC1HWC0,
// GNCHW <-> GNC1HWC0, (G)NC1HWC0 -> FRACTAL_Z, NCDHW -> FRACTAL_Z_3D); checks and element moves.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/layout.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "engine/tile_element.hpp"
#include "runtime/call_site.hpp"

namespace pto::engine {

namespace {

// A format change: the source's element (n, c, ...) lands at one position of dst; padding channels (and
// batch rows of a fractal) are zero.
struct Geometry {
    int64_t g = 1, n = 0, c = 0, d = 1, h = 0, w = 0;  // the logical tensor
    int64_t c0 = 0, n0 = 1;
};

bool supported(Layout from, Layout to)
{
    return (from == Layout::NCHW && to == Layout::NC1HWC0) || (from == Layout::NC1HWC0 && to == Layout::NCHW) ||
           (from == Layout::GNCHW && to == Layout::GNC1HWC0) || (from == Layout::GNC1HWC0 && to == Layout::GNCHW) ||
           (from == Layout::NC1HWC0 && to == Layout::FRACTAL_Z) || (from == Layout::GNC1HWC0 && to == Layout::FRACTAL_Z) ||
           (from == Layout::NCDHW && to == Layout::FRACTAL_Z_3D);
}

int rank_of(Layout l)
{
    switch (l) {
        case Layout::NCHW: case Layout::FRACTAL_Z: case Layout::FRACTAL_Z_3D: return 4;
        case Layout::NC1HWC0: case Layout::GNCHW: case Layout::NCDHW: return 5;
        case Layout::GNC1HWC0: return 6;
        default: return 0;
    }
}

std::string shape_text(const ConvTileDesc& t)
{
    std::string s = "[";
    for (int d = 0; d < t.dims; ++d) s += (d ? ", " : "") + std::to_string(t.shape[d]);
    return s + "]";
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The logical tensor of a supported change, with the shape rules it implies; "" when they hold.
std::string geometry_of(const ConvTileDesc& dst, const ConvTileDesc& src, Geometry& g)
{
    const int64_t* s = src.shape;
    const int64_t* t = dst.shape;
    const int64_t natural_c0 = 32 / (dtype_bits(src.dtype) / 8);
    const auto c0_ok = [&](int64_t c0) { return c0 == natural_c0 || c0 == 4; };
    switch (src.layout) {
        case Layout::NCHW:
            g = {1, s[0], s[1], 1, s[2], s[3], t[4], 1};
            if (!c0_ok(g.c0)) return "C0 is 32 bytes of elements (or 4)";
            if (t[0] != g.n || t[1] != ceil_div(g.c, g.c0) || t[2] != g.h || t[3] != g.w) return "dst is [N, ceil(C / C0), H, W, C0]";
            return "";
        case Layout::GNCHW:
            g = {s[0], s[1], s[2], 1, s[3], s[4], t[5], 1};
            if (!c0_ok(g.c0)) return "C0 is 32 bytes of elements (or 4)";
            if (t[0] != g.g || t[1] != g.n || t[2] != ceil_div(g.c, g.c0) || t[3] != g.h || t[4] != g.w)
                return "dst is [G, N, ceil(C / C0), H, W, C0]";
            return "";
        case Layout::NC1HWC0:
            if (dst.layout == Layout::NCHW) {
                g = {1, t[0], t[1], 1, t[2], t[3], s[4], 1};
                if (s[0] != g.n || s[1] != ceil_div(g.c, g.c0) || s[2] != g.h || s[3] != g.w) return "src is [N, ceil(C / C0), H, W, C0]";
                return "";
            }
            g = {1, s[0], s[1] * s[4], 1, s[2], s[3], s[4], t[2]};
            if (t[0] != s[1] * s[2] * s[3] || t[2] != 16 || t[1] != ceil_div(g.n, 16) || t[3] != g.c0)
                return "dst is [C1 * H * W, ceil(N / 16), 16, C0]";
            return "";
        case Layout::GNC1HWC0:
            if (dst.layout == Layout::GNCHW) {
                g = {t[0], t[1], t[2], 1, t[3], t[4], s[5], 1};
                if (s[0] != g.g || s[1] != g.n || s[2] != ceil_div(g.c, g.c0) || s[3] != g.h || s[4] != g.w)
                    return "src is [G, N, ceil(C / C0), H, W, C0]";
                return "";
            }
            g = {s[0], s[1], s[2] * s[5], 1, s[3], s[4], s[5], t[2]};
            if (t[0] != s[0] * s[2] * s[3] * s[4] || t[2] != 16 || t[1] != ceil_div(g.n, 16) || t[3] != g.c0)
                return "dst is [G * C1 * H * W, ceil(N / 16), 16, C0]";
            return "";
        case Layout::NCDHW:
            g = {1, s[0], s[1], s[2], s[3], s[4], t[3], t[2]};
            if (!c0_ok(g.c0) || t[2] != 16 || t[1] != ceil_div(g.n, 16) || t[0] != g.d * ceil_div(g.c, g.c0) * g.h * g.w)
                return "dst is [D * ceil(C / C0) * H * W, ceil(N / 16), 16, C0], C0 32 bytes of elements";
            return "";
        default: return "a supported format change";
    }
}

}  // namespace

void check_ttrans_conv(const profile::Profile&, const ConvTileDesc& dst, const ConvTileDesc& src, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}})
        if (t->loc != TileType::Vec)
            report(sink, "LEGAL_TTRANS_LOCATION", name, "TTRANS takes Vec tiles", "a Vec tile", std::string(profile::location_name(t->loc)));
    const int bits = dtype_bits(src.dtype);
    if (dst.dtype != src.dtype || (bits != 8 && bits != 16 && bits != 32))
        report(sink, "LEGAL_TTRANS_DTYPE", "dst", "1-, 2- or 4-byte elements, one type in src and dst", std::string(dtype_name(src.dtype)),
               std::string(dtype_name(dst.dtype)));
    if (!supported(src.layout, dst.layout))
        report(sink, "LEGAL_TTRANS_FORMAT", "dst", "a format change TTRANS makes: NCHW <-> NC1HWC0, GNCHW <-> GNC1HWC0, (G)NC1HWC0 -> FRACTAL_Z, NCDHW -> FRACTAL_Z_3D",
               "a supported pair", "another pair of layouts");
    else if (src.dims != rank_of(src.layout) || dst.dims != rank_of(dst.layout))
        report(sink, "LEGAL_TTRANS_FORMAT", "dst", "each layout has its number of dimensions",
               std::to_string(rank_of(src.layout)) + " and " + std::to_string(rank_of(dst.layout)),
               std::to_string(src.dims) + " and " + std::to_string(dst.dims));
}

void ttrans_conv(const ConvTileDesc& dst, const ConvTileDesc& src)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TTRANS");
    StopAtFirstFinding stop;
    check_ttrans_conv(runtime::active_profile(), dst, src, stop);
    Geometry g;
    const std::string shape_rule = geometry_of(dst, src, g);
    if (!shape_rule.empty())
        runtime::fail({"RUN_TTRANS_SHAPE", "TTRANS", "dst", shape_rule, shape_rule, shape_text(src) + " -> " + shape_text(dst), ""});
    const int bits = dtype_bits(src.dtype);
    const int64_t dst_bytes = dst.elements() * bits / 8;
    runtime::require_tile_bytes(dst.data, dst_bytes, "its shape", "dst");
    runtime::require_tile_bytes(src.data, src.elements() * bits / 8, "its shape", "src");
    require_written(src, "src");
    const int64_t c1 = ceil_div(g.c, g.c0), hw = g.h * g.w, n1 = ceil_div(g.n, g.n0);
    // Element (g, n, c, d, h, w) of the logical tensor in each layout.
    const auto plain = [&](int64_t gi, int64_t n, int64_t c, int64_t d, int64_t p) { return (((gi * g.n + n) * g.c + c) * g.d + d) * hw + p; };
    const auto blocked = [&](int64_t gi, int64_t n, int64_t c, int64_t p) { return (((gi * g.n + n) * c1 + c / g.c0) * hw + p) * g.c0 + c % g.c0; };
    const auto fractal = [&](int64_t gi, int64_t n, int64_t c, int64_t d, int64_t p) {
        const int64_t row = ((gi * g.d + d) * c1 + c / g.c0) * hw + p;
        return ((row * n1 + n / g.n0) * g.n0 + n % g.n0) * g.c0 + c % g.c0;
    };
    // Padding (channels past C, batch rows past N) is written as zeros: dst is cleared first.
    std::vector<std::byte> staged;
    const std::byte* from = src.data;
    if (src.data < dst.data + dst_bytes && dst.data < src.data + src.elements() * bits / 8) {
        staged.assign(src.data, src.data + src.elements() * bits / 8);
        from = staged.data();
    }
    std::memset(dst.data, 0, size_t(dst_bytes));
    for (int64_t gi = 0; gi < g.g; ++gi)
        for (int64_t n = 0; n < g.n; ++n)
            for (int64_t c = 0; c < g.c; ++c)
                for (int64_t d = 0; d < g.d; ++d)
                    for (int64_t p = 0; p < hw; ++p) {
                        int64_t in = 0, out = 0;
                        switch (src.layout) {
                            case Layout::NCHW: case Layout::GNCHW: in = plain(gi, n, c, 0, p), out = blocked(gi, n, c, p); break;
                            case Layout::NC1HWC0: case Layout::GNC1HWC0:
                                in = blocked(gi, n, c, p);
                                out = dst.layout == Layout::FRACTAL_Z ? fractal(gi, n, c, 0, p) : plain(gi, n, c, 0, p);
                                break;
                            default: in = plain(gi, n, c, d, p), out = fractal(0, n, c, d, p); break;
                        }
                        copy_element(dst.data, out, from, in, bits);
                    }
    runtime::mark_written(dst.data, size_t(dst_bytes));
}

}  // namespace pto::engine
