// TLOAD, TSTORE and TMOV: the documented intrinsics. Each checks at compile time the rules its template
// arguments decide for PTO_TARGET, then hands the operands' descriptors to the engine, which checks the
// run-time facts (shapes, valid regions, addresses) and moves the data.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/comm/comm_types.hpp>
#include <pto/common/conv_tile.hpp>
#include <pto/common/event.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/profile/rules_data_movement.hpp>
#include <pto/profile/target.hpp>

namespace pto {

namespace detail {

// `Store`: the layouts a store reaches (an Acc tile also the target's convolution layouts); `Quantized`:
// a quantizing store, whose tensor has the quantized type rather than the tile's.
template <typename TileData, typename GlobalData, bool Store = false, bool Quantized = false>
constexpr void static_check_global_transfer()
{
    constexpr auto tile_type = engine::dtype_of<typename TileData::DType>;
    static_assert(TileData::Loc == TileType::Acc || Quantized ||
                      rules::element_size_match(tile_type, engine::dtype_of<typename GlobalData::DType>),
                  "LEGAL_GM_ELEMENT_SIZE: the tile's and the global tensor's element types must have one size");
    static_assert(Store ? rules::gm_store_layout_ok(profile::kProfile, TileData::Loc, GlobalData::layout, TileData::BFractal,
                                                    TileData::SFractal, TileData::Rows, TileData::Cols, tile_type)
                        : rules::gm_layout_ok(profile::kProfile, TileData::Loc, GlobalData::layout, TileData::BFractal,
                                              TileData::SFractal, TileData::Rows, TileData::Cols, tile_type),
                  "LEGAL_GM_LAYOUT: unsupported (global layout, tile layout) pair: ND<->row-major, DN<->col-major, "
                  "NZ<->Nz; Mat tiles also ND<->Nz and DN<->Zn (a5: ND -> a one-row Zz tile); 64-bit elements ND/DN only; "
                  "Acc tiles store into ND, NZ and the target's convolution layouts (a2a3: NC1HWC0, NDC1HWC0; a5: NHWC, "
                  "NCHW, NCDHW)");
    static_assert(TileData::Loc == TileType::Acc ||
                      rules::gm_fractal_conversion_ok(GlobalData::layout, TileData::BFractal, TileData::SFractal,
                                                      TileData::SFractalSize, GlobalData::staticShape[0],
                                                      GlobalData::staticShape[1], GlobalData::staticShape[2]),
                  "LEGAL_GM_FRACTAL: ND->Nz and DN->Zn transfers take a 2-D tensor (Shape<1, 1, 1, R, C>) and "
                  "512-byte fractals");
}

template <typename TileData, typename GlobalData>
constexpr void static_check_tload()
{
    static_assert(is_tile_data_v<TileData>, "TLOAD loads into a Tile");
    static_assert(is_global_data_v<GlobalData>, "TLOAD loads from a GlobalTensor");
    constexpr auto& target = profile::kProfile;
    constexpr auto tile_type = engine::dtype_of<typename TileData::DType>;
    static_assert(rules::tload_location_ok(target, TileData::Loc, GlobalData::layout),
                  "LEGAL_TLOAD_LOCATION: TLOAD loads into Vec or Mat tiles (on cpu also Acc and Bias tiles, and "
                  "ScaleLeft/ScaleRight tiles from MX scale tensors)");
    static_assert(rules::tload_dtype_ok(target, tile_type),
                  "LEGAL_TLOAD_DTYPE: PTO_TARGET does not load this element type");
    static_assert(rules::tload_pad_ok(target, tile_type, TileData::PadVal),
                  "LEGAL_TLOAD_PAD: on a5 64-bit integer tiles pad only with PadValue::Null or PadValue::Zero");
    static_assert(rules::tload_static_shape_ok(target, GlobalData::layout, TileData::BFractal, TileData::SFractal,
                                               TileData::ValidRow, TileData::ValidCol, GlobalData::staticShape),
                  "LEGAL_TLOAD_STATIC_SHAPE: on a5 a static ND load needs ValidCol == shape[4] and "
                  "ValidRow == shape[0]*shape[1]*shape[2]*shape[3]");
    if constexpr (rules::is_mx_layout(GlobalData::layout)) {
        static_assert(rules::mx_load_layout_ok(target, TileData::Loc, GlobalData::layout, TileData::BFractal,
                                               TileData::SFractal, TileData::SFractalSize),
                      "LEGAL_GM_LAYOUT: an MX scale tensor loads on a5/cpu into a tile of 16x2 fractals "
                      "(SFractalSize 32): MX_A_ZZ/MX_A_ND/MX_A_DN into Zz (RowMajor, RowMajor), "
                      "MX_B_NN/MX_B_ND/MX_B_DN into Nn (ColMajor, ColMajor); a Mat tile (on cpu also the "
                      "ScaleLeft/ScaleRight tile)");
        static_assert(rules::mx_load_dtype_ok(target, tile_type, engine::dtype_of<typename GlobalData::DType>),
                      "LEGAL_GM_MX_DTYPE: MX scales are float8_e8m0_t in the tile and the tensor (cpu: any "
                      "one-byte element)");
        static_assert(rules::mx_global_shape_ok(GlobalData::layout, GlobalData::staticShape[0],
                                                GlobalData::staticShape[1], GlobalData::staticShape[3],
                                                GlobalData::staticShape[4]),
                      "LEGAL_GM_MX_SHAPE: MX_A_ZZ/MX_B_NN tensors have shape[3] == 16 and shape[4] == 2; "
                      "MX_*_ND/MX_*_DN tensors have shape[0] == shape[1] == 1 and shape[4] == 2");
    } else {
        static_check_global_transfer<TileData, GlobalData>();
    }
}

// An Acc tile into a convolution layout: the tensor's C0 and the dimensions the store does not address,
// and, when the extents are static, a valid region of the whole pixels x channels view.
template <typename TileData, typename GlobalData>
constexpr void static_check_acc_conv_store()
{
    constexpr auto global_type = engine::dtype_of<typename GlobalData::DType>;
    if constexpr (rules::is_acc_conv_layout(GlobalData::layout)) {
        static_assert(rules::acc_conv_shape_ok(GlobalData::layout, global_type, GlobalData::staticShape),
                      "LEGAL_GM_CONV_SHAPE: an NC1HWC0 tensor's shape[4] is its type's C0 (32 bytes; i32: 16; f32: 8 "
                      "or 16); NHWC and NCHW have shape[0] == 1, NCDHW shape[2] == 1");
        static_assert(rules::acc_conv_extent_ok(GlobalData::layout, global_type, GlobalData::staticShape,
                                                TileData::ValidRow, TileData::ValidCol),
                      "RUN_GLOBAL_SHAPE: an accumulator stored into a convolution layout has a valid region of the "
                      "tensor's pixels x channels (NC1HWC0: N*H*W x C1*C0, NDC1HWC0: N*H*W x D*C1*C0, NHWC/NCHW/NCDHW: "
                      "N*H*W x C)");
    }
}

template <typename TileData, typename GlobalData>
constexpr void static_check_tstore()
{
    static_assert(is_tile_data_v<TileData>, "TSTORE stores from a Tile");
    static_assert(is_global_data_v<GlobalData>, "TSTORE stores into a GlobalTensor");
    constexpr auto& target = profile::kProfile;
    constexpr auto tile_type = engine::dtype_of<typename TileData::DType>;
    constexpr auto global_type = engine::dtype_of<typename GlobalData::DType>;
    static_assert(rules::tstore_location_ok(target, TileData::Loc),
                  "LEGAL_TSTORE_LOCATION: TSTORE stores from Vec, Mat (not on a5) or Acc tiles");
    if constexpr (TileData::Loc == TileType::Acc) {
        static_assert(rules::acc_output_dtype_ok(tile_type, global_type),
                      "LEGAL_ACC_OUTPUT_DTYPE: an accumulator stores f32 as f32/f16/bf16 and i32 as i32");
        static_assert(rules::acc_store_shape_ok(GlobalData::layout, TileData::Rows, TileData::Cols),
                      "LEGAL_TSTORE_ACC_SHAPE: 1 <= Cols <= 4095; Rows <= 8192 into ND, <= 65535 (Cols % 16 == 0) "
                      "into NZ and the convolution layouts");
        static_check_acc_conv_store<TileData, GlobalData>();
    } else {
        static_assert(rules::tstore_dtype_ok(target, tile_type),
                      "LEGAL_TSTORE_DTYPE: PTO_TARGET does not store this element type");
    }
    static_check_global_transfer<TileData, GlobalData, true>();
}

// `Quantized`: the forms with a pre-quant scalar or a table, whose output types are the quantizing store's.
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode, AccToVecMode mode, bool Quantized = false>
constexpr void static_check_tmov()
{
    static_assert(is_tile_data_v<DstTileData> && is_tile_data_v<SrcTileData>, "TMOV moves a Tile into a Tile");
    constexpr auto& target = profile::kProfile;
    constexpr auto src_type = engine::dtype_of<typename SrcTileData::DType>;
    constexpr auto dst_type = engine::dtype_of<typename DstTileData::DType>;
    static_assert(rules::tmov_location_ok(target, SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_LOCATION: TMOV has no path between these tile locations on PTO_TARGET");
    if constexpr (Quantized) {
        static_assert(rules::tmov_quant_source_ok(target, SrcTileData::Loc, src_type, dst_type),
                      "LEGAL_TMOV_LOCATION: a quantizing TMOV moves out of an accumulator");
        static_assert(rules::acc_quant_output_dtype_ok(target, src_type, dst_type),
                      "LEGAL_TMOV_QUANT_DTYPE: a quantizing move makes f32 -> i8/u8 (a5: also f16/bf16/hif8/e4m3/f32) "
                      "and i32 -> i8/u8/f16 (a5: also bf16)");
    } else {
        static_assert(rules::tmov_dtype_ok(target, SrcTileData::Loc, DstTileData::Loc, src_type, dst_type),
                      "LEGAL_TMOV_DTYPE: TMOV does not move this element-type pair on this path on PTO_TARGET");
    }
    static_assert(
        rules::tmov_shape_ok(target, SrcTileData::Rows, SrcTileData::Cols, DstTileData::Rows, DstTileData::Cols),
        "LEGAL_TMOV_SHAPE: on a2a3 source and destination must have the same Rows and Cols");
    if constexpr (DstTileData::Loc == TileType::Bias || DstTileData::Loc == TileType::Scaling) {
        static_assert(rules::tmov_table_row_ok(target, SrcTileData::Rows, SrcTileData::Cols, SrcTileData::ElementBits,
                                               DstTileData::Cols, DstTileData::ElementBits,
                                               rules::tmov_table_alignment(DstTileData::Loc)),
                      "LEGAL_TMOV_TABLE_ROW: a move into Bias (Scaling) takes one row of a multiple of 64 (128) bytes");
    }
    static_assert(rules::tmov_source_layout_ok(target, SrcTileData::Loc, DstTileData::Loc, SrcTileData::BFractal,
                                               SrcTileData::SFractal),
                  "LEGAL_TMOV_LAYOUT: on a5 the cube reads Left/Right operands from Nz, Zn or row-major L1 tiles");
    static_assert(rules::tmov_mode_ok(target, SrcTileData::Loc, DstTileData::Loc, reluMode, mode),
                  "LEGAL_TMOV_MODE: ReLU applies to moves out of an accumulator, split modes to Acc -> Vec");
}

// A quantizing TMOV out of an accumulator (engine::tmov with an AccQuantization).
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode, AccToVecMode mode>
RecordEvent move_quantized(DstTileData& dst, SrcTileData& src, uint64_t pre_quant_scalar)
{
    static_check_tmov<DstTileData, SrcTileData, reluMode, mode, true>();
    engine::tmov(dst.desc(), src.desc(), engine::AccQuantization{.scalar = pre_quant_scalar}, reluMode, mode);
    return {};
}

template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode, AccToVecMode mode>
RecordEvent move_quantized(DstTileData& dst, SrcTileData& src, FpTileData& fp)
{
    static_check_tmov<DstTileData, SrcTileData, reluMode, mode, true>();
    static_assert(is_tile_data_v<FpTileData> &&
                      rules::fp_table_ok(profile::kProfile, FpTileData::Loc, engine::dtype_of<typename FpTileData::DType>),
                  "LEGAL_FP_TABLE: the quantization table is a Scaling tile of uint64_t (cpu: a uint64_t tile)");
    const engine::TileDesc table = fp.desc();
    engine::tmov(dst.desc(), src.desc(), engine::AccQuantization{.per_column = &table}, reluMode, mode);
    return {};
}

// The rules a ConvTile transfer's template arguments decide (LEGAL_TLOAD/TSTORE_LOCATION, _DTYPE,
// LEGAL_GM_ELEMENT_SIZE, LEGAL_GM_LAYOUT).
template <typename ConvTileData, typename GlobalData, bool Load>
constexpr void static_check_conv_transfer()
{
    static_assert(is_global_data_v<GlobalData>, "a ConvTile moves to and from a GlobalTensor");
    constexpr auto& target = profile::kProfile;
    constexpr auto tile_type = engine::dtype_of<typename ConvTileData::DType>;
    if constexpr (Load) {
        static_assert(rules::conv_tile_location_ok(target, ConvTileData::Loc, true),
                      "LEGAL_TLOAD_LOCATION: a ConvTile loads into Vec or Mat");
        static_assert(rules::tload_dtype_ok(target, tile_type),
                      "LEGAL_TLOAD_DTYPE: PTO_TARGET does not load this element type");
    } else {
        static_assert(rules::conv_tile_location_ok(target, ConvTileData::Loc, false),
                      "LEGAL_TSTORE_LOCATION: a ConvTile stores from Vec or Mat (not Mat on a5)");
        static_assert(rules::tstore_dtype_ok(target, tile_type),
                      "LEGAL_TSTORE_DTYPE: PTO_TARGET does not store this element type");
    }
    static_assert(rules::element_size_match(tile_type, engine::dtype_of<typename GlobalData::DType>),
                  "LEGAL_GM_ELEMENT_SIZE: the tile's and the global tensor's element types must have one size");
    static_assert(rules::conv_layout_ok(ConvTileData::layout, GlobalData::layout),
                  "LEGAL_GM_LAYOUT: a ConvTile moves to and from a GlobalTensor of its own convolution layout");
}

template <typename... T>
inline constexpr bool names_no_atomic_type = !(std::is_same_v<std::remove_cv_t<T>, AtomicType> || ...);

}  // namespace detail

// TLOAD(dst, src): global tensor -> Vec / Mat tile (see pto::engine::tload for the exact mapping), or
// -> convolution tile (a ConvTile of the tensor's layout).
template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TLOAD(TileData& dst, GlobalData& src, WaitEvents&... events)
{
    if constexpr (is_conv_tile_v<TileData>) {
        detail::static_check_conv_transfer<TileData, GlobalData, true>();
    } else {
        detail::static_check_tload<TileData, GlobalData>();
    }
    WaitAllEvents(events...);
    engine::tload(dst.desc(), src.desc());
    return {};
}

// TPREFETCH(dst, src): TLOAD's data and rules (engine::tprefetch), or from a tile a plain TMOV; unlike
// TLOAD it waits on no events.
template <typename TileData, typename GlobalData>
PTO_INST RecordEvent TPREFETCH(TileData& dst, GlobalData& src)
{
    if constexpr (is_tile_data_v<GlobalData>) {
        detail::static_check_tmov<TileData, GlobalData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0>();
    } else {
        detail::static_check_tload<TileData, GlobalData>();
    }
    engine::tprefetch(dst.desc(), src.desc());
    return {};
}

// The compute-side context of TPREFETCH_ASYNC: the SDMA workspace the host prepared, and the session the
// prefetch builds in it (wait on the returned event with evt.Wait(ctx.session)).
struct PrefetchAsyncContext {
    uint8_t* workspace{nullptr};
    comm::AsyncSession session;

    constexpr PrefetchAsyncContext() = default;
    constexpr explicit PrefetchAsyncContext(uint8_t* workspace_) : workspace(workspace_) {}
};

// TPREFETCH_ASYNC(src, ctx): warms L2 with a contiguous global tensor (engine::tprefetch_async checks it);
// the returned event is complete at once on the CPU.
template <typename GlobalData, typename... WaitEvents, std::enable_if_t<all_events_v<WaitEvents...>, int> = 0>
PTO_INST comm::AsyncEvent TPREFETCH_ASYNC(GlobalData& srcGlobalData, PrefetchAsyncContext& ctx, WaitEvents&... events)
{
    static_assert(!is_tile_data_v<GlobalData>, "TPREFETCH_ASYNC prefetches a GlobalTensor");
    WaitAllEvents(events...);
    ctx.session.engine = comm::DmaEngine::SDMA;
    ctx.session.valid = true;
    ctx.session.contextGm = ctx.workspace;
    return comm::AsyncEvent(engine::tprefetch_async(srcGlobalData.desc()), comm::DmaEngine::SDMA);
}

// TSTORE<TileData, GlobalData, atomicType>(dst, src): Vec / Mat / Acc tile -> global tensor, or
// convolution tile -> global tensor of its layout (no atomics).
template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          typename... WaitEvents>
requires detail::names_no_atomic_type<WaitEvents...> PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src,
                                                                                 WaitEvents&... events)
{
    if constexpr (is_conv_tile_v<TileData>) {
        static_assert(atomicType == AtomicType::AtomicNone,
                      "LEGAL_TSTORE_ATOMIC: a ConvTile store does not accumulate");
        detail::static_check_conv_transfer<TileData, GlobalData, false>();
        WaitAllEvents(events...);
        engine::tstore(dst.desc(), src.desc());
    } else {
        detail::static_check_tstore<TileData, GlobalData>();
        static_assert(
            rules::tstore_atomic_ok(profile::kProfile, atomicType, engine::dtype_of<typename GlobalData::DType>),
            "LEGAL_TSTORE_ATOMIC: AtomicAdd accumulates into f32 or i32 tensors (i32 only on a5; cpu: also f16, bf16 and integers)");
        WaitAllEvents(events...);
        engine::tstore(dst.desc(), src.desc(), atomicType);
    }
    return {};
}

// TSTORE(dst, src, AtomicType::AtomicAdd): the atomic mode as a run-time argument (checked at run time).
template <typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, AtomicType atomic, WaitEvents&... events)
{
    detail::static_check_tstore<TileData, GlobalData>();
    WaitAllEvents(events...);
    engine::tstore(dst.desc(), src.desc(), atomic);
    return {};
}

// The STPhase forms of TSTORE and TMOV: the phase is the hardware's unit-flag handshake with the matmul
// that fills the accumulator. ptosim runs instructions in program order, so a phase changes nothing.

template <STPhase Phase, typename TileData, typename GlobalData, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events)
{
    return TSTORE<TileData, GlobalData, AtomicType::AtomicNone>(dst, src, events...);
}

