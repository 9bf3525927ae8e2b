// TCVT through the public intrinsics: the four overloads (with and without a tmp tile, with and without
// a SaturationMode, NeedSetCtrl either way, with events) agree with each other and with the reference;
// DYNAMIC valid shapes; checked mode stops at a source nothing wrote.
#include "support.hpp"

using namespace cvttest;
using namespace pto;

namespace {

template <typename TileT>
std::vector<std::byte> bytes_of(const TileT& t)
{
    const auto* p = reinterpret_cast<const std::byte*>(t.data());
    return {p, p + TileT::SizeInBytes};
}

template <typename TileT>
void write_random(TileT& t, std::mt19937_64& rng)
{
    fill_random(t.desc(), rng);
    runtime::mark_written(t.data(), TileT::SizeInBytes);
}

// dst's valid region against the reference of src (which TCVT left as it was), in `mode` and `sat`.
template <typename Dst, typename Src>
void expect_reference(const Dst& dst, const Src& src, RoundMode mode, SaturationMode sat, const std::string& what)
{
    const TileDesc d = dst.desc(), s = src.desc();
    for (int r = 0; r < d.valid_rows; ++r) {
        for (int c = 0; c < d.valid_cols; ++c) {
            ASSERT_EQ(element_at(d, r, c), reference(d, s, r, c, mode, sat)) << what << " (" << r << ", " << c << ")";
        }
    }
}

}  // namespace

TEST(TcvtIntrinsic, TheFourOverloadsAgree)
{
    using Src = Tile<TileType::Vec, float, 16, 64>;
    using Dst = Tile<TileType::Vec, int16_t, 16, 64>;
    using Tmp = Tile<TileType::Vec, int32_t, 16, 64>;
    Src src;
    Dst by_default, explicit_off, tmp_default, tmp_off, saturated;
    Tmp tmp;
    TASSIGN(src, 0x0);
    TASSIGN(tmp, 0x1000);
    TASSIGN(by_default, 0x2000);
    TASSIGN(explicit_off, 0x2800);
    TASSIGN(tmp_default, 0x3000);
    TASSIGN(tmp_off, 0x3800);
    TASSIGN(saturated, 0x4000);
    std::mt19937_64 rng(23);
    write_random(src, rng);
    src.SetValue(0, 40000.75f);  // beyond int16: the saturation modes differ here
    write_random(tmp, rng);
    const std::vector<std::byte> tmp_before = bytes_of(tmp);

    // f32 -> i16 defaults to saturation OFF (numeric::default_saturation), like PyTorch's narrowing.
    static_assert(numeric::default_saturation(DType::I16, DType::F32) == SaturationMode::OFF);
    Event<Op::TLOAD, Op::TCVT> loaded;
    Event<Op::TCVT, Op::TSTORE_VEC> converted = TCVT(by_default, src, RoundMode::CAST_RINT, loaded);
    (void)converted;
    TCVT(explicit_off, src, RoundMode::CAST_RINT, SaturationMode::OFF);
    TCVT(tmp_default, src, tmp, RoundMode::CAST_RINT);
    TCVT<false>(tmp_off, src, tmp, RoundMode::CAST_RINT, SaturationMode::OFF, loaded);
    TCVT<true>(saturated, src, RoundMode::CAST_RINT, SaturationMode::ON);

    expect_reference(by_default, src, RoundMode::CAST_RINT, SaturationMode::OFF, "TCVT(dst, src, mode)");
    EXPECT_EQ(bytes_of(explicit_off), bytes_of(by_default));
    EXPECT_EQ(bytes_of(tmp_default), bytes_of(by_default));
    EXPECT_EQ(bytes_of(tmp_off), bytes_of(by_default));
    expect_reference(saturated, src, RoundMode::CAST_RINT, SaturationMode::ON, "TCVT(dst, src, mode, ON)");
    EXPECT_EQ(saturated.GetValue(0), 32767);
    EXPECT_EQ(by_default.GetValue(0), int16_t(40001 - 65536));  // the low 16 bits
    EXPECT_EQ(bytes_of(tmp), tmp_before) << "the tmp tile is never touched";
}

TEST(TcvtIntrinsic, DefaultSaturationIsOnWhereThePageDoesNotSayOtherwise)
{
    using Src = Tile<TileType::Vec, float, 8, 64>;
    using Dst = Tile<TileType::Vec, half, 8, 64>;
    Src src;
    Dst dst;
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x1000);
    std::mt19937_64 rng(29);
    write_random(src, rng);
    src.SetValue(1, 1e6f);
    TCVT(dst, src, RoundMode::CAST_RINT);
    expect_reference(dst, src, RoundMode::CAST_RINT, SaturationMode::ON, "f32 -> f16 by default");
    EXPECT_EQ(dst.GetValue(1).bits, 0x7bff);  // 65504, not infinity
}

TEST(TcvtIntrinsic, DynamicValidShapesConvertOnlyTheValidRegion)
{
    using Src = Tile<TileType::Vec, half, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using Dst = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    Src src(5, 33);
    Dst dst(5, 33);
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x1000);
    std::mt19937_64 rng(31);
    write_random(src, rng);
    write_random(dst, rng);
    const std::vector<std::byte> before = bytes_of(dst);
    TCVT(dst, src, RoundMode::CAST_FLOOR, SaturationMode::OFF);
    expect_reference(dst, src, RoundMode::CAST_FLOOR, SaturationMode::OFF, "5x33 of 8x64");
    const std::vector<std::byte> after = bytes_of(dst);
    for (int r = 0; r < 8; ++r) {
        for (int c = 0; c < 64; ++c) {
            if (r < 5 && c < 33) continue;
            const std::size_t at = std::size_t(r * 64 + c) * 4;
            ASSERT_TRUE(std::equal(after.begin() + at, after.begin() + at + 4, before.begin() + at))
                << "(" << r << ", " << c << ") outside the valid region was written";
        }
    }
}

TEST(TcvtIntrinsic, CheckedModeReportsASourceNothingWrote)
{
    test::ScopedChecked checked(true);
    using Src = Tile<TileType::Vec, float, 4, 64>;
    using Dst = Tile<TileType::Vec, bfloat16_t, 4, 64>;
    Src src;
    Dst dst;
    TASSIGN(src, 0x0);
    TASSIGN(dst, 0x800);
    Diagnostic d = test::diagnostic_of([&] { TCVT(dst, src, RoundMode::CAST_RINT); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TCVT");
    EXPECT_EQ(d.operand, "src");
    // One element short of written is still a finding, naming the element.
    std::mt19937_64 rng(37);
    fill_random(src.desc(), rng);
    runtime::mark_written(src.data(), Src::SizeInBytes - sizeof(float));
    d = test::diagnostic_of([&] { TCVT(dst, src, RoundMode::CAST_RINT); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_NE(d.message.find("(3, 63)"), std::string::npos) << d.message;
    runtime::mark_written(src.data(), Src::SizeInBytes);
    EXPECT_EQ(test::diagnostic_of([&] { TCVT(dst, src, RoundMode::CAST_RINT); }).code, "no error");
    // What TCVT wrote is readable by the next instruction.
    EXPECT_EQ(test::diagnostic_of([&] { TCVT(src, dst, RoundMode::CAST_RINT); }).code, "no error");
}
