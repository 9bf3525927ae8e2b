// Pipes, flags and events. On the device they order the asynchronous pipes of a core; ptosim runs
// instructions in program order, so they order nothing here, but each one is recorded in the
// synchronisation log (pto/runtime/sync.hpp), and checked mode checks that they order every pair of
// conflicting accesses on different pipes (the ORDER_* run-time check).
#pragma once

#include <type_traits>

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/runtime/sync.hpp>

enum pipe_t : int32_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
};

enum event_t : int32_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};

#ifndef EVENT_ID_MAX
#define EVENT_ID_MAX 8
#endif

inline void set_flag(pipe_t src, pipe_t dst, event_t id)
{
    pto::runtime::record_sync(pto::runtime::SyncKind::SetFlag, src, dst, id);
}
inline void wait_flag(pipe_t src, pipe_t dst, event_t id)
{
    pto::runtime::record_sync(pto::runtime::SyncKind::WaitFlag, src, dst, id);
}
inline void set_flag(pipe_t src, pipe_t dst, int id) { set_flag(src, dst, static_cast<event_t>(id)); }
inline void wait_flag(pipe_t src, pipe_t dst, int id) { wait_flag(src, dst, static_cast<event_t>(id)); }
inline void pipe_barrier(pipe_t pipe) { pto::runtime::record_sync(pto::runtime::SyncKind::PipeBarrier, pipe, pipe, -1); }
// The vector unit's mask register: normal (bit-per-lane) mode and the 128 lane bits, which a kernel sets
// before its tile instructions. No tile intrinsic reads the mask register (each takes its valid region
// from its tiles), so on the CPU neither changes what the tile instructions compute.
inline void set_mask_norm() {}
inline void set_vector_mask(uint64_t /*high*/, uint64_t /*low*/) {}

