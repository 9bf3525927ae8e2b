// TPUSH, TPOP, TALLOC and TFREE: the slots of a block's tile pipes, who waits for whom, and the
// transfers in and out of a slot (the TSTORE and TLOAD the device's pipes are made of).
#include <pto/engine/ops/tile_pipe.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "runtime/call_site.hpp"
#include "runtime/order_checker.hpp"
#include "runtime/scheduler.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace pto::engine {

namespace {

enum class Flow : uint8_t { C2V, V2C };

const char* flow_name(Flow f) { return f == Flow::C2V ? "C2V" : "V2C"; }

bool carries(const PipeDesc& pipe, Flow flow)
{
    const uint8_t bits = pipe.direction & 0x7;
    if (bits == DIR_V2C_CTRL) return flow == Flow::V2C;
    if (bits == DIR_C2V_GM || bits == DIR_V2C_GM || bits == DIR_BOTH_GM) {
        return flow == Flow::C2V ? (bits & 1) != 0 : (bits & 2) != 0;  // 5 = C2V_GM, 6 = V2C_GM, 7 both
    }
    return flow == Flow::C2V ? (bits & DIR_C2V) != 0 : (bits & DIR_V2C) != 0;
}

// The flag pair a flow signals on: a pipe of both directions runs its V2C tiles on the two flags after
// its C2V pair, as the device's TPipe does, so a V2C pipe of flag_id + 2 is the same channel.
uint32_t flow_flag(const PipeDesc& pipe, Flow flow) { return pipe.flag_id + (flow == Flow::V2C && carries(pipe, Flow::C2V) ? 2 : 0); }

std::string pipe_name(const PipeDesc& pipe, Flow flow)
{
    return std::string("the ") + flow_name(flow) + " pipe of flag " + std::to_string(flow_flag(pipe, flow));
}

// --- who takes part in a transfer ----------------------------------------------------------------

struct Part {
    uint32_t index = 0, count = 1;  // this core's part of the transfer, and how many parts it has
    bool active = true;             // false: a vector sub-block with no part in it
};

bool splits(TileSplitAxis split) { return split != TILE_NO_SPLIT; }

uint32_t sub_block(TileSplitAxis split, const char* instr)
{
    const uint32_t sub = runtime::subblock_idx();
    if (splits(split) && sub > 1) {
        runtime::fail({"RUN_PIPE_SUBBLOCK", instr, "", "a split tile has two halves, for vector sub-blocks 0 and 1",
                       "sub-block 0 or 1", "sub-block " + std::to_string(sub), ""});
    }
    return sub;
}

Part producer_part(Flow flow, TileSplitAxis split, const char* instr)
{
    if (flow == Flow::C2V) return {};
    const uint32_t sub = sub_block(split, instr);
    if (splits(split)) return {sub, 2, true};
    return {0, 1, sub == 0};
}

Part consumer_part(const PipeDesc& pipe, Flow flow, TileSplitAxis split, const char* instr)
{
    if (flow == Flow::V2C) return {};
    const uint32_t sub = sub_block(split, instr);
    if (splits(split)) return {sub, 2, true};
    const uint32_t subs = runtime::subblock_num();
    if (pipe.no_split && subs >= 2) return {sub, subs, true};
    return {0, 1, sub == 0};
}

// --- where a part lies in its slot ---------------------------------------------------------------

// A slot holds one tile of full_rows x full_cols elements (the producer's valid region, or both halves
// of it), row after row, row_stride elements apart (the producer's static width, both halves' for a
// left/right split). An accumulator pushed through the fixpipe may lie in the slot column by column (DN)
// or in Nz fractals of 16 rows by 32 bytes (NZ) instead; it is never split then.
struct SlotLayout {
    int64_t full_rows = 0, full_cols = 0, row_stride = 0;
    int element_bytes = 0;
    Layout global = Layout::ND;
    friend bool operator==(const SlotLayout&, const SlotLayout&) = default;

