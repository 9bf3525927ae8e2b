// TEXTRACT of convolution weights in the PTO-AS text door: a FRACTAL_Z / FRACTAL_Z_3D `!pto.conv_tile_buf`
// in L1, loaded from a view of its layout, its window into a Right tile. Random weights, shapes, windows
// and valid regions of every element type on every profile against the weights' (k, n) element as the
// plain index loop finds it; the text door against the C++ door; the illegal cases with codes and places.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "support/asm_arguments.hpp"
#include "support/text_program.hpp"

using namespace pto;
using namespace pto::test;
using profile::Target;

namespace {

// Weights of K = rows_of_blocks * C0 rows and N = 16 * n_boxes columns, as [C1HW, N/16, 16, C0]
// (`split_n`) or [C1, H, W, N, C0], and a window of them.
struct Window {
    const char* type = "f16";
    int bytes = 2;
    Layout layout = Layout::FRACTAL_Z;
    bool split_n = true;
    std::vector<int64_t> shape;
    int rows = 0, cols = 0, valid_rows = 0, valid_cols = 0;  // the Right tile
    int start_row = 0, start_col = 0;

    int64_t c0() const { return 32 / bytes; }
    int64_t k() const
    {
        int64_t k = c0();
        for (size_t d = 0; d + (split_n ? 3 : 2) < shape.size(); ++d) k *= shape[d];
        return k;
    }
    int64_t n() const { return split_n ? shape[1] * 16 : shape[shape.size() - 2]; }
    int64_t elements() const
    {
        int64_t e = 1;
        for (int64_t s : shape) e *= s;
        return e;
    }

    std::string weights_type(const char* loc = "mat") const
    {
        std::string dims;
        for (int64_t s : shape) dims += std::to_string(s) + "x";
        return std::string("!pto.conv_tile_buf<") + loc + ", " + dims + type + ", " +
               (layout == Layout::FRACTAL_Z ? "fractal_z" : "#pto.layout<FRACTAL_Z_3D>") + ">";
    }
    std::string right_type() const
    {
        return "!pto.tile_buf<right, " + std::to_string(rows) + "x" + std::to_string(cols) + "x" + type + ", valid=" +
               std::to_string(valid_rows) + "x" + std::to_string(valid_cols) + ", blayout=row_major, slayout=col_major>";
    }

    // %w's weights loaded and their window at (start_row, start_col) extracted into a Right tile at L0B
    // address 0, whose whole buffer is copied to %out element by element.
    std::string text() const
    {
        // A dense 5-dimensional view: a fifth dimension of one under the 4-dimensional form.
        std::vector<int64_t> dims(5, 1), strides(5);
        for (size_t d = 0; d < shape.size(); ++d) dims[d] = shape[d];
        for (int64_t d = 4, stride = 1; d >= 0; --d) strides[size_t(d)] = stride, stride *= dims[size_t(d)];
        std::vector<int64_t> constants = dims;
        constants.insert(constants.end(), strides.begin(), strides.end());
        constants.insert(constants.end(), {0, 1, int64_t(rows) * cols, start_row, start_col});
        std::sort(constants.begin(), constants.end());
        constants.erase(std::unique(constants.begin(), constants.end()), constants.end());
        auto list = [](const std::vector<int64_t>& v) {
            std::string out;
            for (int64_t x : v) out += (out.empty() ? "%k" : ", %k") + std::to_string(x);
            return out;
        };
        const std::string view = std::string("!pto.tensor_view<?x?x?x?x?x") + type + ", #pto.layout<" +
                                 (layout == Layout::FRACTAL_Z ? "fractal_z" : "fractal_z_3d") + ">>";
        // The Right tile is copied out as integers of its element's width: every bit pattern as it is.
        const std::string word = bytes == 1 ? "i8" : bytes == 2 ? "i16" : "i32";
        const std::string pointer = "!pto.ptr<" + word + ", l0b>";
        std::string s = std::string("func.func @f(%w: !pto.ptr<") + type + ">, %out: !pto.ptr<" + word + ">) {\n";
        for (int64_t c : constants) s += "  %k" + std::to_string(c) + " = arith.constant " + std::to_string(c) + " : index\n";
        s += "  %wv = pto.make_tensor_view %w, shape = [" + list(dims) + "], strides = [" + list(strides) + "] : " + view + "\n";
        s += "  %weights = pto.alloc_tile : " + weights_type() + "\n";
        s += "  pto.tload ins(%wv : " + view + ") outs(%weights : " + weights_type() + ")\n";
        s += "  %a0 = arith.constant 0 : i64\n  %right = pto.alloc_tile addr = %a0 : " + right_type() + "\n";
        s += "  pto.textract ins(%weights, %k" + std::to_string(start_row) + ", %k" + std::to_string(start_col) + " : " +
             weights_type() + ", index, index) outs(%right : " + right_type() + ")\n";
        s += "  %rp = pto.castptr %a0 : i64 -> " + pointer + "\n";
        s += "  scf.for %i = %k0 to %k" + std::to_string(rows * cols) + " step %k1 {\n";
        s += "    %v = pto.load_scalar %rp[%i] : " + pointer + " -> " + word + "\n";
        s += "    pto.store_scalar %v, %out[%i] : !pto.ptr<" + word + ">, " + word + "\n  }\n  return\n}\n";
        return s;
    }

