#include "asm/op_table.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "asm/ir.hpp"
#include "asm/vector_form.hpp"

namespace pto::as {

namespace {

using K = OperandKind;

constexpr std::array<K, 1> kTile{K::Tile};
constexpr std::array<K, 1> kScalar{K::Scalar};
constexpr std::array<K, 1> kAny{K::Any};
constexpr std::array<K, 2> kTileScalar{K::Tile, K::Scalar};
constexpr std::array<K, 2> kPointerScalar{K::Pointer, K::Scalar};
constexpr std::array<K, 3> kScalarPointerScalar{K::Scalar, K::Pointer, K::Scalar};

constexpr OpInfo other(std::string_view key, OpClass cls, uint8_t min_inputs, uint8_t max_inputs, std::span<const K> kinds)
{
    OpInfo info{};
    info.key = key;
    info.cls = cls;
    info.min_inputs = min_inputs;
    info.max_inputs = max_inputs;
    info.input_kinds = kinds;
    return info;
}
constexpr OpInfo arith(std::string_view key, uint8_t inputs) { return other(key, OpClass::Arith, inputs, inputs, kScalar); }
constexpr OpInfo control(std::string_view key, uint8_t min_inputs, uint8_t max_inputs)
{
    return other(key, OpClass::Control, min_inputs, max_inputs, kAny);
}
constexpr uint8_t kMany = 255;

// The cube micro-instructions and the vector core's DMA: `positional` operands, then clauses from
// `clauses` (their operands count towards the maximum), run on `pipe`.
constexpr OpInfo cube(std::string_view key, uint8_t positional, std::span<const std::string_view> clauses, std::optional<pipe_t> pipe)
{
    OpInfo info = other(key, OpClass::Cube, positional, kMany, kAny);
    info.clauses = clauses;
    info.pipe = pipe;
    return info;
}
// A scalar load or store through a pointer: the scalar unit's.
constexpr OpInfo scalar_access(std::string_view key, uint8_t inputs, std::span<const K> kinds)
{
    OpInfo info = other(key, OpClass::Pointer, inputs, inputs, kinds);
    info.pipe = PIPE_S;
    return info;
}
// The pipes of the cube pages (MTE2 into L1, MTE1 out of it, M for the multiplies, FIX for the
// writeback) and of the vector core's DMA pages (MTE2 in, MTE3 out). The moves between L1 and UB and
// within UB, whose pages name no pipe, run on TMOV's between the same memories (Mat -> Vec on MTE1,
// Vec -> Mat on FIX, Vec -> Vec on V). Loop registers touch no memory.
constexpr std::optional<pipe_t> kNoMemory;
constexpr std::string_view kMadClauses[] = {"unit_flag", "disable_gemv", "sat", "nosat", "tf32_mode", "n_dir"};
constexpr std::string_view kMadMxClauses[] = {"unit_flag", "disable_gemv", "sat", "nosat", "n_dir"};
constexpr std::string_view kBurstLoopClauses[] = {"nburst", "loop"};
constexpr std::string_view kBurstClauses[] = {"nburst"};
constexpr std::string_view kBurstLoopPadClauses[] = {"nburst", "loop", "pad"};
constexpr std::string_view kFracClauses[] = {"nd2nz", "dn2nz", "shape", "src_layout", "dst_group", "ctrl"};
constexpr std::string_view kFixpipeClauses[] = {"unit_flag", "pre_quant", "pre_relu", "nz2nd", "nz2dn", "nz2nz",
                                                "loop3",     "sat",       "nosat"};
constexpr std::string_view kFixpipeGmClauses[] = {"unit_flag", "pre_quant", "pre_relu", "nz2nd", "nz2dn", "nz2nz",
                                                  "loop3",     "sat",       "nosat",    "atomic"};
// atomic(...) is read only to be refused with its reason (LEGAL_FIXPIPE_ATOMIC).
constexpr std::string_view kFixpipeUbClauses[] = {"dst_mode", "unit_flag", "pre_quant", "pre_relu", "nz2nd", "nz2dn",
                                                  "nz2nz",    "loop3",     "sat",       "nosat",    "atomic"};

const OpInfo kOtherOps[] = {
    // arith: scalars of index, integer and float types.
    arith("arith.constant", 0),
    arith("arith.addi", 2), arith("arith.subi", 2), arith("arith.muli", 2),
    arith("arith.divsi", 2), arith("arith.divui", 2), arith("arith.remsi", 2), arith("arith.remui", 2),
    arith("arith.ceildivsi", 2), arith("arith.floordivsi", 2),
    arith("arith.andi", 2), arith("arith.ori", 2), arith("arith.xori", 2),
    arith("arith.shli", 2), arith("arith.shrsi", 2), arith("arith.shrui", 2),
    arith("arith.minsi", 2), arith("arith.maxsi", 2), arith("arith.minui", 2), arith("arith.maxui", 2),
    arith("arith.addf", 2), arith("arith.subf", 2), arith("arith.mulf", 2), arith("arith.divf", 2),
    arith("arith.remf", 2), arith("arith.negf", 1),
    arith("arith.maximumf", 2), arith("arith.minimumf", 2), arith("arith.maxnumf", 2), arith("arith.minnumf", 2),
    arith("arith.cmpi", 2), arith("arith.cmpf", 2), arith("arith.select", 3),
    arith("arith.index_cast", 1), arith("arith.index_castui", 1), arith("arith.extsi", 1), arith("arith.extui", 1),
    arith("arith.trunci", 1), arith("arith.sitofp", 1), arith("arith.uitofp", 1), arith("arith.fptosi", 1),
    arith("arith.fptoui", 1), arith("arith.extf", 1), arith("arith.truncf", 1),
    // Structured control flow and functions.
    control("scf.for", 3, kMany), control("scf.if", 1, 1), control("scf.while", 0, kMany),
    control("scf.yield", 0, kMany), control("scf.condition", 1, kMany),
    control("func.call", 0, kMany), control("func.return", 0, kMany),
    // Views, tile allocation and tile metadata.
    other("pto.make_tensor_view", OpClass::View, 1, kMany, kAny),
    other("pto.partition_view", OpClass::View, 1, kMany, kAny),
    other("pto.alloc_tile", OpClass::View, 0, 3, kScalar),
    other("pto.set_validshape", OpClass::View, 3, 3, kTileScalar),
    other("pto.treshape", OpClass::View, 1, 1, kTile),
    other("pto.subset", OpClass::View, 1, kMany, kTileScalar),
    other("pto.subview", OpClass::View, 3, 4, kTileScalar),
    other("pto.tsubview", OpClass::View, 3, 4, kTileScalar),
    other("pto.talias", OpClass::View, 1, 2, kTile),
    // The bridges between tiles and views and the vector micro-instructions' pointers.
    other("pto.tile_buf_addr", OpClass::View, 1, 1, kTile),
    other("pto.tensor_view_addr", OpClass::View, 1, 1, kAny),
    other("pto.get_tensor_view_dim", OpClass::View, 2, 2, kAny),
    other("pto.get_tensor_view_stride", OpClass::View, 2, 2, kAny),
    // Block queries.
    other("pto.get_block_idx", OpClass::Query, 0, 0, kScalar),
    other("pto.get_block_num", OpClass::Query, 0, 0, kScalar),
    other("pto.get_subblock_idx", OpClass::Query, 0, 0, kScalar),
    other("pto.get_subblock_num", OpClass::Query, 0, 0, kScalar),
    // Synchronisation: recorded, not needed for a sequential run to be correct.
    other("pto.set_flag", OpClass::Sync, 0, 0, kAny),
    other("pto.wait_flag", OpClass::Sync, 0, 0, kAny),
    // The same with the event id computed at run time, and the array such ids are kept in.
    other("pto.set_flag_dyn", OpClass::Sync, 1, 1, kScalar),
    other("pto.wait_flag_dyn", OpClass::Sync, 1, 1, kScalar),
    other("pto.declare_eventid_array", OpClass::Sync, 0, 0, kAny),
    other("pto.eventid_array_get", OpClass::Sync, 2, 2, kAny),
    other("pto.eventid_array_set", OpClass::Sync, 3, 3, kAny),
    other("pto.record_event", OpClass::Sync, 0, 0, kAny),
    other("pto.wait_event", OpClass::Sync, 0, 0, kAny),
    other("pto.barrier", OpClass::Sync, 0, 0, kAny),
    other("pto.pipe_barrier", OpClass::Sync, 0, 0, kAny),
    other("pto.mem_bar", OpClass::Sync, 0, 0, kAny),
    other("pto.get_buf", OpClass::Sync, 2, 2, kAny),  // "PIPE_*", %buf_id, %mode (or %buf_id, "PIPE_*", %mode)
    other("pto.rls_buf", OpClass::Sync, 2, 2, kAny),
    // Typed pointers into the core's memories.
    other("pto.castptr", OpClass::Pointer, 1, 1, kScalar),
    other("pto.addptr", OpClass::Pointer, 2, 2, kPointerScalar),
    scalar_access("pto.load_scalar", 2, kPointerScalar),
    scalar_access("pto.store_scalar", 3, kScalarPointerScalar),
    // The cube micro-instructions.
    cube("pto.mad", 6, kMadClauses, PIPE_M), cube("pto.mad_acc", 6, kMadClauses, PIPE_M), cube("pto.mad_bias", 7, kMadClauses, PIPE_M),
    cube("pto.mad_mx", 6, kMadMxClauses, PIPE_M), cube("pto.mad_mx_acc", 6, kMadMxClauses, PIPE_M), cube("pto.mad_mx_bias", 7, kMadMxClauses, PIPE_M),
    cube("pto.mte_l1_l0a_mx", 4, {}, PIPE_MTE1), cube("pto.mte_l1_l0b_mx", 4, {}, PIPE_MTE1),
    cube("pto.mte_gm_l1", 3, kBurstLoopClauses, PIPE_MTE2), cube("pto.mte_l1_ub", 3, kBurstLoopClauses, PIPE_MTE1),
    cube("pto.mte_ub_l1", 3, kBurstClauses, PIPE_FIX), cube("pto.mte_l1_bt", 3, kBurstClauses, PIPE_MTE1), cube("pto.mte_l1_fb", 3, kBurstClauses, PIPE_MTE1),
    cube("pto.mte_gm_l1_frac", 2, kFracClauses, PIPE_MTE2),
    // The vector core's DMA (PTO ISA v0.6 grouped forms): GM <-> UB and within UB.
    cube("pto.mte_gm_ub", 4, kBurstLoopPadClauses, PIPE_MTE2), cube("pto.mte_ub_gm", 3, kBurstLoopClauses, PIPE_MTE3),
    cube("pto.mte_ub_ub", 3, kBurstClauses, PIPE_V),
    // The pre-v0.6 vector-core DMA and its loop registers.
    cube("pto.copy_gm_to_ubuf", 11, {}, PIPE_MTE2), cube("pto.copy_ubuf_to_gm", 8, {}, PIPE_MTE3), cube("pto.copy_ubuf_to_ubuf", 7, {}, PIPE_V),
    cube("pto.set_loop_size_outtoub", 2, {}, kNoMemory), cube("pto.set_loop1_stride_outtoub", 2, {}, kNoMemory), cube("pto.set_loop2_stride_outtoub", 2, {}, kNoMemory),
    cube("pto.set_loop_size_ubtoout", 2, {}, kNoMemory), cube("pto.set_loop1_stride_ubtoout", 2, {}, kNoMemory), cube("pto.set_loop2_stride_ubtoout", 2, {}, kNoMemory),
    cube("pto.mte_l1_l0a", 4, {}, PIPE_MTE1), cube("pto.mte_l1_l0b", 4, {}, PIPE_MTE1),
    cube("pto.mte_l0c_l1", 6, kFixpipeClauses, PIPE_FIX), cube("pto.mte_l0c_gm", 8, kFixpipeGmClauses, PIPE_FIX),
    cube("pto.mte_l0c_ub", 6, kFixpipeUbClauses, PIPE_FIX),
    // The tile pipes between a block's cube core and its vector cores: a pipe handle over global slots
    // (and the consumer's local buffer) or local ones, the consumer's tile, and the transfers.
    other("pto.initialize_l2g2l_pipe", OpClass::Pipe, 2, 3, kAny),
    other("pto.initialize_l2l_pipe", OpClass::Pipe, 1, 2, kAny),
    other("pto.declare_tile", OpClass::Pipe, 0, 0, kAny),
    other("pto.tpush", OpClass::Pipe, 2, 2, kAny),
    other("pto.tpop", OpClass::Pipe, 2, 2, kAny),
    other("pto.tfree", OpClass::Pipe, 1, 1, kAny),
    // The flags between them: a2a3's %core_id, %event_id / %event_id, a5's %pipe, %sem_id.
    other("pto.set_cross_core", OpClass::Pipe, 2, 2, kScalar),
    other("pto.wait_flag_dev", OpClass::Pipe, 1, 1, kScalar),
    other("pto.set_intra_block", OpClass::Pipe, 2, 2, kScalar),
    other("pto.wait_intra_core", OpClass::Pipe, 2, 2, kScalar),
    // The assembler's front-end spellings (pipe_frontend.hpp): one pipe per kernel function, which the
    // transfers name by their direction; its consumer buffer reserved in one function, imported in its peer.
    other("pto.aic_initialize_pipe", OpClass::Pipe, 2, 3, kAny),
    other("pto.aiv_initialize_pipe", OpClass::Pipe, 2, 3, kAny),
    other("pto.tpush_to_aiv", OpClass::Pipe, 1, 1, kTile),
    other("pto.tpush_to_aic", OpClass::Pipe, 1, 1, kTile),
    other("pto.tpop_from_aic", OpClass::Pipe, 0, 2, kScalar),
    other("pto.tpop_from_aiv", OpClass::Pipe, 0, 2, kScalar),
    other("pto.tfree_from_aic", OpClass::Pipe, 0, 0, kAny),
    other("pto.tfree_from_aiv", OpClass::Pipe, 0, 0, kAny),
    other("pto.reserve_buffer", OpClass::Pipe, 0, 0, kAny),
    other("pto.import_reserved_buffer", OpClass::Pipe, 0, 0, kAny),
    // SYNCALL: a barrier over the cores of a launch; the soft form counts in a workspace (%ws[, %used]).
    other("pto.syncall", OpClass::Pipe, 0, 2, kPointerScalar),
    // Sections run their region on the cores of their kind: in a mixed launch the cube section on the
    // cube core, the vector section on the vector cores; a core of a plain launch plays both.
    other("pto.section.cube", OpClass::Section, 0, 0, kAny),
    other("pto.section.vector", OpClass::Section, 0, 0, kAny),
    // A vector interval (vector_form.hpp); the strict form takes in, as its block's arguments, every
    // outside value its body uses.
    other("pto.vecscope", OpClass::Section, 0, 0, kAny),
    other("pto.strict_vecscope", OpClass::Section, 0, kMany, kAny),
};

// A tile instruction's row: its definition (under an alias, if given) and the operand counts its forms
// allow.
OpInfo instruction_row(const engine::InstrDef& def, const engine::Alias* alias)
{
    OpInfo info{};
    info.key = alias ? alias->mnemonic : def.mnemonic;
    info.cls = OpClass::Tile;
    info.instruction = &def;
    info.alias = alias;
    info.min_inputs = info.min_dests = UINT8_MAX;
    for (const engine::Form& form : def.forms) {
        std::size_t required = 0;
        for (const engine::OperandSpec& s : form.sources) required += s.optional ? 0 : 1;
        info.min_inputs = uint8_t(std::min<std::size_t>(info.min_inputs, required));
        info.max_inputs = uint8_t(std::max<std::size_t>(info.max_inputs, form.sources.size()));
        info.min_dests = uint8_t(std::min<std::size_t>(info.min_dests, form.destinations.size()));
        info.max_dests = uint8_t(std::max<std::size_t>(info.max_dests, form.destinations.size()));
    }
    return info;
}

// Every row (the fixed ones, then those the instruction definitions give) and two indexes into them,
// built once.
struct Table {
    std::vector<OpInfo> rows;
    std::unordered_map<std::string_view, const OpInfo*> by_name;      // operations that are no instruction
    std::unordered_map<std::string_view, const OpInfo*> by_mnemonic;  // tile instructions