    int64_t fractal_cols() const { return 32 / element_bytes; }
    int64_t bytes() const
    {
        switch (global) {
            case Layout::DN: return full_rows * full_cols * element_bytes;
            case Layout::NZ:
                return (full_rows + 15) / 16 * 16 * ((full_cols + fractal_cols() - 1) / fractal_cols() * 32);
            default: return ((full_rows - 1) * row_stride + full_cols) * element_bytes;
        }
    }
};

struct Window {
    int64_t row = 0, col = 0, rows = 0, cols = 0;
};

bool splits_rows(TileSplitAxis s) { return s == TILE_UP_DOWN || s == TILE_UP_DOWN_ODD; }
bool odd(TileSplitAxis s) { return s == TILE_UP_DOWN_ODD || s == TILE_LEFT_RIGHT_ODD; }

// The part of sub-block `sub` of a full extent `n` split in two (the larger half first when odd).
void half_of(TileSplitAxis split, uint32_t sub, int64_t n, int64_t& start, int64_t& size)
{
    const int64_t first = odd(split) ? (n + 1) / 2 : n / 2;
    start = sub == 0 ? 0 : first;
    size = sub == 0 ? first : n - first;
}

// Where a part of a transfer lies in its slot: a half of the tile, or all of it.
Window window_of(TileSplitAxis split, const Part& part, const SlotLayout& slot)
{
    Window w{0, 0, slot.full_rows, slot.full_cols};
    if (!splits(split) || part.count != 2) return w;
    if (splits_rows(split)) {
        half_of(split, part.index, slot.full_rows, w.row, w.rows);
    } else {
        half_of(split, part.index, slot.full_cols, w.col, w.cols);
    }
    return w;
}

// The whole tile a producer's part belongs to: its own valid region, or, for a half, twice it (one more
// or one less for the _ODD forms, whose sub-block 0 has the larger half); `width` is its static width.
SlotLayout layout_from_part(TileSplitAxis split, const Part& part, int64_t rows, int64_t cols, int64_t width, int element_bytes)
{
    SlotLayout slot{rows, cols, width, element_bytes};
    if (part.count == 2) {
        int64_t& n = splits_rows(split) ? slot.full_rows : slot.full_cols;
        n = 2 * n + (odd(split) ? (part.index == 0 ? -1 : 1) : 0);
        if (!splits_rows(split)) slot.row_stride = 2 * width;
    }
    return slot;
}

// --- the pipes of a launch (or of the threads outside launches) -----------------------------------

struct Slot {
    int64_t filled = -1, freed = -1;  // the last tile every producer part filled / every consumer freed
    uint32_t allocated_parts = 0, filled_parts = 0, freed_parts = 0;  // of the tile in progress
    SlotLayout layout;
    // Checked mode: what the producers' pushes and the consumers' frees carry to the other side. A
    // join over the slot's life is exact: the next tile's push waits for this tile's frees and back.
    runtime::order::CoreClock pushes, frees;
};

struct Channel {
    uint32_t slot_size = 0, slot_num = 0;
    std::vector<Slot> slots;
    std::vector<std::byte> own_storage;  // when the pipe names no global slots
    std::set<uint32_t> producers, consumers;  // the launch's cores seen on either side
};

using ChannelKey = std::tuple<uint64_t, uint32_t, uint32_t, Flow>;  // task cookie, block, flag id, flow

struct Pipes {
    std::map<ChannelKey, Channel> channels;

