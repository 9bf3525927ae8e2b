#include "asm/instruction_attributes.hpp"

#include <pto/profile/rules_gather.hpp>

#include <algorithm>
#include <cctype>

namespace pto::as {

std::string enum_attr(const Operation& op, std::initializer_list<std::string_view> names)
{
    for (std::string_view n : names)
        if (const Attribute* a = op.attribute(n)) {
            std::string v = a->enum_value();
            if (v.empty() && a->is(Attribute::Kind::Integer)) v = std::to_string(a->int_value());
            std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            return v;
        }
    return {};
}

TgatherForm tgather_form(std::size_t sources, std::size_t destinations)
{
    if (destinations == 2) return TgatherForm::Compare;
    return sources == 1 ? TgatherForm::Mask : TgatherForm::Index;
}

CmpMode cmp_mode_of(const Operation& op)
{
    return pick<CmpMode>(enum_attr(op, {"cmpMode", "cmp_mode"}),
                         {{"eq", CmpMode::EQ}, {"gt", CmpMode::GT}, {"ne", CmpMode::NE}, {"lt", CmpMode::LT},
                          {"le", CmpMode::LE}, {"ge", CmpMode::GE}},
                         CmpMode::GT);
}

std::optional<MaskPattern> mask_pattern_of(const Operation& op)
{
    const std::string pattern = enum_attr(op, {"maskPattern", "mask_pattern", "pattern"});
    if (pattern.empty()) return std::nullopt;
    return pick<MaskPattern>(pattern,
                             {{"p0101", MaskPattern::P0101}, {"p1010", MaskPattern::P1010}, {"p0001", MaskPattern::P0001},
                              {"p0010", MaskPattern::P0010}, {"p0100", MaskPattern::P0100}, {"p1000", MaskPattern::P1000},
                              {"p1111", MaskPattern::P1111}},
                             MaskPattern::P1111);
}

GatherAxis gather_axis_of(const Operation& op)
{
    return enum_attr(op, {"axis", "gatherAxis", "gather_axis"}).find("col") != std::string::npos ? GatherAxis::GATHER_COL
                                                                                                   : GatherAxis::GATHER_ROW;
}

engine::TileDesc scalar_threshold_tile(const profile::Profile& p, const engine::TileDesc& src)
{
    engine::TileDesc k = src;
    k.data = nullptr;
    k.dtype = rules::tgather_cmp_k_dtype_ok(p, engine::DType::I32) ? engine::DType::I32 : engine::DType::U32;
    k.rows = 1;
    k.cols = (src.rows + 7) / 8 * 8;
    k.valid_rows = 1;
    k.valid_cols = src.valid_rows;
    k.blayout = BLayout::RowMajor;
    k.slayout = SLayout::NoneBox;
    return k;
}

MgatherForm mgather_form(bool index_is_tile, std::size_t sources)
{
    if (index_is_tile) return MgatherForm::UbIndex;
    return sources == 3 ? MgatherForm::L1Scratch : MgatherForm::L1;
}

Coalesce coalesce_of(const Operation& op, const OpInfo& info)
{
    const std::string c = enum_attr(op, {"coalesce"});
    if (c.empty()) return info.coalesce.value_or(Coalesce::Row);
    return c == "elem" ? Coalesce::Elem : Coalesce::Row;
}

GatherOOB gather_oob_of(const Operation& op)
{
    return pick<GatherOOB>(enum_attr(op, {"oob", "gatherOOB", "gather_oob"}),
                           {{"clamp", GatherOOB::Clamp}, {"wrap", GatherOOB::Wrap}, {"zero", GatherOOB::Zero}},
                           GatherOOB::Undefined);
}

GatherExec gather_exec_of(const Operation& op)
{
    return enum_attr(op, {"exec"}) == "simt" ? GatherExec::Simt : GatherExec::Scalar;
}

ScatterAtomicOp scatter_atomic_of(const Operation& op)
{
    return pick<ScatterAtomicOp>(enum_attr(op, {"atomic", "atomicOp", "atomic_op"}),
                                 {{"add", ScatterAtomicOp::Add}, {"max", ScatterAtomicOp::Max}, {"min", ScatterAtomicOp::Min}},
                                 ScatterAtomicOp::None);
}

ScatterOOB scatter_oob_of(const Operation& op)
{
    return pick<ScatterOOB>(enum_attr(op, {"oob", "scatterOOB", "scatter_oob"}),
                            {{"skip", ScatterOOB::Skip}, {"clamp", ScatterOOB::Clamp}, {"wrap", ScatterOOB::Wrap}},
                            ScatterOOB::Undefined);
}

ScatterConflict scatter_conflict_of(const Operation& op)
{
    return enum_attr(op, {"conflict"}) == "default" ? ScatterConflict::Default : ScatterConflict::Last;
}

}  // namespace pto::as
