// How the parts of the IR that the custom syntax expresses by position or keyword map onto MLIR's
// generic operation form, which has only a flat operand list and named attributes. Shared by the
// parser and the printer so that both read the same table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>
#include <span>
#include <string_view>

#include "asm/ir.hpp"

namespace pto::as {

// The attribute that splits a generic operand list into segments; MLIR has spelled it both ways.
inline constexpr std::string_view kSegmentSizes = "operandSegmentSizes";
inline constexpr std::string_view kSegmentSizesOld = "operand_segment_sizes";
bool is_segment_sizes(std::string_view attribute_name);

// Whether `sizes` splits `operand_count` operands into inputs and destinations: `array<i32: 2, 1>`.
// On a tile instruction anything else is an error; on other operations (`pto.ptmuls ins(...)
// outs(...)`) anything else is an ordinary attribute.
bool splits_inputs_and_outputs(const Attribute& sizes, std::size_t operand_count);

// One operand group of an operation with keyword operands. A `literals` segment holds integer
// literals instead of values (`pto.subset ... sizes [16, 64]`) and is an attribute in generic form
// (`sizes = array<i64: 16, 64>`); every other segment counts its values in `operandSegmentSizes`.
struct OperandSegment {
    GroupStyle style;
    std::string_view keyword;
    bool literals = false;
};

// The segments of `op_name` in order (`pto.make_tensor_view`: source, shape, strides); empty for an
// operation whose operands are a plain list.
std::span<const OperandSegment> operand_segments(std::string_view op_name);

// The attribute names of an operation's positional attribute arguments
// (`pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]`: src_pipe, dst_pipe, event_id); empty when it
// has none.
std::span<const std::string_view> argument_names(std::string_view op_name);

// MLIR prints an operation's own attributes as properties `<{...}>` and the dialect-qualified
// (discardable) ones, `pto.entry`, in the attribute dictionary `{...}`.
bool is_discardable_attribute(std::string_view attribute_name);

// Destinations of a generic tile instruction written without `operandSegmentSizes`: none when it
// has results; otherwise the trailing operands, as few as its op-table row allows for
// `operand_count` operands (one for an instruction the table does not know, as in SSA form).
unsigned generic_output_count(std::string_view op_name, std::size_t operand_count, bool has_results);

// A micro-instruction's clauses in generic form: one `clauses` property whose string spells them with
// `?` for each operand they take (`"nburst(?, ?, ?) sat"`); the operands follow the positional ones.
inline constexpr std::string_view kClausesProperty = "clauses";
std::string encode_clauses(std::span<const OperandGroup> layout);
// The layout a `clauses` string and `operand_count` operands give; none when the string is malformed or
// takes more operands than there are.
std::optional<std::vector<OperandGroup>> decode_clauses(std::string_view text, std::size_t operand_count);

}  // namespace pto::as
