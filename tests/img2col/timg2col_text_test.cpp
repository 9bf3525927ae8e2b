// TIMG2COL, SETFMATRIX, SET_IMG2COL_PADDING and SET_IMG2COL_RPT in the PTO-AS text door: a convolution tile
// (`!pto.conv_tile_buf`) loaded with TLOAD from a view of its layout, the img2col configuration given as
// attributes, posM/posK and the pad value as scalar operands. Programs over random feature maps and
// geometries, every SetFmatrixMode, both layouts, per profile, against the reference of timg2col_test;
// the text door against the C++ door; the illegal cases with their codes and locations.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "img2col/im2col_reference.hpp"
#include "support/asm_arguments.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;
using namespace pto::test::img2col;
using profile::Target;

namespace {

// The PTO-AS name of element type T.
template <typename T>
constexpr const char* type_name()
{
    if constexpr (std::is_same_v<T, float>) return "f32";
    else if constexpr (std::is_same_v<T, half>) return "f16";
    else if constexpr (std::is_same_v<T, int8_t>) return "i8";
    else return "i32";
}

const char* mode_spelling(SetFmatrixMode m)
{
    switch (m) {
        case SetFmatrixMode::FMATRIX_A_AUTO: return "#pto.fmatrix_mode<FMATRIX_A_AUTO>";
        case SetFmatrixMode::FMATRIX_B_AUTO: return "\"b_auto\"";
        case SetFmatrixMode::FMATRIX_A_MANUAL: return "#pto.fmatrix_mode<FMATRIX_A_MANUAL>";
        case SetFmatrixMode::FMATRIX_B_MANUAL: return "\"b_manual\"";
    }
    return "";
}

bool is_auto(SetFmatrixMode m) { return m == SetFmatrixMode::FMATRIX_A_AUTO || m == SetFmatrixMode::FMATRIX_B_AUTO; }

// One text program: a feature map of `shape` (5 dimensions NC1HWC0, 6 NDC1HWC0) loaded from %g into a
// Mat convolution tile, img2col'ed into a Left tile at L0A address 0, whose whole buffer is copied out to
// %out element by element.
struct Program {
    std::vector<int> shape;
    bool ndc1hwc0 = false;
    SetFmatrixMode mode = SetFmatrixMode::FMATRIX_A_AUTO;
    Geometry g{};
    int rows = 32, cols = 0, valid_rows = 0, valid_cols = 0;
    bool nz = true;  // the left tile's boxes column-major (a5, cpu) or row-major (a2a3, cpu)
    int pos_m = 0, pos_k = 0;
    std::string pad_value = "0";
    const char* type = "f32";

    std::string conv_type() const
    {
        std::string dims;
        for (int d : shape) dims += std::to_string(d) + "x";
        return std::string("!pto.conv_tile_buf<mat, ") + dims + type + (ndc1hwc0 ? ", #pto.layout<ndc1hwc0>>" : ", nc1hwc0>");
    }
    std::string left_type() const
    {
        return "!pto.tile_buf<left, " + std::to_string(rows) + "x" + std::to_string(cols) + "x" + type + ", valid=" +
               std::to_string(valid_rows) + "x" + std::to_string(valid_cols) + ", blayout=" + (nz ? "col_major" : "row_major") +
               ", slayout=row_major>";
    }
    std::string view_type() const
    {
        return std::string("!pto.tensor_view<?x?x?x?x?x") + type + ", #pto.layout<" + (ndc1hwc0 ? "ndc1hwc0" : "nc1hwc0") + ">>";
    }
    std::string geometry() const
    {
        return "filter_h = " + std::to_string(g.filter_h) + ", filter_w = " + std::to_string(g.filter_w) +
               ", stride_h = " + std::to_string(g.stride_h) + ", strideW = " + std::to_string(g.stride_w) +
               ", dilation_h = " + std::to_string(g.dilation_h) + ", dilation_w = " + std::to_string(g.dilation_w);
    }
    std::string padding() const
    {
        return "pad_left = " + std::to_string(g.pad[0]) + ", pad_right = " + std::to_string(g.pad[1]) +
               ", pad_top = " + std::to_string(g.pad[2]) + ", padBottom = " + std::to_string(g.pad[3]);
    }

