// Legality through both doors: a program verified for a target (what `ptosim verify --target` reports) and
// the engine entry run on that target give the same rule code for the same operand. Every row: an element
// type only a5 takes, one only the cpu profile takes, valid shapes that differ, a tile in L1; the
// attributes' spellings; TCMP's int32 mode rule and mask size; TCVT's pairs.
#include "elementwise_instructions/rows.hpp"
#include "elementwise_instructions/text_programs.hpp"
#include "support/test_support.hpp"

namespace ewinstr {
namespace {

using pto::profile::Target;
using text::Spelling;

// One tile operand; every tile of these tests has a capacity of 4 x 32 elements.
struct Operand {
    DType dtype;
    pto::TileType loc = pto::TileType::Vec;
    int valid_rows = 4;
    int valid_cols = 32;
};
constexpr int kTileRows = 4, kTileCols = 32;

std::string tile_type(const Operand& o)
{
    return "!pto.tile_buf<loc=" + std::string(o.loc == pto::TileType::Mat ? "mat" : "vec") + ", dtype=" + text::dtype_text(o.dtype) +
           ", rows=" + std::to_string(kTileRows) + ", cols=" + std::to_string(kTileCols) + ", v_row=" + std::to_string(o.valid_rows) +
           ", v_col=" + std::to_string(o.valid_cols) + ", blayout=row_major, slayout=none_box, fractal=512, pad=0>";
}

// A tile in host memory for the engine entries, every byte 0x01 (no zero divisor, no NaN).
struct HostTile {
    std::vector<uint64_t> storage = std::vector<uint64_t>(kTileRows * kTileCols, 0x0101010101010101ull);
    TileDesc desc;

