#include "asm/generic_form.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "asm/op_table.hpp"

namespace pto::as {

namespace {

using G = GroupStyle;

constexpr std::array<OperandSegment, 3> kTensorView{{{G::Positional, ""}, {G::AssignList, "shape"}, {G::AssignList, "strides"}}};
constexpr std::array<OperandSegment, 3> kPartitionView{{{G::Positional, ""}, {G::AssignList, "offsets"}, {G::AssignList, "sizes"}}};
constexpr std::array<OperandSegment, 3> kAllocTile{{{G::Assign, "addr"}, {G::Assign, "valid_row"}, {G::Assign, "valid_col"}}};
constexpr std::array<OperandSegment, 3> kFrontendPipe{
    {{G::Assign, "gm_slot_buffer"}, {G::Assign, "c2v_consumer_buf"}, {G::Assign, "v2c_consumer_buf"}}};
constexpr std::array<OperandSegment, 3> kSubset{{{G::Positional, ""}, {G::Subscript, ""}, {G::KeywordList, "sizes", true}}};

constexpr std::array<std::string_view, 3> kFlagArguments{"src_pipe", "dst_pipe", "event_id"};
constexpr std::array<std::string_view, 3> kEventArguments{"src_op", "dst_op", "event_id"};
constexpr std::array<std::string_view, 1> kBarrierArguments{"pipe"};

}  // namespace

bool is_segment_sizes(std::string_view attribute_name)
{
    return attribute_name == kSegmentSizes || attribute_name == kSegmentSizesOld;
}

bool splits_inputs_and_outputs(const Attribute& sizes, std::size_t operand_count)
{
    const std::vector<int64_t>& v = sizes.dense_values();
    return sizes.is(Attribute::Kind::DenseArray) && v.size() == 2 && v[0] >= 0 && v[1] >= 0 &&
           static_cast<uint64_t>(v[0]) + static_cast<uint64_t>(v[1]) == operand_count;
}

std::span<const OperandSegment> operand_segments(std::string_view op_name)
{
    if (op_name == "pto.make_tensor_view") return kTensorView;
    if (op_name == "pto.partition_view") return kPartitionView;
    if (op_name == "pto.alloc_tile") return kAllocTile;
    if (op_name == "pto.subset") return kSubset;
    if (op_name == "pto.aic_initialize_pipe" || op_name == "pto.aiv_initialize_pipe") return kFrontendPipe;
    return {};
}

std::span<const std::string_view> argument_names(std::string_view op_name)
{
    if (op_name == "pto.set_flag" || op_name == "pto.wait_flag") return kFlagArguments;
    if (op_name == "pto.set_flag_dyn" || op_name == "pto.wait_flag_dyn") return std::span(kFlagArguments).first(2);
    if (op_name == "pto.record_event" || op_name == "pto.wait_event") return kEventArguments;
    if (op_name == "pto.barrier" || op_name == "pto.pipe_barrier") return kBarrierArguments;
    return {};
}

bool is_discardable_attribute(std::string_view attribute_name) { return attribute_name.find('.') != std::string_view::npos; }

unsigned generic_output_count(std::string_view op_name, std::size_t operand_count, bool has_results)
{
    if (has_results || operand_count == 0) return 0;
    const OpInfo* info = find_op(op_name);
    if (!info) return 1;
    for (unsigned outputs = info->min_dests; outputs <= info->max_dests; ++outputs)
        if (operand_count >= outputs && operand_count - outputs <= info->max_inputs) return outputs;
    return static_cast<unsigned>(std::min<std::size_t>(info->min_dests, operand_count));
}

std::string encode_clauses(std::span<const OperandGroup> layout)
{
    std::string out;
    for (const OperandGroup& g : layout) {
        if (g.style != GroupStyle::Clause) continue;
        out += (out.empty() ? "" : " ") + g.keyword;
        if (g.items.empty()) continue;
        out += "(";
        for (std::size_t i = 0; i < g.items.size(); ++i) {
            const OperandItem& it = g.items[i];
            out += (i ? ", " : "") + (it.key.empty() ? std::string() : it.key + " = ");
            out += !it.word.empty() ? it.word : it.literal ? std::to_string(it.value) : std::string("?");
        }
        out += ")";
    }
    return out;
}

std::optional<std::vector<OperandGroup>> decode_clauses(std::string_view text, std::size_t operand_count)
{
    std::size_t at = 0, operands = 0;
    auto skip_space = [&] {
        while (at < text.size() && text[at] == ' ') ++at;
    };
    auto word = [&] {
        skip_space();
        const std::size_t start = at;
        // A word runs to the next delimiter: bare identifiers may hold `.`, `$` and other characters.
        while (at < text.size() && std::string_view(" (),=?").find(text[at]) == std::string_view::npos) ++at;
        return std::string(text.substr(start, at - start));
    };
    auto accept = [&](char c) {
        skip_space();
        if (at < text.size() && text[at] == c) return ++at, true;
        return false;
    };
    std::vector<OperandGroup> clauses;
    while (true) {
        skip_space();
        if (at == text.size()) break;
        OperandGroup g{GroupStyle::Clause, word(), {}};
        if (g.keyword.empty() || std::isdigit(static_cast<unsigned char>(g.keyword[0]))) return std::nullopt;
        if (accept('(')) {
            do {
                OperandItem item;
                if (accept('?')) {
                    ++operands;
                } else {
                    std::string w = word();
                    if (accept('=')) {
                        item.key = std::move(w);
                        if (accept('?')) {
                            ++operands;
                            w.clear();
                        } else {
                            w = word();
                        }
                    }
                    if (w.empty() && item.key.empty()) return std::nullopt;
                    if (!w.empty() && (std::isdigit(static_cast<unsigned char>(w[0])) || w[0] == '-')) {
                        int64_t v = 0;
                        if (std::from_chars(w.data(), w.data() + w.size(), v).ec != std::errc()) return std::nullopt;
                        item.literal = true;
                        item.value = v;
                    } else if (!w.empty()) {
                        item.word = std::move(w);
                    }
                }
                g.items.push_back(std::move(item));
            } while (accept(','));
            if (!accept(')')) return std::nullopt;
        }
        clauses.push_back(std::move(g));
    }
    if (operands > operand_count) return std::nullopt;
    std::vector<OperandGroup> layout;
    if (operand_count > operands) layout.push_back({GroupStyle::Positional, {}, std::vector<OperandItem>(operand_count - operands)});
    layout.insert(layout.end(), clauses.begin(), clauses.end());
    return layout;
}

}  // namespace pto::as