    std::string text() const
    {
        // The view: NC1HWC0 as it is; NDC1HWC0 as N, D, C1, H, W with each W position's C0 after it.
        std::vector<int64_t> dims(shape.begin(), shape.begin() + 5), strides(5);
        int64_t stride = ndc1hwc0 ? shape[5] : 1;
        for (int k = 4; k >= 0; --k) {
            strides[size_t(k)] = stride;
            stride *= dims[size_t(k)];
        }
        std::string s = std::string("func.func @f(%g: !pto.ptr<") + type + ">, %out: !pto.ptr<" + type + ">) {\n";
        auto list = [&](const std::vector<int64_t>& v) {
            std::string out;
            for (int64_t x : v) out += (out.empty() ? "%k" : ", %k") + std::to_string(x);
            return out;
        };
        std::vector<int64_t> constants = dims;
        constants.insert(constants.end(), strides.begin(), strides.end());
        constants.insert(constants.end(), {0, 1, int64_t(rows) * cols});
        std::sort(constants.begin(), constants.end());
        constants.erase(std::unique(constants.begin(), constants.end()), constants.end());
        for (int64_t c : constants) s += "  %k" + std::to_string(c) + " = arith.constant " + std::to_string(c) + " : index\n";
        s += "  %gv = pto.make_tensor_view %g, shape = [" + list(dims) + "], strides = [" + list(strides) + "] : " + view_type() + "\n";
        s += "  %map = pto.alloc_tile : " + conv_type() + "\n";
        s += "  pto.tload ins(%gv : " + view_type() + ") outs(%map : " + conv_type() + ")\n";
        s += "  %a0 = arith.constant 0 : i64\n";
        s += "  %left = pto.alloc_tile addr = %a0 : " + left_type() + "\n";
        s += "  %pad = arith.constant " + pad_value + " : " + type + "\n";
        s += "  %pm = arith.constant " + std::to_string(pos_m) + " : index\n";
        s += "  %pk = arith.constant " + std::to_string(pos_k) + " : index\n";
        const std::string mode_attr = std::string("mode = ") + mode_spelling(mode);
        const std::string conv = conv_type();
        if (is_auto(mode)) {
            s += "  pto.timg2col ins(%map, %pm, %pk, %pad : " + conv + ", index, index, " + type + ") outs(%left : " + left_type() +
                 ") {" + mode_attr + ", " + geometry() + ", " + padding() + "}\n";
        } else {
            // The other bank gets another map size: the load reads its own bank.
            const bool bank_b = mode == SetFmatrixMode::FMATRIX_B_MANUAL;
            s += "  pto.tsetfmatrix ins(%map : " + conv + ") {mode = " + (bank_b ? "\"a_manual\"" : "\"b_manual\"") + ", fmap_h = 1}\n";
            s += "  pto.tsetfmatrix ins(%map : " + conv + ") {" + mode_attr + ", " + padding() + "}\n";
            s += "  pto.tset_img2col_padding ins(%map, %pad : " + conv + ", " + type + ") {" + mode_attr + "}\n";
            s += "  pto.set_img2col_rpt ins(%map : " + conv + ") {" + mode_attr + ", repeat_time = 1}\n";
            s += "  pto.timg2col ins(%map, %pm, %pk : " + conv + ", index, index) outs(%left : " + left_type() + ") {" + mode_attr +
                 ", " + geometry() + "}\n";
        }
        s += "  %lp = pto.castptr %a0 : i64 -> !pto.ptr<" + std::string(type) + ", l0a>\n";
        s += "  scf.for %i = %k0 to %k" + std::to_string(rows * cols) + " step %k1 {\n";
        s += "    %v = pto.load_scalar %lp[%i] : !pto.ptr<" + std::string(type) + ", l0a> -> " + type + "\n";
        s += "    pto.store_scalar %v, %out[%i] : !pto.ptr<" + std::string(type) + ">, " + type + "\n";
        s += "  }\n  return\n}\n";
        return s;
    }
};

as::ParseResult parse_verified(const std::string& text, Target target)
{
    as::ParseResult parsed = as::parse(text, "img2col.pto");
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.diagnostics[0].format()) << "\n" << text;
    if (!parsed.ok()) return parsed;
    const auto found = as::verify(parsed.module, target);
    EXPECT_TRUE(found.empty()) << (found.empty() ? "" : found[0].format()) << "\n" << text;
    return parsed;
}

