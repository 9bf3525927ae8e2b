// The main job's kernel: z = x + y over a 2-D float tensor, tile by tile, on several blocks, written
// only against the public PTO API (examples/vector_add/vector_add.cpp runs it; tests and benchmarks too).
#pragma once

#include <pto/pto-inst.hpp>

namespace vector_add {

using namespace pto;

inline constexpr int kTileRows = 64;
inline constexpr int kTileCols = 256;

// z = x + y over a rows x cols float tensor; block b handles every block_num-th tile row band.
AICORE inline void vector_add_kernel(__gm__ float* x, __gm__ float* y, __gm__ float* z, int rows, int cols)
{
    using TileT = Tile<TileType::Vec, float, kTileRows, kTileCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Global = GlobalTensor<float, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>>;

    TileT a(kTileRows, kTileCols), b(kTileRows, kTileCols), c(kTileRows, kTileCols);
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x10000);
    TASSIGN(c, 0x20000);

    // Every iteration reuses the tiles: its loads wait until the last TADD has read a and b (V -> MTE2),
    // its TADD until the last TSTORE has read c (MTE3 -> V). Both flags start set and are waited at the end.
    set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    const int bands = (rows + kTileRows - 1) / kTileRows;
    for (int band = static_cast<int>(get_block_idx()); band < bands; band += static_cast<int>(get_block_num())) {
        const int r0 = band * kTileRows;
        const int h = rows - r0 < kTileRows ? rows - r0 : kTileRows;
        for (int c0 = 0; c0 < cols; c0 += kTileCols) {
            const int w = cols - c0 < kTileCols ? cols - c0 : kTileCols;
            const size_t at = size_t(r0) * cols + c0;
            Global gx(x + at, {h, w}, {cols}), gy(y + at, {h, w}, {cols}), gz(z + at, {h, w}, {cols});
            a.SetValidShape(h, w);
            b.SetValidShape(h, w);
            c.SetValidShape(h, w);

            wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
            Event<Op::TLOAD, Op::TADD> loaded;
            TLOAD(a, gx);
            loaded = TLOAD(b, gy);
            wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
            Event<Op::TADD, Op::TSTORE_VEC> added = TADD(c, a, b, loaded);
            set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
            TSTORE(gz, c, added);
            set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
        }
    }
    wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);
    wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
}

}  // namespace vector_add
