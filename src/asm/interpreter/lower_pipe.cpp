// The tile pipes between a block's cube core and its vector cores, in text:
//
//   %p = pto.initialize_l2g2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, local_slot_num = 8,
//                                   flag_base = 0, nosplit = false}(%gm : !pto.ptr<f32>, %local : i32) -> !pto.pipe
//   %p = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 4}(%local : i32) -> !pto.pipe
//   pto.tpush(%tile, %p : !pto.tile_buf<...>, !pto.pipe) {split = 0}
//   %t = pto.declare_tile -> !pto.tile_buf<...>
//   pto.tpop(%t, %p : !pto.tile_buf<...>, !pto.pipe) {split = 1}
//   pto.tfree(%p : !pto.pipe) {split = 1}
//
//   pto.set_cross_core %core_id, %event_id : i64, i64      pto.wait_flag_dev %event_id : i64
//   pto.set_intra_block %pipe, %sem_id : i64, i64          pto.wait_intra_core %pipe, %sem_id : i64, i64
//
// A pipe handle is a TPipe: the engine's PipeDesc plus this core's counts of its pushes and pops (each
// core runs its own frame, and so has its own handle). `pto.tpop` binds the declared tile to the next
// slot of the consumer's local buffer (local_addr + (pop count mod local_slot_num) * slot_size) and
// receives the tile there; `pto.tfree` has nothing left to free (TPOP freed the slot).
#include <pto/engine/ops/tile_pipe.hpp>
#include <pto/runtime/cross_core_flags.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/printer.hpp"

#include <memory>
#include <string>