    explicit HostTile(const Operand& o)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = o.dtype;
        desc.loc = o.loc;
        desc.rows = kTileRows;
        desc.cols = kTileCols;
        desc.valid_rows = o.valid_rows;
        desc.valid_cols = o.valid_cols;
    }
};

// A function that allocates `tiles` (name, operand), then runs `op`; and the op's line.
struct Program {
    std::string text;
    int op_line;
};

Program program(const std::vector<std::pair<std::string, Operand>>& tiles, const std::string& scalar_type, const std::string& op)
{
    std::string text = "func.func @f(%s: " + scalar_type + ") {\n";
    for (const auto& [name, o] : tiles) text += "  " + name + " = pto.alloc_tile : " + tile_type(o) + "\n";
    return {text + op + "  return\n}\n", int(tiles.size()) + 2 + int(std::count(op.begin(), op.end(), '\n')) - 1};
}

// The operands of a row's call: dst, src0 and (rows with two source tiles) src1. A row that takes a tmp
// gets one shaped like src0.
struct RowCall {
    Operand dst, src0, src1;
};

Program row_program(const Row& row, const RowCall& call, const std::string& attributes = {})
{
    std::vector<std::pair<std::string, Operand>> tiles{{"%src0", call.src0}};
    std::vector<text::Value> sources{{"%src0", tile_type(call.src0)}};
    if (has_tile_src1(row.kind)) {
        tiles.push_back({"%src1", call.src1});
        sources.push_back({"%src1", tile_type(call.src1)});
    }
    const std::string scalar_type = is_float(call.src0.dtype) ? "f32" : "i32";
    if (has_scalar(row.kind)) sources.push_back({"%s", scalar_type});
    if (has_tmp(row.kind)) {
        tiles.push_back({"%tmp", call.src0});
        sources.push_back({"%tmp", tile_type(call.src0)});
    }
    return program(tiles, scalar_type,
                   text::instruction(Spelling::Dps, std::string(row.mnemonic), sources, {"%dst", tile_type(call.dst)}, attributes));
}

// Each row's engine entry, in the order of kRows (both come from instructions.def).
struct RowEntry {
    std::string_view name;
    void (*call)(const EngineOperands&);
};
constexpr RowEntry kEntries[] = {
#define PTO_ELEMENTWISE(NAME, entry, OpName, KindName, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    EWINSTR_COVERED_##KindName({#NAME, [](const EngineOperands& o) { call_engine_entry<Kind::KindName>(EWINSTR_ENGINE_ENTRY(entry), o); }},)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
};

void run_row_entry(std::size_t row, const RowCall& call)
{
    const HostTile dst(call.dst), src0(call.src0), src1(call.src1);
    kEntries[row].call({dst.desc, src0.desc, src1.desc, 0x0101010101010101ull});
}

std::vector<pto::Diagnostic> verified(const Program& p, Target target)
{
    const pto::as::ParseResult parsed = pto::as::testing::parse_ok(p.text);
    return pto::as::verify(parsed.module, target);
}

// The first finding of the verifier at the op, the tile types' own LEGAL_TILE_* rules aside.
pto::Diagnostic first_at_op(const Program& p, Target target)
{
    const std::string at = "test.pto:" + std::to_string(p.op_line) + ":";
    for (const pto::Diagnostic& d : verified(p, target))
        if (d.location.rfind(at, 0) == 0 && d.code.rfind("LEGAL_TILE_", 0) != 0) return d;
    return {"no error", "", "", "", "", "", ""};
}

// Both doors on `target` stop with `code`, naming the same operand.
template <typename EngineCall>
void expect_both_doors_report(const std::string& code, const Program& p, Target target, EngineCall engine_call)
{
    SCOPED_TRACE(p.text);
    const pto::Diagnostic from_text = first_at_op(p, target);
    const pto::test::ScopedTarget scoped(target);
    const pto::Diagnostic from_engine = pto::test::diagnostic_of(engine_call);
    EXPECT_EQ(from_text.code, code) << from_text.format();
    EXPECT_EQ(from_engine.code, code) << from_engine.format();
    EXPECT_EQ(from_text.operand, from_engine.operand) << from_text.format() << "\n" << from_engine.format();
}

template <typename EngineCall>
void expect_both_doors_accept(const Program& p, Target target, EngineCall engine_call)
{
    SCOPED_TRACE(p.text);
    for (const pto::Diagnostic& d : verified(p, target)) ADD_FAILURE() << d.format();
    const pto::test::ScopedTarget scoped(target);
    EXPECT_EQ(pto::test::diagnostic_of(engine_call).code, "no error");
}

// An element type the cpu profile takes for the row.
DType any_cpu_dtype(const Row& row)
{
    return *std::find_if(std::begin(kElementTypes), std::end(kElementTypes),
                         [&](DType t) { return row.dtype_ok(pto::profile::kCpu, t); });
}

TEST(ElementwiseLegality, EntriesFollowTheRows)
{
    ASSERT_EQ(std::size(kEntries), std::size(kRows));
    for (std::size_t i = 0; i < std::size(kRows); ++i) EXPECT_EQ(kEntries[i].name, kRows[i].name);
}

TEST(ElementwiseLegality, AnElementTypeOnlyA5TakesIsRefusedOnA2A3ByBothDoors)
{
    int rows_checked = 0;
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        const Row& row = kRows[i];
        const auto* a5_only = std::find_if(std::begin(kElementTypes), std::end(kElementTypes), [&](DType t) {
            return row.dtype_ok(pto::profile::kA5, t) && !row.dtype_ok(pto::profile::kA2A3, t);
        });
        if (a5_only == std::end(kElementTypes)) continue;
        ++rows_checked;
        const RowCall call{{*a5_only}, {*a5_only}, {*a5_only}};
        const Program p = row_program(row, call);
        expect_both_doors_report("LEGAL_" + std::string(row.name) + "_DTYPE", p, Target::A2A3, [&] { run_row_entry(i, call); });
        expect_both_doors_accept(p, Target::A5, [&] { run_row_entry(i, call); });
    }
    EXPECT_GE(rows_checked, 25);
}

// The row's CPU_DTYPES (what the public CPU simulation computes beyond both pages): each refused by both
// real targets with the row's dtype code, and run by the cpu profile, through both doors.
TEST(ElementwiseLegality, AnElementTypeOnlyTheCpuProfileTakesIsRefusedOnBothTargetsByBothDoors)
{
    int types_checked = 0;
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        const Row& row = kRows[i];
        for (DType t : kElementTypes) {
            if (!row.dtype_ok(pto::profile::kCpu, t) || row.dtype_ok(pto::profile::kA2A3, t) || row.dtype_ok(pto::profile::kA5, t))
                continue;
            ++types_checked;
            const RowCall call{{t}, {t}, {t}};
            const Program p = row_program(row, call);
            for (Target target : {Target::A2A3, Target::A5})
                expect_both_doors_report("LEGAL_" + std::string(row.name) + "_DTYPE", p, target, [&] { run_row_entry(i, call); });
            expect_both_doors_accept(p, Target::Cpu, [&] { run_row_entry(i, call); });
        }
    }
    EXPECT_GE(types_checked, 24);
}

