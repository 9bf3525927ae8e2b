// The vocabulary of the cube/vector tile pipes (TPipe, TPUSH, TPOP, TALLOC, TFREE): how a tile is split
// between the two vector sub-blocks, which way a pipe carries tiles, and the FIFO descriptions the
// public library's headers declare beside them. Names and values as in PTO Tile Lib.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/type.hpp>

namespace pto {

// How a tile that crosses between the cube and the two vector sub-blocks is shared between them.
enum TileSplitAxis : uint8_t {
    TILE_NO_SPLIT = 0,        // not split: vector sub-block 0 alone (or both, each the whole tile)
    TILE_UP_DOWN = 1,         // sub-block 0 the upper half of the rows, 1 the lower half
    TILE_LEFT_RIGHT = 2,      // sub-block 0 the left half of the columns, 1 the right half
    TILE_UP_DOWN_ODD = 3,     // an odd row count: sub-block 0 rows/2 + 1 rows, 1 the rows/2 others
    TILE_LEFT_RIGHT_ODD = 4,  // an odd column count: sub-block 0 cols/2 + 1 columns, 1 the cols/2 others
};

// Which way a TPipe carries tiles (a bit set).
enum Direction : uint8_t {
    UNDEFINED = 0,
    DIR_C2V = 1,                   // the cube produces, the vector sub-blocks consume
    DIR_V2C = 2,                   // the vector sub-blocks produce, the cube consumes
    DIR_BOTH = DIR_C2V | DIR_V2C,  // one pipe type for both directions
    DIR_V2C_CTRL = 4,              // control tiles from the vector sub-blocks to the cube
    DIR_C2V_GM = 5,                // a5: the C2V and V2C transfers staged in global memory
    DIR_V2C_GM = 6,
    DIR_BOTH_GM = DIR_C2V_GM | DIR_V2C_GM,
};

// The storage of a TPipe: SlotNum slots of SlotSize bytes in global memory, and the local buffers
// where consumers receive (the vector core's UB for C2V, the cube's L1 for V2C).
template <int SlotSize, int SlotNum, int LocalSlotNum>
struct RingFIFO {
    __gm__ void* GM_SLOT_BUFFER = nullptr;
    uint32_t C2V_CONSUMER_BUF = 0x0;
    uint32_t V2C_CONSUMER_BUF = 0x0;
    uint64_t V2C_CONTROL_BUF = 0x0;
    static constexpr uint32_t SLOT_SIZE = SlotSize;
    static constexpr uint32_t SLOT_NUM = SlotNum;
    static constexpr uint32_t SLOT_SYNCT = SlotNum;
    static constexpr uint32_t LOCAL_SLOT_NUM = LocalSlotNum;

    PTO_INTERNAL RingFIFO(__gm__ void* gm_slots, uint32_t c2v_consumer_buf, uint32_t v2c_consumer_buf)
        : GM_SLOT_BUFFER(gm_slots), C2V_CONSUMER_BUF(c2v_consumer_buf), V2C_CONSUMER_BUF(v2c_consumer_buf)
    {
    }
};

// Descriptions of data FIFOs by where they live, as the public headers declare them (types only: the
// tile pipes are TPipe).
enum class FIFOType : uint8_t {
    GM_FIFO = 0,    // in global memory
    VEC_FIFO = 1,   // in a vector core's UB
    MAT_FIFO = 2,   // in the cube's L1
    CTRL_FIFO = 3,  // control signals in a scalar buffer
};

enum class VecCubeRatio : uint8_t {
    V1C1_VEC0 = 0,  // one vector core per cube core: sub-block 0
    V1C1_VEC1 = 1,  // one vector core per cube core: sub-block 1
    V2C1_VECS = 2,  // both vector sub-blocks per cube core
};

template <typename DataType, FIFOType FifoType, int Depth, int Period, int LocalDepth = 0, typename Enable = void>
struct DataFIFO;

template <typename DataType, FIFOType FifoType, int Depth, int Period, int LocalDepth>
struct DataFIFO<DataType, FifoType, Depth, Period, LocalDepth, std::enable_if_t<FifoType == FIFOType::GM_FIFO>> {
    static constexpr int fifoDepth = Depth;
    static constexpr int fifoPeriod = Period;
    static constexpr FIFOType fifoType = FifoType;
    static constexpr int localFiFoDepth = LocalDepth;
    static constexpr bool useLocalFiFo = LocalDepth > 0;
    using DType = DataType;

    __gm__ DataType* fifoBase = nullptr;
    uint32_t localFiFoBase = 0;

    PTO_INTERNAL DataFIFO(__gm__ DataType* base, uint32_t local_base) : fifoBase(base), localFiFoBase(local_base) {}
    template <int L = LocalDepth, std::enable_if_t<L == 0, int> = 0>
    PTO_INTERNAL DataFIFO(__gm__ DataType* base) : fifoBase(base)
    {
    }
    __gm__ DataType* getBasePtr() { return fifoBase; }
};

template <typename DataType, FIFOType FifoType, int Depth, int Period, int LocalDepth>
struct DataFIFO<DataType, FifoType, Depth, Period, LocalDepth,
                std::enable_if_t<FifoType == FIFOType::VEC_FIFO || FifoType == FIFOType::MAT_FIFO>> {
    static constexpr int fifoDepth = Depth;
    static constexpr int fifoPeriod = Period;
    static constexpr FIFOType fifoType = FifoType;

    uint32_t fifoBase = 0;  // address in the local memory

    PTO_INTERNAL DataFIFO(uint32_t base) : fifoBase(base) {}
};

template <typename DataType, FIFOType FifoType, int Depth, int Period, int LocalDepth>
struct DataFIFO<DataType, FifoType, Depth, Period, LocalDepth, std::enable_if_t<FifoType == FIFOType::CTRL_FIFO>> {
    static constexpr int fifoDepth = Depth;
    static constexpr int fifoPeriod = Period;
    static constexpr FIFOType fifoType = FifoType;

    bool ctrlSignal = false;
    uint32_t fifoBase = 0x0;

    PTO_INTERNAL DataFIFO(uint32_t base) : fifoBase(base) {}
};

}  // namespace pto