template <STPhase Phase, typename TileData, typename GlobalData, AtomicType atomicType, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events)
{
    return TSTORE<TileData, GlobalData, atomicType>(dst, src, events...);
}

// TSTORE<TileData, GlobalData, atomicType, reluPreMode>(dst, src): an Acc tile, negatives clamped to
// zero on the way out with NormalRelu.
template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events)
{
    detail::static_check_tstore<TileData, GlobalData>();
    static_assert(reluPreMode == ReluPreMode::NoRelu || TileData::Loc == TileType::Acc,
                  "LEGAL_TSTORE_RELU: a ReLU pre-mode applies to stores from an accumulator");
    static_assert(
        rules::tstore_atomic_ok(profile::kProfile, atomicType, engine::dtype_of<typename GlobalData::DType>),
        "LEGAL_TSTORE_ATOMIC: AtomicAdd accumulates into f32 or i32 tensors (i32 only on a5; cpu: also f16, bf16 and integers)");
    WaitAllEvents(events...);
    engine::tstore(dst.desc(), src.desc(), atomicType, reluPreMode);
    return {};
}

template <STPhase Phase, typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, WaitEvents&... events)
{
    return TSTORE<TileData, GlobalData, atomicType, reluPreMode>(dst, src, events...);
}

namespace detail {

// The rules of a quantizing store (an Acc tile, on cpu any tile TSTORE stores from, into a tensor of a
// type the fixpipe quantizes into).
template <typename TileData, typename GlobalData, AtomicType atomicType>
constexpr void static_check_quantizing_store()
{
    static_assert(is_tile_data_v<TileData>, "TSTORE stores from a Tile");
    static_assert(is_global_data_v<GlobalData>, "TSTORE stores into a GlobalTensor");
    constexpr auto& target = profile::kProfile;
    static_assert(rules::tstore_quant_source_ok(target, TileData::Loc),
                  "LEGAL_TSTORE_LOCATION: a quantizing store reads an Acc tile (cpu: any tile TSTORE stores from)");
    constexpr auto global_type = engine::dtype_of<typename GlobalData::DType>;
    static_assert(rules::acc_quant_output_dtype_ok(target, engine::dtype_of<typename TileData::DType>, global_type),
                  "LEGAL_TSTORE_QUANT_DTYPE: a quantizing store makes f32 -> i8/u8 (a5: also f16/bf16/hif8/e4m3/f32) "
                  "and i32 -> i8/u8/f16 (a5: also bf16; cpu: also i16)");
    if constexpr (TileData::Loc == TileType::Acc) {
        static_assert(rules::acc_store_shape_ok(GlobalData::layout, TileData::Rows, TileData::Cols),
                      "LEGAL_TSTORE_ACC_SHAPE: 1 <= Cols <= 4095; Rows <= 8192 into ND, <= 65535 (Cols % 16 == 0) "
                      "into NZ and the convolution layouts");
        static_check_acc_conv_store<TileData, GlobalData>();
    }
    static_assert(rules::tstore_atomic_ok(target, atomicType, global_type),
                  "LEGAL_TSTORE_ATOMIC: AtomicAdd accumulates into f32 or i32 tensors (i32 only on a5; cpu: also f16, bf16 and integers)");
    static_check_global_transfer<TileData, GlobalData, true, true>();
}

}  // namespace detail

