// The public CPU simulator's instruction-trace interface. ptosim records no instruction trace: the
// record types exist so that code reading a trace compiles, kInstructionTraceEnabled is false (as in
// a public build without PTO_CPU_SIM_TRACE_MODE; ptosim ignores that macro), a trace is always empty
// and dumps as nothing.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace pto::cpu_sim {

inline constexpr bool kInstructionTraceEnabled = false;

struct TileOperandTrace {
    std::uintptr_t address = 0;
    std::vector<int64_t> shape;
    std::string layout;
    std::string dtype;
};

struct ScalarOperandTrace {
    std::string dtype;
    std::string value;
};

struct InstructionTraceRecord {
    uint32_t block_idx = 0;
    uint64_t sequence_id = 0;
    std::string opcode;
    std::vector<TileOperandTrace> input_tiles;
    std::vector<ScalarOperandTrace> scalar_inputs;
    std::vector<TileOperandTrace> output_tiles;
};

inline void ResetInstructionTrace() {}
inline std::vector<InstructionTraceRecord> CopyInstructionTraceRecords() { return {}; }
inline void DumpInstructionTraceJson(std::ostream&) {}

}  // namespace pto::cpu_sim
