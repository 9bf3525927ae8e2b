// Compiled (not linked) by tstore_acc_conv_test.cpp with PTO_TARGET=a5: each function breaks one rule of
// a TSTORE from an accumulator into a convolution layout or of a quantizing store, and the compiler must
// stop it at the static_assert naming the rule. The last function is legal and must compile.
#include "acc_store.hpp"

void nc1hwc0_is_a2a3s() { store<GlobalTensor<float, Shape<2, 4, 4, 4, 8>, Stride<512, 128, 32, 8, 1>, Layout::NC1HWC0>>(); }

// NHWC is (1, N, H, W, C).
void nhwc_of_two_outer_blocks()
{
    store<GlobalTensor<float, Shape<2, 2, 4, 4, 32>, Stride<1024, 512, 128, 32, 1>, Layout::NHWC>>();
}

// The store writes one depth slice.
void ncdhw_of_two_depths() { store<GlobalTensor<half, Shape<2, 32, 2, 4, 4>, Stride<1024, 32, 16, 4, 1>, Layout::NCDHW>>(); }

// 24 channels, not 32.
void nchw_channels() { store<GlobalTensor<bfloat16_t, Shape<1, 2, 24, 4, 4>, Stride<768, 384, 16, 4, 1>, Layout::NCHW>>(); }

// a5 adds atomically into int32 only.
void float_atomic_add()
{
    store<GlobalTensor<float, Shape<1, 2, 4, 4, 32>, Stride<1024, 512, 128, 32, 1>, Layout::NHWC>, Acc, AtomicType::AtomicAdd>();
}

// Quantizing a Vec tile, and quantizing i32 into i16, are the cpu profile's.
void vec_tile_quantized() { store<Plain2D<int8_t>, VecF, AtomicType::AtomicNone, ReluPreMode::NoRelu, true>(); }
void int32_shifted_into_int16() { store<Plain2D<int16_t>, AccI, AtomicType::AtomicNone, ReluPreMode::NoRelu, true>(); }

void legal_calls()
{
    store<GlobalTensor<float, Shape<1, 2, 4, 4, 32>, Stride<1024, 512, 128, 32, 1>, Layout::NHWC>>();
    store<GlobalTensor<int32_t, Shape<1, 2, 4, 4, 32>, Stride<1024, 512, 128, 32, 1>, Layout::NHWC>, AccI,
          AtomicType::AtomicAdd, ReluPreMode::NormalRelu>();
    store<GlobalTensor<hifloat8_t, Shape<1, 2, 32, 4, 4>, Stride<1024, 512, 16, 4, 1>, Layout::NCHW>, Acc,
          AtomicType::AtomicNone, ReluPreMode::NoRelu, true>();
    store_fp<GlobalTensor<float8_e4m3_t, Shape<2, 32, 1, 4, 4>, Stride<1024, 32, 16, 4, 1>, Layout::NCDHW>, Acc,
             ReluPreMode::NormalRelu>();
}