TEST(ElementwiseLegality, ASourceWhoseValidShapeDiffersFromDstsIsRunValidShape)
{
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        const DType t = any_cpu_dtype(kRows[i]);
        const Operand narrower{t, pto::TileType::Vec, 4, 31}, shorter{t, pto::TileType::Vec, 3, 32};
        std::vector<RowCall> calls{{{t}, narrower, {t}}};
        if (has_tile_src1(kRows[i].kind)) calls.push_back({{t}, {t}, shorter});
        for (const RowCall& call : calls)
            expect_both_doors_report("RUN_VALID_SHAPE", row_program(kRows[i], call), Target::Cpu, [&] { run_row_entry(i, call); });
    }
}

TEST(ElementwiseLegality, ATileInL1IsElemwiseLocation)
{
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        const DType t = any_cpu_dtype(kRows[i]);
        const RowCall call{{t}, {t, pto::TileType::Mat}, {t}};
        expect_both_doors_report("LEGAL_ELEMWISE_LOCATION", row_program(kRows[i], call), Target::Cpu,
                                 [&] { run_row_entry(i, call); });
    }
}

TEST(ElementwiseLegality, AnAttributeValueOutsideItsSpellingsIsStructAttributeValue)
{
    std::vector<Program> programs;
    for (const Row& row : kRows) {
        if (!row.precise) continue;
        const DType t = any_cpu_dtype(row);
        programs.push_back(row_program(row, {{t}, {t}, {t}}, "{precision = #pto<precision ultra>}"));
    }
    const Operand f32{DType::F32}, mask{DType::U8};
    programs.push_back(program({{"%a", f32}, {"%b", f32}}, "f32",
                               text::instruction(Spelling::Dps, "tcmp", {{"%a", tile_type(f32)}, {"%b", tile_type(f32)}},
                                                 {"%m", tile_type(mask)}, "{cmpMode = #pto<cmp between>}")));
    for (const std::string attributes : {"{rmode = #pto<round_mode sideways>}", "{rmode = #pto<round_mode rint>, sat = #pto<sat maybe>}"}) {
        programs.push_back(program({{"%a", f32}}, "f32",
                                   text::instruction(Spelling::Ssa, "tcvt", {{"%a", tile_type(f32)}}, {"%d", tile_type({DType::F16})},
                                                     attributes)));
    }
    for (const Program& p : programs) {
        const pto::Diagnostic d = first_at_op(p, Target::Cpu);
        EXPECT_EQ(d.code, "STRUCT_ATTRIBUTE_VALUE") << p.text << d.format();
        EXPECT_NE(d.expected.find("one of"), std::string::npos) << d.format();
    }
}

Program tcmp_program(const Operand& src, const Operand& mask, const std::string& mode)
{
    return program({{"%a", src}, {"%b", src}}, "f32",
                   text::instruction(Spelling::Dps, "tcmp", {{"%a", tile_type(src)}, {"%b", tile_type(src)}}, {"%m", tile_type(mask)},
                                     "{cmpMode = #pto<cmp " + mode + ">}"));
}

void run_tcmp(const Operand& src, const Operand& mask, pto::CmpMode mode)
{
    const HostTile a(src), b(src), m(mask);
    pto::engine::tcmp(m.desc, a.desc, b.desc, mode);
}

TEST(ElementwiseLegality, TcmpOfInt32OnA2A3ComparesForEqualityOnly)
{
    const Operand i32{DType::I32}, mask{DType::U8};
    expect_both_doors_report("LEGAL_TCMP_INT32_MODE", tcmp_program(i32, mask, "gt"), Target::A2A3,
                             [&] { run_tcmp(i32, mask, pto::CmpMode::GT); });
    expect_both_doors_accept(tcmp_program(i32, mask, "eq"), Target::A2A3, [&] { run_tcmp(i32, mask, pto::CmpMode::EQ); });
    const Operand f32{DType::F32};
    expect_both_doors_accept(tcmp_program(f32, mask, "gt"), Target::A2A3, [&] { run_tcmp(f32, mask, pto::CmpMode::GT); });
}