// TSTORE<TileData, GlobalData, atomicType, reluPreMode>(dst, src, preQuantScalar): an Acc tile (cpu:
// any tile) quantized on its way out by one scale (engine::tstore with an AccQuantization).
template <typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    detail::static_check_quantizing_store<TileData, GlobalData, atomicType>();
    WaitAllEvents(events...);
    engine::tstore(dst.desc(), src.desc(), engine::AccQuantization{.scalar = preQuantScalar}, reluPreMode, atomicType);
    return {};
}

template <STPhase Phase, typename TileData, typename GlobalData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE(GlobalData& dst, TileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    return TSTORE<TileData, GlobalData, atomicType, reluPreMode>(dst, src, preQuantScalar, events...);
}

// TSTORE_FP<TileData, GlobalData, FpTileData, atomicType, reluPreMode>(dst, src, fp): the same, each
// column with the scale of its word in the Scaling table fp (a column-major non-Acc tile: each row).
template <typename TileData, typename GlobalData, typename FpTileData, AtomicType atomicType = AtomicType::AtomicNone,
          ReluPreMode reluPreMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TSTORE_FP(GlobalData& dst, TileData& src, FpTileData& fp, WaitEvents&... events)
{
    detail::static_check_quantizing_store<TileData, GlobalData, atomicType>();
    static_assert(is_tile_data_v<FpTileData> &&
                      rules::fp_table_ok(profile::kProfile, FpTileData::Loc, engine::dtype_of<typename FpTileData::DType>),
                  "LEGAL_FP_TABLE: the quantization table is a Scaling tile of uint64_t (cpu: a uint64_t tile)");
    WaitAllEvents(events...);
    const engine::TileDesc table = fp.desc();
    engine::tstore(dst.desc(), src.desc(), engine::AccQuantization{.per_column = &table}, reluPreMode, atomicType);
    return {};
}