    // A tile pushed and never popped (or popped and never freed) at the end of a launch: on the device
    // its flags stay set for whatever runs next.
    void at_launch_end() const
    {
        for (const auto& [key, c] : channels)
            for (std::size_t s = 0; s < c.slots.size(); ++s) {
                const Slot& slot = c.slots[s];
                if (slot.filled <= slot.freed && slot.allocated_parts == 0) continue;
                const auto& [cookie, block, flag, flow] = key;
                (void)cookie;
                runtime::fail({"ORDER_PIPE_NOT_EMPTY", "", "",
                               std::string("the ") + flow_name(flow) + " pipe of flag " + std::to_string(flag) + " in block " +
                                   std::to_string(block) + " ends the kernel with slot " + std::to_string(s) + " in use: " +
                                   (slot.allocated_parts ? std::string("a tile allocated but never pushed")
                                                         : "tile " + std::to_string(slot.filled) + " pushed but never popped and freed"),
                               "every tile pushed popped, every slot freed", "a slot in use", ""});
            }
    }
};

ChannelKey key_of(const PipeDesc& pipe, Flow flow)
{
    return {runtime::task_cookie(), runtime::block_idx(), flow_flag(pipe, flow), flow};
}

Channel& channel_of(const PipeDesc& pipe, Flow flow, const char* instr)
{
    if (pipe.slot_num == 0 || pipe.slot_size == 0) {
        runtime::fail({"RUN_PIPE_SHAPE", instr, "pipe", "a TPipe has at least one slot of at least one byte", "SlotNum >= 1, SlotSize >= 1",
                       std::to_string(pipe.slot_num) + " slots of " + std::to_string(pipe.slot_size) + " bytes", ""});
    }
    Channel& c = runtime::cross_core_objects().get<Pipes>().channels[key_of(pipe, flow)];
    if (c.slots.empty()) {
        c.slot_size = pipe.slot_size;
        c.slot_num = pipe.slot_num;
        c.slots.resize(pipe.slot_num);
        if (!pipe.gm_slots) c.own_storage.resize(size_t(pipe.slot_size) * pipe.slot_num);
    } else if (c.slot_size != pipe.slot_size || c.slot_num != pipe.slot_num) {
        runtime::fail({"RUN_PIPE_MISMATCH", instr, "pipe",
                       pipe_name(pipe, flow) + " is used with two shapes in block " + std::to_string(runtime::block_idx()),
                       std::to_string(c.slot_num) + " slots of " + std::to_string(c.slot_size) + " bytes",
                       std::to_string(pipe.slot_num) + " slots of " + std::to_string(pipe.slot_size) + " bytes", ""});
    }
    return c;
}

// A pipe of both directions in global slots keeps its V2C ring after its C2V ring, as the device's TPipe.
std::byte* slot_base(const PipeDesc& pipe, Channel& c, Flow flow, uint32_t index)
{
    std::byte* base = pipe.gm_slots ? pipe.gm_slots : c.own_storage.data();
    if (pipe.gm_slots && flow == Flow::V2C && carries(pipe, Flow::C2V)) base += size_t(c.slot_num) * c.slot_size;
    return base + size_t(index % c.slot_num) * c.slot_size;
}

// The cores that could end a wait on the other side: those seen there, else the cores of the other
// kind in `block` (a wait is described on whichever thread finds the deadlock).
std::vector<uint32_t> other_side(const std::set<uint32_t>& seen, runtime::CoreKind kind, uint32_t block)
{
    if (!seen.empty()) return {seen.begin(), seen.end()};
    return runtime::block_cores(block, kind);
}

void note_core(std::set<uint32_t>& seen)
{
    if (const auto core = runtime::current_core_index()) seen.insert(*core);
}

runtime::CoreKind consumer_kind(Flow flow) { return flow == Flow::C2V ? runtime::CoreKind::Vector : runtime::CoreKind::Cube; }
runtime::CoreKind producer_kind(Flow flow) { return flow == Flow::C2V ? runtime::CoreKind::Cube : runtime::CoreKind::Vector; }

// Waits until the slot of tile `index` is free for this producer part, and reserves it.
Channel& acquire(const PipeDesc& pipe, Flow flow, uint32_t index, const Part& part, const char* instr,
                 std::unique_lock<std::mutex>& lock)
{
    Channel& c = channel_of(pipe, flow, instr);
    note_core(c.producers);
    const int64_t tile = index;
    Slot& slot = c.slots[index % c.slot_num];
    const uint32_t block = runtime::block_idx();
    const auto ready = [&] { return tile < c.slot_num || slot.freed >= tile - int64_t(c.slot_num); };
    const auto describe = [&] {
        return runtime::WaitReason{"waits in " + std::string(instr) + " for slot " + std::to_string(index % c.slot_num) +
                                       " of " + pipe_name(pipe, flow) + " to be freed (tile " +
                                       std::to_string(tile - int64_t(c.slot_num)) + " not yet popped)",
                                   other_side(c.consumers, consumer_kind(flow), block)};
    };
    runtime::cross_core_wait(lock, ready, describe);
    runtime::order::acquire(slot.frees);
    if (slot.filled >= tile || (slot.allocated_parts >> part.index & 1u)) {
        runtime::fail({"RUN_PIPE_PROTOCOL", instr, "pipe",
                       "tile " + std::to_string(tile) + " of " + pipe_name(pipe, flow) + " is pushed twice by the same producer",
                       "one push of each tile per producer part", "a second one", ""});
    }
    slot.allocated_parts |= 1u << part.index;
    return c;
}

// Commits this producer part of tile `index`; the consumers of the tile may go on once every part is in.
void commit(const PipeDesc& pipe, Flow flow, uint32_t index, const Part& part, const SlotLayout& layout, const char* instr)
{
    auto lock = runtime::cross_core_lock();
    Channel& c = channel_of(pipe, flow, instr);
    Slot& slot = c.slots[index % c.slot_num];
    if (!(slot.allocated_parts >> part.index & 1u)) {
        runtime::fail({"RUN_PIPE_PROTOCOL", instr, "pipe",
                       "TPUSH of a global slot that no TALLOC allocated (tile " + std::to_string(index) + " of " +
                           pipe_name(pipe, flow) + ")",
                       "TALLOC, then the stores, then TPUSH", "TPUSH alone", ""});
    }
    if (slot.filled_parts == 0) {
        slot.layout = layout;
    } else if (slot.layout != layout) {
        runtime::fail({"RUN_PIPE_SHAPE", instr, "tile",
                       "the two halves of tile " + std::to_string(index) + " of " + pipe_name(pipe, flow) + " disagree on the whole tile",
                       std::to_string(slot.layout.full_rows) + "x" + std::to_string(slot.layout.full_cols),
                       std::to_string(layout.full_rows) + "x" + std::to_string(layout.full_cols), ""});
    }
    slot.filled_parts |= 1u << part.index;
    slot.pushes.join(runtime::order::release());
    if (uint32_t(std::popcount(slot.filled_parts)) == part.count) {
        slot.filled = index;
        slot.filled_parts = slot.allocated_parts = 0;
        runtime::cross_core_changed();
    }
}

// Waits until tile `index` is in its slot; returns the slot's layout.
SlotLayout wait_filled(const PipeDesc& pipe, Flow flow, uint32_t index, const char* instr, Channel*& channel)
{
    auto lock = runtime::cross_core_lock();
    Channel& c = channel_of(pipe, flow, instr);
    note_core(c.consumers);
    const int64_t tile = index;
    Slot& slot = c.slots[index % c.slot_num];
    const uint32_t block = runtime::block_idx();
    const auto ready = [&] { return slot.filled >= tile; };
    const auto describe = [&] {
        return runtime::WaitReason{"waits in " + std::string(instr) + " for tile " + std::to_string(tile) + " of " +
                                       pipe_name(pipe, flow) + " (slot " + std::to_string(index % c.slot_num) + ")",
                                   other_side(c.producers, producer_kind(flow), block)};
    };
    runtime::cross_core_wait(lock, ready, describe);
    runtime::order::acquire(slot.pushes);
    channel = &c;
    return slot.layout;
}

void release(const PipeDesc& pipe, Flow flow, uint32_t index, const Part& part, const char* instr)
{
    auto lock = runtime::cross_core_lock();
    Channel& c = channel_of(pipe, flow, instr);
    Slot& slot = c.slots[index % c.slot_num];
    if (slot.filled < int64_t(index) || slot.freed >= int64_t(index) || (slot.freed_parts >> part.index & 1u)) {
        runtime::fail({"RUN_PIPE_PROTOCOL", instr, "pipe",
                       "TFREE of tile " + std::to_string(index) + " of " + pipe_name(pipe, flow) + ", which this consumer has not popped or has freed",
                       "TPOP, then TFREE, once", "no popped tile to free", ""});
    }
    slot.freed_parts |= 1u << part.index;
    slot.frees.join(runtime::order::release());
    if (uint32_t(std::popcount(slot.freed_parts)) == part.count) {
        slot.freed = index;
        slot.freed_parts = 0;
        runtime::cross_core_changed();
    }
}

// --- transfers -----------------------------------------------------------------------------------

// RUN_PIPE_SHAPE unless `rows` x `cols` elements of `bytes` (the consumer's tile or slot view) fit its
// part `w` of tile `index`.
void require_fits(const Window& w, const SlotLayout& layout, int64_t rows, int64_t cols, int bytes, const char* operand,
                  uint32_t index, const PipeDesc& pipe, Flow flow)
{
    if (bytes == layout.element_bytes && rows <= w.rows && cols <= w.cols) return;
    runtime::fail({"RUN_PIPE_SHAPE", "TPOP", operand,
                   std::string("the ") + (std::string_view(operand) == "tile" ? "popped tile" : "slot view") +
                       " does not fit this consumer's part of tile " + std::to_string(index) + " of " + pipe_name(pipe, flow),
                   std::to_string(w.rows) + "x" + std::to_string(w.cols) + " elements of " + std::to_string(layout.element_bytes) + " bytes",
                   std::to_string(rows) + "x" + std::to_string(cols) + " elements of " + std::to_string(bytes) + " bytes", ""});
}

// On the device the popped tile is the slot's bytes: a tile the fixpipe laid out column by column (DN)
// or in Nz fractals (NZ) reads right only through a tile of that arrangement.
void require_arrangement(const SlotLayout& layout, const TileDesc& dst, uint32_t index, const PipeDesc& pipe, Flow flow)
{
    const bool column_major = dst.blayout == BLayout::ColMajor;
    const bool ok = layout.global == Layout::DN   ? column_major && !dst.boxed()
                    : layout.global == Layout::NZ ? column_major && dst.slayout == SLayout::RowMajor
                                                  : true;
    if (ok) return;
    const bool dn = layout.global == Layout::DN;
    runtime::fail({"RUN_PIPE_LAYOUT", "TPOP", "tile",
                   "tile " + std::to_string(index) + " of " + pipe_name(pipe, flow) + " lies in its slot " +
                       (dn ? "column by column (NZ2DN)" : "in Nz fractals (NZ2NZ)") + ", which the popped tile does not read",
                   dn ? "a column-major tile" : "an Nz tile (column-major boxes of row-major fractals)", "another arrangement", ""});
}

GlobalDesc slot_view(std::byte* slot, const SlotLayout& layout, const Window& w, DType dtype)
{
    GlobalDesc g;
    g.data = slot + (w.row * layout.row_stride + w.col) * layout.element_bytes;
    g.dtype = dtype;
    g.layout = layout.global;
    switch (layout.global) {
        case Layout::DN:  // [1, 1, 1, rows, cols], a column after another
            g.shape[3] = w.rows;
            g.shape[4] = w.cols;
            g.stride[3] = 1;
            g.stride[4] = layout.full_rows;
            g.stride[2] = g.stride[1] = g.stride[0] = layout.full_rows * w.cols;
            break;
        case Layout::NZ: {  // [1, cols / C0, rows / 16, 16, C0], the fractals of a column of them in a row
            const int64_t c0 = layout.fractal_cols(), row_fractals = (w.rows + 15) / 16;
            g.shape[1] = (w.cols + c0 - 1) / c0;
            g.shape[2] = row_fractals;
            g.shape[3] = 16;
            g.shape[4] = c0;
            g.stride[4] = 1;
            g.stride[3] = c0;
            g.stride[2] = 16 * c0;
            g.stride[1] = row_fractals * 16 * c0;
            g.stride[0] = g.shape[1] * g.stride[1];
            break;
        }
        default:
            g.shape[3] = w.rows;
            g.shape[4] = w.cols;
            g.stride[3] = layout.row_stride;
            g.stride[4] = 1;
            g.stride[2] = g.stride[1] = g.stride[0] = w.rows * layout.row_stride;
    }
    return g;
}

void require_slot_room(const Channel& c, const SlotLayout& layout, const PipeDesc& pipe, Flow flow, const char* instr)
{
    const int64_t bytes = layout.bytes();
    if (bytes > int64_t(c.slot_size)) {
        runtime::fail({"RUN_PIPE_SLOT_SIZE", instr, "tile",
                       "a " + std::to_string(layout.full_rows) + "x" + std::to_string(layout.full_cols) + " tile of " +
                           std::to_string(layout.element_bytes) + "-byte elements, " + std::to_string(layout.row_stride) +
                           " to a row, does not fit a slot of " + pipe_name(pipe, flow),
                       "at most " + std::to_string(c.slot_size) + " bytes", std::to_string(bytes) + " bytes", ""});
    }
}

// The direction a tile travels: a vector tile leaves the vector cores (V2C) or reaches them (C2V).
Flow tile_flow(const PipeDesc& pipe, TileType loc, bool producer, const char* instr)
{
    const bool vector_tile = loc == TileType::Vec || (producer && loc == TileType::Ctrl);
    const Flow flow = vector_tile == producer ? Flow::V2C : Flow::C2V;
    if (!carries(pipe, flow)) {
        runtime::fail({"RUN_PIPE_DIRECTION", instr, "tile",
                       std::string("a ") + (vector_tile ? "vector" : "cube") + " tile is " + (producer ? "pushed into" : "popped from") +
                           " a pipe that does not carry " + flow_name(flow) + " tiles (flag " + std::to_string(pipe.flag_id) + ")",
                       "a pipe of that direction", "direction " + std::to_string(pipe.direction), ""});
    }
    return flow;
}

// The GlobalData flow has no tile to tell the direction: the pipe's one direction, else the core's side.
Flow slot_flow(const PipeDesc& pipe, bool producer, const char* instr)
{
    const bool c2v = carries(pipe, Flow::C2V), v2c = carries(pipe, Flow::V2C);
    if (c2v != v2c) return c2v ? Flow::C2V : Flow::V2C;
    switch (runtime::core_kind()) {
        case runtime::CoreKind::Cube: return producer ? Flow::C2V : Flow::V2C;
        case runtime::CoreKind::Vector: return producer ? Flow::V2C : Flow::C2V;
        case runtime::CoreKind::Unified: break;
    }
    runtime::fail({"RUN_PIPE_DIRECTION", instr, "pipe",
                   "a pipe of both directions used through global slots outside a mixed launch: which side this core is is unknown",
                   "a launch_mixed core, or a pipe of one direction", "a unified core", ""});
}

}  // namespace

