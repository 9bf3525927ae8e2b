// The assembler's front-end pipe spellings (pipe_frontend.hpp), lowered to the steps of the lowered
// spellings (lower_pipe.cpp) as the assembler rewrites them:
//
//   pto.aic_initialize_pipe {dir_mask = 3, slot_size = 1024[, nosplit = true]}
//       ([gm_slot_buffer = %g : !pto.ptr<f32>,] c2v_consumer_buf = %c : i32, v2c_consumer_buf = %v : i32)
//     a pipe of dir_mask on the flag its pairing gives (pipe_frontend.hpp), 8 slots (4 in each
//     direction for dir_mask 3), in the global slots when given (pto.initialize_l2g2l_pipe,
//     local_slot_num = slot_num), else slots of its own (pto.initialize_l2l_pipe); the consumer buffer
//     of C2V is c2v_consumer_buf, that of V2C v2c_consumer_buf; nosplit as written or as the
//     transfers' splits imply.
//   pto.tpush_to_aiv(%t : T) {split = 1}                  pto.tpush(%t, %pipe) {split = 1}
//   %t = pto.tpop_from_aic[(%rows, %cols)] {split = 1} -> T   pto.declare_tile, [pto.set_validshape,] pto.tpop
//   pto.tfree_from_aic {split = 1}                        pto.tfree(%pipe) {split = 1}
//   %a = pto.reserve_buffer {name = "c2v", size = 8192, location = #pto.address_space<vec>, auto = false, base = 0} -> i32
//   %a = pto.import_reserved_buffer {name = "c2v", peer_func = @vector_kernel} -> i32
//     the buffer's address: its base, or with auto = true the top of its memory, which the program's own
//     tiles (placed from address 0 up, or by the allocator) leave free.
#include <pto/profile/profile.hpp>
#include <pto/runtime/memory.hpp>

#include "asm/interpreter/frame.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/pipe_frontend.hpp"
#include "asm/type.hpp"

#include <string>

namespace pto::as::interp {

namespace {

// The address of the buffer `reserve` reserves, on the active target.
int64_t reserved_address(const Operation& reserve)
{
    const Attribute* base = reserve.attribute("base");
    const Attribute* automatic = reserve.attribute("auto");
    if (base && !(automatic && automatic->bool_value())) return base->int_value();
    const pto::TileType loc = *tile_loc_from_name(reserve.attribute("location")->enum_value());
    const profile::Profile& p = runtime::active_profile();
    const uint64_t capacity = profile::capacity_of(p, loc), size = uint64_t(reserve.attribute("size")->int_value());
    if (size > capacity)
        runtime::fail({"RUN_BAD_OPERAND", "pto.reserve_buffer", "size", "the reserved buffer does not fit its memory on " + std::string(p.name),
                       "at most " + std::to_string(capacity) + " bytes", std::to_string(size) + " bytes", ""});
    return int64_t((capacity - size) / p.tile_alignment * p.tile_alignment);
}

}  // namespace

void Lowerer::lower_pipe_frontend(const Operation& op, Body& body)
{
    if (op.name == "pto.reserve_buffer" || op.name == "pto.import_reserved_buffer") {
        const auto peer = frontend_->reserve_of.find(&op);
        const Operation* reserve = op.name == "pto.reserve_buffer" ? &op : peer == frontend_->reserve_of.end() ? nullptr : peer->second;
        if (!reserve || op.results.size() != 1) fail(op, codes::kBadOperand, "a reserved buffer and its address", "-> i32", "none");
        const int result = define(op.results[0].get());
        body.steps.push_back({[=](Frame& f) { f.slots[std::size_t(result)].i = reserved_address(*reserve); }, &op});
        return;
    }
    if (op.name == "pto.aic_initialize_pipe" || op.name == "pto.aiv_initialize_pipe") {
        if (op.operands.size() < 2 || op.operands.size() > 3)
            fail(op, codes::kBadOperand, "the operands of a front-end pipe initialization",
                 "([gm_slot_buffer = %g : !pto.ptr<T>,] c2v_consumer_buf = %c : i32, v2c_consumer_buf = %v : i32)",
                 std::to_string(op.operands.size()) + " operands");
        PipeInit init;
        const int64_t dir_mask = op.attribute("dir_mask")->int_value();
        init.desc.direction = uint8_t(dir_mask);
        init.desc.slot_size = uint32_t(op.attribute("slot_size")->int_value());
        init.desc.slot_num = init.local_slots = frontend_slot_num(dir_mask);
        init.desc.no_split = frontend_->nosplit.at(&op);
        init.desc.flag_id = frontend_->flag_base.at(&op);
        const std::size_t first = op.operands.size() - 2;  // after gm_slot_buffer, when given
        init.gm = first == 1 ? slot(op.operands[0]) : -1;
        const int c2v = slot(op.operands[first]), v2c = slot(op.operands[first + 1]);
        init.local = dir_mask == 2 ? v2c : c2v;
        init.peer_local = dir_mask == 3 ? v2c : -1;
        frontend_pipe_ = new_slot();
        return lower_pipe_init(init, frontend_pipe_, body, op);
    }
    // A transfer: the analysis saw its function's pipe initialized before it.
    const TileSplitAxis split = split_of(op);
    if (op.name == "pto.tfree_from_aic" || op.name == "pto.tfree_from_aiv") return lower_tfree(frontend_pipe_, body, op);
    if (op.name == "pto.tpush_to_aiv" || op.name == "pto.tpush_to_aic") return lower_tpush(slot(op.operands.at(0)), frontend_pipe_, split, body, op);
    const engine::TileDesc proto = tile_prototype(op, result_type(op, 0));
    const int tile = define(op.results[0].get());
    const int rows = op.operands.size() == 2 ? slot(op.operands[0]) : -1, cols = rows >= 0 ? slot(op.operands[1]) : -1;
    const Module* module = &module_;
    body.steps.push_back({[=, where = &op](Frame& f) {
                              engine::TileDesc& t = f.slots[std::size_t(tile)].tile;
                              t = proto;
                              if (rows >= 0) set_valid_shape(t, f.slots[std::size_t(rows)].i, f.slots[std::size_t(cols)].i, *module, *where);
                          },
                          &op});
    lower_tpop(tile, frontend_pipe_, split, body, op);
}

}  // namespace pto::as::interp
