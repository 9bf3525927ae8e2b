// Internal to the interpreter: the state of lowering one module, shared by the files that lower each
// family of operations (arith, control flow, pto views and sync, tile instructions).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <pto/common/fifo.hpp>
#include <pto/engine/ops/tile_pipe.hpp>
#include <pto/runtime/diagnostic.hpp>

#include "asm/cube_form.hpp"
#include "asm/instruction_binding.hpp"
#include "asm/interpreter/program.hpp"
#include "asm/ir.hpp"
#include "asm/vector_form.hpp"
#include "asm/op_table.hpp"
#include "asm/pipe_frontend.hpp"

namespace pto::as::interp {

// Run-time diagnostic codes of the interpreter itself (the engine raises its own).
namespace codes {
inline constexpr std::string_view kUnsupportedOp = "RUN_UNSUPPORTED_OP";
inline constexpr std::string_view kBadOperand = "RUN_BAD_OPERAND";
inline constexpr std::string_view kValidShape = "RUN_VALID_SHAPE";
inline constexpr std::string_view kUnknownCallee = "RUN_UNKNOWN_CALLEE";
inline constexpr std::string_view kSubset = "RUN_SUBSET_UNSUPPORTED";
inline constexpr std::string_view kReshape = "RUN_TRESHAPE_SIZE";
}  // namespace codes

// One element of a keyword group (`shape = [%a, 4]`): an operand's slot or a literal.
struct GroupItem {
    int slot = -1;  // -1 for a literal
    int64_t literal = 0;
};

class Lowerer {
public:
    Lowerer(Program& program, const Module& module) : program_(program), module_(module) {}

    void lower_function(CompiledFunction& fn);
    Body* lower_block(const Block& block);

    int slot(const Value* v) const;
    int define(const Value* v);
    int new_site() { return sites_++; }

    // The type of operand `i`: the value's own type, else the one the signature wrote.
    Type operand_type(const Operation& op, std::size_t i) const;
    Type result_type(const Operation& op, std::size_t i) const;
    // The items of the keyword group `keyword` (or of the positional group when empty).
    std::vector<GroupItem> group(const Operation& op, std::string_view keyword) const;

    [[noreturn]] void fail(const Operation& op, std::string_view code, std::string what, std::string expected = {},
                           std::string actual = {}) const;

    // Families; each appends the steps of `op` to `body`.
    void lower_arith(const Operation& op, Body& body);
    void lower_control(const Operation& op, Body& body);
    void lower_view(const Operation& op, Body& body);
    void lower_query(const Operation& op, Body& body);
    void lower_sync(const Operation& op, Body& body);
    void lower_buffer_sync(const Operation& op, Body& body);
    void lower_event_ids(const Operation& op, Body& body);
    void lower_tile(const Operation& op, const OpInfo& info, Body& body);
    void lower_pointer(const Operation& op, Body& body);
    void lower_cube(const Operation& op, Body& body);
    void lower_vector(const Operation& op, Body& body);
    // The tile pipes between a block's cube core and its vector cores (lower_pipe.cpp), in the
    // assembler's front-end spellings (lower_pipe_frontend.cpp), and SYNCALL (lower_syncall.cpp).
    void lower_pipe(const Operation& op, Body& body);
    void lower_pipe_frontend(const Operation& op, Body& body);
    void lower_syncall(const Operation& op, Body& body);
    // The steps both pipe spellings share: a handle in slot `result`, a push, a pop into `tile`, a free.
    struct PipeInit {
        engine::PipeDesc desc;
        int gm = -1, local = -1, peer_local = -1;  // slots: the global slots, the consumer buffers
        uint32_t local_slots = 1;
    };
    void lower_pipe_init(const PipeInit& init, int result, Body& body, const Operation& op);
    void lower_tpush(int tile, int pipe, TileSplitAxis split, Body& body, const Operation& op);
    void lower_tpop(int tile, int pipe, TileSplitAxis split, Body& body, const Operation& op);
    void lower_tfree(int pipe, Body& body, const Operation& op);
    TileSplitAxis split_of(const Operation& op) const;
    void lower_vector_memory(const Operation& op, const VectorForm& form, Body& body);
    // The vector operations on UB through pointers (sorts, transpose) and pto.get_vms4_sr.
    void lower_vector_ub(const Operation& op, const VectorForm& form, const std::vector<int>& in, const std::vector<int>& out, Body& body);

    // The tile descriptor a tile type describes, without storage.
    engine::TileDesc tile_prototype(const Operation& op, const Type& type) const;

    Program& program_;
    const Module& module_;

    // What the assembler decides about the front-end pipes (pipe_frontend.hpp), and the slot of the
    // pipe handle the function being lowered initialized (-1 before its initialization).
    const FrontendPipes* frontend_ = nullptr;
    int frontend_pipe_ = -1;
    int new_slot() { return next_slot_++; }

private:
    std::unordered_map<const Value*, int> slots_;
    int next_slot_ = 0;
    int sites_ = 0;
};

// Diagnostics raised while running carry the location of the step that raised them.
std::string location_of(const Module& module, const Operation& op);
// Gives `tile` a valid region of rows x cols (pto.set_validshape); RUN_VALID_SHAPE unless it lies in the tile.
void set_valid_shape(engine::TileDesc& tile, int64_t rows, int64_t cols, const Module& module, const Operation& op);

}  // namespace pto::as::interp