namespace pto::as::interp {

namespace {

struct PipeHandle {
    engine::PipeDesc desc;
    uint64_t local_addr = 0;
    uint32_t local_slots = 1;
    uint32_t pushed = 0, popped = 0;
};

PipeHandle& handle_of(Frame& f, int slot) { return *reinterpret_cast<PipeHandle*>(intptr_t(f.slots[std::size_t(slot)].i)); }

// The `split` attribute: 0 no split, 1 up/down, 2 left/right (3 and 4 their odd forms).
TileSplitAxis split_of(const Lowerer& l, const Operation& op)
{
    const Attribute* a = op.attribute("split");
    const int64_t v = a ? a->int_value() : -1;
    if (!a || v < 0 || v > 4) l.fail(op, codes::kBadOperand, "the split mode", "{split = 0 to 4}", a ? std::to_string(v) : "none");
    return static_cast<TileSplitAxis>(v);
}

int64_t int_attribute(const Lowerer& l, const Operation& op, std::string_view name, std::optional<int64_t> fallback, int64_t min, int64_t max)
{
    const Attribute* a = op.attribute(name);
    if (!a && fallback) return *fallback;
    if (!a || a->int_value() < min || a->int_value() > max)
        l.fail(op, codes::kBadOperand, "attribute " + std::string(name), std::to_string(min) + " to " + std::to_string(max),
               a ? std::to_string(a->int_value()) : "none");
    return a->int_value();
}

}  // namespace

void Lowerer::lower_pipe(const Operation& op, Body& body)
{
    if (op.name == "pto.initialize_l2g2l_pipe" || op.name == "pto.initialize_l2l_pipe") {
        const bool global = op.name == "pto.initialize_l2g2l_pipe";
        if (op.results.size() != 1) fail(op, codes::kBadOperand, "a pipe handle result", "-> !pto.pipe", "none");
        engine::PipeDesc desc;
        desc.direction = uint8_t(int_attribute(*this, op, "dir_mask", std::nullopt, 1, 7));
        desc.slot_size = uint32_t(int_attribute(*this, op, "slot_size", std::nullopt, 1, int64_t(1) << 30));
        desc.slot_num = uint32_t(int_attribute(*this, op, "slot_num", std::nullopt, 1, 1 << 16));
        desc.flag_id = uint32_t(int_attribute(*this, op, "flag_base", 0, 0, 15));
        const Attribute* nosplit = op.attribute("nosplit");
        desc.no_split = nosplit && nosplit->bool_value();
        const uint32_t local_slots = uint32_t(int_attribute(*this, op, "local_slot_num", int64_t(desc.slot_num), 1, 1 << 16));
        const int gm = global ? slot(op.operands.at(0)) : -1;
        const int local = slot(op.operands.at(global ? 1 : 0));
        const int site = new_site(), result = define(op.results[0].get());
        body.steps.push_back({[=](Frame& f) {
                                  auto handle = std::make_shared<PipeHandle>();
                                  handle->desc = desc;
                                  if (gm >= 0) handle->desc.gm_slots = f.slots[std::size_t(gm)].view.data;
                                  handle->local_addr = uint64_t(f.slots[std::size_t(local)].i);
                                  handle->local_slots = local_slots;
                                  f.slots[std::size_t(result)].i = int64_t(reinterpret_cast<intptr_t>(handle.get()));
                                  f.storage[std::size_t(site)] = std::shared_ptr<std::byte>(handle, reinterpret_cast<std::byte*>(handle.get()));
                              },
                              &op});
        return;
    }
    if (op.name == "pto.declare_tile") {
        if (op.results.size() != 1) fail(op, codes::kBadOperand, "a tile result", "-> !pto.tile_buf<...>", "none");
        const engine::TileDesc proto = tile_prototype(op, result_type(op, 0));
        const int result = define(op.results[0].get());
        body.steps.push_back({[=](Frame& f) { f.slots[std::size_t(result)].tile = proto; }, &op});
        return;
    }
    if (op.name == "pto.set_cross_core" || op.name == "pto.wait_flag_dev" || op.name == "pto.set_intra_block" ||
        op.name == "pto.wait_intra_core") {
        // The id is the last operand; set_cross_core's first names a vector core (mode 2 reaches both),
        // the a5 forms' first is the pipe that triggers or waits (each core's pipes run in order here).
        const int id = slot(op.operands.back());
        const bool names_core = op.name == "pto.set_cross_core";
        const int core = names_core ? slot(op.operands[0]) : -1;
        void (*const flag)(int64_t) = names_core                     ? runtime::set_cross_core
                                      : op.name == "pto.wait_flag_dev"   ? runtime::wait_flag_dev
                                      : op.name == "pto.set_intra_block" ? runtime::set_intra_block
                                                                         : runtime::wait_intra_core;
        body.steps.push_back({[=](Frame& f) {
                                  if (names_core) {
                                      const int64_t c = f.slots[std::size_t(core)].i;
                                      if (c != 0 && c != 1)
                                          runtime::fail({"RUN_CROSS_CORE_ID", "set_cross_core", "core_id", "the vector core a cross-core flag names",
                                                         "0 or 1", std::to_string(c), ""});
                                  }
                                  flag(f.slots[std::size_t(id)].i);
                              },
                              &op});
        return;
    }
    const TileSplitAxis split = split_of(*this, op);
    if (op.name == "pto.tfree") {
        const int pipe = slot(op.operands.at(0));
        body.steps.push_back({[=](Frame& f) {
                                  const PipeHandle& h = handle_of(f, pipe);
                                  if (h.popped == 0)
                                      runtime::fail({"RUN_PIPE_PROTOCOL", "TFREE", "pipe", "TFREE before any TPOP of the pipe",
                                                     "TPOP, then TFREE", "no popped tile", ""});
                              },
                              &op});
        return;
    }
    const int tile = slot(op.operands.at(0)), pipe = slot(op.operands.at(1));
    if (!operand_type(op, 0).is<TileType>()) fail(op, codes::kBadOperand, "the tile operand", "a !pto.tile_buf", to_string(operand_type(op, 0)));
    if (op.name == "pto.tpush") {
        body.steps.push_back({[=](Frame& f) {
                                  PipeHandle& h = handle_of(f, pipe);
                                  engine::tpush(h.desc, h.pushed, split, f.slots[std::size_t(tile)].tile);
                                  ++h.pushed;
                              },
                              &op});
        return;
    }
    // pto.tpop: the tile lands in the next slot of the consumer's local buffer.
    body.steps.push_back({[=](Frame& f) {
                              PipeHandle& h = handle_of(f, pipe);
                              engine::TileDesc& t = f.slots[std::size_t(tile)].tile;
                              const uint64_t offset = h.local_addr + uint64_t(h.popped % h.local_slots) * h.desc.slot_size;
                              t.data = runtime::tile_address(t.loc, offset, uint64_t(t.bytes()));
                              engine::tpop(h.desc, h.popped, split, t);
                              ++h.popped;
                          },
                          &op});
}

}  // namespace pto::as::interp