void tpush(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, const TileDesc& src, const PushConversion* conversion)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TPUSH");
    const Flow flow = tile_flow(pipe, src.loc, /*producer=*/true, "TPUSH");
    const Part part = producer_part(flow, split, "TPUSH");
    if (!part.active) return;
    const DType slot_dtype = conversion ? conversion->slot_dtype : src.dtype;
    SlotLayout layout =
        layout_from_part(split, part, src.valid_rows, src.valid_cols, src.cols, (dtype_bits(slot_dtype) + 7) / 8);
    if (conversion) layout.global = conversion->slot_layout;
    if (layout.global != Layout::ND && splits(split)) {
        runtime::fail({"RUN_PIPE_SHAPE", "TPUSH", "tile", "a tile pushed in NZ or DN layout is not split between sub-blocks",
                       "TILE_NO_SPLIT", "a split", ""});
    }

    std::byte* slot = nullptr;
    {
        auto lock = runtime::cross_core_lock();
        Channel& c = acquire(pipe, flow, index, part, "TPUSH", lock);
        require_slot_room(c, layout, pipe, flow, "TPUSH");
        slot = slot_base(pipe, c, flow, index);
    }
    const Window w = window_of(split, part, layout);
    const GlobalDesc view = slot_view(slot, layout, w, slot_dtype);
    if (!conversion) {
        tstore(view, src, AtomicType::AtomicNone, ReluPreMode::NoRelu);
    } else if (conversion->quant) {
        tstore(view, src, *conversion->quant, conversion->relu, conversion->atomic);
    } else {
        tstore(view, src, conversion->atomic, conversion->relu);
    }
    commit(pipe, flow, index, part, layout, "TPUSH");
}