// Random programs of element type T on `target` for every mode: the Left tile's valid region against the
// reference.
template <typename T>
void expect_text_im2col(Target target, bool ndc1hwc0, uint32_t seed)
{
    std::mt19937 rng(seed);
    const int c0 = 32 / int(sizeof(T));
    for (SetFmatrixMode mode : {SetFmatrixMode::FMATRIX_A_AUTO, SetFmatrixMode::FMATRIX_B_AUTO, SetFmatrixMode::FMATRIX_A_MANUAL,
                                SetFmatrixMode::FMATRIX_B_MANUAL}) {
        for (int trial = 0; trial < 3; ++trial) {
            Program p;
            p.type = type_name<T>();
            p.ndc1hwc0 = ndc1hwc0;
            const int n = 1 + int(rng() % 2), depth = 1 + int(rng() % 2), c1 = 1 + int(rng() % 2), h = 2 + int(rng() % 5),
                      w = 2 + int(rng() % 5);
            p.shape = ndc1hwc0 ? std::vector<int>{n, depth, c1, h, w, c0} : std::vector<int>{n, c1, h, w, c0};
            p.mode = mode;
            p.g = random_geometry(rng);
            if (h + p.g.pad[2] + p.g.pad[3] - p.g.dilation_h * (p.g.filter_h - 1) < 1 ||
                w + p.g.pad[0] + p.g.pad[1] - p.g.dilation_w * (p.g.filter_w - 1) < 1) {
                --trial;
                continue;
            }
            p.cols = c0 * 2;
            p.nz = target == Target::A5 || (target == Target::Cpu && trial % 2 == 0);
            p.valid_rows = 1 + int(rng() % uint32_t(p.rows));
            p.valid_cols = 1 + int(rng() % uint32_t(p.cols));
            p.pos_m = int(rng() % 8);
            p.pos_k = int(rng() % 16);
            const int pad = int(rng() % 50) - 25;
            p.pad_value = std::is_floating_point_v<T> || std::is_same_v<T, half> ? std::to_string(pad) + ".0" : std::to_string(pad);
            SCOPED_TRACE(std::string(profile::profile_of(target).name) + " trial " + std::to_string(trial) + "\n" + p.text());

            const int dims[6] = {n, ndc1hwc0 ? depth : 1, c1, h, w, c0};
            const size_t elements = size_t(n) * size_t(dims[1]) * size_t(c1) * size_t(h) * size_t(w) * size_t(c0);
            std::vector<T> map(elements), out(size_t(p.rows * p.cols));
            for (T& v : map) v = T(int(rng() % 200) - 100);

            const as::ParseResult parsed = parse_verified(p.text(), target);
            ASSERT_TRUE(parsed.ok());
            ScopedTarget restore(target);
            as::RunOptions options;
            options.target = target;
            const as::RunResult r = as::run(parsed.module, {argument("g", map), argument("out", out)}, options);
            ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();

            engine::TileDesc left;
            left.dtype = engine::dtype_of<T>;
            left.rows = p.rows;
            left.cols = p.cols;
            left.blayout = p.nz ? BLayout::ColMajor : BLayout::RowMajor;
            left.slayout = SLayout::RowMajor;
            for (int row = 0; row < p.valid_rows; ++row)
                for (int col = 0; col < p.valid_cols; ++col) {
                    const T want = im2col_element(map, dims, p.g, p.pos_m + row, p.pos_k + col, T(pad));
                    const T got = out[size_t(left.offset(row, col))];
                    ASSERT_EQ(std::memcmp(&got, &want, sizeof(T)), 0) << row << "," << col;
                }
        }
    }
}

