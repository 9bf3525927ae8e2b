// The host harness, written as the public PTO Tile Lib test programs are: aclrt* calls, golden files
// read from "../<suite>.<case>/" (the generator's output beside the binary's directory), the kernel
// launched through a host wrapper, the result compared element by element.
#include <gtest/gtest.h>
#include <pto/pto-inst.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "compat_cases.hpp"

template <typename T, int Rows, int Cols>
void LaunchAddMul(T* out, T* src0, T* src1, void* stream);
void LaunchStoreFp4Window(float4_e2m1x2_t* out, float4_e2m1x2_t* src, void* stream);

namespace {

std::string GoldenDir()
{
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    return std::string("../") + info->test_suite_name() + "." + info->name();
}

bool ReadFile(const std::string& path, void* buffer, size_t bytes)
{
    std::ifstream in(path, std::ios::binary);
    in.read(static_cast<char*>(buffer), static_cast<std::streamsize>(bytes));
    return in.gcount() == static_cast<std::streamsize>(bytes);
}

template <typename T, int Rows, int Cols>
void RunAddMul()
{
    const size_t bytes = static_cast<size_t>(Rows) * Cols * sizeof(T);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);

    T *dstHost, *src0Host, *src1Host, *dstDevice, *src0Device, *src1Device;
    aclrtMallocHost(reinterpret_cast<void**>(&dstHost), bytes);
    aclrtMallocHost(reinterpret_cast<void**>(&src0Host), bytes);
    aclrtMallocHost(reinterpret_cast<void**>(&src1Host), bytes);
    aclrtMalloc(reinterpret_cast<void**>(&dstDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&src0Device), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&src1Device), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(dstDevice, bytes, 0, bytes);

    ASSERT_TRUE(ReadFile(GoldenDir() + "/input1.bin", src0Host, bytes)) << "run the generator first";
    ASSERT_TRUE(ReadFile(GoldenDir() + "/input2.bin", src1Host, bytes));
    aclrtMemcpy(src0Device, bytes, src0Host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(src1Device, bytes, src1Host, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    LaunchAddMul<T, Rows, Cols>(dstDevice, src0Device, src1Device, stream);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(dstHost, bytes, dstDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    std::vector<T> golden(bytes / sizeof(T));
    ASSERT_TRUE(ReadFile(GoldenDir() + "/golden.bin", golden.data(), bytes));
    for (size_t i = 0; i < golden.size(); ++i) {
        ASSERT_EQ(static_cast<double>(dstHost[i]), static_cast<double>(golden[i])) << "element " << i;
    }

    aclrtFree(dstDevice);
    aclrtFree(src0Device);
    aclrtFree(src1Device);
    aclrtFreeHost(dstHost);
    aclrtFreeHost(src0Host);
    aclrtFreeHost(src1Host);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
}

}  // namespace

TEST(CompatAddMul, case_float_64x64) { RunAddMul<float, compat::kFloat.rows, compat::kFloat.cols>(); }
TEST(CompatAddMul, case_half_32x128) { RunAddMul<aclFloat16, compat::kHalf.rows, compat::kHalf.cols>(); }
TEST(CompatAddMul, case_int32_32x64) { RunAddMul<int32_t, compat::kInt32.rows, compat::kInt32.cols>(); }

// The tensor's bytes: its values counted in fp4 values, two to a byte.
TEST(CompatStore, case_float4_e2m1x2_DN_4x21_of_8x32)
{
    const size_t bytes = size_t(compat::kFp4WholeRows) * compat::kFp4WholeCols * sizeof(float4_e2m1x2_t) /
                         (IsTwinType<float4_e2m1x2_t>() ? 2 : 1);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    aclrtStream stream;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    float4_e2m1x2_t *srcHost, *dstHost, *srcDevice, *dstDevice;
    aclrtMallocHost(reinterpret_cast<void**>(&srcHost), bytes);
    aclrtMallocHost(reinterpret_cast<void**>(&dstHost), bytes);
    aclrtMalloc(reinterpret_cast<void**>(&srcDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&dstDevice), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(dstDevice, bytes, 0, bytes);
    ASSERT_TRUE(ReadFile(GoldenDir() + "/input.bin", srcHost, bytes)) << "run the generator first";
    aclrtMemcpy(srcDevice, bytes, srcHost, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    LaunchStoreFp4Window(dstDevice, srcDevice, stream);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(dstHost, bytes, dstDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    std::vector<uint8_t> golden(bytes);
    ASSERT_TRUE(ReadFile(GoldenDir() + "/golden.bin", golden.data(), bytes));
    const auto* got = reinterpret_cast<const uint8_t*>(dstHost);
    for (size_t i = 0; i < bytes; ++i) ASSERT_EQ(int(got[i]), int(golden[i])) << "byte " << i;

    aclrtFree(srcDevice);
    aclrtFree(dstDevice);
    aclrtFreeHost(srcHost);
    aclrtFreeHost(dstHost);
    aclrtDestroyStream(stream);
    aclFinalize();
}
