// The compile-time side of TGATHER's rules: the predicates the intrinsics static_assert, for each
// profile. (A failing static_assert cannot run; its predicate can.)
#include <pto/profile/rules_gather.hpp>

#include <gtest/gtest.h>

using namespace pto;
using engine::DType;
using profile::kA2A3;
using profile::kA5;
using profile::kCpu;

TEST(TGatherRules, IndexFormDataTypes)
{
    static_assert(rules::tgather_data_dtype_ok(kA2A3, DType::BF16) && !rules::tgather_data_dtype_ok(kA5, DType::BF16));
    static_assert(rules::tgather_data_dtype_ok(kCpu, DType::BF16));
    // 8-bit data: the cpu profile only (the public CPU simulation's index form), never a2a3 or a5.
    static_assert(rules::tgather_data_dtype_ok(kCpu, DType::I8) && rules::tgather_data_dtype_ok(kCpu, DType::U8));
    static_assert(!rules::tgather_data_dtype_ok(kA2A3, DType::I8) && !rules::tgather_data_dtype_ok(kA5, DType::U8));
    static_assert(!rules::tgather_data_dtype_ok(kCpu, DType::I64));
    for (const DType t : {DType::F32, DType::F16, DType::I16, DType::U16, DType::I32, DType::U32}) {
        EXPECT_TRUE(rules::tgather_data_dtype_ok(kA2A3, t) && rules::tgather_data_dtype_ok(kA5, t));
    }
}

TEST(TGatherRules, IndexFormIndicesAndTmp)
{
    static_assert(!rules::tgather_indices_dtype_ok(kA2A3, DType::U16) &&
                  rules::tgather_indices_dtype_ok(kA5, DType::U16));
    static_assert(rules::tgather_indices_dtype_ok(kCpu, DType::I16) &&
                  !rules::tgather_indices_dtype_ok(kCpu, DType::F32));
    static_assert(!rules::tgather_tmp_present_ok(kA2A3, false) && rules::tgather_tmp_present_ok(kA5, false) &&
                  rules::tgather_tmp_present_ok(kCpu, false));
    static_assert(!rules::tgather_tmp_dtype_ok(kA2A3, DType::U32, DType::I32) &&
                  rules::tgather_tmp_dtype_ok(kA5, DType::U32, DType::I32));
    static_assert(rules::tgather_tmp_shape_ok(kA2A3, 4, 8, 4, 8) && !rules::tgather_tmp_shape_ok(kA2A3, 4, 16, 4, 8));
    static_assert(rules::tgather_tmp_shape_ok(kCpu, 1, 1, 4, 8));
    static_assert(!rules::tgather_dst_contiguous_ok(kCpu, 7, 8) && rules::tgather_dst_contiguous_ok(kA5, 8, 8));
    static_assert(!rules::tgather_indices_contiguous_ok(kA5, 7, 8) &&
                  rules::tgather_indices_contiguous_ok(kA2A3, 7, 8));
    static_assert(rules::tgather_index_shape_ok(3, 8, 4, 8) && !rules::tgather_index_shape_ok(3, 8, 2, 8));
    SUCCEED();
}

TEST(TGatherRules, MaskForm)
{
    static_assert(!rules::tgather_mask_dtype_ok(kA2A3, DType::I8) && rules::tgather_mask_dtype_ok(kA5, DType::I8));
    static_assert(rules::tgather_mask_dtype_ok(kA5, DType::HiF8) && !rules::tgather_mask_dtype_ok(kA5, DType::F8E8M0));
    static_assert(rules::tgather_mask_dtype_ok(kCpu, DType::F8E5M2) && !rules::tgather_mask_dtype_ok(kCpu, DType::U64));
    static_assert(rules::tgather_same_size_ok(DType::F32, DType::I32) &&
                  !rules::tgather_same_size_ok(DType::F32, DType::F16));
    static_assert(rules::tgather_layout_ok(BLayout::RowMajor, SLayout::NoneBox) &&
                  !rules::tgather_layout_ok(BLayout::RowMajor, SLayout::ColMajor));
    static_assert(rules::tgather_mask_shape_ok(GatherAxis::GATHER_ROW, 64, 8) &&
                  !rules::tgather_mask_shape_ok(GatherAxis::GATHER_COL, 64, 8));
    static_assert(rules::tgather_location_ok(TileType::Vec) && !rules::tgather_location_ok(TileType::Mat));
    SUCCEED();
}

TEST(TGatherRules, ComparisonForm)
{
    static_assert(rules::tgather_cmp_mode_ok(CmpMode::GT) && rules::tgather_cmp_mode_ok(CmpMode::EQ) &&
                  !rules::tgather_cmp_mode_ok(CmpMode::GE));
    static_assert(rules::tgather_cmp_src_dtype_ok(kA2A3, DType::I32, CmpMode::EQ) &&
                  !rules::tgather_cmp_src_dtype_ok(kA2A3, DType::I32, CmpMode::GT) &&
                  rules::tgather_cmp_src_dtype_ok(kA5, DType::I32, CmpMode::GT));
    static_assert(!rules::tgather_cmp_src_dtype_ok(kA2A3, DType::U16, CmpMode::EQ) &&
                  rules::tgather_cmp_src_dtype_ok(kCpu, DType::U16, CmpMode::EQ));
    static_assert(rules::tgather_cmp_dst_dtype_ok(DType::U32) && !rules::tgather_cmp_dst_dtype_ok(DType::F32));
    static_assert(!rules::tgather_cmp_k_dtype_ok(kA5, DType::I32) && rules::tgather_cmp_k_dtype_ok(kA2A3, DType::I32) &&
                  rules::tgather_cmp_k_dtype_ok(kCpu, DType::U16));
    // tmp (A2/A3): Rt*Ct bitmap bytes + Rs*Cs*4 index bytes + Rs*sizeof(src) threshold bytes.
    static_assert(rules::tgather_cmp_tmp_size_ok(kA2A3, 176, 4, 8, 4, 8, 32) &&
                  !rules::tgather_cmp_tmp_size_ok(kA2A3, 175, 4, 8, 4, 8, 32) &&
                  rules::tgather_cmp_tmp_size_ok(kA5, 0, 4, 8, 4, 8, 32));
    static_assert(rules::tgather_vector_length(1, 9) == 9 && rules::tgather_vector_length(9, 1) == 9 &&
                  rules::tgather_vector_length(2, 2) == -1);
    static_assert(rules::tgather_cmp_shape_ok(4, 8, 4, 8, 4, 4) && !rules::tgather_cmp_shape_ok(4, 8, 4, 8, 3, 4));
    SUCCEED();
}
