// SET_QUANT_SCALAR and SET_QUANT_VECTOR: the configuration registers they write.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>

using namespace pto;

TEST(FixpipeConfig, SetQuantScalarAndVectorWriteTheConfigurationRegisters)
{
    const auto reg = [](int i) {
        uint64_t v;
        std::memcpy(&v, NPUMemoryModel::Instance().GetREGBase() + i * 8, 8);
        return v;
    };
    SET_QUANT_SCALAR<int8_t>(0.5f);
    EXPECT_EQ(reg(QUANT_SCALAR_REG_OFFSET), (uint64_t(1) << 46) | std::bit_cast<uint32_t>(0.5f));
    SET_QUANT_SCALAR<uint8_t>(-3.0f);
    EXPECT_EQ(reg(QUANT_SCALAR_REG_OFFSET), uint64_t(std::bit_cast<uint32_t>(-3.0f)));
    SET_QUANT_SCALAR<half>(2.0f);
    EXPECT_EQ(reg(QUANT_SCALAR_REG_OFFSET), uint64_t(std::bit_cast<uint32_t>(2.0f)));
    Tile<TileType::Scaling, uint64_t, 1, 32> fp;
    TASSIGN(fp, 0x100);
    SET_QUANT_VECTOR(fp);
    EXPECT_EQ(reg(QUANT_VECTOR_REG_OFFSET), 0x100u);
}
