// TPipe and the instructions on it, TPUSH, TPOP, TALLOC and TFREE: tiles handed between a block's cube
// core and its vector cores through a ring of slots (semantics: pto/engine/ops/tile_pipe.hpp). Every
// overload of PTO Tile Lib's signature list; each core counts its own pushes and pops in its TPipe
// object, as on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/fifo.hpp>
#include <pto/common/fixpipe.hpp>
#include <pto/common/global_tensor.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/tile_pipe.hpp>
#include <pto/intrinsics/fixpipe_config.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

namespace pto {

template <uint8_t FlagID, uint8_t DirType, uint32_t SlotSize, uint32_t SlotNum, uint32_t LocalSlotNum = 2,
          bool IsNoSplit = false, bool EN_UNIT_FLAG = false>
struct TPipe {
    static constexpr uint8_t DIR_MASK = 0x7;
    static constexpr uint8_t DIR_TYPE = DIR_MASK & DirType;
    static constexpr bool is_c2v = (DIR_TYPE & DIR_C2V) != 0 && DIR_TYPE != DIR_V2C_CTRL;
    static constexpr bool is_v2c = (DIR_TYPE & DIR_V2C) != 0 || DIR_TYPE == DIR_V2C_CTRL;
    static constexpr bool is_both = is_c2v && is_v2c;
    static constexpr bool is_v2c_ctrl = DIR_TYPE == DIR_V2C_CTRL;
    static constexpr bool is_no_split = IsNoSplit;
    // How often a producer waits for free slots and a consumer frees them on the device (the
    // simulation tracks every slot, which gives the same order).
    static constexpr uint32_t SyncPeriod = (SlotNum <= 2) ? SlotNum : SlotNum / 2;
    static_assert(SlotNum >= 1, "a TPipe has at least one slot (SlotNum >= 1)");
    static_assert(SlotSize >= 1, "a TPipe slot holds at least one byte (SlotSize >= 1)");
    using RingFiFo = RingFIFO<SlotSize, SlotNum, LocalSlotNum>;

    static bool shouldWaitFree(uint32_t tileIndex) { return tileIndex >= SlotNum && tileIndex % SyncPeriod == 0; }
    static bool shouldNotifyFree(uint32_t tileIndex) { return (tileIndex + 1) % SyncPeriod == 0; }

    // One core's side as producer: the tiles it pushed (or allocated).
    struct Producer {
        int tileIndex = 0;
        int subTileIndex = 0;
        bool isAllocate = true;
        bool isRecord = true;
        int entryOffset = 0;
        void setTileId(int tile, int sub) { tileIndex = tile, subTileIndex = sub; }
        int getTileId() const { return tileIndex; }
        int getSubTileId() const { return subTileIndex; }
        void setAllocateStatus(bool allocate) { isAllocate = allocate; }
        bool getAllocateStatus() const { return isAllocate; }
        void setRecordStatus(bool record) { isRecord = record; }
        bool getRecordStatus() const { return isRecord; }
        void setEntryOffset(int offset) { entryOffset = offset; }
    };
    // One core's side as consumer: the tiles it popped.
    struct Consumer {
        int tileIndex = 0;
        int subTileIndex = 0;
        bool isWait = true;
        bool isFree = true;
        int entryOffset = 0;
        void setTileId(int tile, int sub) { tileIndex = tile, subTileIndex = sub; }
        int getTileId() const { return tileIndex; }
        int getSubTileId() const { return subTileIndex; }
        void setWaitStatus(bool wait) { isWait = wait; }
        bool getWaitStatus() const { return isWait; }
        void setFreeStatus(bool free) { isFree = free; }
        bool getFreeStatus() const { return isFree; }
        void setEntryOffset(int offset) { entryOffset = offset; }
    };

    RingFiFo fifo;
    Producer prod;
    Consumer cons;

    explicit TPipe(__gm__ void* gmSlotBuffer, uint32_t c2vConsumerBuf, uint32_t v2cConsumerBuf)
        : fifo(gmSlotBuffer, c2vConsumerBuf, v2cConsumerBuf)
    {
    }

    // The calling block's pipe of this flag id starts empty again (for a harness that runs a kernel
    // on its own threads more than once).
    static void reset_for_cpu_sim() { engine::reset_pipe(desc(nullptr)); }

