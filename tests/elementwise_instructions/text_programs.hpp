// PTO-AS programs around a few tile instructions, for the tests of the text door: arrays in, each loaded
// into a tile with a partial valid region, the instructions in one spelling (DPS, SSA or PTO assembly), the
// result tile stored out; and the same data through the C++ door, to compare the two bit for bit.
#pragma once

#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "asm/verifier.hpp"
#include "elementwise_instructions/reference.hpp"
#include "interpreter/support.hpp"

namespace ewinstr::text {

using pto::engine::TileDesc;

enum class Spelling { Dps, Ssa, Asm };
inline constexpr Spelling kSpellings[] = {Spelling::Dps, Spelling::Ssa, Spelling::Asm};

inline std::string name(Spelling s) { return s == Spelling::Dps ? "DPS" : s == Spelling::Ssa ? "SSA" : "PTO assembly"; }

inline std::string dtype_text(DType t) { return std::string(pto::engine::dtype_name(t)); }

// Every tile of these programs has this capacity; only valid shapes and element types differ.
inline constexpr int kRows = 8;
inline constexpr int kCols = 32;

struct TileShape {
    DType dtype;
    int valid_rows;
    int valid_cols;
};

inline std::string tile_type(const TileShape& t)
{
    return "!pto.tile_buf<vec, " + std::to_string(kRows) + "x" + std::to_string(kCols) + "x" + dtype_text(t.dtype) +
           ", valid=" + std::to_string(t.valid_rows) + "x" + std::to_string(t.valid_cols) + ">";
}

// An operand: an SSA value and its type.
struct Value {
    std::string name;
    std::string type;
};

inline Value tile(const std::string& name, const TileShape& shape) { return {name, tile_type(shape)}; }

// `dst = mnemonic(sources)` with `attributes` ("{cmpMode = #pto<cmp lt>}" or empty) in spelling s. SSA
// defines dst; DPS and PTO assembly allocate it first and name it as their destination.
inline std::string instruction(Spelling s, const std::string& mnemonic, const std::vector<Value>& sources, const Value& dst,
                               const std::string& attributes = {})
{
    std::string names, types;
    for (const Value& v : sources) {
        names += (names.empty() ? "" : ", ") + v.name;
        types += (types.empty() ? "" : ", ") + v.type;
    }
    const std::string attrs = attributes.empty() ? "" : " " + attributes;
    const std::string alloc = "  " + dst.name + " = pto.alloc_tile : " + dst.type + "\n";
    switch (s) {
        case Spelling::Dps:
            return alloc + "  pto." + mnemonic + " ins(" + names + attrs + " : " + types + ") outs(" + dst.name + " : " +
                   dst.type + ")\n";
        case Spelling::Ssa: {
            const std::string in = sources.size() == 1 ? types : "(" + types + ")";
            return "  " + dst.name + " = pto." + mnemonic + " " + names + attrs + " : " + in + " -> " + dst.type + "\n";
        }
        case Spelling::Asm:
            return alloc + "  " + mnemonic + " " + dst.name + ", " + names + attrs + " : (" + dst.type + ", " + types + ")\n";
    }
    return {};
}

// A packed array of rows x cols elements of one type: what a program reads or writes.
struct Array {
    DType dtype;
    int rows;
    int cols;
    std::vector<std::byte> bytes;