    Table() : rows(std::begin(kOtherOps), std::end(kOtherOps))
    {
        for (const engine::InstrDef* def : engine::instruction_definitions()) {
            rows.push_back(instruction_row(*def, nullptr));
            for (const engine::Alias& alias : def->aliases) rows.push_back(instruction_row(*def, &alias));
        }
        for (const VectorOpDef& def : vector_op_definitions()) {
            const std::size_t most = std::max(def.operands.size(), def.pointer_form.size());
            rows.push_back(other(def.name, OpClass::Vector, uint8_t(def.operands.size()), uint8_t(most), kAny));
            rows.back().literal_operands = def.unit == StreamUnit::Immediate;
            rows.back().pipe = PIPE_V;  // loads, stores and operations alike (the vector pages' PIPE_V)
        }
        for (const OpInfo& info : rows) (info.cls == OpClass::Tile ? by_mnemonic : by_name).emplace(info.key, &info);
    }
};

const Table& table()
{
    static const Table t;
    return t;
}

}  // namespace

const OpInfo* find_op(std::string_view op_name)
{
    const Table& t = table();
    if (const auto it = t.by_name.find(op_name); it != t.by_name.end()) return it->second;
    if (!is_tile_instruction(op_name)) return nullptr;
    const auto it = t.by_mnemonic.find(isa_mnemonic(op_name));
    return it == t.by_mnemonic.end() ? nullptr : it->second;
}

std::span<const OpInfo> all_ops() { return table().rows; }

bool has_operand_kind(const Type& t, OperandKind k)
{
    switch (k) {
        case OperandKind::Tile: return t.is<TileType>();
        case OperandKind::View: return t.is<TensorViewType>() || t.is<PtrType>();
        case OperandKind::Scalar: return t.is_scalar();
        case OperandKind::Pointer: return t.is<PtrType>();
        case OperandKind::Any: return true;
    }
    return false;
}

}  // namespace pto::as