// TMOV(dst, src): a plain move (Acc sources convert to the destination type).
template <typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    detail::static_check_tmov<DstTileData, SrcTileData, ReluPreMode::NoRelu, AccToVecMode::SingleModeVec0>();
    WaitAllEvents(events...);
    engine::tmov(dst.desc(), src.desc());
    return {};
}

// TMOV<Dst, Src, reluMode>(dst, src): a move out of an accumulator with a ReLU pre-mode.
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    detail::static_check_tmov<DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0>();
    WaitAllEvents(events...);
    engine::tmov(dst.desc(), src.desc(), reluMode);
    return {};
}

// TMOV<Dst, Src, mode, reluMode>(dst, src): accumulator -> Vec with an AccToVecMode.
template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    detail::static_check_tmov<DstTileData, SrcTileData, reluMode, mode>();
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form of TMOV moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    engine::tmov(dst.desc(), src.desc(), reluMode, mode);
    return {};
}

// The STPhase forms of TMOV (see TSTORE's).
template <STPhase Phase, typename DstTileData, typename SrcTileData, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, ReluPreMode::NoRelu>(dst, src, events...);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, ReluPreMode reluMode, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, reluMode>(dst, src, events...);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, mode, reluMode>(dst, src, events...);
}

// TMOV<[grp_axis, ]Dst, Src, Tmp>(dst, src, tmp): MX exponents repacked into the cube's ZZ order, grouped
// along rows (grp_axis 1, the default) or down columns (0); tmp is not touched (engine::tmov_zz).
template <int grp_axis, typename DstTileData, typename SrcTileData, typename TmpTileData, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<TmpTileData>, int> = 0>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, TmpTileData& tmp, WaitEvents&... events)
{
    static_assert(is_tile_data_v<DstTileData> && is_tile_data_v<SrcTileData>, "TMOV moves a Tile into a Tile");
    static_assert(rules::tmov_zz_form_ok(profile::kProfile),
                  "LEGAL_TMOV_ZZ: the ZZ exponent repack is an a5 instruction");
    static_assert(rules::tmov_zz_operands_ok(SrcTileData::Loc, DstTileData::Loc,
                                             engine::dtype_of<typename SrcTileData::DType>,
                                             engine::dtype_of<typename DstTileData::DType>, grp_axis),
                  "LEGAL_TMOV_ZZ: the ZZ repack moves uint8_t exponents from a Vec tile into a Vec or Mat tile, "
                  "grp_axis 0 or 1");
    WaitAllEvents(events...);
    engine::tmov_zz(dst.desc(), src.desc(), tmp.desc(), grp_axis);
    return {};
}