TEST(Timg2colText, EveryModeBothLayoutsOnCpu)
{
    expect_text_im2col<float>(Target::Cpu, false, 11);
    expect_text_im2col<half>(Target::Cpu, true, 12);
    expect_text_im2col<int8_t>(Target::Cpu, false, 13);
    expect_text_im2col<int32_t>(Target::Cpu, true, 14);
}

TEST(Timg2colText, EveryModeBothLayoutsOnA2A3)
{
    expect_text_im2col<half>(Target::A2A3, false, 21);
    expect_text_im2col<float>(Target::A2A3, true, 22);
    expect_text_im2col<int8_t>(Target::A2A3, true, 23);
}

TEST(Timg2colText, EveryModeBothLayoutsOnA5)
{
    expect_text_im2col<half>(Target::A5, true, 31);
    expect_text_im2col<int32_t>(Target::A5, false, 32);
    expect_text_im2col<int8_t>(Target::A5, false, 33);
}

// The same load through both doors gives the same bytes over the whole Left tile.
TEST(Timg2colText, AgreesWithTheCppDoor)
{
    using Conv = ConvTile<TileType::Mat, half, 1 * 2 * 5 * 6 * 16 * 2, Layout::NC1HWC0, ConvTileShape<1, 2, 5, 6, 16>>;
    using Left = Tile<TileType::Left, half, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor>;
    std::mt19937 rng(5);
    std::vector<half> map(1 * 2 * 5 * 6 * 16), out(32 * 32);
    for (half& v : map) v = half(float(int(rng() % 200) - 100) / 4.0f);
    Conv src;
    std::memcpy(src.data(), map.data(), map.size() * sizeof(half));
    src.SetFmapH(5);
    src.SetFmapW(6);
    const uint8_t pads[4] = {1, 2, 1, 0};
    src.SetPadListArray(pads);
    src.SetFilterH(3);
    src.SetFilterW(2);
    src.SetStrideH(2);
    src.SetDilationW(2);
    src.SetPadValue(half(-1.5f));
    Left cpp;
    std::memset(cpp.data(), 0, sizeof(half) * 32 * 32);
    SETFMATRIX<Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
    SET_IMG2COL_PADDING<Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
    TIMG2COL<Left, Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(cpp, src, 3, 5);

    Program p;
    p.type = "f16";
    p.shape = {1, 2, 5, 6, 16};
    p.mode = SetFmatrixMode::FMATRIX_B_MANUAL;
    p.g = {3, 2, 2, 1, 1, 2, {1, 2, 1, 0}};
    p.cols = 32;
    p.valid_rows = 32;
    p.valid_cols = 32;
    p.pos_m = 3;
    p.pos_k = 5;
    p.pad_value = "-1.5";
    const as::ParseResult parsed = parse_verified(p.text(), Target::Cpu);
    ASSERT_TRUE(parsed.ok());
    const as::RunResult r = as::run(parsed.module, {argument("g", map), argument("out", out)}, {});
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    EXPECT_EQ(std::memcmp(out.data(), cpp.data(), sizeof(half) * 32 * 32), 0);
}

// A small program whose one timg2col line (line 7) and configuration lines are `lines`: what the verifier
// reports on `target`, and the first diagnostic of a run.
struct Verdict {
    std::vector<std::string> verified;  // code@line:col
    std::string ran;                    // code@line:col
};

