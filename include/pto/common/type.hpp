// Kernel keywords, the ISA's enumerations and the element types, as kernels include them.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/numeric.hpp>

// Kernel-side keywords of the device compiler mean nothing on a CPU.
#ifndef AICORE
#define AICORE
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __tf__
#define __tf__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
// Direction tags of kernel pointer parameters (`__gm__ T __in__ *src`), for readers only.
#ifndef __in__
#define __in__
#endif
#ifndef __out__
#define __out__
#endif
#ifndef PTO_INLINE
#define PTO_INLINE inline
#endif
#ifndef PTO_INST
#define PTO_INST inline
#endif
#ifndef PTO_INTERNAL
#define PTO_INTERNAL inline
#endif

namespace pto {

enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight, Ctrl };

enum class BLayout { RowMajor = 0, ColMajor = 1 };

enum class SLayout { NoneBox = 0, RowMajor = 1, ColMajor = 2 };

enum class PrintFormat : uint8_t { Width8_Precision4 = 0, Width8_Precision2 = 1, Width10_Precision6 = 2 };

// Bit patterns read right to left: the lowest bit selects the lowest element of each group.
enum class MaskPattern : uint8_t { P0101 = 1, P1010 = 2, P0001 = 3, P0010 = 4, P0100 = 5, P1000 = 6, P1111 = 7 };

enum class Layout {
    ND,
    DN,
    NZ,
    SCALE,
    MX_A_ND,
    MX_A_DN,
    MX_A_ZZ,
    MX_B_ND,
    MX_B_DN,
    MX_B_NN,
    HIF4_A_ZZ,
    HIF4_B_NN,
    NC1HWC0,
    GNC1HWC0,
    NCHW,
    GNCHW,
    NHWC,
    NDC1HWC0,
    NCDHW,
    FRACTAL_Z,
    FRACTAL_Z_S16S8,
    FRACTAL_Z_3D,
    MAX,
};

enum class CmpMode : uint8_t { EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5 };

enum class QuantType { MXFP8 = 0, MXFP4_E2M1 = 1, INT8_SYM = 2, INT8_ASYM = 3 };
enum class QuantScaleAlg { OCP = 0, NV = 1 };
enum class MxQuantAlg { OcpMxFp8E4M3 = 0, NvMxFp8E4M3 = 1, OcpMxFp4E2M1 = 2, NvMxFp4E2M1 = 3, Hif4 = 4 };
enum class VecStoreMode { ND = 0, NZ = 1 };
enum class STPhase : uint8_t { Unspecified = 0x0, Partial = 0x2, Final = 0x3 };
enum class AccPhase : uint8_t { Unspecified = 0x0, Unknown = Unspecified, Partial = 0x2, Final = 0x3 };

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT = 1,   // nearest, ties to even
    CAST_ROUND = 2,  // nearest, ties away from zero
    CAST_FLOOR = 3,
    CAST_CEIL = 4,
    CAST_TRUNC = 5,
    CAST_ODD = 6,    // round to odd
};

enum class TCopyMode : uint8_t { SHALLOW_COPY = 0, DEEP_COPY = 1 };
enum class SyncAllMode : uint8_t { Hard = 0, Soft = 1 };
enum class SyncCoreType : uint8_t { AIVOnly = 0, AICOnly = 1, Mix = 2 };
enum class AccToVecMode : uint8_t { SingleModeVec0 = 0, SingleModeVec1 = 1, DualModeSplitM = 2, DualModeSplitN = 3 };
enum class ReluPreMode : uint8_t { NoRelu = 0, NormalRelu = 1 };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };

// How many elements of each of its (up to four) source lists a merge sort (TMRGSORT) consumed.
struct MrgSortExecutedNumList {
    uint16_t mrgSortList0;
    uint16_t mrgSortList1;
    uint16_t mrgSortList2;
    uint16_t mrgSortList3;
};

// Standard pads use 0..3; a custom pad keeps a float's bit pattern in bits 32..63 (see PadCustom).
enum class PadValue : uint64_t { Null = 0, Zero = 1, Max = 2, Min = 3, CustomBase = 0x100000000ULL };

enum class SaturationMode : uint8_t { ON = 0, OFF = 1 };
enum class TFillPadMode : uint8_t { Normal = 0, InPlace = 1, Expand = 2 };

enum class CompactMode { Null, Normal, RowPlusOne, RowAlignedPadding };
enum class SetFmatrixMode { FMATRIX_A_AUTO, FMATRIX_B_AUTO, FMATRIX_A_MANUAL, FMATRIX_B_MANUAL };
enum class TileLayoutCustom : uint8_t { ND, DN, NZ, ZN, ZZ, NONE };
enum class HistByte : uint8_t { BYTE_0 = 0, BYTE_1 = 1, BYTE_2 = 2, BYTE_3 = 3 };

enum class PowAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class DivAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class SqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RsqrtAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RecipAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class ExpAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class LogAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class FmodAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class FmodSAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RemAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };
enum class RemSAlgorithm : uint8_t { DEFAULT, HIGH_PRECISION };

enum class ScatterAxis : uint8_t { SCATTER_ROW = 0, SCATTER_COL = 1 };
enum class ScatterAtomicOp : uint8_t { None = 0, Add = 1, Max = 2, Min = 3 };
enum class ScatterOOB : uint8_t { Undefined = 0, Skip = 1, Clamp = 2, Wrap = 3 };
enum class ScatterConflict : uint8_t { Last = 0, Default = 1 };
enum class GatherAxis : uint8_t { GATHER_ROW = 0, GATHER_COL = 1 };
enum class GatherOOB : uint8_t { Undefined = 0, Clamp = 1, Wrap = 2, Zero = 3 };
enum class TInsertMode : uint8_t { SPLIT2 = 2, SPLIT4 = 3 };
enum class Coalesce : uint8_t { Row = 0, Elem = 1 };
// Executor of MGATHER's Elem gather into an L1 tile: the scalar walk, or (A5) a SIMT kernel.
enum class GatherExec : uint8_t { Scalar = 0, Simt = 1 };

namespace GlobalTensorDim {
constexpr int DIM_0 = 0;
constexpr int DIM_1 = 1;
constexpr int DIM_2 = 2;
constexpr int DIM_3 = 3;
constexpr int DIM_4 = 4;
constexpr int TOTAL_DIM = 5;
}  // namespace GlobalTensorDim

// TRANDOM's key and counter words.
constexpr int PTO_RANDOM_KEY_SIZE = 2;
constexpr int PTO_RANDOM_COUNTER_SIZE = 4;
using TRandomKey = uint32_t[PTO_RANDOM_KEY_SIZE];
using TRandomCounter = uint32_t[PTO_RANDOM_COUNTER_SIZE];

constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;
constexpr uint16_t SYNC_FLAG_ID_MAX = 16;

}  // namespace pto
