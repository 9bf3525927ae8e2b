// Engine entry points of the cube/vector tile pipes: TPUSH, TPOP, TALLOC and TFREE on a TPipe.
//
// A pipe is a ring of slot_num slots of slot_size bytes shared by a block's cube core and its vector
// cores, named by its flag id and the direction of the transfer. A slot holds one tile in row-major
// order. Tile k of a direction goes to slot k mod slot_num: its producer waits until every consumer
// of tile k - slot_num has freed the slot, and a consumer of tile k waits until every producer part
// of it has arrived. Who takes part (TileSplitAxis):
//   C2V: the cube pushes the whole tile; with a split, vector sub-block v pops its half (rows or
//        columns, the larger half to sub-block 0 for the _ODD forms); without one, sub-block 0 pops the
//        whole tile, or, on a no-split pipe (IsNoSplit) of two sub-blocks, each of them does.
//   V2C: with a split, vector sub-block v pushes its half and the cube pops the whole tile once both
//        halves are in; without one, sub-block 0 pushes the whole tile.
// A vector sub-block with no part in a transfer (sub-block 1 without a split) does nothing.
#pragma once

#include <cstddef>
#include <cstdint>

#include <pto/common/fifo.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/data_movement.hpp>

namespace pto::engine {

// A TPipe as its template arguments and its constructor give it.
struct PipeDesc {
    uint32_t flag_id = 0;
    uint8_t direction = 0;  // Direction bits
    uint32_t slot_size = 0, slot_num = 0;
    bool no_split = false;            // IsNoSplit: a C2V tile without split goes to both sub-blocks
    std::byte* gm_slots = nullptr;    // GM_SLOT_BUFFER; null: the pipe's own storage
};

// How a TPUSH from an accumulator leaves the fixpipe (TPUSH with a FixpipeParams configuration): the
// slot receives the tile as the TSTORE of an accumulator into a global tensor of `slot_layout` (ND rows,
// DN columns or NZ fractals) would write it; the consumers read it back in that layout. Layouts other
// than ND are for unsplit tiles.
struct PushConversion {
    DType slot_dtype = DType::F32;     // the element type the slot receives
    const AccQuantization* quant = nullptr;
    ReluPreMode relu = ReluPreMode::NoRelu;
    Layout slot_layout = Layout::ND;
    AtomicType atomic = AtomicType::AtomicNone;  // AtomicAdd: added to what the slot holds
};

// TPUSH of tile `index` (the producer's count of its pushes) from `src`.
void tpush(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, const TileDesc& src,
           const PushConversion* conversion = nullptr);
// TPOP of tile `index` into `dst`, which frees this consumer's part of the slot.
void tpop(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, const TileDesc& dst);

// The GlobalData flow: TALLOC waits for the slot of tile `index` and returns where this producer's
// part of it begins (`part_rows` x `part_cols` elements of `element_bytes`, the view's static shape);
// TPUSH commits that part; TPOP waits for the slot and returns where this consumer's part begins; TFREE
// frees it.
std::byte* talloc(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols,
                  int element_bytes);
void tpush_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols,
                int element_bytes);
std::byte* tpop_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols,
                     int element_bytes);
void tfree_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split);

// Forgets the state of the block's pipe (TPipe::reset_for_cpu_sim): no tile in it, every slot free.
void reset_pipe(const PipeDesc& pipe);

}  // namespace pto::engine