    TileShape shape() const { return {dtype, rows, cols}; }
    uint64_t at(int r, int c) const { return load(bytes.data(), int64_t(r) * cols + c, dtype); }
    bool operator==(const Array&) const = default;
};

inline Array random_array(DType t, int rows, int cols, std::mt19937& rng)
{
    Array a{t, rows, cols, std::vector<std::byte>(std::size_t(rows * cols * width(t) / 8))};
    for (int64_t i = 0; i < int64_t(rows) * cols; ++i) store(a.bytes.data(), i, t, random_element(t, rng));
    return a;
}

inline std::string describe_difference(const Array& expected, const Array& got)
{
    for (int r = 0; r < expected.rows; ++r)
        for (int c = 0; c < expected.cols; ++c)
            if (expected.at(r, c) != got.at(r, c))
                return "element (" + std::to_string(r) + ", " + std::to_string(c) + ") is " +
                       element_text(got.dtype, got.at(r, c)) + ", the C++ door gives " +
                       element_text(expected.dtype, expected.at(r, c));
    return "the same elements";
}

struct Input {
    std::string name;  // the pointer argument; its tile is %<name>_tile
    Array data;
};

struct Scalar {
    std::string name;  // the argument, without %
    std::string type;  // f32, i32
    double value;
};

// A function @kernel over the inputs (each loaded into its tile), the scalars, and the array %out, to which
// the tile %result that `body` defines is stored.
inline std::string kernel_text(const std::vector<Input>& inputs, const std::vector<Scalar>& scalars, const TileShape& result,
                               const std::string& body)
{
    std::set<int> extents{0, 1};
    std::string arguments, views;
    auto view = [&](const std::string& name, const TileShape& s) {
        extents.insert(s.valid_rows);
        extents.insert(s.valid_cols);
        const std::string dt = dtype_text(s.dtype), r = "%c" + std::to_string(s.valid_rows), c = "%c" + std::to_string(s.valid_cols);
        const std::string part = "!pto.partition_tensor_view<" + std::to_string(s.valid_rows) + "x" + std::to_string(s.valid_cols) + "x" + dt + ">";
        arguments += (arguments.empty() ? "%" : ", %") + name + ": !pto.ptr<" + dt + ">";
        views += "  %" + name + "_view = pto.make_tensor_view %" + name + ", shape = [" + r + ", " + c + "], strides = [" + c +
                 ", %c1] : !pto.tensor_view<?x?x" + dt + ">\n";
        views += "  %" + name + "_part = pto.partition_view %" + name + "_view, offsets = [%c0, %c0], sizes = [" + r + ", " + c +
                 "] : !pto.tensor_view<?x?x" + dt + "> -> " + part + "\n";
        return part;
    };
    for (const Input& in : inputs) {
        const std::string part = view(in.name, in.data.shape());
        const std::string type = tile_type(in.data.shape());
        views += "  %" + in.name + "_tile = pto.alloc_tile : " + type + "\n";
        views += "  pto.tload ins(%" + in.name + "_part : " + part + ") outs(%" + in.name + "_tile : " + type + ")\n";
    }
    const std::string out_part = view("out", result);
    for (const Scalar& s : scalars) arguments += ", %" + s.name + ": " + s.type;
    std::string constants;
    for (int e : extents) constants += "  %c" + std::to_string(e) + " = arith.constant " + std::to_string(e) + " : index\n";
    return "func.func @kernel(" + arguments + ") {\n" + constants + views + body + "  pto.tstore ins(%result : " +
           tile_type(result) + ") outs(%out_part : " + out_part + ")\n  return\n}\n";
}

// Runs the program in checked mode on the inputs and returns %out; adds a failure for any diagnostic of the
// parser, the verifier (cpu profile) or the run.
inline Array run_text(const std::string& text, std::vector<Input> inputs, const std::vector<Scalar>& scalars,
                      const TileShape& result)
{
    namespace as = pto::as;
    Array out{result.dtype, result.valid_rows, result.valid_cols,
              std::vector<std::byte>(std::size_t(result.valid_rows * result.valid_cols * width(result.dtype) / 8))};
    const as::ParseResult parsed = as::testing::parse_ok(text);
    if (!parsed.ok()) return out;
    for (const auto& d : as::verify(parsed.module, pto::profile::Target::Cpu)) ADD_FAILURE() << d.format();
    std::vector<as::ArgumentBinding> arguments;
    for (Input& in : inputs) arguments.push_back(as::testing::array_arg(in.name, in.data.bytes));
    arguments.push_back(as::testing::array_arg("out", out.bytes));
    for (const Scalar& s : scalars) arguments.push_back(as::testing::scalar_arg(s.name, s.value));
    const as::RunResult ran = as::run(parsed.module, arguments, as::testing::checked_run());
    EXPECT_TRUE(ran.ok()) << as::testing::format_all(ran);
    return out;
}

// The program `body(spelling)` makes, in every spelling, gives `expected` (what the C++ door gave).
template <typename Body>
void expect_every_spelling_gives(const Array& expected, const std::vector<Input>& inputs, const std::vector<Scalar>& scalars,
                                 Body body)
{
    for (Spelling s : kSpellings) {
        const std::string text = kernel_text(inputs, scalars, expected.shape(), body(s));
        SCOPED_TRACE(name(s) + ":\n" + text);
        const Array got = run_text(text, inputs, scalars, expected.shape());
        EXPECT_TRUE(got == expected) << describe_difference(expected, got);
    }
}

// --- the C++ door on the same arrays --------------------------------------------------------------

template <typename T>
using RegionTile = pto::Tile<pto::TileType::Vec, T, kRows, kCols, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

// A tile whose valid region holds the array.
template <typename T>
RegionTile<T> tile_of(const Array& a)
{
    RegionTile<T> tile(a.rows, a.cols);
    const TileDesc d = tile.desc();
    for (int r = 0; r < a.rows; ++r)
        for (int c = 0; c < a.cols; ++c) store(d.data, d.offset(r, c), a.dtype, a.at(r, c));
    pto::runtime::mark_written(d.data, std::size_t(d.bytes()));
    return tile;
}

// The valid region of a tile, as an array.
inline Array array_of(const TileDesc& d)
{
    Array a{d.dtype, d.valid_rows, d.valid_cols, std::vector<std::byte>(std::size_t(d.valid_rows * d.valid_cols * width(d.dtype) / 8))};
    for (int r = 0; r < d.valid_rows; ++r)
        for (int c = 0; c < d.valid_cols; ++c) store(a.bytes.data(), int64_t(r) * d.valid_cols + c, d.dtype, load(d.data, d.offset(r, c), d.dtype));
    return a;
}

}  // namespace ewinstr::text
