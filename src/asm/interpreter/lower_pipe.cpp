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
// receives the tile there; `pto.tfree` has nothing left to free (TPOP freed the slot). A pipe of both
// directions (dir_mask = 3) takes a second buffer after the first, the V2C consumer's (the cube's).
// An initialization whose buffers come from pto.reserve_buffer / pto.import_reserved_buffer runs on the
// flag_base its pairing with its peer gives (pipe_frontend.hpp), as the assembler fills it in.
// The front-end spellings (lower_pipe_frontend.cpp) lower to the same steps.
#include <pto/engine/ops/tile_pipe.hpp>
#include <pto/runtime/cross_core_flags.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/pipe_frontend.hpp"
#include "asm/printer.hpp"

#include <memory>
#include <string>

namespace pto::as::interp {

namespace {

struct PipeHandle {
    engine::PipeDesc desc;
    uint64_t local_addr = 0;       // the consumer's buffer (C2V's, on a pipe of both directions)
    int64_t peer_local_addr = -1;  // V2C's on a pipe of both directions, else none
    uint32_t local_slots = 1;
    uint32_t pushed = 0, popped = 0;
};

PipeHandle& handle_of(Frame& f, int slot) { return *reinterpret_cast<PipeHandle*>(intptr_t(f.slots[std::size_t(slot)].i)); }

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

TileSplitAxis Lowerer::split_of(const Operation& op) const
{
    const Attribute* a = op.attribute("split");
    const int64_t v = a ? a->int_value() : -1;
    if (!a || v < 0 || v > 4) fail(op, codes::kBadOperand, "the split mode", "{split = 0 to 4}", a ? std::to_string(v) : "none");
    return static_cast<TileSplitAxis>(v);
}

void Lowerer::lower_pipe_init(const PipeInit& init, int result, Body& body, const Operation& op)
{
    const int site = new_site();
    body.steps.push_back({[=](Frame& f) {
                              auto handle = std::make_shared<PipeHandle>();
                              handle->desc = init.desc;
                              if (init.gm >= 0) handle->desc.gm_slots = f.slots[std::size_t(init.gm)].view.data;
                              handle->local_addr = uint64_t(f.slots[std::size_t(init.local)].i);
                              if (init.peer_local >= 0) handle->peer_local_addr = f.slots[std::size_t(init.peer_local)].i;
                              handle->local_slots = init.local_slots;
                              f.slots[std::size_t(result)].i = int64_t(reinterpret_cast<intptr_t>(handle.get()));
                              f.storage[std::size_t(site)] = std::shared_ptr<std::byte>(handle, reinterpret_cast<std::byte*>(handle.get()));
                          },
                          &op});
}

void Lowerer::lower_tpush(int tile, int pipe, TileSplitAxis split, Body& body, const Operation& op)
{
    body.steps.push_back({[=](Frame& f) {
                              PipeHandle& h = handle_of(f, pipe);
                              engine::tpush(h.desc, h.pushed, split, f.slots[std::size_t(tile)].tile);
                              ++h.pushed;
                          },
                          &op});
}

void Lowerer::lower_tpop(int tile, int pipe, TileSplitAxis split, Body& body, const Operation& op)
{
    // The tile lands in the next slot of its consumer's local buffer: a vector tile is C2V's consumer.
    body.steps.push_back({[=](Frame& f) {
                              PipeHandle& h = handle_of(f, pipe);
                              engine::TileDesc& t = f.slots[std::size_t(tile)].tile;
                              const bool v2c = t.loc != pto::TileType::Vec && h.peer_local_addr >= 0;
                              const uint64_t buffer = v2c ? uint64_t(h.peer_local_addr) : h.local_addr;
                              const uint64_t offset = buffer + uint64_t(h.popped % h.local_slots) * h.desc.slot_size;
                              t.data = runtime::tile_address(t.loc, offset, uint64_t(t.bytes()));
                              engine::tpop(h.desc, h.popped, split, t);
                              ++h.popped;
                          },
                          &op});
}

void Lowerer::lower_tfree(int pipe, Body& body, const Operation& op)
{
    body.steps.push_back({[=](Frame& f) {
                              const PipeHandle& h = handle_of(f, pipe);
                              if (h.popped == 0)
                                  runtime::fail({"RUN_PIPE_PROTOCOL", "TFREE", "pipe", "TFREE before any TPOP of the pipe",
                                                 "TPOP, then TFREE", "no popped tile", ""});
                          },
                          &op});
}

void Lowerer::lower_pipe(const Operation& op, Body& body)
{
    if (op.name == "pto.syncall") return lower_syncall(op, body);
    if (is_frontend_pipe_op(op.name)) return lower_pipe_frontend(op, body);
    if (op.name == "pto.initialize_l2g2l_pipe" || op.name == "pto.initialize_l2l_pipe") {
        const bool global = op.name == "pto.initialize_l2g2l_pipe";
        if (op.results.size() != 1) fail(op, codes::kBadOperand, "a pipe handle result", "-> !pto.pipe", "none");
        PipeInit init;
        init.desc.direction = uint8_t(int_attribute(*this, op, "dir_mask", std::nullopt, 1, 7));
        init.desc.slot_size = uint32_t(int_attribute(*this, op, "slot_size", std::nullopt, 1, int64_t(1) << 30));
        init.desc.slot_num = uint32_t(int_attribute(*this, op, "slot_num", std::nullopt, 1, 1 << 16));
        const int64_t written_flag = int_attribute(*this, op, "flag_base", 0, 0, 15);
        const auto paired = frontend_->flag_base.find(&op);  // as the assembler pairs it (pipe_frontend.hpp)
        init.desc.flag_id = uint32_t(paired != frontend_->flag_base.end() ? paired->second : written_flag);
        const Attribute* nosplit = op.attribute("nosplit");
        init.desc.no_split = nosplit && nosplit->bool_value();
        init.local_slots = uint32_t(int_attribute(*this, op, "local_slot_num", int64_t(init.desc.slot_num), 1, 1 << 16));
        const std::size_t first_local = global ? 1 : 0;
        init.gm = global ? slot(op.operands.at(0)) : -1;
        init.local = slot(op.operands.at(first_local));
        init.peer_local = op.operands.size() > first_local + 1 ? slot(op.operands[first_local + 1]) : -1;
        return lower_pipe_init(init, define(op.results[0].get()), body, op);
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
    const TileSplitAxis split = split_of(op);
    if (op.name == "pto.tfree") return lower_tfree(slot(op.operands.at(0)), body, op);
    const int tile = slot(op.operands.at(0)), pipe = slot(op.operands.at(1));
    if (!operand_type(op, 0).is<TileType>()) fail(op, codes::kBadOperand, "the tile operand", "a !pto.tile_buf", to_string(operand_type(op, 0)));
    if (op.name == "pto.tpush") return lower_tpush(tile, pipe, split, body, op);
    lower_tpop(tile, pipe, split, body, op);
}

}  // namespace pto::as::interp