void tpop(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, const TileDesc& dst)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TPOP");
    const Flow flow = tile_flow(pipe, dst.loc, /*producer=*/false, "TPOP");
    const Part part = consumer_part(pipe, flow, split, "TPOP");
    if (!part.active) return;
    Channel* c = nullptr;
    const SlotLayout layout = wait_filled(pipe, flow, index, "TPOP", c);
    const Window w = window_of(split, part, layout);
    require_fits(w, layout, dst.valid_rows, dst.valid_cols, (dtype_bits(dst.dtype) + 7) / 8, "tile", index, pipe, flow);
    require_arrangement(layout, dst, index, pipe, flow);
    tload(dst, slot_view(slot_base(pipe, *c, flow, index), layout, w, dst.dtype));
    release(pipe, flow, index, part, "TPOP");
}

std::byte* talloc(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols, int element_bytes)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TALLOC");
    const Flow flow = slot_flow(pipe, true, "TALLOC");
    const Part part = producer_part(flow, split, "TALLOC");
    const SlotLayout layout = layout_from_part(split, part, part_rows, part_cols, part_cols, element_bytes);
    auto lock = runtime::cross_core_lock();
    if (!part.active) return slot_base(pipe, channel_of(pipe, flow, "TALLOC"), flow, index);  // a view, nothing reserved
    Channel& c = acquire(pipe, flow, index, part, "TALLOC", lock);
    require_slot_room(c, layout, pipe, flow, "TALLOC");
    const Window w = window_of(split, part, layout);
    return slot_base(pipe, c, flow, index) + (w.row * layout.row_stride + w.col) * element_bytes;
}

