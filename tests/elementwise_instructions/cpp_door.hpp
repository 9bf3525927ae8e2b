// The C++ door of the PTO_ELEMENTWISE rows: a row's intrinsic on Tiles of every element type the
// compile-time profile (cpu) allows for it, with random partial valid regions set at run time, random data
// with special values, dst apart from its sources or aliasing one of them, the scalar on either side where
// the row takes both, every precision; each element against reference.hpp, and no byte outside dst's valid
// region written. One template instantiation per (row, element type, precision); the data, the reference
// and the checks are plain functions over descriptors.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "elementwise_instructions/rows.hpp"
#include "support/test_support.hpp"

namespace ewinstr {

inline constexpr int kCapacityRows = 16;
inline constexpr int kCapacityCols = 64;
inline constexpr int kRoundsPerForm = 6;

// How a row is called: which tile receives the result (0 a tile of its own, 1 src0, 2 src1) and whether
// the scalar comes first (TDIVS(dst, scalar, src)).
struct Form {
    int dst;
    bool scalar_first;
    const char* label;
};

inline std::vector<Form> forms_of(Kind k)
{
    std::vector<Form> forms{{0, false, "dst apart"}, {1, false, "dst is src0"}};
    if (has_tile_src1(k)) forms.push_back({2, false, "dst is src1"});
    if (k == Kind::ScalarBothSides) {
        forms.push_back({0, true, "scalar first, dst apart"});
        forms.push_back({1, true, "scalar first, dst is src"});
    }
    return forms;
}

// dst, src0, src1 and tmp, in this order.
using Tiles = std::array<TileDesc, 4>;
using TileBytes = std::array<std::vector<std::byte>, 4>;

// Random elements over the whole storage of every tile, recorded as written; returns every tile's bytes.
inline TileBytes fill_random(const Tiles& tiles, std::mt19937& rng)
{
    TileBytes bytes;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const TileDesc& t = tiles[i];
        for (int64_t e = 0; e < t.elements(); ++e) store(t.data, e, t.dtype, random_element(t.dtype, rng));
        pto::runtime::mark_written(t.data, std::size_t(t.bytes()));
        bytes[i].assign(t.data, t.data + t.bytes());
    }
    return bytes;
}

// Checks a call in `form`: the result tile's valid region holds op of the sources as they were before,
// and no other byte of any of the four tiles changed.
inline void verify(const Row& row, Precision precision, const Form& form, const Tiles& tiles, const TileBytes& before,
                   uint64_t scalar, const std::string& context)
{
    const TileDesc& dst = tiles[std::size_t(form.dst)];
    const DType t = dst.dtype;
    std::vector<bool> written(std::size_t(dst.elements()), false);
    int failures = 0;
    for (int r = 0; r < dst.valid_rows; ++r) {
        for (int c = 0; c < dst.valid_cols; ++c) {
            written[std::size_t(dst.offset(r, c))] = true;
            const uint64_t src = load(before[1].data(), tiles[1].offset(r, c), t);
            const uint64_t other = has_tile_src1(row.kind) ? load(before[2].data(), tiles[2].offset(r, c), t) : scalar;
            const uint64_t a = form.scalar_first ? other : src, b = form.scalar_first ? src : other;
            const std::string wrong = mismatch(row.op, t, precision, a, b, load(dst.data, dst.offset(r, c), t));
            if (!wrong.empty() && failures++ < 3)
                ADD_FAILURE() << context << ": element (" << r << ", " << c << ") " << wrong;
        }
    }
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        for (int64_t e = 0; e < tiles[i].elements(); ++e) {
            if (int(i) == form.dst && written[std::size_t(e)]) continue;
            if (load(tiles[i].data, e, t) != load(before[i].data(), e, t)) {
                ADD_FAILURE() << context << ": storage element " << e << " of operand " << i
                              << " changed, outside dst's valid region";
                break;
            }
        }
    }
}