Verdict verdict(Target target, const std::string& lines, const std::string& map_type = "!pto.conv_tile_buf<mat, 1x1x4x4x8xf32, nc1hwc0>",
                const std::string& left_type = "!pto.tile_buf<left, 16x16xf32, blayout=col_major, slayout=row_major>")
{
    const std::string text = "func.func @f(%g: !pto.ptr<f32>) {\n"
                             "  %c1 = arith.constant 1 : index\n"
                             "  %c4 = arith.constant 4 : index\n"
                             "  %c8 = arith.constant 8 : index\n"
                             "  %map = pto.alloc_tile : " + map_type + "\n"
                             "  %left = pto.alloc_tile : " + left_type + "\n" +
                             lines + "  return\n}\n";
    std::string with_types = text;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"MAP", map_type}, {"LEFT", left_type}})
        for (size_t at = with_types.find(from); at != std::string::npos; at = with_types.find(from))
            with_types.replace(at, from.size(), to);
    const as::ParseResult parsed = as::parse(with_types, "bad.pto");
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.diagnostics[0].format()) << "\n" << with_types;
    if (!parsed.ok()) return {{parsed.diagnostics[0].code + "@" + parsed.diagnostics[0].location}, ""};
    Verdict v;
    for (const Diagnostic& d : as::verify(parsed.module, target)) v.verified.push_back(d.code + "@" + d.location);
    if (!v.verified.empty()) return v;
    ScopedTarget restore(target);
    as::RunOptions options;
    options.target = target;
    std::vector<float> g(16);
    const as::RunResult r = as::run(parsed.module, {argument("g", g)}, options);
    v.ran = r.ok() ? "" : r.diagnostics[0].code + "@" + r.diagnostics[0].location;
    return v;
}

