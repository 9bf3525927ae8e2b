// TLOAD and TSTORE of convolution tiles (pto::ConvTile): the tile's dense array to and from the global
// tensor of its layout, one run of consecutive elements at a time.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>

#include "engine/data_movement/global_view.hpp"
#include "engine/data_movement/operand_checks.hpp"
#include "runtime/call_site.hpp"

namespace pto::engine {

namespace dm = data_movement;

namespace {

constexpr int kGlobalDims = 5;

std::string shape_text(const ConvTileDesc& t)
{
    std::string s = "(";
    for (int d = 0; d < t.dims; ++d)
        s += (d ? ", " : "") + std::to_string(t.shape[d]);
    return s + ")";
}

int64_t element_bytes(DType t) { return (dtype_bits(t) + 7) / 8; }

// Tile dimensions the tensor's strides address; a sixth is the contiguous innermost run.
int addressed_dims(const ConvTileDesc& t) { return t.dims < kGlobalDims ? t.dims : kGlobalDims; }

// The run-time facts: a shape of 1..6 positive dimensions inside the buffer (RUN_VALID_SHAPE), storage
// (RUN_NULL_POINTER), each addressed dimension within the tensor's (RUN_GLOBAL_SHAPE), and every
// element reached inside the tensor's allocation (RUN_GLOBAL_OOB).
void check_operands(const ConvTileDesc& tile, const GlobalDesc& global, const char* tile_operand,
                    const char* global_operand)
{
    bool shape_ok = tile.dims >= 1 && tile.dims <= ConvTileDesc::kMaxDims;
    for (int d = 0; shape_ok && d < tile.dims; ++d) shape_ok = tile.shape[d] >= 1;
    if (!shape_ok) {
        runtime::fail({"RUN_VALID_SHAPE", "", tile_operand, "the convolution tile's shape is empty or has no dimensions",
                       "1 to 6 dimensions, each >= 1", shape_text(tile), ""});
    }
    const int64_t bytes = tile.elements() * element_bytes(tile.dtype);
    if (bytes > tile.buffer_bytes) {
        runtime::fail({"RUN_VALID_SHAPE", "", tile_operand,
                       "the convolution tile's shape " + shape_text(tile) + " needs more bytes than its buffer",
                       "at most " + std::to_string(tile.buffer_bytes) + " bytes", std::to_string(bytes), ""});
    }
    if (!tile.data) {
        runtime::fail({"RUN_NULL_POINTER", "", tile_operand, "the tile has no storage", "a tile address", "nullptr", ""});
    }
    runtime::require_tile_bytes(tile.data, bytes, "its shape", tile_operand);

    dm::check_global_dims(global, global_operand);
    int64_t max_index[kGlobalDims] = {0, 0, 0, 0, 0};
    for (int d = 0; d < addressed_dims(tile); ++d) {
        if (tile.shape[d] > global.shape[d]) {
            runtime::fail({"RUN_GLOBAL_SHAPE", "", global_operand,
                           "dimension " + std::to_string(d) + " of the convolution tile " + shape_text(tile) +
                               " exceeds the global tensor's",
                           "at most " + std::to_string(global.shape[d]), std::to_string(tile.shape[d]), ""});
        }
        max_index[d] = tile.shape[d] - 1;
    }
    const int64_t inner = tile.dims > kGlobalDims ? tile.shape[kGlobalDims] : 1;
    dm::check_global_reach(global, max_index, inner, global_operand);
}

// Calls copy(tile_bytes, global_bytes, run_bytes) for each run of consecutive elements: the tile is
// dense; the tensor is consecutive along a sixth dimension, or along the last addressed one when its
// stride is 1.
template <typename Copy>
void for_each_run(const ConvTileDesc& tile, const GlobalDesc& global, Copy&& copy)
{
    const int64_t size = element_bytes(tile.dtype);
    const int outer_dims = addressed_dims(tile);
    const int last = outer_dims - 1;
    const bool last_contiguous = tile.dims <= kGlobalDims && global.stride[last] == 1;
    const int walked = last_contiguous ? last : outer_dims;  // dimensions walked one index at a time
    const int64_t run = (last_contiguous ? tile.shape[last] : 1) * (tile.dims > kGlobalDims ? tile.shape[kGlobalDims] : 1);

    int64_t index[kGlobalDims] = {0, 0, 0, 0, 0};
    std::byte* tile_at = tile.data;
    for (;;) {
        int64_t global_offset = 0;
        for (int d = 0; d < walked; ++d) global_offset += index[d] * global.stride[d];
        copy(tile_at, global.data + global_offset * size, run * size);
        tile_at += run * size;
        int d = walked - 1;
        for (; d >= 0 && ++index[d] == tile.shape[d]; --d) index[d] = 0;
        if (d < 0) return;
    }
}

void check_and_warn(const ConvTileDesc& tile, const GlobalDesc& global, bool load)
{
    StopAtFirstFinding stop;
    check_conv_transfer(runtime::active_profile(), tile, global, load, stop);
    warn_if_cpu_only(runtime::active_profile(), [&](const profile::Profile& p, LegalitySink& s) {
        check_conv_transfer(p, tile, global, load, s);
    });
}

}  // namespace

void check_conv_transfer(const profile::Profile& p, const ConvTileDesc& tile, const GlobalDesc& global, bool load,
                         LegalitySink& sink)
{
    const char* tile_operand = load ? "dst" : "src";
    const char* global_operand = load ? "src" : "dst";
    if (!rules::conv_tile_location_ok(p, tile.loc, load)) {
        dm::report_rule(sink, p, load ? "LEGAL_TLOAD_LOCATION" : "LEGAL_TSTORE_LOCATION", tile_operand,
                        std::string(load ? "TLOAD cannot load into" : "TSTORE cannot store from") +
                            " a convolution tile in " + dm::location_name(tile.loc),
                        "a Vec or Mat convolution tile", dm::location_name(tile.loc));
    }
    const bool dtype_ok = load ? rules::tload_dtype_ok(p, tile.dtype) : rules::tstore_dtype_ok(p, tile.dtype);
    if (!dtype_ok) {
        dm::report_rule(sink, p, load ? "LEGAL_TLOAD_DTYPE" : "LEGAL_TSTORE_DTYPE", tile_operand,
                        std::string(load ? "TLOAD does not load " : "TSTORE does not store ") +
                            std::string(dtype_name(tile.dtype)) + " tiles",
                        "a supported element type", std::string(dtype_name(tile.dtype)));
    }
    if (!rules::element_size_match(tile.dtype, global.dtype)) {
        dm::report_rule(sink, p, "LEGAL_GM_ELEMENT_SIZE", global_operand,
                        "the tile's element type " + std::string(dtype_name(tile.dtype)) + " and the global tensor's " +
                            std::string(dtype_name(global.dtype)) + " differ in size",
                        std::to_string(dtype_bits(tile.dtype)) + "-bit elements",
                        std::to_string(dtype_bits(global.dtype)) + "-bit elements");
    }
    if (!rules::conv_layout_ok(tile.layout, global.layout)) {
        dm::report_rule(sink, p, "LEGAL_GM_LAYOUT", global_operand,
                        "a convolution tile moves to and from a global tensor of its own convolution layout",
                        dm::layout_name(tile.layout) + " (a convolution layout)", dm::layout_name(global.layout));
    }
}

void tload(const ConvTileDesc& dst, const GlobalDesc& src)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TLOAD");
    check_and_warn(dst, src, true);
    check_operands(dst, src, "dst", "src");
    for_each_run(dst, src, [](std::byte* tile, const std::byte* global, int64_t bytes) {
        std::memcpy(tile, global, static_cast<size_t>(bytes));
    });
    runtime::mark_written(dst.data, static_cast<size_t>(dst.elements() * element_bytes(dst.dtype)));
}

void tstore(const GlobalDesc& dst, const ConvTileDesc& src)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TSTORE");
    check_and_warn(src, dst, false);
    check_operands(src, dst, "src", "dst");
    require_written(src, "src");
    for_each_run(src, dst, [](const std::byte* tile, std::byte* global, int64_t bytes) {
        std::memcpy(global, tile, static_cast<size_t>(bytes));
    });
}

}  // namespace pto::engine
