// TPAIRREDUCESUM: operand checks and the sums of adjacent pairs; its definition.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/partial.hpp>
#include <pto/profile/rules_partial.hpp>
#include <pto/runtime/diagnostic.hpp>

#include <string>

#include "engine/hold_back.hpp"
#include "engine/definition.hpp"
#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine {

namespace {

template <typename T>
void sum_pairs(const TileDesc& dst, const TileDesc& src)
{
    using F = elementwise::Format<T>;
    using S = typename F::Storage;
    const int cols = dst.valid_cols, sums = (cols + 1) / 2;
    for (int r = 0; r < dst.valid_rows; ++r) {
        const S* in = reinterpret_cast<const S*>(src.data) + src.offset(r, 0);
        S* out = reinterpret_cast<S*>(dst.data) + dst.offset(r, 0);
        // Ascending: sum k reads elements 2k and 2k + 1, never one an earlier sum wrote, so dst may be src.
        for (int k = 0; k < sums; ++k)
            out[k] = F::narrow(elementwise::Add::apply(F::widen(in[2 * k]), 2 * k + 1 < cols ? F::widen(in[2 * k + 1])
                                                                                              : typename F::Compute(0)));
        for (int k = sums; k < cols; ++k) out[k] = F::narrow(typename F::Compute(0));
    }
}

constexpr Form kPairForms[] = {{kTileSrc, kTileDst}};

}  // namespace

void check_pairreducesum(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink)
{
    for (const auto& [t, name] : {std::pair{&dst, "dst"}, std::pair{&src, "src"}}) {
        if (t->loc != TileType::Vec)
            report(sink, "LEGAL_TPAIRREDUCESUM_LOCATION", name, "TPAIRREDUCESUM takes Vec tiles (UB) only", "a Vec tile",
                   std::string(profile::location_name(t->loc)));
        if (t->blayout != BLayout::RowMajor || t->boxed())
            report(sink, "LEGAL_TPAIRREDUCESUM_LAYOUT", name, "the tiles are row-major and unboxed", "row-major", "another layout");
    }
    if (!rules::pair_reduce_dtype_ok(p, dst.dtype) || src.dtype != dst.dtype)
        report(sink, "LEGAL_TPAIRREDUCESUM_DTYPE", "dst", "half or float, one type for both",
               p.target == profile::Target::Cpu ? "f16, f32, i16 or i32" : "f16 or f32",
               std::string(dtype_name(dst.dtype)) + " <- " + std::string(dtype_name(src.dtype)));
    if (all_known(dst.valid_rows, dst.valid_cols, src.valid_rows, src.valid_cols) &&
        (src.valid_rows != dst.valid_rows || src.valid_cols != dst.valid_cols))
        report(sink, "RUN_VALID_SHAPE", "src", "src has dst's valid shape", extent_text(dst.valid_rows, dst.valid_cols),
               extent_text(src.valid_rows, src.valid_cols));
}

void tpairreducesum(const TileDesc& dst, const TileDesc& src_tile)
{
    PTO_HOLD_BACK("TPAIRREDUCESUM", tpairreducesum, dst, src_tile);
    runtime::InstructionScope scope("TPAIRREDUCESUM");
    StopAtFirstFinding stop;
    check_pairreducesum(runtime::active_profile(), dst, src_tile, stop);
    warn_if_cpu_only(runtime::active_profile(),
                     [&](const profile::Profile& p, LegalitySink& s) { check_pairreducesum(p, dst, src_tile, s); });
    require_written(src_tile, "src");
    const TileDesc src = readable_source(src_tile, dst, 0);
    elementwise::visit_arithmetic_type(dst.dtype, [&]<typename T>() {
        sum_pairs<T>(dst, src);
        return true;
    });
    mark_written(dst);
}

constexpr InstrDef definitions::TPAIRREDUCESUM{
    .id = Instr::TPAIRREDUCESUM,
    .mnemonic = "TPAIRREDUCESUM",
    .forms = kPairForms,
    .pipe = vector_pipe,
    .check = [](const profile::Profile& p, const Call& c, LegalitySink& sink) { check_pairreducesum(p, c.dst(), c.src(0), sink); },
    .run = [](const Call& c) { tpairreducesum(c.dst(), c.src(0)); },
};

}  // namespace pto::engine
