#include "asm/op_table.hpp"

#include <array>
#include <string>

#include "asm/ir.hpp"

namespace pto::as {

namespace {

using K = OperandKind;
using engine::Instr;

constexpr std::array<K, 1> kTile{K::Tile};
constexpr std::array<K, 1> kView{K::View};
constexpr std::array<K, 1> kScalar{K::Scalar};
constexpr std::array<K, 1> kAny{K::Any};
constexpr std::array<K, 2> kTileScalar{K::Tile, K::Scalar};
constexpr std::array<K, 3> kGatherInputs{K::Tile, K::Any, K::Tile};
constexpr std::array<K, 3> kTableInputs{K::View, K::Any, K::View};

constexpr OpInfo other(std::string_view key, OpClass cls, uint8_t min_inputs, uint8_t max_inputs, std::span<const K> kinds)
{
    return {key, cls, std::nullopt, min_inputs, max_inputs, kinds, 0, 0, {}, std::nullopt};
}
constexpr OpInfo arith(std::string_view key, uint8_t inputs) { return other(key, OpClass::Arith, inputs, inputs, kScalar); }
constexpr OpInfo control(std::string_view key, uint8_t min_inputs, uint8_t max_inputs)
{
    return other(key, OpClass::Control, min_inputs, max_inputs, kAny);
}
constexpr OpInfo tile(std::string_view key, Instr instr, uint8_t min_in, uint8_t max_in, std::span<const K> in,
                      uint8_t min_dst, uint8_t max_dst, std::span<const K> dst,
                      std::optional<Coalesce> coalesce = std::nullopt)
{
    return {key, OpClass::Tile, instr, min_in, max_in, in, min_dst, max_dst, dst, coalesce};
}

constexpr uint8_t kMany = 255;

const OpInfo kOps[] = {
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
    // Block queries.
    other("pto.get_block_idx", OpClass::Query, 0, 0, kScalar),
    other("pto.get_block_num", OpClass::Query, 0, 0, kScalar),
    other("pto.get_subblock_idx", OpClass::Query, 0, 0, kScalar),
    other("pto.get_subblock_num", OpClass::Query, 0, 0, kScalar),
    // Synchronisation: recorded, not needed for a sequential run to be correct.
    other("pto.set_flag", OpClass::Sync, 0, 0, kAny),
    other("pto.wait_flag", OpClass::Sync, 0, 0, kAny),
    other("pto.record_event", OpClass::Sync, 0, 0, kAny),
    other("pto.wait_event", OpClass::Sync, 0, 0, kAny),
    other("pto.barrier", OpClass::Sync, 0, 0, kAny),
    other("pto.pipe_barrier", OpClass::Sync, 0, 0, kAny),
    // Sections run their region in place: one sequential core plays both the cube and the vector core.
    other("pto.section.cube", OpClass::Section, 0, 0, kAny),
    other("pto.section.vector", OpClass::Section, 0, 0, kAny),
    // Tile instructions, keyed by ISA mnemonic. TASSIGN takes the tile and a byte offset; which of
    // the two is the destination depends on the spelling, so both layouts are accepted.
    tile("TASSIGN", Instr::TASSIGN, 1, 2, kTileScalar, 0, 1, kTile),
    tile("TLOAD", Instr::TLOAD, 1, 1, kView, 1, 1, kTile),
    tile("TSTORE", Instr::TSTORE, 1, 1, kTile, 1, 1, kView),
    tile("TMOV", Instr::TMOV, 1, 1, kTile, 1, 1, kTile),
    tile("TADD", Instr::TADD, 2, 2, kTile, 1, 1, kTile),
    tile("TSUB", Instr::TSUB, 2, 2, kTile, 1, 1, kTile),
    tile("TMUL", Instr::TMUL, 2, 2, kTile, 1, 1, kTile),
    tile("TDIV", Instr::TDIV, 2, 2, kTile, 1, 1, kTile),
    // Index form (src, indices[, tmp]) -> dst; mask form (src) -> dst; comparison form
    // (src, k[, tmp]) -> (dst, count).
    tile("TGATHER", Instr::TGATHER, 1, 3, kGatherInputs, 1, 2, kTile),
    tile("TSORT32", Instr::TSORT32, 2, 3, kTile, 1, 1, kTile),
    tile("TCOLEXPAND", Instr::TCOLEXPAND, 1, 1, kTile, 1, 1, kTile),
    // MGATHER: (table, index tile) -> UB tile, or (table, index view[, scratch view]) -> L1 tile.
    tile("MGATHER", Instr::MGATHER, 2, 3, kTableInputs, 1, 1, kTile),
    tile("MGATHER_ROW", Instr::MGATHER, 2, 3, kTableInputs, 1, 1, kTile, Coalesce::Row),
    tile("MGATHER_ELEM", Instr::MGATHER, 2, 3, kTableInputs, 1, 1, kTile, Coalesce::Elem),
    tile("MSCATTER", Instr::MSCATTER, 2, 2, kTile, 1, 1, kView),
    tile("MSCATTER_ROW", Instr::MSCATTER, 2, 2, kTile, 1, 1, kView, Coalesce::Row),
    tile("MSCATTER_ELEM", Instr::MSCATTER, 2, 2, kTile, 1, 1, kView, Coalesce::Elem),
};

}  // namespace

const OpInfo* find_op(std::string_view op_name)
{
    for (const OpInfo& info : kOps)
        if (info.cls != OpClass::Tile && info.key == op_name) return &info;
    if (!is_tile_instruction(op_name)) return nullptr;
    const std::string key = isa_mnemonic(op_name);
    for (const OpInfo& info : kOps)
        if (info.cls == OpClass::Tile && info.key == key) return &info;
    return nullptr;
}

std::span<const OpInfo> all_ops() { return kOps; }

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
