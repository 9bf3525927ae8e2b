// GlobalTensor, Shape and Stride: static and dynamic dimensions and how they are given.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

using namespace pto;

TEST(GlobalTensor, StaticShapeAndStride)
{
    using G = GlobalTensor<float, Shape<1, 1, 2, 8, 16>, Stride<256, 256, 128, 16, 1>>;
    static_assert(G::GetShape<3>() == 8 && G::GetStride<2>() == 128);
    float buf[256];
    G g(buf);
    EXPECT_EQ(g.GetShape(GlobalTensorDim::DIM_4), 16);
    EXPECT_EQ(g.GetStride(GlobalTensorDim::DIM_3), 16);
    EXPECT_EQ(g.data(), buf);
    const auto d = g.desc();
    EXPECT_EQ(d.dtype, engine::DType::F32);
    EXPECT_EQ(d.layout, Layout::ND);
    EXPECT_EQ(d.shape[2], 2);
}

TEST(GlobalTensor, DynamicDimensionsGivenInOrderOrAllFive)
{
    using S = Shape<1, DYNAMIC, 1, DYNAMIC, DYNAMIC>;
    const S only_dynamic(3, 5, 7);
    const S all_five(9, 3, 9, 5, 7);  // static positions are ignored
    for (const S& s : {only_dynamic, all_five}) {
        EXPECT_EQ(s.get(0), 1);
        EXPECT_EQ(s.get(1), 3);
        EXPECT_EQ(s.get(3), 5);
        EXPECT_EQ(s.get(4), 7);
    }
    const S defaults;
    EXPECT_EQ(defaults.get(3), 1);

    using G = GlobalTensor<half, Shape<1, 1, 1, DYNAMIC, DYNAMIC>, Stride<1, 1, 1, DYNAMIC, 1>, Layout::DN>;
    half buf[64];
    G g(buf, {4, 16}, {16});
    EXPECT_EQ(g.GetShape(3), 4);
    EXPECT_EQ(g.GetStride(3), 16);
    g.SetShape<3, 4>(2, 8);
    g.SetStride<3>(8);
    EXPECT_EQ(g.desc().shape[3], 2);
    EXPECT_EQ(g.desc().stride[3], 8);
    EXPECT_EQ(g.desc().layout, Layout::DN);
    EXPECT_EQ(g.desc().dtype, engine::DType::F16);
}

TEST(GlobalTensor, TassignRebindsThePointer)
{
    using G = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 8>, Stride<8, 8, 8, 8, 1>>;
    int32_t a[8], b[8];
    G g(a);
    TASSIGN(g, b);
    EXPECT_EQ(g.data(), b);
    G empty;
    EXPECT_EQ(empty.data(), nullptr);
}