TEST(ElementwiseLegality, ATcmpMaskWithoutABitPerElementIsRunValidShape)
{
    // 32 columns need 4 bytes of u8 mask or one u32 per row.
    const Operand f16{DType::F16};
    for (const Operand& mask : {Operand{DType::U8, pto::TileType::Vec, 4, 3}, Operand{DType::U8, pto::TileType::Vec, 3, 32},
                                Operand{DType::U32, pto::TileType::Vec, 3, 32}}) {
        expect_both_doors_report("RUN_VALID_SHAPE", tcmp_program(f16, mask, "ne"), Target::Cpu,
                                 [&] { run_tcmp(f16, mask, pto::CmpMode::NE); });
    }
    expect_both_doors_accept(tcmp_program(f16, {DType::U8, pto::TileType::Vec, 4, 4}, "ne"), Target::Cpu,
                             [&] { run_tcmp(f16, {DType::U8, pto::TileType::Vec, 4, 4}, pto::CmpMode::NE); });
    expect_both_doors_accept(tcmp_program(f16, {DType::U32, pto::TileType::Vec, 4, 1}, "ne"), Target::Cpu,
                             [&] { run_tcmp(f16, {DType::U32, pto::TileType::Vec, 4, 1}, pto::CmpMode::NE); });
}

TEST(ElementwiseLegality, ComparisonAndSelectionOfAnElementTypeOnlyA5Takes)
{
    const Operand u32{DType::U32}, i8{DType::I8}, u8_mask{DType::U8}, u32_mask{DType::U32, pto::TileType::Vec, 4, 1};
    for (const Operand& mask : {u8_mask, u32_mask}) {
        const Program tcmps = program({{"%a", u32}}, "i32",
                                      text::instruction(Spelling::Dps, "tcmps", {{"%a", tile_type(u32)}, {"%s", "i32"}},
                                                        {"%m", tile_type(mask)}, "{cmpMode = #pto<cmp ge>}"));
        const auto run_tcmps = [&] {
            const HostTile a(u32), m(mask);
            pto::engine::tcmps(m.desc, a.desc, pto::engine::ScalarBits{7}, pto::CmpMode::GE);
        };
        if (mask.dtype == DType::U8) expect_both_doors_report("LEGAL_TCMPS_DTYPE", tcmps, Target::A2A3, run_tcmps);
        else expect_both_doors_accept(tcmps, Target::A5, run_tcmps);
    }
    const Program tsel = program({{"%m", u8_mask}, {"%a", i8}, {"%b", i8}}, "f32",
                                 text::instruction(Spelling::Ssa, "tsel", {{"%m", tile_type(u8_mask)}, {"%a", tile_type(i8)}, {"%b", tile_type(i8)}},
                                                   {"%d", tile_type(i8)}));
    const auto run_tsel = [&] {
        const HostTile d(i8), m(u8_mask), a(i8), b(i8);
        pto::engine::tsel(d.desc, m.desc, a.desc, b.desc);
    };
    expect_both_doors_report("LEGAL_TSEL_DTYPE", tsel, Target::A2A3, run_tsel);
    expect_both_doors_accept(tsel, Target::A5, run_tsel);
}

TEST(ElementwiseLegality, ATcvtPairA2A3DoesNotConvertIsLegalTcvtPair)
{
    int pairs = 0;
    for (DType to : kElementTypes) {
        for (DType from : kElementTypes) {
            if (!pto::numeric::conversion_allowed_on(Target::A5, to, from) ||
                pto::numeric::conversion_allowed_on(Target::A2A3, to, from))
                continue;
            ++pairs;
            const Program p = program({{"%a", {from}}}, "f32",
                                      text::instruction(Spelling::Asm, "tcvt", {{"%a", tile_type({from})}}, {"%d", tile_type({to})},
                                                        "{rmode = #pto<round_mode trunc>}"));
            const auto run = [&] {
                const HostTile d({to}), s({from});
                pto::engine::tcvt(d.desc, s.desc, pto::RoundMode::CAST_TRUNC, pto::SaturationMode::ON);
            };
            expect_both_doors_report("LEGAL_TCVT_PAIR", p, Target::A2A3, run);
            expect_both_doors_accept(p, Target::A5, run);
        }
    }
    EXPECT_GE(pairs, 5);
}

}  // namespace
}  // namespace ewinstr