namespace pto {

// The operation classes an Event connects (the producer's and the consumer's pipe follow from them).
enum class Op : uint16_t {
    TLOAD, TSTORE_VEC, SCALAR, TRESHAPE, VECTOR, TADD, TADDS, TAXPY, TSUB, TMUL, TMULS, TDIV, TDIVS, TMIN, TMINS,
    TMAX, TAND, TOR, TSEL, TSHL, TSHR, TEXP, TSELS, TSQRT, TRSQRT, TEXPANDS, TEXPANDS_MAT, TPARTADD, TPARTMUL,
    TPARTMAX, TPARTMIN, TPOW, TPOWS, TCMPS, TMRGSORT, TSORT32, TCI, TGATHER, TGATHERB, TCVT, TROWSUM, TROWPROD,
    TROWMAX, TROWMIN, TROWEXPAND, TRANDOM, TCOLSUM, TCOLPROD, TCOLMAX, TCOLMIN, TTRANS, TTRI, TREM, TFMOD, TREMS,
    TFMODS, TSUBS, TMAXS, TLRELU, TPRELU, TMOV_V2V, TMOV_V2M, TEXTRACT_V2M, TMOV_M2B, TMOV_M2L, TMOV_M2R, TMOV_M2S,
    TMOV_A2V, TMOV_A2M, TSTORE_ACC, TSTORE_MAT, TMATMUL, TGEMV, TMATMUL_MX, TEXTRACT_M2LR, TANDS, TORS, TSHLS,
    TSHRS, TXOR, TXORS, TEXTRACT_A2M, TINSERT_A2M, TIMG2COL, SETFMATRIX, SET_IMG2COL_RPT, SET_IMG2COL_PADDING,
    TCONCAT, TDEQUANT, TADDDEQRELU, TABS, TNEG, TRELU, TNOT, TLOG, TRECIP, TCMP, TSCATTER, TCOLEXPAND,
    TCOLEXPANDDIV, TCOLEXPANDMUL, TCOLEXPANDADD, TCOLEXPANDMAX, TCOLEXPANDMIN, TCOLEXPANDSUB, TCOLEXPANDEXPDIF,
    TROWEXPANDDIV, TROWEXPANDMUL, TROWEXPANDSUB, TROWEXPANDADD, TROWEXPANDMAX, TROWEXPANDMIN, TROWEXPANDEXPDIF,
    TPAIRREDUCESUM, TSUBRELUCONV, TADDRELUCONV, TFUSEDMULADD, TMULADDDST, TSUBRELU, TFUSEDMULADDRELU, TPARTARGMAX,
    TPARTARGMIN, TCOLARGMAX, TCOLARGMIN, TROWARGMAX, TROWARGMIN, TPREFETCH, TFILLPAD_VEC, TFILLPAD_MAT,
    MGATHER_VEC, MGATHER_MAT, MSCATTER, TQUANT, THISTOGRAM, TINTERLEAVE, TDEINTERLEAVE,
    OP_COUNT,
};

// The pipe that runs an operation class (the producer or the consumer of an Event).
constexpr pipe_t pipe_of(Op op)
{
    switch (op) {
    case Op::TLOAD: case Op::TEXPANDS_MAT: case Op::TPREFETCH: case Op::TFILLPAD_MAT: case Op::MGATHER_MAT:
        return PIPE_MTE2;
    case Op::TSTORE_VEC: case Op::TSTORE_MAT:
        return PIPE_MTE3;
    case Op::SCALAR: case Op::TRESHAPE: case Op::TCI: case Op::SETFMATRIX: case Op::SET_IMG2COL_RPT:
    case Op::SET_IMG2COL_PADDING:
        return PIPE_S;
    case Op::TMOV_M2B: case Op::TMOV_M2L: case Op::TMOV_M2R: case Op::TEXTRACT_M2LR: case Op::TIMG2COL:
        return PIPE_MTE1;
    case Op::TMOV_V2M: case Op::TEXTRACT_V2M: case Op::TMOV_M2S: case Op::TMOV_A2V: case Op::TMOV_A2M:
    case Op::TSTORE_ACC: case Op::TEXTRACT_A2M: case Op::TINSERT_A2M:
        return PIPE_FIX;
    case Op::TMATMUL: case Op::TGEMV: case Op::TMATMUL_MX:
        return PIPE_M;
    default:
        return PIPE_V;
    }
}

// What every intrinsic returns: assigning it to an Event records that event.
struct RecordEvent {};

// An event from the instruction class SrcOp to DstOp: `Event<Op::TLOAD, Op::TADD> e = TLOAD(...);
// TADD(..., e);` records on assignment and waits when passed to a later intrinsic.
template <Op SrcOp, Op DstOp>
struct Event {
    static constexpr Op srcOp = SrcOp;
    static constexpr Op dstOp = DstOp;

    Event() = default;
    Event(RecordEvent) { Record(); }
    Event& operator=(RecordEvent)
    {
        Record();
        return *this;
    }

    Event& Init() { return Record(); }
    Event& Record()
    {
        token_ = this;
        runtime::record_sync(runtime::SyncKind::EventRecord, pipe_of(SrcOp), pipe_of(DstOp), static_cast<int32_t>(SrcOp), token_);
        return *this;
    }
    Event& Wait()
    {
        runtime::record_sync(runtime::SyncKind::EventWait, pipe_of(SrcOp), pipe_of(DstOp), static_cast<int32_t>(DstOp),
                             token_ ? token_ : this);
        return *this;
    }

private:
    // The flag this event stands for: the one its last Record set (copies share it).
    const void* token_ = nullptr;
};

template <typename T>
struct is_event : std::false_type {};
template <Op SrcOp, Op DstOp>
struct is_event<Event<SrcOp, DstOp>> : std::true_type {};
// Whether every type of a pack is an Event: overloads whose trailing parameters are events use it to
// stay apart from overloads with more operands.
template <typename... T>
inline constexpr bool all_events_v = (is_event<std::remove_cv_t<T>>::value && ...);

template <typename... WaitEvents>
inline void WaitAllEvents(WaitEvents&... events)
{
    (events.Wait(), ...);
}

// TSYNC<Op...>(): a barrier between instruction classes.
template <Op... Ops>
inline void TSYNC()
{
    runtime::record_sync(runtime::SyncKind::Tsync, -1, -1, sizeof...(Ops) ? static_cast<int32_t>(((Ops), ...)) : -1);
}

}  // namespace pto