template <typename DstTileData, typename SrcTileData, typename TmpTileData, typename... WaitEvents,
          std::enable_if_t<is_tile_data_v<TmpTileData>, int> = 0>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, TmpTileData& tmp, WaitEvents&... events)
{
    return TMOV<1, DstTileData, SrcTileData, TmpTileData>(dst, src, tmp, events...);
}

// TMOV_FP<Dst, Src, Fp, reluMode>(dst, src, fp): out of an accumulator, each column quantized by its
// word of the Scaling table fp (engine::tmov with a per-column AccQuantization).
template <typename DstTileData, typename SrcTileData, typename FpTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_quantized<DstTileData, SrcTileData, FpTileData, reluMode, AccToVecMode::SingleModeVec0>(
        dst, src, fp);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, typename FpTileData,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV_FP(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events)
{
    return TMOV_FP<DstTileData, SrcTileData, FpTileData, reluMode>(dst, src, fp, events...);
}

// TMOV<Dst, Src, Fp, mode, reluMode>(dst, src, fp): the same into a Vec tile with an AccToVecMode.
template <typename DstTileData, typename SrcTileData, typename FpTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form of TMOV moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_quantized<DstTileData, SrcTileData, FpTileData, reluMode, mode>(dst, src, fp);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, typename FpTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, FpTileData& fp, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, FpTileData, mode, reluMode>(dst, src, fp, events...);
}

