// TIMG2COL against a reference loop written from the im2col definition (each output row an output pixel,
// each column a (channel block, kernel row, kernel column, channel) tap), over random feature maps,
// filters, strides, dilations, paddings, offsets and partial valid regions, both layouts and several
// element types; the register model (manual and automatic modes, banks A and B); and the errors.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "img2col/im2col_reference.hpp"
#include "support/test_support.hpp"

using namespace pto;
using namespace pto::test;
using namespace pto::test::img2col;

namespace {

template <typename Conv>
void configure(Conv& src, const Geometry& g, int h, int w, typename Conv::DType pad_value)
{
    src.SetFmapH(uint16_t(h));
    src.SetFmapW(uint16_t(w));
    src.SetPadListArray(g.pad);
    src.SetFilterH(uint16_t(g.filter_h));
    src.SetFilterW(uint16_t(g.filter_w));
    src.SetStrideH(uint8_t(g.stride_h));
    src.SetStrideW(uint8_t(g.stride_w));
    src.SetDilationH(uint8_t(g.dilation_h));
    src.SetDilationW(uint8_t(g.dilation_w));
    src.SetPadValue(pad_value);
}

template <typename T, Layout L, int... Shape>
void expect_im2col(uint32_t seed, SetFmatrixMode mode)
{
    constexpr int kDims = sizeof...(Shape);
    constexpr int kShape[] = {Shape...};
    const int dims[6] = {kShape[0], kDims == 6 ? kShape[1] : 1, kShape[kDims - 4], kShape[kDims - 3], kShape[kDims - 2],
                         kShape[kDims - 1]};
    constexpr int kElements = (Shape * ...);
    using Conv = ConvTile<TileType::Mat, T, kElements * int(sizeof(T)), L, ConvTileShape<Shape...>>;
    constexpr int kRows = 32, kCols = 32 / int(sizeof(T)) * 4;
    using Dst = Tile<TileType::Left, T, kRows, kCols, BLayout::ColMajor, DYNAMIC, DYNAMIC, SLayout::RowMajor>;
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 8; ++trial) {
        Conv src;
        std::vector<T> map(kElements);
        for (int i = 0; i < kElements; ++i) {
            map[size_t(i)] = T(int(rng() % 200) - 100);
            src.data()[i] = map[size_t(i)];
        }
        const Geometry g = random_geometry(rng);
        if ((dims[3] + g.pad[2] + g.pad[3] - g.dilation_h * (g.filter_h - 1)) < 1 ||
            (dims[4] + g.pad[0] + g.pad[1] - g.dilation_w * (g.filter_w - 1)) < 1)
            continue;
        const T pad_value = T(int(rng() % 50) - 25);
        configure(src, g, dims[3], dims[4], pad_value);
        SETFMATRIX<Conv>(src);  // bank A: must not disturb bank B or an automatic call
        if (mode == SetFmatrixMode::FMATRIX_B_MANUAL) {
            SETFMATRIX<Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
            SET_IMG2COL_PADDING<Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
            SET_IMG2COL_RPT<Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
        }
        const int rows = 1 + int(rng() % kRows), cols = 1 + int(rng() % kCols);
        const uint16_t pos_m = uint16_t(rng() % 8), pos_k = uint16_t(rng() % 16);
        Dst dst(rows, cols);
        std::memset(dst.data(), 0x5A, sizeof(T) * kRows * kCols);
        if (mode == SetFmatrixMode::FMATRIX_B_MANUAL)
            TIMG2COL<Dst, Conv, SetFmatrixMode::FMATRIX_B_MANUAL>(dst, src, pos_m, pos_k);
        else
            TIMG2COL<Dst, Conv, SetFmatrixMode::FMATRIX_A_AUTO>(dst, src, pos_m, pos_k);
        for (int r = 0; r < kRows; ++r)
            for (int c = 0; c < kCols; ++c) {
                const T got = dst.GetValue(uint32_t(GetTileOffset<Dst>(r, c)));
                if (r >= rows || c >= cols) {
                    T untouched;
                    std::memset(&untouched, 0x5A, sizeof(T));
                    ASSERT_EQ(std::memcmp(&got, &untouched, sizeof(T)), 0) << r << "," << c;
                    continue;
                }
                const T want = im2col_element(map, dims, g, pos_m + r, pos_k + c, pad_value);
                ASSERT_EQ(std::memcmp(&got, &want, sizeof(T)), 0) << "trial " << trial << " at " << r << "," << c;
            }
    }
}