template <auto... P>
constexpr Precision precision_of()
{
    if constexpr (sizeof...(P) == 0) return Precision::Default;
    else return (static_cast<Precision>(static_cast<uint8_t>(P)), ...);
}

// The row (of Kind K) through its intrinsic on T tiles, at precision P (none for Plain rows), in every form.
template <Kind K, typename T, auto... P, typename Intrinsic>
void check_row_type(const Row& row, Intrinsic intrinsic, std::mt19937& rng)
{
    using TileT =
        pto::Tile<pto::TileType::Vec, T, kCapacityRows, kCapacityCols, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    for (const Form& form : forms_of(K)) {
        for (int round = 0; round < kRoundsPerForm; ++round) {
            const unsigned rows = 1 + rng() % kCapacityRows, cols = 1 + rng() % kCapacityCols;
            TileT dst(rows, cols), src0(rows, cols), src1(rows, cols), tmp(rows, cols);
            const Tiles tiles{dst.desc(), src0.desc(), src1.desc(), tmp.desc()};
            const TileBytes before = fill_random(tiles, rng);
            const uint64_t scalar_bits = random_element(pto::engine::dtype_of<T>, rng);
            const T scalar = element_of<T>(scalar_bits);
            TileT& out = form.dst == 0 ? dst : form.dst == 1 ? src0 : src1;
            call_intrinsic<K, P...>(intrinsic, out, src0, src1, tmp, scalar, form.scalar_first);
            const std::string context = std::string(row.name) + " " + std::string(pto::engine::dtype_name(tiles[0].dtype)) +
                                        (row.precise ? precision_of<P...>() == Precision::High ? " HIGH_PRECISION" : " DEFAULT" : "") +
                                        ", " + form.label + ", valid " + std::to_string(rows) + "x" + std::to_string(cols);
            verify(row, precision_of<P...>(), form, tiles, before, scalar_bits, context);
        }
    }
}

// Every element type the compile-time profile allows for the row (DTypeOk), at every precision.
template <Kind K, auto DTypeOk, auto... Precisions, typename Intrinsic>
void check_row(const Row& row, Intrinsic intrinsic, std::mt19937& rng)
{
    int types = 0;
    for_each_type(ElementTypes{}, [&]<typename T>() {
        if constexpr (DTypeOk(pto::profile::kProfile, pto::engine::dtype_of<T>)) {
            ++types;
            if constexpr (sizeof...(Precisions) == 0) check_row_type<K, T>(row, intrinsic, rng);
            else (check_row_type<K, T, Precisions>(row, intrinsic, rng), ...);
        }
    });
    EXPECT_GT(types, 0) << row.name << " takes no element type";
}

// One row's test.
struct RowRunner {
    std::string_view name;
    void (*run)(std::mt19937& rng);
};

inline void PrintTo(const RowRunner& r, std::ostream* out) { *out << r.name; }

// Runs in fast mode: integer divisions by zero have their defined results there.
inline void run_row(const RowRunner& runner)
{
    const pto::test::ScopedChecked fast(false);
    std::mt19937 rng(uint32_t(std::hash<std::string_view>{}(runner.name)));
    runner.run(rng);
}

// The runners of each test binary's translation unit, for the check that together they cover every row.
std::span<const RowRunner> tile_operand_runners();
std::span<const RowRunner> scalar_operand_runners();

}  // namespace ewinstr

// The runner of one row: its Kind and dtype rule as template arguments, its precisions, its intrinsic.
#define EWINSTR_ROW_RUNNER(NAME, entry, KindName, Mode, Precision)                                                 \
    ewinstr::RowRunner{#NAME, [](std::mt19937& rng) {                                                             \
                           ewinstr::check_row<ewinstr::Kind::KindName,                                            \
                                              &pto::rules::entry##_dtype_ok EWINSTR_PRECISIONS_##Mode(Precision)>( \
                               ewinstr::row_named(#NAME), EWINSTR_INTRINSIC(NAME), rng);                         \
                       }},
