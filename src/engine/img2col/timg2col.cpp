// TIMG2COL and the configuration instructions that load the img2col registers it reads.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/img2col.hpp>
#include <pto/profile/rules_img2col.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>

#include "runtime/call_site.hpp"

#include <cstring>
#include <string>

namespace pto::engine {

namespace {

bool is_bank_b(SetFmatrixMode mode) { return mode == SetFmatrixMode::FMATRIX_B_AUTO || mode == SetFmatrixMode::FMATRIX_B_MANUAL; }
bool is_auto(SetFmatrixMode mode) { return mode == SetFmatrixMode::FMATRIX_A_AUTO || mode == SetFmatrixMode::FMATRIX_B_AUTO; }

runtime::Img2colRegisters& bank_of(SetFmatrixMode mode) { return runtime::core_registers().img2col[is_bank_b(mode) ? 1 : 0]; }

std::string bank_name(SetFmatrixMode mode) { return is_bank_b(mode) ? "B" : "A"; }

[[noreturn]] void fail(const char* code, const char* operand, std::string message, std::string expected, std::string actual)
{
    runtime::fail({code, "", operand, std::move(message), std::move(expected), std::move(actual), ""});
}

// The feature map's extents in src's layout: N, D (1 for NC1HWC0), C1, H, W, C0.
struct MapShape {
    int64_t n, d, c1, h, w, c0;
};

MapShape map_shape(const ConvTileDesc& src)
{
    const int dims = src.layout == Layout::NDC1HWC0 ? 6 : 5;
    if (src.dims != dims)
        fail("RUN_VALID_SHAPE", "src", "the feature map has the dimensions of its layout", std::to_string(dims),
             std::to_string(src.dims));
    runtime::require_tile_bytes(src.data, src.elements() * dtype_bits(src.dtype) / 8, "its shape", "src");
    if (src.layout == Layout::NDC1HWC0) return {src.shape[0], src.shape[1], src.shape[2], src.shape[3], src.shape[4], src.shape[5]};
    return {src.shape[0], 1, src.shape[1], src.shape[2], src.shape[3], src.shape[4]};
}

void check_config(const Img2colConfig& c)
{
    if (c.filter_h == 0 || c.filter_w == 0 || c.stride_h == 0 || c.stride_w == 0 || c.dilation_h == 0 || c.dilation_w == 0)
        fail("RUN_IMG2COL_CONFIG", "src", "filter, stride and dilation are at least 1", "each >= 1",
             "filter " + std::to_string(c.filter_h) + "x" + std::to_string(c.filter_w) + ", stride " +
                 std::to_string(c.stride_h) + "x" + std::to_string(c.stride_w) + ", dilation " +
                 std::to_string(c.dilation_h) + "x" + std::to_string(c.dilation_w));
    if (c.transpose) fail("RUN_IMG2COL_CONFIG", "src", "the transposing img2col load is not modelled", "transpose off", "on");
}

}  // namespace

void set_fmatrix(const Img2colConfig& config, SetFmatrixMode mode)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("SETFMATRIX");
    if (is_auto(mode)) return;
    if (config.fmatrix.fmap_h == 0 || config.fmatrix.fmap_w == 0)
        fail("RUN_IMG2COL_CONFIG", "src", "SETFMATRIX loads a feature map of at least 1 x 1", "fmap height and width >= 1",
             std::to_string(config.fmatrix.fmap_h) + " x " + std::to_string(config.fmatrix.fmap_w));
    bank_of(mode).fmatrix = config.fmatrix;
}

void set_img2col_padding(const Img2colConfig& config, SetFmatrixMode mode)
{
    if (!is_auto(mode)) bank_of(mode).padding = config.pad_value_bits;
}

void set_img2col_repeat(const Img2colConfig& config, SetFmatrixMode mode)
{
    if (!is_auto(mode)) bank_of(mode).repeat = config.repeat;
}

void check_timg2col(const profile::Profile& p, const TileDesc& dst, const ConvTileDesc& src, LegalitySink& sink)
{
    if (!rules::timg2col_location_ok(src.loc, dst.loc))
        report(sink, "LEGAL_TIMG2COL_LOCATION", "dst", "TIMG2COL reads a Mat feature map into a Left tile",
               "Mat -> Left", std::string(profile::location_name(src.loc)) + " -> " + std::string(profile::location_name(dst.loc)));
    if (!rules::timg2col_layout_ok(p, src.layout, dst.blayout, dst.slayout))
        report(sink, "LEGAL_TIMG2COL_LAYOUT", "dst", "an NC1HWC0/NDC1HWC0 map into the target's left-operand fractals",
               p.target == profile::Target::A2A3 ? "Zz (row-major boxes, row-major inside)"
                                                 : "Nz (column-major boxes, row-major inside)",
               "another layout");
    if (!rules::timg2col_dtype_ok(p, src.dtype, dst.dtype))
        report(sink, "LEGAL_TIMG2COL_DTYPE", "dst", "one element type the target's img2col moves",
               p.target == profile::Target::A2A3 ? "i8, f16, bf16 or f32 for both" : "an 8-, 16- or 32-bit type for both",
               std::string(dtype_name(src.dtype)) + " -> " + std::string(dtype_name(dst.dtype)));
}