void tpush_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols, int element_bytes)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TPUSH");
    const Flow flow = slot_flow(pipe, true, "TPUSH");
    const Part part = producer_part(flow, split, "TPUSH");
    if (!part.active) return;
    commit(pipe, flow, index, part, layout_from_part(split, part, part_rows, part_cols, part_cols, element_bytes), "TPUSH");
}

std::byte* tpop_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split, int64_t part_rows, int64_t part_cols, int element_bytes)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TPOP");
    const Flow flow = slot_flow(pipe, false, "TPOP");
    const Part part = consumer_part(pipe, flow, split, "TPOP");
    Channel* c = nullptr;
    const SlotLayout layout = wait_filled(pipe, flow, index, "TPOP", c);
    const Window w = window_of(split, part, layout);
    require_fits(w, layout, part_rows, part_cols, element_bytes, "gmTensor", index, pipe, flow);
    return slot_base(pipe, *c, flow, index) + (w.row * layout.row_stride + w.col) * element_bytes;
}

void tfree_slot(const PipeDesc& pipe, uint32_t index, TileSplitAxis split)
{
    PTO_NOTE_CALL_SITE();
    runtime::InstructionScope scope("TFREE");
    const Flow flow = slot_flow(pipe, false, "TFREE");
    const Part part = consumer_part(pipe, flow, split, "TFREE");
    if (part.active) release(pipe, flow, index, part, "TFREE");
}

void reset_pipe(const PipeDesc& pipe)
{
    auto lock = runtime::cross_core_lock();
    auto& channels = runtime::cross_core_objects().get<Pipes>().channels;
    channels.erase(key_of(pipe, Flow::C2V));
    channels.erase(key_of(pipe, Flow::V2C));
}

}  // namespace pto::engine