TEST(Timg2colTextIllegal, RulesAttributesAndRegistersWithTheirLocations)
{
    using Codes = std::vector<std::string>;
    // The map is not written: a manual load through the registers fails before it reads it; the others
    // are checked unchecked-mode runs that never get that far.
    const std::string timg2col = "  pto.timg2col ins(%map : MAP) outs(%left : LEFT)";
    struct Case {
        Target target;
        std::string lines;
        Codes verified;
        std::string ran;
        std::string map_type = "!pto.conv_tile_buf<mat, 1x1x4x4x8xf32, nc1hwc0>";
        std::string left_type = "!pto.tile_buf<left, 16x16xf32, blayout=col_major, slayout=row_major>";
    };
    const std::vector<Case> cases = {
        // The engine's rules, located at the op.
        {Target::A2A3, timg2col + " {mode = \"a_auto\"}\n", {"LEGAL_TIMG2COL_LAYOUT@bad.pto:7:3"}, ""},
        {Target::A5, timg2col + "\n", {"LEGAL_TIMG2COL_LOCATION@bad.pto:7:3"}, "", "!pto.conv_tile_buf<vec, 1x1x4x4x8xf32, nc1hwc0>"},
        {Target::A2A3, "  pto.timg2col ins(%map : MAP) outs(%left : LEFT) {mode = \"a_auto\"}\n", {"LEGAL_TIMG2COL_DTYPE@bad.pto:7:3"}, "",
         "!pto.conv_tile_buf<mat, 1x1x4x4x8xi32, nc1hwc0>", "!pto.tile_buf<left, 16x16xi32, blayout=row_major, slayout=row_major>"},
        {Target::Cpu, timg2col + "\n", {"LEGAL_TIMG2COL_LAYOUT@bad.pto:7:3"}, "", "!pto.conv_tile_buf<mat, 1x4x4x8xf32, nhwc>"},
        // Malformed attributes and operands.
        {Target::Cpu, timg2col + " {stride_h = 256}\n", {"STRUCT_ATTRIBUTE_VALUE@bad.pto:7:3"}, ""},
        {Target::Cpu, timg2col + " {filter_w = 1.5}\n", {"STRUCT_ATTRIBUTE_VALUE@bad.pto:7:3"}, ""},
        {Target::Cpu, timg2col + " {mode = \"c_manual\"}\n", {"STRUCT_ATTRIBUTE_VALUE@bad.pto:7:3"}, ""},
        {Target::Cpu, "  pto.timg2col ins(%left : LEFT) outs(%left : LEFT)\n", {"STRUCT_OPERAND_KIND@bad.pto:7:3"}, ""},
        {Target::Cpu, "  pto.tsetfmatrix ins(%left : LEFT)\n", {"STRUCT_OPERAND_KIND@bad.pto:7:3"}, ""},
        // The registers, at run time.
        {Target::Cpu, timg2col + "\n", {}, "RUN_IMG2COL_UNSET@bad.pto:7:3"},
        {Target::Cpu, "  pto.tsetfmatrix ins(%map : MAP) {mode = \"b_manual\"}\n" + timg2col + "\n", {}, "RUN_IMG2COL_UNSET@bad.pto:8:3"},
        {Target::Cpu, "  pto.tsetfmatrix ins(%map : MAP) {fmap_h = 5}\n" + timg2col + "\n", {}, "RUN_IMG2COL_FMATRIX@bad.pto:8:3"},
        {Target::Cpu, "  pto.tsetfmatrix ins(%map : MAP) {fmap_w = 0}\n", {}, "RUN_IMG2COL_CONFIG@bad.pto:7:3"},
        {Target::Cpu, "  pto.tsetfmatrix ins(%map : MAP) {pad_top = 1}\n" + timg2col + "\n", {}, "RUN_IMG2COL_UNSET@bad.pto:8:3"},
        {Target::Cpu, timg2col + " {mode = \"a_auto\", stride_w = 0}\n", {}, "RUN_IMG2COL_CONFIG@bad.pto:7:3"},
        {Target::Cpu, timg2col + " {mode = \"a_auto\", transpose = true}\n", {}, "RUN_IMG2COL_CONFIG@bad.pto:7:3"},
        {Target::Cpu, timg2col + " {mode = \"a_auto\", repeat_time = 2}\n", {}, "RUN_IMG2COL_CONFIG@bad.pto:7:3"},
        {Target::Cpu, "  pto.tset_img2col_rpt ins(%map : MAP) {mode = \"b_manual\", repeatTime = 3}\n  pto.tsetfmatrix ins(%map : MAP) {mode = \"b_manual\"}\n" +
                          timg2col + " {mode = \"b_manual\"}\n",
         {}, "RUN_IMG2COL_CONFIG@bad.pto:9:3"},
        {Target::Cpu, timg2col + " {mode = \"a_auto\", filter_h = 9}\n", {}, "RUN_IMG2COL_CONFIG@bad.pto:7:3"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(profile::profile_of(c.target).name) + "\n" + c.lines);
        const Verdict v = verdict(c.target, c.lines, c.map_type, c.left_type);
        EXPECT_EQ(v.verified, c.verified);
        EXPECT_EQ(v.ran, c.ran);
    }
}