void timg2col(const TileDesc& dst, const ConvTileDesc& src, const Img2colConfig& config, SetFmatrixMode mode,
              uint16_t pos_m, uint16_t pos_k)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TIMG2COL");
    StopAtFirstFinding stop;
    check_timg2col(runtime::active_profile(), dst, src, stop);
    check_config(config);
    runtime::Img2colRegisters& bank = bank_of(mode);
    if (is_auto(mode)) {
        bank.fmatrix = config.fmatrix;
        bank.padding = config.pad_value_bits;
        bank.repeat = config.repeat;
    }
    if (!bank.fmatrix)
        fail("RUN_IMG2COL_UNSET", "src", "FMATRIX register " + bank_name(mode) + " was never loaded: the device would read a stale feature-map size",
             "SETFMATRIX with the same FMATRIX_" + bank_name(mode) + "_MANUAL mode first, or an AUTO mode", "none");
    if (bank.repeat && bank.repeat->times > 1)
        fail("RUN_IMG2COL_CONFIG", "src", "img2col loads of several repeats are not modelled", "repeat time 1",
             std::to_string(bank.repeat->times));
    const runtime::FmatrixRegister& map = *bank.fmatrix;
    const MapShape shape = map_shape(src);
    if (map.fmap_h != shape.h || map.fmap_w != shape.w)
        fail("RUN_IMG2COL_FMATRIX", "src", "FMATRIX register " + bank_name(mode) + " describes another feature map than src",
             "src's H x W " + std::to_string(shape.h) + " x " + std::to_string(shape.w),
             std::to_string(map.fmap_h) + " x " + std::to_string(map.fmap_w));

    const int64_t pad_left = map.pad[0], pad_right = map.pad[1], pad_top = map.pad[2], pad_bottom = map.pad[3];
    const int64_t span_h = shape.h + pad_top + pad_bottom - int64_t(config.dilation_h) * (config.filter_h - 1);
    const int64_t span_w = shape.w + pad_left + pad_right - int64_t(config.dilation_w) * (config.filter_w - 1);
    if (span_h < 1 || span_w < 1)
        fail("RUN_IMG2COL_CONFIG", "src", "the dilated filter is larger than the padded feature map",
             "at most the padded map", "filter " + std::to_string(config.filter_h) + "x" + std::to_string(config.filter_w));
    const int64_t out_h = (span_h - 1) / config.stride_h + 1, out_w = (span_w - 1) / config.stride_w + 1;
    require_written(src, "src");
    const int64_t k_per_c1 = int64_t(config.filter_h) * config.filter_w * shape.c0;
    const int bytes = dst.element_bits() / 8;
    bool padded = false;
    for (int r = 0; r < dst.valid_rows; ++r) {
        const int64_t m = int64_t(pos_m) + r;
        const int64_t per_batch = shape.d * out_h * out_w, n = m / per_batch;
        const int64_t d = m % per_batch / (out_h * out_w), oh = m % (out_h * out_w) / out_w, ow = m % out_w;
        for (int c = 0; c < dst.valid_cols; ++c) {
            const int64_t k = int64_t(pos_k) + c;
            const int64_t c1 = k / k_per_c1, kernel = k % k_per_c1 / shape.c0, c0 = k % shape.c0;
            const int64_t ih = oh * config.stride_h + kernel / config.filter_w * config.dilation_h - pad_top;
            const int64_t iw = ow * config.stride_w + kernel % config.filter_w * config.dilation_w - pad_left;
            std::byte* out = element_address(dst, dst.offset(r, c));
            if (n < shape.n && c1 < shape.c1 && ih >= 0 && ih < shape.h && iw >= 0 && iw < shape.w) {
                const int64_t at = ((((n * shape.d + d) * shape.c1 + c1) * shape.h + ih) * shape.w + iw) * shape.c0 + c0;
                std::memcpy(out, src.data + at * bytes, size_t(bytes));
            } else {
                padded = true;
                if (!bank.padding) break;
                std::memcpy(out, &*bank.padding, size_t(bytes));
            }
        }
        if (padded && !bank.padding)
            fail("RUN_IMG2COL_UNSET", "src", "the padding register " + bank_name(mode) + " was never loaded and this load pads",
                 "SET_IMG2COL_PADDING with the same mode first, or an AUTO mode", "none");
    }
    mark_written(dst);
}

}  // namespace pto::engine