    // Where the Right tile keeps element (row, col).
    int64_t right_offset(int row, int col, engine::DType dtype) const
    {
        engine::TileDesc t;
        t.dtype = dtype;
        t.loc = TileType::Right;
        t.rows = rows, t.cols = cols;
        t.blayout = BLayout::RowMajor;
        t.slayout = SLayout::ColMajor;
        return t.offset(row, col);
    }
};

// Element (k, n) of the weights: C0 consecutive k of one n, 16 n a box, the boxes of N along each block of k.
int64_t weights_offset(const Window& w, int64_t k, int64_t n) { return ((k / w.c0()) * w.n() + n) * w.c0() + k % w.c0(); }

struct ElementType {
    const char* name;
    int bytes;
    engine::DType dtype;
};

Window random_window(std::mt19937& rng, const ElementType& t, int trial)
{
    Window w;
    w.type = t.name, w.bytes = t.bytes;
    w.layout = trial % 3 == 2 ? Layout::FRACTAL_Z_3D : Layout::FRACTAL_Z;
    w.split_n = trial % 3 != 1;
    const int64_t c0 = w.c0(), n_boxes = 1 + rng() % 3;
    if (w.split_n) w.shape = {1 + int64_t(rng() % 6), n_boxes, 16, c0};
    else w.shape = {1 + int64_t(rng() % 2), 1 + int64_t(rng() % 2), 1 + int64_t(rng() % 2), 16 * n_boxes, c0};
    // The Right tile: whole boxes of C0 k by 16 n inside the weights; its window starts on a box.
    const int64_t k_blocks = w.k() / c0;
    const int64_t row_blocks = 1 + rng() % std::min<int64_t>(k_blocks, 2), col_boxes = 1 + rng() % std::min<int64_t>(n_boxes, 2);
    w.rows = int(row_blocks * c0), w.cols = int(col_boxes * 16);
    w.valid_rows = 1 + int(rng() % uint32_t(w.rows));
    w.valid_cols = 1 + int(rng() % uint32_t(w.cols));
    w.start_row = int(c0 * (rng() % uint32_t(k_blocks - row_blocks + 1)));
    w.start_col = int(16 * (rng() % uint32_t(n_boxes - col_boxes + 1)));
    return w;
}

std::vector<uint8_t> random_weights(std::mt19937& rng, const Window& w)
{
    std::vector<uint8_t> v(size_t(w.elements() * w.bytes));
    for (uint8_t& b : v) b = uint8_t(rng());  // any pattern: NaNs, infinities and zeros move as they are
    return v;
}

void expect_random_windows(Target target, std::vector<ElementType> types, uint32_t seed)
{
    std::mt19937 rng(seed);
    for (const ElementType& t : types)
        for (int trial = 0; trial < 6; ++trial) {
            const Window w = random_window(rng, t, trial);
            SCOPED_TRACE(std::string(profile::profile_of(target).name) + "\n" + w.text());
            std::vector<uint8_t> weights = random_weights(rng, w), out(size_t(w.rows * w.cols * w.bytes));
            const TextVerdict v = verdict_on(target, w.text(), "weights.pto", {argument("w", weights), argument("out", out)});
            ASSERT_TRUE(v.verified.empty()) << v.verified[0];
            ASSERT_EQ(v.ran, "");
            for (int row = 0; row < w.valid_rows; ++row)
                for (int col = 0; col < w.valid_cols; ++col)
                    ASSERT_EQ(std::memcmp(&out[size_t(w.right_offset(row, col, t.dtype) * w.bytes)],
                                          &weights[size_t(weights_offset(w, w.start_row + row, w.start_col + col) * w.bytes)],
                                          size_t(w.bytes)),
                              0)
                        << row << "," << col;
        }
}

constexpr ElementType kF16{"f16", 2, engine::DType::F16}, kBf16{"bf16", 2, engine::DType::BF16}, kF32{"f32", 4, engine::DType::F32}, kI8{"i8", 1, engine::DType::I8};

TEST(TextractConvText, WeightWindowsOnCpu) { expect_random_windows(Target::Cpu, {kF16, kBf16, kF32, kI8}, 1); }
TEST(TextractConvText, WeightWindowsOnA2A3) { expect_random_windows(Target::A2A3, {kF16, kBf16, kF32, kI8}, 2); }
TEST(TextractConvText, WeightWindowsOnA5) { expect_random_windows(Target::A5, {kF16, kBf16, kF32, kI8}, 3); }

// The window the C++ test takes, through both doors: the same bytes in the whole Right tile.
TEST(TextractConvText, AgreesWithTheCppDoor)
{
    using Weights = ConvTile<TileType::Mat, half, 4 * 3 * 16 * 16 * 2, Layout::FRACTAL_Z, ConvTileShape<4, 3, 16, 16>>;
    using RightT = TileRight<half, 32, 16>;
    Window w;
    w.shape = {4, 3, 16, 16};
    w.rows = w.valid_rows = 32, w.cols = w.valid_cols = 16;
    w.start_row = 16, w.start_col = 32;
    std::mt19937 rng(4);
    std::vector<uint8_t> weights = random_weights(rng, w), out(32 * 16 * 2);
    Weights cpp_weights;
    RightT right;
    TASSIGN(cpp_weights, 0x0);
    std::memcpy(cpp_weights.data(), weights.data(), weights.size());
    TEXTRACT(right, cpp_weights, 16, 32);
    const TextVerdict v = verdict_on(Target::Cpu, w.text(), "weights.pto", {argument("w", weights), argument("out", out)});
    ASSERT_TRUE(v.verified.empty()) << v.verified[0];
    ASSERT_EQ(v.ran, "");
    EXPECT_EQ(std::memcmp(out.data(), right.data(), out.size()), 0);
}

// One TEXTRACT (line 6) of `weights` into `right` at `start` ("row,col"): constants the verifier reads, or
// with `run_time_start` the function's arguments, which only the run knows.
TextVerdict textract_verdict(Target target, const std::string& weights, const std::string& right, const std::string& start,
                             const std::string& attributes = "", bool run_time_start = false)
{
    as::ArgumentBinding row, col;
    row.name = "row", row.scalar = std::stod(start.substr(0, start.find(',')));
    col.name = "col", col.scalar = std::stod(start.substr(start.find(',') + 1));
    const std::string text = "func.func @f(%row: index, %col: index) {\n"
                             "  %r0 = arith.constant " + start.substr(0, start.find(',')) + " : index\n"
                             "  %c0 = arith.constant " + start.substr(start.find(',') + 1) + " : index\n"
                             "  %weights = pto.alloc_tile : " + weights + "\n"
                             "  %right = pto.alloc_tile : " + right + "\n"
                             "  pto.textract ins(%weights, %" + (run_time_start ? "row, %col" : "r0, %c0") + " : " + weights +
                             ", index, index) outs(%right : " + right + ")" + attributes + "\n  return\n}\n";
    return verdict_on(target, text, "bad.pto", {row, col});
}

TEST(TextractConvTextIllegal, RulesWithTheirCodesAndPlaces)
{
    using Codes = std::vector<std::string>;
    const std::string weights = "!pto.conv_tile_buf<mat, 4x3x16x16xf16, fractal_z>";
    const std::string right = "!pto.tile_buf<right, 32x16xf16, blayout=row_major, slayout=col_major>";
    struct Case {
        Target target;
        std::string weights, right, start;
        Codes verified;
        std::string attributes = "";
    };
    const std::vector<Case> cases = {
        {Target::Cpu, "!pto.conv_tile_buf<mat, 1x1x8x16x16xf16, nc1hwc0>", right, "0,0", {"LEGAL_TEXTRACT_LAYOUT@bad.pto:6:3"}},
        {Target::A5, "!pto.conv_tile_buf<mat, 4x3x16x8xf16, fractal_z>", right, "0,0", {"LEGAL_TEXTRACT_LAYOUT@bad.pto:6:3"}},
        {Target::A2A3, "!pto.conv_tile_buf<mat, 2x1x2x24x16xf16, fractal_z>", right, "0,0", {"LEGAL_TEXTRACT_LAYOUT@bad.pto:6:3"}},
        {Target::A2A3, "!pto.conv_tile_buf<vec, 4x3x16x16xf16, fractal_z>", right, "0,0", {"LEGAL_TEXTRACT_LOCATION@bad.pto:6:3"}},
        {Target::Cpu, weights, "!pto.tile_buf<left, 32x16xf16, blayout=col_major, slayout=row_major>", "0,0",
         {"LEGAL_TEXTRACT_LOCATION@bad.pto:6:3"}},
        {Target::A5, weights, "!pto.tile_buf<right, 16x16xf32, blayout=row_major, slayout=col_major>", "0,0",
         {"LEGAL_TEXTRACT_LOCATION@bad.pto:6:3"}},
        // The window's rules, as on the Zn matrix the weights lay out (K = 64, N = 48).
        {Target::Cpu, weights, right, "48,0", {"RUN_TEXTRACT_RANGE@bad.pto:6:3"}},
        {Target::A2A3, weights, right, "0,40", {"RUN_TEXTRACT_RANGE@bad.pto:6:3", "RUN_TEXTRACT_ALIGN@bad.pto:6:3"}},
        {Target::A5, weights, right, "8,16", {"RUN_TEXTRACT_ALIGN@bad.pto:6:3"}},
        {Target::A2A3, weights, right, "0,0", {"LEGAL_TMOV_MODE@bad.pto:6:3"}, " {relu = normal_relu}"},
        {Target::A5, weights, right, "0,0", {"LEGAL_TMOV_MODE@bad.pto:6:3"}, " {mode = dualmodesplitm}"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(profile::profile_of(c.target).name) + ": " + c.weights + " -> " + c.right + " at " + c.start);
        const TextVerdict v = textract_verdict(c.target, c.weights, c.right, c.start, c.attributes);
        EXPECT_EQ(v.verified, c.verified);
        EXPECT_EQ(v.ran, "");
    }
    // A start the verifier cannot know is the run's to check, at the op.
    const TextVerdict v = textract_verdict(Target::Cpu, weights, right, "48,0", "", true);
    EXPECT_TRUE(v.verified.empty());
    EXPECT_EQ(v.ran, "RUN_TEXTRACT_RANGE@bad.pto:6:3");
}

}  // namespace
