// Lowering of the tile instructions: each becomes one call of the engine entry point the C++
// intrinsic calls, with its operands' descriptors read from pre-resolved slots.
#include <pto/engine/ops/col_expand.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/engine/ops/elementwise.hpp>
#include <pto/engine/ops/gather.hpp>
#include <pto/engine/ops/memory_gather.hpp>
#include <pto/engine/ops/sort.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/runtime/memory.hpp>

#include <cmath>

#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/scalar.hpp"

namespace pto::as::interp {

void Lowerer::lower_tile(const Operation& op, const OpInfo& info, Body& body)
{
    using engine::Instr;
    auto add = [&](std::function<void(Frame&)> fn) { body.steps.push_back({std::move(fn), &op}); };

    // Sources, then destinations: DPS `outs` operands, or fresh tiles for SSA results.
    const auto inputs = op.inputs();
    std::vector<int> in;
    for (const Value* v : inputs) in.push_back(slot(v));
    std::vector<int> out;
    std::vector<std::pair<int, engine::TileDesc>> fresh;  // result slot and its prototype
    std::vector<int> fresh_sites;
    for (const Value* v : op.outputs()) out.push_back(slot(v));
    for (std::size_t i = 0; i < op.results.size(); ++i) {
        const Type t = result_type(op, i);
        const int s = define(op.results[i].get());
        out.push_back(s);
        if (t.is<TileType>()) {
            fresh.emplace_back(s, tile_prototype(op, t));
            fresh_sites.push_back(new_site());
        }
    }
    auto in_type = [&](std::size_t i) { return operand_type(op, i); };
    const Instr instr = *info.instr;
    if (in.size() < info.min_inputs || in.size() > info.max_inputs || out.size() < info.min_dests || out.size() > info.max_dests)
        fail(op, "STRUCT_OPERAND_COUNT", "wrong number of operands",
             std::to_string(info.min_inputs) + ".." + std::to_string(info.max_inputs) + " sources and " +
                 std::to_string(info.min_dests) + ".." + std::to_string(info.max_dests) + " destinations",
             std::to_string(in.size()) + " and " + std::to_string(out.size()));

    // Materialises the SSA results' tiles before the instruction runs.
    std::function<void(Frame&)> prepare;
    if (!fresh.empty())
        prepare = [fresh, fresh_sites](Frame& f) {
            for (std::size_t k = 0; k < fresh.size(); ++k) {
                auto& storage = f.storage[fresh_sites[k]];
                const engine::TileDesc& proto = fresh[k].second;
                if (!storage) storage = runtime::allocate_auto(proto.loc, uint64_t(proto.bytes()));
                engine::TileDesc t = proto;
                t.data = storage.get();
                f.slots[fresh[k].first].tile = t;
            }
        };
    auto emit = [&](auto&& kernel) {
        if (prepare)
            add([prepare, kernel](Frame& f) {
                prepare(f);
                kernel(f.slots.data());
            });
        else
            add([kernel](Frame& f) { kernel(f.slots.data()); });
    };

    switch (instr) {
        case Instr::TASSIGN: {
            // `tassign %tile, %offset`: the tile is whichever operand has a tile type.
            std::vector<int> all = in;
            all.insert(all.end(), out.begin(), out.end());
            int tile = -1, offset = -1;
            for (std::size_t i = 0; i < op.operands.size(); ++i)
                (has_operand_kind(operand_type(op, i), OperandKind::Tile) ? tile : offset) = slot(op.operands[i]);
            if (tile < 0 || offset < 0) fail(op, "STRUCT_OPERAND_KIND", "TASSIGN takes a tile and a byte offset");
            return emit([tile, offset](Slot* s) {
                engine::TileDesc& t = s[tile].tile;
                t.data = runtime::tile_address(t.loc, uint64_t(s[offset].i), uint64_t(t.bytes()));
            });
        }
        case Instr::TLOAD: return emit([d = out[0], a = in[0]](Slot* s) { engine::tload(s[d].tile, s[a].view); });
        case Instr::TSTORE: {
            const std::string atomic = enum_attr(op, {"atomic", "atomicType", "atomic_type"});
            const AtomicType at = atomic.find("add") != std::string::npos ? AtomicType::AtomicAdd : AtomicType::AtomicNone;
            return emit([d = out[0], a = in[0], at](Slot* s) { engine::tstore(s[d].view, s[a].tile, at); });
        }
        case Instr::TMOV: {
            const std::string relu = enum_attr(op, {"relu", "reluMode", "relu_mode"});
            const ReluPreMode rm = relu == "normalrelu" || relu == "normal_relu" || relu == "relu" ? ReluPreMode::NormalRelu : ReluPreMode::NoRelu;
            const AccToVecMode mode = pick<AccToVecMode>(enum_attr(op, {"mode", "accToVecMode", "acc_to_vec_mode"}),
                                                         {{"singlemodevec1", AccToVecMode::SingleModeVec1},
                                                          {"dualmodesplitm", AccToVecMode::DualModeSplitM},
                                                          {"dualmodesplitn", AccToVecMode::DualModeSplitN}},
                                                         AccToVecMode::SingleModeVec0);
            return emit([d = out[0], a = in[0], rm, mode](Slot* s) { engine::tmov(s[d].tile, s[a].tile, rm, mode); });
        }
        case Instr::TADD: return emit([d = out[0], a = in[0], b = in[1]](Slot* s) { engine::tadd(s[d].tile, s[a].tile, s[b].tile); });
        case Instr::TSUB: return emit([d = out[0], a = in[0], b = in[1]](Slot* s) { engine::tsub(s[d].tile, s[a].tile, s[b].tile); });
        case Instr::TMUL: return emit([d = out[0], a = in[0], b = in[1]](Slot* s) { engine::tmul(s[d].tile, s[a].tile, s[b].tile); });
        case Instr::TDIV: {
            const DivAlgorithm alg = enum_attr(op, {"algorithm", "precision"}).find("high") != std::string::npos
                                         ? DivAlgorithm::HIGH_PRECISION : DivAlgorithm::DEFAULT;
            return emit([d = out[0], a = in[0], b = in[1], alg](Slot* s) { engine::tdiv(s[d].tile, s[a].tile, s[b].tile, alg); });
        }
        case Instr::TGATHER: {
            const TgatherForm form = tgather_form(in.size(), out.size());
            if (form == TgatherForm::Compare) {
                // Comparison form: (src, k[, tmp]) -> (dst, count). A scalar k is the threshold of every row.
                const CmpMode mode = cmp_mode_of(op);
                const Attribute* off = op.attribute("offset");
                const uint32_t offset = off ? uint32_t(off->int_value()) : 0;
                const int tmp = in.size() > 2 ? in[2] : -1;
                if (in.size() < 2) fail(op, "STRUCT_OPERAND_COUNT", "TGATHER comparison form needs a threshold", "(src, k[, tmp])", "(src)");
                if (has_operand_kind(in_type(1), OperandKind::Tile))
                    return emit([d = out[0], c = out[1], a = in[0], k = in[1], tmp, mode, offset](Slot* s) {
                        engine::tgather_compare(s[d].tile, s[a].tile, s[k].tile, s[c].tile, tmp < 0 ? nullptr : &s[tmp].tile, mode, offset);
                    });
                // A scalar threshold becomes the vector tile the engine reads (all elements equal); a float
                // scalar is rounded to the nearest integer first, and one the tile's type cannot hold (a
                // negative threshold on a5, whose thresholds are unsigned) is an error, not a clamp. The
                // type depends on the target of the run; its size does not.
                const int site = new_site();
                const ScalarKind kk = scalar_kind(in_type(1));
                return add([=](Frame& f) {
                    Slot* s = f.slots.data();
                    engine::TileDesc kt_tile = scalar_threshold_tile(runtime::active_profile(), s[in[0]].tile);
                    auto& storage = f.storage[site];
                    if (!storage) storage = runtime::allocate_auto(kt_tile.loc, uint64_t(kt_tile.bytes()));
                    kt_tile.data = storage.get();
                    const double k = kk.is_float ? s[in[1]].f : double(s[in[1]].i);
                    numeric::from_double(kt_tile.dtype, kt_tile.data, 0, k, RoundMode::CAST_RINT, SaturationMode::ON);
                    if (numeric::to_double(kt_tile.dtype, kt_tile.data, 0) != std::nearbyint(k))
                        runtime::fail({"RUN_TGATHER_THRESHOLD", "TGATHER", "k_value", "the scalar threshold does not fit the threshold type on " +
                                       std::string(runtime::active_profile().name), "a value of " + std::string(engine::dtype_name(kt_tile.dtype)),
                                       std::to_string(k), ""});
                    for (int r = 1; r < kt_tile.valid_cols; ++r)  // element 0 is written above
                        numeric::from_double(kt_tile.dtype, kt_tile.data, std::size_t(r), k, RoundMode::CAST_RINT, SaturationMode::ON);
                    runtime::mark_written(kt_tile.data, std::size_t(kt_tile.bytes()));
                    engine::tgather_compare(s[out[0]].tile, s[in[0]].tile, kt_tile, s[out[1]].tile,
                                            tmp < 0 ? nullptr : &s[tmp].tile, mode, offset);
                });
            }
            if (form == TgatherForm::Mask) {
                const auto pattern = mask_pattern_of(op);
                if (!pattern) fail(op, "STRUCT_MISSING_ATTRIBUTE", "TGATHER mask form needs maskPattern", "maskPattern = #pto.mask_pattern<P0101>", "none");
                return emit([d = out[0], a = in[0], mp = *pattern, axis = gather_axis_of(op)](Slot* s) {
                    engine::tgather_mask(s[d].tile, s[a].tile, mp, axis);
                });
            }
            const int tmp = in.size() > 2 ? in[2] : -1;
            return emit([d = out[0], a = in[0], i = in[1], tmp](Slot* s) {
                engine::tgather_index(s[d].tile, s[a].tile, s[i].tile, tmp < 0 ? nullptr : &s[tmp].tile);
            });
        }
        case Instr::TSORT32: {
            const int tmp = in.size() > 2 ? in[2] : -1;
            return emit([d = out[0], a = in[0], i = in[1], tmp](Slot* s) {
                engine::tsort32(s[d].tile, s[a].tile, s[i].tile, tmp < 0 ? nullptr : &s[tmp].tile);
            });
        }
        case Instr::TCOLEXPAND: return emit([d = out[0], a = in[0]](Slot* s) { engine::tcolexpand(s[d].tile, s[a].tile); });
        case Instr::MGATHER: {
            const Coalesce coalesce = coalesce_of(op, info);
            const GatherOOB oob = gather_oob_of(op);
            switch (mgather_form(has_operand_kind(in_type(1), OperandKind::Tile), in.size())) {
                case MgatherForm::UbIndex:
                    return emit([d = out[0], t = in[0], i = in[1], coalesce, oob](Slot* s) {
                        engine::mgather(s[d].tile, s[t].view, s[i].tile, coalesce, oob);
                    });
                case MgatherForm::L1Scratch:
                    return emit([d = out[0], t = in[0], i = in[1], sc = in[2], coalesce, oob, exec = gather_exec_of(op)](Slot* s) {
                        engine::mgather_l1(s[d].tile, s[t].view, s[i].view, s[sc].view, coalesce, oob, exec);
                    });
                case MgatherForm::L1:
                    return emit([d = out[0], t = in[0], i = in[1], coalesce, oob](Slot* s) {
                        engine::mgather_l1(s[d].tile, s[t].view, s[i].view, coalesce, oob);
                    });
            }
            break;
        }
        case Instr::MSCATTER:
            return emit([d = out[0], a = in[0], i = in[1], coalesce = coalesce_of(op, info), atomic = scatter_atomic_of(op),
                         oob = scatter_oob_of(op), conflict = scatter_conflict_of(op)](Slot* s) {
                engine::mscatter(s[d].view, s[a].tile, s[i].tile, coalesce, atomic, oob, conflict);
            });
        case Instr::Count: break;
    }
    fail(op, codes::kUnsupportedOp, "the interpreter cannot run this instruction", "an engine instruction", op.name);
}

}  // namespace pto::as::interp