TEST(Timg2colTextIllegal, MalformedConvolutionTileTypes)
{
    for (const std::string type : {"!pto.conv_tile_buf<mat, 1x2x3x4x16xf16, nz>", "!pto.conv_tile_buf<mat, 1x?x3x4x16xf16, nc1hwc0>",
                                   "!pto.conv_tile_buf<mat, 1x1x1x2x3x4x16xf16, nc1hwc0>", "!pto.conv_tile_buf<space, 2x16xf16, nc1hwc0>",
                                   "!pto.conv_tile_buf<mat, 2x16xf16>"}) {
        SCOPED_TRACE(type);
        const as::ParseResult parsed = as::parse("func.func @f() {\n  %m = pto.alloc_tile : " + type + "\n  return\n}\n", "t.pto");
        ASSERT_FALSE(parsed.ok());
        EXPECT_EQ(parsed.diagnostics[0].location.substr(0, 6), "t.pto:");
        EXPECT_EQ(parsed.diagnostics[0].code.substr(0, 6), "PARSE_");
    }
    // A map larger than L1 on a2a3.
    const as::ParseResult big =
        as::parse("func.func @f() {\n  %m = pto.alloc_tile : !pto.conv_tile_buf<mat, 64x16x16x16x16xf16, nc1hwc0>\n  return\n}\n", "t.pto");
    ASSERT_TRUE(big.ok());
    const auto found = as::verify(big.module, Target::A2A3);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].code, "LEGAL_TILE_ADDRESS");
    EXPECT_EQ(found[0].location, "t.pto:2:8");
}

// A convolution tile round-trips through TLOAD and TSTORE in text (a Vec NC1HWC0 tile, as C++ moves it),
// and the transfer rules hold: a view of another layout, an atomic store.
TEST(Timg2colText, ConvolutionTilesLoadAndStore)
{
    const std::string view = "!pto.tensor_view<1x2x3x4x16xf16, #pto.layout<nc1hwc0>>", tile = "!pto.conv_tile_buf<vec, 1x2x3x4x16xf16, nc1hwc0>";
    auto program = [&](const std::string& out_view, const std::string& attributes) {
        return "func.func @f(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>) {\n"
               "  %k1 = arith.constant 1 : index\n  %k2 = arith.constant 2 : index\n  %k3 = arith.constant 3 : index\n"
               "  %k4 = arith.constant 4 : index\n  %k16 = arith.constant 16 : index\n  %k64 = arith.constant 64 : index\n"
               "  %k192 = arith.constant 192 : index\n  %k384 = arith.constant 384 : index\n"
               "  %av = pto.make_tensor_view %a, shape = [%k1, %k2, %k3, %k4, %k16], strides = [%k384, %k192, %k64, %k16, %k1] : " + view + "\n"
               "  %bv = pto.make_tensor_view %b, shape = [%k1, %k2, %k3, %k4, %k16], strides = [%k384, %k192, %k64, %k16, %k1] : " + out_view + "\n"
               "  %t = pto.alloc_tile : " + tile + "\n"
               "  pto.tload ins(%av : " + view + ") outs(%t : " + tile + ")\n"
               "  pto.tstore ins(%t : " + tile + ") outs(%bv : " + out_view + ")" + attributes + "\n  return\n}\n";
    };
    std::vector<uint16_t> a(384), b(384, 0);
    for (size_t i = 0; i < a.size(); ++i) a[i] = uint16_t(i * 2654435761u >> 7);
    const as::ParseResult parsed = parse_verified(program(view, ""), Target::A2A3);
    ASSERT_TRUE(parsed.ok());
    ScopedTarget restore(Target::A2A3);
    as::RunOptions options;
    options.target = Target::A2A3;
    const as::RunResult r = as::run(parsed.module, {argument("a", a), argument("b", b)}, options);
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
    EXPECT_EQ(a, b);

    for (const auto& [out_view, attributes, code] :
         {std::tuple<std::string, std::string, std::string>{"!pto.tensor_view<1x2x3x4x16xf16>", "", "LEGAL_GM_LAYOUT"},
          {view, " {atomic = #pto<atomic_type AtomicAdd>}", "LEGAL_TSTORE_ATOMIC"}}) {
        const as::ParseResult bad = as::parse(program(out_view, attributes), "bad.pto");
        ASSERT_TRUE(bad.ok());
        const auto found = as::verify(bad.module, Target::Cpu);
        ASSERT_FALSE(found.empty()) << code;
        EXPECT_EQ(found[0].code, code);
        EXPECT_EQ(found[0].location, "bad.pto:14:3");
    }
}

}  // namespace
