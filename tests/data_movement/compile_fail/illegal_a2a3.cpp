// Compiled (not linked) by tstore_acc_conv_test.cpp with PTO_TARGET=a2a3: each function breaks one rule of
// a TSTORE from an accumulator into a convolution layout or of a quantizing store, and the compiler must
// stop it at the static_assert naming the rule. The last function is legal and must compile.
#include "acc_store.hpp"

void nhwc_is_a5s() { store<GlobalTensor<float, Shape<1, 2, 4, 4, 32>, Stride<1024, 512, 128, 32, 1>, Layout::NHWC>>(); }

// f16 blocks are 16 elements (32 bytes).
void half_c0_of_eight() { store<GlobalTensor<half, Shape<2, 4, 4, 4, 8>, Stride<512, 128, 32, 8, 1>, Layout::NC1HWC0>>(); }

// 2 x 4 x 3 pixels, not 32.
void fewer_pixels_than_valid_rows()
{
    store<GlobalTensor<float, Shape<2, 2, 4, 3, 16>, Stride<384, 192, 48, 16, 1>, Layout::NC1HWC0>>();
}

// D x C1 x C0 = 2 x 1 x 32 int8 channels, not 32: a quantizing store checks the same.
void quantized_channels()
{
    using G = GlobalTensor<int8_t, Shape<2, 2, 1, 4, 4>, Stride<1024, 512, 512, 128, 32>, Layout::NDC1HWC0>;
    store<G, Acc, AtomicType::AtomicNone, ReluPreMode::NoRelu, true>();
}

// i32 -> f16 through a table: f16 blocks of 16.
void quantized_half_c0_of_eight()
{
    store_fp<GlobalTensor<half, Shape<2, 4, 4, 4, 8>, Stride<512, 128, 32, 8, 1>, Layout::NC1HWC0>, AccI>();
}

// Quantizing a Vec tile, and quantizing i32 into i16, are the cpu profile's.
void vec_tile_quantized() { store<Plain2D<int8_t>, VecF, AtomicType::AtomicNone, ReluPreMode::NoRelu, true>(); }
void int32_shifted_into_int16() { store<Plain2D<int16_t>, AccI, AtomicType::AtomicNone, ReluPreMode::NoRelu, true>(); }

void legal_calls()
{
    // f32 with and without the channel split, atomically and ReLU'd; i32 into NDC1HWC0 (C0 16), int8 (C0 32).
    store<GlobalTensor<float, Shape<2, 4, 4, 4, 8>, Stride<512, 128, 32, 8, 1>, Layout::NC1HWC0>, Acc,
          AtomicType::AtomicAdd, ReluPreMode::NormalRelu>();
    store<GlobalTensor<float, Shape<2, 2, 4, 4, 16>, Stride<512, 256, 64, 16, 1>, Layout::NC1HWC0>>();
    store<GlobalTensor<int32_t, Shape<2, 1, 2, 4, 4>, Stride<512, 512, 256, 64, 16>, Layout::NDC1HWC0>, AccI,
          AtomicType::AtomicAdd>();
    store<GlobalTensor<int8_t, Shape<2, 1, 1, 4, 4>, Stride<512, 512, 512, 128, 32>, Layout::NDC1HWC0>, Acc,
          AtomicType::AtomicNone, ReluPreMode::NoRelu, true>();
    // A dynamic N: the pixels are checked at run time.
    store<GlobalTensor<half, Shape<DYNAMIC, 2, 4, 4, 16>, Stride<>, Layout::NC1HWC0>>();
}