// TMOV<Dst, Src[, mode], reluMode>(dst, src, preQuantScalar): out of an accumulator, quantized by one
// scale (the low 32 bits of preQuantScalar, an f32), as the quantizing TSTORE does.
template <typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    WaitAllEvents(events...);
    return detail::move_quantized<DstTileData, SrcTileData, reluMode, AccToVecMode::SingleModeVec0>(dst, src,
                                                                                                     preQuantScalar);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, reluMode>(dst, src, preQuantScalar, events...);
}

template <typename DstTileData, typename SrcTileData, AccToVecMode mode, ReluPreMode reluMode = ReluPreMode::NoRelu,
          typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    static_assert(rules::is_acc_to_vec(SrcTileData::Loc, DstTileData::Loc),
                  "LEGAL_TMOV_MODE: the AccToVecMode form of TMOV moves an Acc tile into a Vec tile");
    WaitAllEvents(events...);
    return detail::move_quantized<DstTileData, SrcTileData, reluMode, mode>(dst, src, preQuantScalar);
}

template <STPhase Phase, typename DstTileData, typename SrcTileData, AccToVecMode mode,
          ReluPreMode reluMode = ReluPreMode::NoRelu, typename... WaitEvents>
PTO_INST RecordEvent TMOV(DstTileData& dst, SrcTileData& src, uint64_t preQuantScalar, WaitEvents&... events)
{
    return TMOV<DstTileData, SrcTileData, mode, reluMode>(dst, src, preQuantScalar, events...);
}

}  // namespace pto
