// Pipes, flags and events. On the device they order the asynchronous pipes of a core; ptosim runs
// instructions in program order, so they order nothing here, but each one is recorded in the
// synchronisation log (pto/runtime/sync.hpp).
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
        runtime::record_sync(runtime::SyncKind::EventRecord, -1, -1, static_cast<int32_t>(SrcOp));
        return *this;
    }
    Event& Wait()
    {
        runtime::record_sync(runtime::SyncKind::EventWait, -1, -1, static_cast<int32_t>(DstOp));
        return *this;
    }
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
