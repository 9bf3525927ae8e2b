// The configuration registers of a simulated core: what a configuration instruction loads and a later
// instruction reads (SETFMATRIX, SET_IMG2COL_PADDING and SET_IMG2COL_RPT for TIMG2COL; SETTF32MODE and
// SETHF32MODE for the matrix multiplies; the DMA loop registers of the pre-v0.6 GM <-> UB copies).
// Every core starts with each register unset (the DMA loops: one iteration), so an instruction that
// reads one nothing loaded is reported.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include <pto/common/type.hpp>
#include <pto/engine/pipes.hpp>

namespace pto::runtime {

// The feature map TIMG2COL reads: its height and width and its padding (left, right, top, bottom).
struct FmatrixRegister {
    uint16_t fmap_h = 0, fmap_w = 0;
    uint8_t pad[4] = {0, 0, 0, 0};
};

// The repeat parameters of an img2col load.
struct Img2colRepeat {
    uint16_t stride = 0;
    uint16_t times = 1;
    uint16_t mode = 0;
    uint16_t dst_stride = 0;
    uint16_t dst_m_position = 0;
};

// One bank of img2col registers (the cube has two, A and B).
struct Img2colRegisters {
    std::optional<FmatrixRegister> fmatrix;
    std::optional<uint32_t> padding;  // the pad value's bits (an 8-bit value repeated in both bytes)
    std::optional<Img2colRepeat> repeat;
};

// A float-32 multiply mode of the cube (SETTF32MODE, SETHF32MODE): off, or on with its rounding.
struct Fp32MultiplyMode {
    bool enabled = false;
    RoundMode rounding = RoundMode::CAST_ROUND;
};

// The loops of one direction of the vector core's DMA (`set_loop_size_*`, `set_loop1_stride_*`,
// `set_loop2_stride_*`, in bytes): a `copy_gm_to_ubuf` / `copy_ubuf_to_gm` repeats its bursts `loop1`
// times inside `loop2` times, advancing each side by the loop's stride.
struct DmaLoop {
    int64_t count = 1, src_stride = 0, dst_stride = 0;
};
struct DmaLoopRegisters {
    DmaLoop loop1, loop2;
};

struct CoreRegisters {
    Img2colRegisters img2col[2];  // banks A and B
    Fp32MultiplyMode tf32, hf32;
    DmaLoopRegisters gm_to_ub, ub_to_gm;
    std::array<uint32_t, engine::kPipeCount> held_buffers{};  // per pipe, bit i: buffer slot i (get_buf)
};

// The registers of the calling thread's current core.
CoreRegisters& core_registers();

}  // namespace pto::runtime