    static engine::PipeDesc desc(__gm__ void* gm_slots)
    {
        return {FlagID, DirType, SlotSize, SlotNum, IsNoSplit, static_cast<std::byte*>(gm_slots)};
    }
    engine::PipeDesc desc() const { return desc(fifo.GM_SLOT_BUFFER); }
};

template <typename T>
struct is_tpipe : std::false_type {};
template <uint8_t F, uint8_t D, uint32_t S, uint32_t N, uint32_t L, bool NS, bool U>
struct is_tpipe<TPipe<F, D, S, N, L, NS, U>> : std::true_type {};
template <typename T>
inline constexpr bool is_tpipe_v = is_tpipe<std::remove_cv_t<T>>::value;

namespace detail {

template <typename Pipe, typename TileProd>
void push_tile(Pipe& pipe, TileProd& tile, TileSplitAxis split)
{
    static_assert(is_tpipe_v<Pipe>, "TPUSH pushes into a TPipe");
    static_assert(TileProd::Loc == TileType::Acc || TileProd::Loc == TileType::Vec || TileProd::Loc == TileType::Mat ||
                      TileProd::Loc == TileType::Ctrl,
                  "LEGAL_TPUSH_LOCATION: TPUSH pushes an Acc tile (cube to vector), a Vec or Ctrl tile (vector to "
                  "cube), or, in the CPU simulation, a Mat tile for the cube");
    engine::tpush(pipe.desc(), static_cast<uint32_t>(pipe.prod.tileIndex), split, tile.desc());
    ++pipe.prod.tileIndex;
}

template <typename Pipe, typename TileCons>
void pop_tile(Pipe& pipe, TileCons& tile, TileSplitAxis split)
{
    static_assert(is_tpipe_v<Pipe>, "TPOP pops from a TPipe");
    static_assert(TileCons::Loc == TileType::Vec || TileCons::Loc == TileType::Mat || TileCons::Loc == TileType::Ctrl,
                  "LEGAL_TPOP_LOCATION: TPOP pops into a Vec tile (cube to vector) or a Mat or Ctrl tile (vector to cube)");
    // As on the device, the popped tile is the consumer's local buffer slot (the vector core's UB for C2V,
    // the cube's L1 for V2C), whatever the tile was bound to: a pipe whose tiles stage in global memory
    // cycles through LocalSlotNum slots of it, a pipe without through SlotNum.
    if constexpr (TileCons::Loc != TileType::Ctrl) {
        const uint32_t buffer = TileCons::Loc == TileType::Vec ? pipe.fifo.C2V_CONSUMER_BUF : pipe.fifo.V2C_CONSUMER_BUF;
        const uint32_t slots = pipe.fifo.GM_SLOT_BUFFER ? Pipe::RingFiFo::LOCAL_SLOT_NUM : Pipe::RingFiFo::SLOT_NUM;
        tile.assign_offset(uint64_t(buffer) + uint64_t(uint32_t(pipe.cons.tileIndex) % slots) * Pipe::RingFiFo::SLOT_SIZE);
    }
    engine::tpop(pipe.desc(), static_cast<uint32_t>(pipe.cons.tileIndex), split, tile.desc());
    ++pipe.cons.tileIndex;
}

// What a quantization mode takes and does: the accumulator types it reads, and whether it scales, by
// the scalar register or by the per-column table the vector register points at.
struct FixpipeMode {
    bool modelled = true;  // false: the shift modes, whose rule no page gives
    bool f32_input = false, i32_input = false;
    bool scaled = false, per_column = false;
};

constexpr FixpipeMode fixpipe_mode(QuantMode_t mode)
{
    switch (mode) {
        case QuantMode_t::NoQuant: return {true, true, true, false, false};
        case QuantMode_t::F322F16:
        case QuantMode_t::F322BF16: return {true, true, false, false, false};
        case QuantMode_t::QF322B8_PRE:
        case QuantMode_t::QF322HIF8_PRE:
        case QuantMode_t::QF322FP8_PRE:
        case QuantMode_t::QF322F32_PRE:
        case QuantMode_t::QF322F16_PRE:
        case QuantMode_t::QF322BF16_PRE: return {true, true, false, true, false};
        case QuantMode_t::VQF322B8_PRE:
        case QuantMode_t::VQF322HIF8_PRE:
        case QuantMode_t::VQF322FP8_PRE:
        case QuantMode_t::VQF322F32_PRE:
        case QuantMode_t::VQF322F16_PRE: return {true, true, false, true, true};
        case QuantMode_t::VQS322BF16_PRE: return {true, true, true, true, true};  // also VQF322BF16_PRE
        case QuantMode_t::DEQF16:
        case QuantMode_t::QS322BF16_PRE:
        case QuantMode_t::REQ8: return {true, false, true, true, false};
        case QuantMode_t::VDEQF16:
        case QuantMode_t::VREQ8: return {true, false, true, true, true};
        default: return {false};
    }
}

// The configuration register `index`, which an earlier SET_QUANT_SCALAR / SET_QUANT_VECTOR must have set.
inline uint64_t quant_register(uint32_t index, const char* setter)
{
    if (const auto value = NPUMemoryModel::Instance().ReadRegister(index)) return *value;
    runtime::fail({"RUN_QUANT_UNSET", "TPUSH", "TConfig",
                   std::string("the fixpipe configuration's quantization mode reads a register that no ") + setter +
                       " has set on this core",
                   std::string(setter) + " before the TPUSH", "an unset register", ""});
}

// The per-column scales SET_QUANT_VECTOR pointed at: `columns` 64-bit words of the Scaling memory.
inline engine::TileDesc quant_table(int32_t columns)
{
    const uint64_t address = quant_register(QUANT_VECTOR_REG_OFFSET, "SET_QUANT_VECTOR");
    const uint64_t capacity = runtime::memory_size(TileType::Scaling);
    if (address + uint64_t(columns) * sizeof(uint64_t) > capacity) {
        runtime::fail({"RUN_TILE_RANGE", "TPUSH", "TConfig",
                       "the per-column scales SET_QUANT_VECTOR set run past the end of the Scaling memory",
                       "address + 8 * columns <= " + std::to_string(capacity),
                       std::to_string(address + uint64_t(columns) * sizeof(uint64_t)), ""});
    }
    engine::TileDesc table;
    table.data = runtime::memory_base(TileType::Scaling) + address;
    table.dtype = engine::DType::U64;
    table.loc = TileType::Scaling;
    table.rows = table.valid_rows = 1;
    table.cols = table.valid_cols = columns;
    return table;
}

constexpr Layout fixpipe_slot_layout(LayoutMode_t mode)
{
    return mode == LayoutMode_t::NZ2ND ? Layout::ND : mode == LayoutMode_t::NZ2DN ? Layout::DN : Layout::NZ;
}

// The calling thread acts as vector sub-block `sub` of (at least) two while it lives.
class AsSubBlock {
public:
    explicit AsSubBlock(int32_t sub) : sub_(runtime::subblock_idx()), count_(runtime::subblock_num())
    {
        runtime::set_execution_context(runtime::block_idx(), static_cast<uint32_t>(sub), count_ < 2 ? 2 : count_);
    }
    ~AsSubBlock() { runtime::set_execution_context(runtime::block_idx(), sub_, count_); }
    AsSubBlock(const AsSubBlock&) = delete;
    AsSubBlock& operator=(const AsSubBlock&) = delete;

private:
    uint32_t sub_, count_;
};

template <typename GlobalData>
constexpr int64_t slot_view_rows()
{
    return GlobalData::staticShape[0] * GlobalData::staticShape[1] * GlobalData::staticShape[2] * GlobalData::staticShape[3];
}

template <typename GlobalData>
constexpr int slot_view_element_bytes()
{
    return static_cast<int>(sizeof(typename GlobalData::DType));
}

}  // namespace detail

// TPUSH: the tile enters the pipe's next slot (the producer waits while the ring is full).
template <typename Pipe, typename TileProd, TileSplitAxis Split, std::enable_if_t<is_tile_data_v<TileProd>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TPUSH(Pipe& pipe, TileProd& tile, WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::push_tile(pipe, tile, Split);
    return {};
}

// TPUSH as vector sub-block `subBlockId` (the split halves), whatever get_subblockid() says.
template <typename Pipe, typename TileProd, TileSplitAxis Split, typename... WaitEvents>
PTO_INST RecordEvent TPUSH(Pipe& pipe, TileProd& tile, int32_t subBlockId, WaitEvents&... events)
{
    WaitAllEvents(events...);
    const detail::AsSubBlock as_sub_block(subBlockId);
    detail::push_tile(pipe, tile, Split);
    return {};
}

// TPUSH(tile, pipe): no split.
template <typename TileData, typename Pipe, typename... WaitEvents>
PTO_INST RecordEvent TPUSH(TileData& tile, Pipe& pipe, WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::push_tile(pipe, tile, TILE_NO_SPLIT);
    return {};
}

// TPUSH of an accumulator through the fixpipe, configured by TConfig (FixpipeParams): the slot receives
// the tile converted, quantized (by the scale SET_QUANT_SCALAR set, or the per-column scales of the
// table SET_QUANT_VECTOR pointed at), ReLU'd and laid out as TConfig says; the tile is not split.
template <typename Pipe, typename TileProd, typename TConfig, typename... WaitEvents>
PTO_INST RecordEvent TPUSH(Pipe& pipe, TileProd& tile, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TPUSH pushes into a TPipe");
    static_assert(TileProd::Loc == TileType::Acc,
                  "LEGAL_TPUSH_LOCATION: TPUSH with a fixpipe configuration pushes an Acc tile");
    constexpr detail::FixpipeMode mode = detail::fixpipe_mode(TConfig::QuantPre);
    using Acc = typename TileProd::DType;
    static_assert(mode.modelled,
                  "LEGAL_TPUSH_QUANT_MODE: the shift modes SHIFTS322S16 / VSHIFTS322S16 are not modelled (no page "
                  "gives their rule)");
    static_assert((std::is_same_v<Acc, float> && mode.f32_input) || (std::is_same_v<Acc, int32_t> && mode.i32_input),
                  "LEGAL_TPUSH_QUANT_MODE: the quantization mode does not read this accumulator's element type "
                  "(the F32 modes read float accumulators, the S32 and DEQ/REQ modes int32_t ones)");
    static_assert(TConfig::SubBlockId == 0,
                  "LEGAL_TPUSH_SUBBLOCK: a fixpipe configuration's SubBlockId other than 0 (a5's accumulator-to-"
                  "vector mode) is not modelled: the TPOP that receives the tile cannot tell its sub-block");
    static_assert(TConfig::ClipReluMode == ClipReluMode_t::NOCLIP_RELU && !TConfig::IsChannelSplit,
                  "LEGAL_TPUSH_CONFIG: clip ReLU and channel split take values no PTO instruction sets");
    WaitAllEvents(events...);

    using Slot = FixpipeConsDType_t<TConfig::QuantPre, Acc>;
    engine::PushConversion conversion{.slot_dtype = engine::dtype_of<Slot>,
                                      .relu = TConfig::ReluMode,
                                      .slot_layout = detail::fixpipe_slot_layout(TConfig::LayoutMode),
                                      .atomic = TConfig::AtomicT};
    engine::AccQuantization quant;
    engine::TileDesc table;
    if constexpr (mode.scaled) {
        if constexpr (mode.per_column) {
            table = detail::quant_table(tile.GetValidCol());
            quant.per_column = &table;
        } else {
            quant.scalar = detail::quant_register(QUANT_SCALAR_REG_OFFSET, "SET_QUANT_SCALAR");
        }
        conversion.quant = &quant;
        // An 8-bit result is signed when bit 46 of its scale word says so (SET_QUANT_SCALAR<int8_t>).
        const uint64_t word = mode.per_column ? reinterpret_cast<const uint64_t*>(table.data)[0] : quant.scalar;
        if (std::is_same_v<Slot, int8_t> && !(word >> 46 & 1u)) conversion.slot_dtype = engine::DType::U8;
    }
    engine::tpush(pipe.desc(), static_cast<uint32_t>(pipe.prod.tileIndex), TILE_NO_SPLIT, tile.desc(), &conversion);
    ++pipe.prod.tileIndex;
    return {};
}

// TPOP: the pipe's next tile enters `tile` (the consumer waits until it is there), and the consumer's
// part of its slot is free again.
template <typename Pipe, typename TileCons, TileSplitAxis Split, std::enable_if_t<is_tile_data_v<TileCons>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TPOP(Pipe& pipe, TileCons& tile, WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::pop_tile(pipe, tile, Split);
    return {};
}

// TPOP as vector sub-block `subBlockId`.
template <typename Pipe, typename TileCons, TileSplitAxis Split, typename... WaitEvents>
PTO_INST RecordEvent TPOP(Pipe& pipe, TileCons& tile, int32_t subBlockId, WaitEvents&... events)
{
    WaitAllEvents(events...);
    const detail::AsSubBlock as_sub_block(subBlockId);
    detail::pop_tile(pipe, tile, Split);
    return {};
}

// TPOP(tile, pipe): no split.
template <typename TileData, typename Pipe, typename... WaitEvents>
PTO_INST RecordEvent TPOP(TileData& tile, Pipe& pipe, WaitEvents&... events)
{
    WaitAllEvents(events...);
    detail::pop_tile(pipe, tile, TILE_NO_SPLIT);
    return {};
}

// TFREE after a tile TPOP: TPOP has freed the slot already; nothing to do (as on the device).
template <typename Pipe, TileSplitAxis Split, typename... WaitEvents>
PTO_INST RecordEvent TFREE(Pipe& pipe, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TFREE frees a slot of a TPipe");
    (void)pipe;
    WaitAllEvents(events...);
    return {};
}

template <typename Pipe, typename... WaitEvents>
PTO_INST RecordEvent TFREE(Pipe& pipe, WaitEvents&... events)
{
    return TFREE<Pipe, TILE_NO_SPLIT>(pipe, events...);
}

// The global-slot flow. TALLOC: gmTensor becomes a view of this producer's part of the next slot
// (once it is free); the producer stores into it, then TPUSH(pipe, gmTensor) hands it to the consumers.
template <typename Pipe, typename GlobalData, TileSplitAxis Split, std::enable_if_t<is_global_data_v<GlobalData>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TALLOC(Pipe& pipe, GlobalData& gmTensor, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TALLOC allocates a slot of a TPipe");
    WaitAllEvents(events...);
    std::byte* part = engine::talloc(pipe.desc(), static_cast<uint32_t>(pipe.prod.tileIndex), Split,
                                     detail::slot_view_rows<GlobalData>(), GlobalData::staticShape[4],
                                     detail::slot_view_element_bytes<GlobalData>());
    gmTensor.assign_pointer(reinterpret_cast<typename GlobalData::DType*>(part));
    ++pipe.prod.tileIndex;
    return {};
}

// TPUSH(pipe, gmTensor): the slot TALLOC gave is complete; its data was stored through gmTensor.
template <typename Pipe, typename GlobalData, TileSplitAxis Split, std::enable_if_t<is_global_data_v<GlobalData>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TPUSH(Pipe& pipe, GlobalData& gmTensor, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TPUSH pushes into a TPipe");
    (void)gmTensor;
    WaitAllEvents(events...);
    engine::tpush_slot(pipe.desc(), static_cast<uint32_t>(pipe.prod.tileIndex - 1), Split, detail::slot_view_rows<GlobalData>(),
                       GlobalData::staticShape[4], detail::slot_view_element_bytes<GlobalData>());
    return {};
}

// TPOP(pipe, gmTensor): gmTensor becomes a view of this consumer's part of the next tile's slot (once
// it is there); TFREE(pipe, gmTensor) frees it after the last load.
template <typename Pipe, typename GlobalData, TileSplitAxis Split, std::enable_if_t<is_global_data_v<GlobalData>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TPOP(Pipe& pipe, GlobalData& gmTensor, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TPOP pops from a TPipe");
    WaitAllEvents(events...);
    std::byte* part = engine::tpop_slot(pipe.desc(), static_cast<uint32_t>(pipe.cons.tileIndex), Split,
                                        detail::slot_view_rows<GlobalData>(), GlobalData::staticShape[4],
                                        detail::slot_view_element_bytes<GlobalData>());
    gmTensor.assign_pointer(reinterpret_cast<typename GlobalData::DType*>(part));
    ++pipe.cons.tileIndex;
    return {};
}

template <typename Pipe, typename GlobalData, TileSplitAxis Split, std::enable_if_t<is_global_data_v<GlobalData>, int> = 0,
          typename... WaitEvents>
PTO_INST RecordEvent TFREE(Pipe& pipe, GlobalData& gmTensor, WaitEvents&... events)
{
    static_assert(is_tpipe_v<Pipe>, "TFREE frees a slot of a TPipe");
    (void)gmTensor;
    WaitAllEvents(events...);
    engine::tfree_slot(pipe.desc(), static_cast<uint32_t>(pipe.cons.tileIndex - 1), Split);
    return {};
}

}  // namespace pto