TEST(Timg2col, FloatNc1hwc0ManualBankB) { expect_im2col<float, Layout::NC1HWC0, 2, 2, 5, 6, 8>(1, SetFmatrixMode::FMATRIX_B_MANUAL); }
TEST(Timg2col, HalfNc1hwc0Automatic) { expect_im2col<half, Layout::NC1HWC0, 1, 2, 4, 7, 16>(2, SetFmatrixMode::FMATRIX_A_AUTO); }
TEST(Timg2col, Int8Ndc1hwc0ManualBankB) { expect_im2col<int8_t, Layout::NDC1HWC0, 1, 2, 2, 5, 5, 32>(3, SetFmatrixMode::FMATRIX_B_MANUAL); }
TEST(Timg2col, Uint16AndInt32Automatic)
{
    expect_im2col<uint16_t, Layout::NC1HWC0, 2, 1, 3, 4, 16>(4, SetFmatrixMode::FMATRIX_A_AUTO);
    expect_im2col<int32_t, Layout::NDC1HWC0, 1, 3, 1, 4, 3, 8>(5, SetFmatrixMode::FMATRIX_A_AUTO);
}

using SmallMap = ConvTile<TileType::Mat, float, 3 * 4 * 8 * 4, Layout::NC1HWC0, ConvTileShape<1, 1, 3, 4, 8>>;
using SmallLeft = TileLeft<float, 16, 16, 4, 16>;

void configure_small(SmallMap& src)
{
    for (int i = 0; i < 96; ++i) src.data()[i] = float(i);
    const uint8_t pad[4] = {1, 0, 1, 0};
    configure(src, {2, 2, 1, 1, 1, 1, {1, 0, 1, 0}}, 3, 4, -1.0f);
    src.SetPadListArray(pad);
}

TEST(Timg2col, ManualModeWithoutSetfmatrixIsReported)
{
    // Each launched block is a fresh core: its registers are unset.
    pto::sim::launch(1, [] {
        SmallMap src;
        SmallLeft dst;
        configure_small(src);
        const Diagnostic d = diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_B_MANUAL>(dst, src); });
        EXPECT_EQ(d.code, "RUN_IMG2COL_UNSET");
        SETFMATRIX<SmallMap, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
        // The first row pads (the map's top-left corner with a padding of 1): no padding register yet.
        EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_B_MANUAL>(dst, src); }).code,
                  "RUN_IMG2COL_UNSET");
        SET_IMG2COL_PADDING<SmallMap, SetFmatrixMode::FMATRIX_B_MANUAL>(src);
        EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_B_MANUAL>(dst, src); }).code,
                  "no error");
        EXPECT_EQ(dst.GetValue(0), -1.0f);
    });
}

TEST(Timg2col, TheRegisterNotTheTileDecides)
{
    SmallMap src;
    SmallLeft dst;
    configure_small(src);
    SETFMATRIX<SmallMap>(src);
    SET_IMG2COL_PADDING<SmallMap>(src);
    src.SetPadValue(7.0f);  // not loaded: the register still holds -1
    TIMG2COL<SmallLeft, SmallMap>(dst, src);
    EXPECT_EQ(dst.GetValue(0), -1.0f);
    src.SetFmapH(2);  // loaded: the register now disagrees with the map's 3 rows
    SETFMATRIX<SmallMap>(src);
    EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap>(dst, src); }).code, "RUN_IMG2COL_FMATRIX");
}

TEST(Timg2col, ConfigurationsOutsideTheModelAreReported)
{
    SmallMap src;
    SmallLeft dst;
    configure_small(src);
    src.SetStrideH(0);
    EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_A_AUTO>(dst, src); }).code,
              "RUN_IMG2COL_CONFIG");
    src.SetStrideH(1);
    src.SetTranspose(true);
    EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_A_AUTO>(dst, src); }).code,
              "RUN_IMG2COL_CONFIG");
    src.SetTranspose(false);
    src.SetRepeatTime(2);
    EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_A_AUTO>(dst, src); }).code,
              "RUN_IMG2COL_CONFIG");
    src.SetRepeatTime(1);
    src.SetFilterH(9);  // taller than the padded map
    EXPECT_EQ(diagnostic_of([&] { TIMG2COL<SmallLeft, SmallMap, SetFmatrixMode::FMATRIX_A_AUTO>(dst, src); }).code,
              "RUN_IMG2COL_CONFIG");
}

TEST(Timg2col, RulesPerTargetAtRunTime)
{
    SmallMap src;
    configure_small(src);
    engine::TileDesc zz = SmallLeft().desc();
    zz.blayout = BLayout::RowMajor;
    {
        ScopedTarget a5(profile::Target::A5);
        engine::FirstFinding finding;
        engine::check_timg2col(runtime::active_profile(), zz, src.desc(), finding);
        EXPECT_EQ(finding.first.code, "LEGAL_TIMG2COL_LAYOUT");
    }
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        engine::FirstFinding finding;
        engine::check_timg2col(runtime::active_profile(), zz, src.desc(), finding);
        EXPECT_FALSE(finding.found);
        engine::TileDesc u16 = zz;
        u16.dtype = engine::DType::U16;
        engine::ConvTileDesc map = src.desc();
        map.dtype = engine::DType::U16;
        engine::check_timg2col(runtime::active_profile(), u16, map, finding);
        EXPECT_EQ(finding.first.code, "LEGAL_TIMG2COL_DTYPE");
    }
}

}  // namespace
