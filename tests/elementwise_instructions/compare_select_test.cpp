// TCMP then TSEL (and TCMPS then TSELS) select exactly what the comparison says: every element type TCMP
// takes on the cpu profile, every CmpMode, NaNs and both zeros among the inputs, u8 and u32 masks, random
// partial valid regions. The mask is checked bit by bit (pto/engine/ops/compare_select.hpp's layout), and
// nothing outside the regions the instructions write changes.
#include <gtest/gtest.h>

#include "elementwise_instructions/rows.hpp"
#include "support/test_support.hpp"

namespace ewinstr {
namespace {

using pto::CmpMode;

constexpr CmpMode kModes[] = {CmpMode::EQ, CmpMode::NE, CmpMode::LT, CmpMode::LE, CmpMode::GT, CmpMode::GE};
constexpr int kRows = 8, kCols = 64;

const char* mode_name(CmpMode m)
{
    static const char* const names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    return names[int(m)];
}

// a mode b on the values of type t: IEEE comparisons for floats (a NaN is unequal to everything, -0 == +0).
bool compares(DType t, CmpMode mode, uint64_t a_bits, uint64_t b_bits)
{
    const auto ordered = [&](auto a, auto b) {
        switch (mode) {
            case CmpMode::EQ: return a == b;
            case CmpMode::NE: return a != b;
            case CmpMode::LT: return a < b;
            case CmpMode::LE: return a <= b;
            case CmpMode::GT: return a > b;
            case CmpMode::GE: return a >= b;
        }
        return false;
    };
    if (is_float(t)) return ordered(float_value(t, a_bits), float_value(t, b_bits));
    return ordered(int_value(t, a_bits), int_value(t, b_bits));
}

void fill(const TileDesc& t, std::mt19937& rng)
{
    for (int64_t e = 0; e < t.elements(); ++e) store(t.data, e, t.dtype, random_element(t.dtype, rng));
    pto::runtime::mark_written(t.data, std::size_t(t.bytes()));
}

std::vector<std::byte> bytes_of(const TileDesc& t) { return {t.data, t.data + t.bytes()}; }

// Comparison operands that are often equal, and for floats often +0 against -0.
void make_ties(const TileDesc& a, const TileDesc& b, std::mt19937& rng)
{
    for (int64_t e = 0; e < a.elements(); ++e) {
        const unsigned pick = rng() % 8;
        if (pick < 2) store(b.data, e, b.dtype, load(a.data, e, a.dtype));
        if (pick == 2 && is_float(a.dtype)) {
            store(a.data, e, a.dtype, 0);
            store(b.data, e, b.dtype, uint64_t{1} << (width(b.dtype) - 1));
        }
    }
}

// The mask holds, row by row, a bit per column of the rows x cols comparison (`rhs(r, c)` the right operand),
// zeros past the last column in the last word; every other byte of the mask is as it was.
template <typename Rhs>
void verify_mask(const TileDesc& mask, const std::vector<std::byte>& mask_before, const TileDesc& src0, CmpMode mode, Rhs rhs,
                 const std::string& context)
{
    const int rows = src0.valid_rows, cols = src0.valid_cols;
    const int words = pto::rules::predicate_words(cols, width(mask.dtype));
    std::vector<bool> written(mask_before.size(), false);
    for (int r = 0; r < rows; ++r) {
        const auto* row = reinterpret_cast<const uint8_t*>(mask.data) + mask.offset(r, 0) * width(mask.dtype) / 8;
        for (int byte = 0; byte < words * width(mask.dtype) / 8; ++byte) {
            written[std::size_t(mask.offset(r, 0) * width(mask.dtype) / 8 + byte)] = true;
            for (int bit = 0; bit < 8; ++bit) {
                const int c = byte * 8 + bit;
                const bool want = c < cols && compares(src0.dtype, mode, load(src0.data, src0.offset(r, c), src0.dtype), rhs(r, c));
                ASSERT_EQ((row[byte] >> bit & 1) != 0, want)
                    << context << ": mask bit of (" << r << ", " << c << ")"
                    << (c < cols ? " comparing " + element_text(src0.dtype, load(src0.data, src0.offset(r, c), src0.dtype)) +
                                       " with " + element_text(src0.dtype, rhs(r, c))
                                 : std::string(" past the last column"));
            }
        }
    }
    for (std::size_t i = 0; i < written.size(); ++i)
        ASSERT_TRUE(written[i] || mask.data[i] == mask_before[i]) << context << ": mask byte " << i << " changed";
}

// dst's valid region holds lhs where the mask's bit is set and rhs elsewhere (bit patterns); the rest of
// dst is as it was.
template <typename Lhs, typename Rhs>
void verify_selection(const TileDesc& dst, const std::vector<std::byte>& dst_before, const TileDesc& mask, Lhs lhs, Rhs rhs,
                      const std::string& context)
{
    std::vector<bool> written(std::size_t(dst.elements()), false);
    for (int r = 0; r < dst.valid_rows; ++r) {
        const auto* row = reinterpret_cast<const uint8_t*>(mask.data) + mask.offset(r, 0) * width(mask.dtype) / 8;
        for (int c = 0; c < dst.valid_cols; ++c) {
            written[std::size_t(dst.offset(r, c))] = true;
            const bool set = (row[c / 8] >> (c % 8) & 1) != 0;
            ASSERT_EQ(load(dst.data, dst.offset(r, c), dst.dtype), set ? lhs(r, c) : rhs(r, c))
                << context << ": element (" << r << ", " << c << ") with mask bit " << set;
        }
    }
    for (int64_t e = 0; e < dst.elements(); ++e)
        ASSERT_TRUE(written[std::size_t(e)] || load(dst.data, e, dst.dtype) == load(dst_before.data(), e, dst.dtype))
            << context << ": dst element " << e << " changed outside the valid region";
}

template <typename T, typename Mask>
void check_compare_then_select(std::mt19937& rng)
{
    using Data = pto::Tile<pto::TileType::Vec, T, kRows, kCols, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    constexpr int kMaskCols = 32 / int(sizeof(Mask));  // one 32-byte block a row: room for 64 bits and more
    using MaskTile = pto::Tile<pto::TileType::Vec, Mask, kRows, kMaskCols, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    for (CmpMode mode : kModes) {
        for (int round = 0; round < 3; ++round) {
            const unsigned rows = 1 + rng() % kRows, cols = 1 + rng() % kCols;
            Data a(rows, cols), b(rows, cols), x(rows, cols), y(rows, cols), dst(rows, cols), tmp(rows, cols);
            MaskTile mask(rows, unsigned(pto::rules::predicate_words(int(cols), 8 * sizeof(Mask))));
            for (const TileDesc& t : {a.desc(), b.desc(), x.desc(), y.desc(), dst.desc(), mask.desc()}) fill(t, rng);
            make_ties(a.desc(), b.desc(), rng);
            const std::string context = std::string(pto::engine::dtype_name(pto::engine::dtype_of<T>)) + " " + mode_name(mode) +
                                        " with a " + std::string(pto::engine::dtype_name(pto::engine::dtype_of<Mask>)) +
                                        " mask, valid " + std::to_string(rows) + "x" + std::to_string(cols);
            const TileDesc A = a.desc(), B = b.desc(), X = x.desc(), Y = y.desc(), M = mask.desc(), D = dst.desc();
            const auto element = [](const TileDesc& t) { return [&t](int r, int c) { return load(t.data, t.offset(r, c), t.dtype); }; };

            auto mask_before = bytes_of(M), dst_before = bytes_of(D);
            pto::TCMP(mask, a, b, mode);
            verify_mask(M, mask_before, A, mode, element(B), "TCMP " + context);
            pto::TSEL(dst, mask, x, y, tmp);
            verify_selection(D, dst_before, M, element(X), element(Y), "TSEL " + context);

            // Against a scalar: one of a's own elements, so that every mode is true somewhere.
            const uint64_t scalar = load(A.data, A.offset(rng() % rows, rng() % cols), A.dtype);
            mask_before = bytes_of(M);
            dst_before = bytes_of(D);
            pto::TCMPS(mask, a, element_of<T>(scalar), mode);
            verify_mask(M, mask_before, A, mode, [&](int, int) { return scalar; }, "TCMPS " + context);
            const uint64_t other = random_element(A.dtype, rng);
            pto::TSELS(dst, mask, x, tmp, element_of<T>(other));
            verify_selection(D, dst_before, M, element(X), [&](int, int) { return other; }, "TSELS " + context);
        }
    }
}

template <typename T>
void check_both_masks(std::mt19937& rng)
{
    check_compare_then_select<T, uint8_t>(rng);
    check_compare_then_select<T, uint32_t>(rng);
}

}  // namespace

TEST(CompareSelect, TselPicksWhatTcmpDecidedForEveryTypeAndMode)
{
    const pto::test::ScopedChecked fast(false);
    std::mt19937 rng(20250611);
    int types = 0;
    for_each_type(ElementTypes{}, [&]<typename T>() {
        if constexpr (pto::rules::tcmp_dtype_ok(pto::profile::kProfile, pto::engine::dtype_of<T>)) {
            ++types;
            check_both_masks<T>(rng);
        }
    });
    EXPECT_EQ(types, 9);  // u32 i32 u16 i16 u8 i8 f32 f16 bf16
}

}  // namespace ewinstr
