#include "asm/cube_form.hpp"

#include <algorithm>
#include <array>

#include <pto/profile/rules_cube.hpp>
#include <pto/profile/rules_matmul.hpp>

#include "asm/op_table.hpp"
#include "asm/printer.hpp"

namespace pto::as {

namespace {

// The positional operands of each cube micro-instruction: a pointer's address space, or "i64".
struct Positional {
    std::string_view op;
    std::array<std::string_view, 11> operands;
};
constexpr Positional kPositional[] = {
    {"pto.mad", {"l0a", "l0b", "l0c", "i64", "i64", "i64"}},
    {"pto.mad_acc", {"l0a", "l0b", "l0c", "i64", "i64", "i64"}},
    {"pto.mad_bias", {"l0a", "l0b", "l0c", "bt", "i64", "i64", "i64"}},
    {"pto.mad_mx", {"l0a", "l0b", "l0c", "i64", "i64", "i64"}},
    {"pto.mad_mx_acc", {"l0a", "l0b", "l0c", "i64", "i64", "i64"}},
    {"pto.mad_mx_bias", {"l0a", "l0b", "l0c", "bt", "i64", "i64", "i64"}},
    {"pto.mte_l1_l0a_mx", {"l1", "l0a", "i64", "i64"}},
    {"pto.mte_l1_l0b_mx", {"l1", "l0b", "i64", "i64"}},
    {"pto.mte_gm_l1", {"gm", "l1", "i64"}},
    {"pto.mte_l1_ub", {"l1", "ub", "i64"}},
    {"pto.mte_ub_l1", {"ub", "l1", "i64"}},
    {"pto.mte_l1_bt", {"l1", "bt", "i64"}},
    {"pto.mte_l1_fb", {"l1", "fb", "i64"}},
    {"pto.mte_gm_l1_frac", {"gm", "l1"}},
    {"pto.mte_gm_ub", {"gm", "ub", "i64", "i64"}},  // l2_cache_ctl, len_burst
    {"pto.mte_ub_gm", {"ub", "gm", "i64"}},
    {"pto.mte_ub_ub", {"ub", "ub", "i64"}},
    // sid, n_burst, len_burst, left_padding, right_padding, data_select_bit, l2_cache_ctl, src_stride, dst_stride
    {"pto.copy_gm_to_ubuf", {"gm", "ub", "i64", "i64", "i64", "i64", "i64", "i64", "i64", "i64", "i64"}},
    {"pto.copy_ubuf_to_gm", {"ub", "gm", "i64", "i64", "i64", "i64", "i64", "i64"}},  // sid, n_burst, len_burst, reserved, dst_stride, src_stride
    {"pto.copy_ubuf_to_ubuf", {"ub", "ub", "i64", "i64", "i64", "i64", "i64"}},        // sid, n_burst, len_burst, src_stride, dst_stride
    {"pto.set_loop_size_outtoub", {"i64", "i64"}},
    {"pto.set_loop1_stride_outtoub", {"i64", "i64"}},
    {"pto.set_loop2_stride_outtoub", {"i64", "i64"}},
    {"pto.set_loop_size_ubtoout", {"i64", "i64"}},
    {"pto.set_loop1_stride_ubtoout", {"i64", "i64"}},
    {"pto.set_loop2_stride_ubtoout", {"i64", "i64"}},
    {"pto.mte_l1_l0a", {"l1", "l0a", "i64", "i64"}},
    {"pto.mte_l1_l0b", {"l1", "l0b", "i64", "i64"}},
    {"pto.mte_l0c_l1", {"l0c", "l1", "i64", "i64", "i64", "i64"}},
    {"pto.mte_l0c_gm", {"l0c", "gm", "i64", "i64", "i64", "i64", "i64", "i64"}},
    {"pto.mte_l0c_ub", {"l0c", "ub", "i64", "i64", "i64", "i64"}},
};

const Positional* positional_of(std::string_view op)
{
    for (const Positional& p : kPositional)
        if (p.op == op) return &p;
    return nullptr;
}

// Clauses that are one of several spellings of the same choice.
bool alternatives(std::string_view a, std::string_view b)
{
    auto in = [&](std::initializer_list<std::string_view> set) {
        return std::find(set.begin(), set.end(), a) != set.end() && std::find(set.begin(), set.end(), b) != set.end();
    };
    return in({"sat", "nosat"}) || in({"nz2nd", "nz2dn", "nz2nz"}) || in({"nd2nz", "dn2nz"});
}

class Reader {
public:
    Reader(const Operation& op, std::vector<CubeProblem>& problems) : op_(op), problems_(problems) {}

    void problem(std::string code, std::string what, std::string expected, std::string actual)
    {
        problems_.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    }

    CubeForm read()
    {
        const Positional* spec = positional_of(op_.name);
        const OpInfo* info = find_op(op_.name);
        if (!spec || !info) return form_;
        read_positional(*spec);
        std::size_t cursor = 0;  // operand index of the next clause operand
        for (const OperandGroup& g : op_.input_layout)
            if (g.style != GroupStyle::Clause) cursor += g.operand_count();
        std::vector<std::string_view> seen;
        for (const OperandGroup& g : op_.input_layout) {
            if (g.style != GroupStyle::Clause) continue;
            read_order(*info, g.keyword, seen);
            std::vector<GroupEntry> items;
            for (const OperandItem& item : g.items) {
                GroupEntry e{.literal = item.value, .word = item.word, .key = item.key};
                if (item.is_operand()) e.value = op_.operands[cursor++];
                items.push_back(e);
            }
            read_clause(g.keyword, items);
        }
        required(*info);
        return form_;
    }

private:
    void read_positional(const Positional& spec)
    {
        const std::size_t expected =
            std::size_t(std::count_if(spec.operands.begin(), spec.operands.end(), [](std::string_view s) { return !s.empty(); }));
        // A plain operand list keeps no layout: then every operand is positional.
        std::vector<GroupEntry> positional = op_.group("");
        if (op_.input_layout.empty())
            for (const Value* v : op_.inputs()) positional.push_back(GroupEntry{.value = v, .literal = 0, .word = {}, .key = {}});
        if (positional.size() != expected) {
            problem("STRUCT_OPERAND_COUNT", "wrong number of operands before the clauses", std::to_string(expected),
                    std::to_string(positional.size()));
            return;
        }
        for (std::size_t i = 0; i < expected; ++i) {
            const Value* v = positional[i].value;
            const std::size_t index = std::size_t(std::find(op_.operands.begin(), op_.operands.end(), v) - op_.operands.begin());
            const Type t = op_.operand_type(index);
            if (spec.operands[i] == "i64") {
                if (!t.is_none() && !(t.is<IntegerType>() || t.is<IndexType>()))
                    problem("STRUCT_OPERAND_KIND", "operand " + std::to_string(i) + " is an extent", "an integer", to_string(t));
                form_.scalars.push_back(v);
                continue;
            }
            PointerOperand p;
            static_cast<PointerInfo&>(p) = pointer_info(t);
            p.value = v;
            const auto* ptr = t.dyn_cast<PtrType>();
            const AddressSpace want = *address_space_from_name(spec.operands[i]);
            const AddressSpace got = ptr && ptr->space ? *ptr->space : AddressSpace::GM;
            if (!ptr || got != want) {
                problem("STRUCT_OPERAND_KIND", "operand " + std::to_string(i) + " must point into " + std::string(spec.operands[i]),
                        "!pto.ptr<T, " + std::string(spec.operands[i]) + ">", t.is_none() ? std::string("an untyped value") : to_string(t));
            }
            p.memory = memory_of(want);  // a pointer into another memory is the problem reported above
            form_.pointers.push_back(p);
        }
    }

    // Clauses in the order of the operation's list (alternatives share a place); only `loop` repeats.
    void read_order(const OpInfo& info, std::string_view clause, std::vector<std::string_view>& seen)
    {
        auto rank = [&](std::string_view c) { return std::find(info.clauses.begin(), info.clauses.end(), c) - info.clauses.begin(); };
        for (std::string_view s : seen) {
            if (s == clause && clause != "loop") problem("STRUCT_CLAUSE", "clause `" + std::string(clause) + "` given twice", "once", "twice");
            else if (alternatives(s, clause))
                problem("STRUCT_CLAUSE", "clauses `" + std::string(s) + "` and `" + std::string(clause) + "` exclude each other", "one of them", "both");
        }
        if (!seen.empty() && rank(clause) < rank(seen.back()) && !alternatives(clause, seen.back()))
            problem("STRUCT_CLAUSE", "clause `" + std::string(clause) + "` out of order", "after `" + std::string(clause) + "`: the order " + join(info.clauses),
                    "after `" + std::string(seen.back()) + "`");
        seen.push_back(clause);
    }

    static std::string join(std::span<const std::string_view> words)
    {
        std::string out;
        for (std::string_view w : words) out += (out.empty() ? "" : ", ") + std::string(w);
        return out;
    }

    void required(const OpInfo& info)
    {
        auto has = [&](std::string_view c) {
            return std::any_of(op_.input_layout.begin(), op_.input_layout.end(),
                               [&](const OperandGroup& g) { return g.style == GroupStyle::Clause && g.keyword == c; });
        };
        auto takes = [&](std::string_view c) { return std::find(info.clauses.begin(), info.clauses.end(), c) != info.clauses.end(); };
        if (takes("nburst") && !has("nburst")) problem("STRUCT_CLAUSE", "missing clause `nburst(count, src_stride, dst_stride)`", "nburst(...)", "none");
        if (takes("nd2nz") && !has("nd2nz") && !has("dn2nz")) problem("STRUCT_CLAUSE", "missing the source layout", "nd2nz or dn2nz", "none");
        if (takes("dst_mode") && !has("dst_mode"))
            problem("STRUCT_CLAUSE", "missing clause `dst_mode(...)`: which UB sub-block the writeback goes to", "dst_mode(%sub_blockid | split_m | split_n)",
                    "none");
        for (std::string_view c : {"shape", "src_layout", "dst_group", "ctrl"})
            if (takes(c) && !has(c)) problem("STRUCT_CLAUSE", "missing clause `" + std::string(c) + "(...)`", std::string(c) + "(...)", "none");
    }

    // The items of a clause that must be `n` operands (`optional` more allowed).
    std::vector<const Value*> operands(std::string_view clause, const std::vector<GroupEntry>& items, std::size_t n, std::size_t optional = 0)
    {
        std::vector<const Value*> out;
        for (const GroupEntry& e : items)
            if (e.value && e.key.empty()) out.push_back(e.value);
        if (out.size() != items.size() || out.size() < n || out.size() > n + optional)
            problem("STRUCT_CLAUSE", "clause `" + std::string(clause) + "` takes " + std::to_string(n) + (optional ? " or " + std::to_string(n + optional) : "") + " operands",
                    std::to_string(n) + " SSA values", std::to_string(items.size()) + " items");
        return out;
    }

    // A clause of one word from `allowed` (`unit_flag(check_only)`).
    std::string word(std::string_view clause, const std::vector<GroupEntry>& items, std::initializer_list<std::string_view> allowed)
    {
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : " or ") + std::string(a);
        if (items.size() != 1 || !items[0].key.empty() || std::find(allowed.begin(), allowed.end(), items[0].word) == allowed.end()) {
            problem("STRUCT_CLAUSE", "clause `" + std::string(clause) + "` takes one word", list,
                    items.size() == 1 && !items[0].word.empty() ? std::string(items[0].word) : std::to_string(items.size()) + " items");
            return {};
        }
        return std::string(items[0].word);
    }

    void flag(std::string_view clause, const std::vector<GroupEntry>& items)
    {
        if (!items.empty()) problem("STRUCT_CLAUSE", "clause `" + std::string(clause) + "` takes nothing", std::string(clause), std::string(clause) + "(...)");
    }

    // `key = word` or `key = %value` items of a clause, after its leading operands.
    const GroupEntry* keyed(const std::vector<GroupEntry>& items, std::string_view key)
    {
        for (const GroupEntry& e : items)
            if (e.key == key) return &e;
        return nullptr;
    }

    void read_clause(std::string_view c, const std::vector<GroupEntry>& items)
    {
        const bool fixpipe = op_.name.rfind("pto.mte_l0c", 0) == 0;
        if (c == "unit_flag") {
            // Producer-side tile synchronisation: ordering only, no effect on the values.
            if (fixpipe) word(c, items, {"check_only", "check_and_clear"});
            else word(c, items, {"check_only", "check_and_set"});
            form_.unit_flag = true;
        } else if (c == "dst_mode") {
            // One sub-block's UB, named by a value that may be dynamic, or both halves of the tile.
            const bool one = items.size() == 1 && items[0].key.empty();
            if (one && items[0].value) form_.sub_blockid = items[0].value;
            else if (one && (items[0].word == "split_m" || items[0].word == "split_n")) form_.dst_split = std::string(items[0].word);
            else
                problem("STRUCT_CLAUSE", "dst_mode takes a sub-block id or a split", "dst_mode(%sub_blockid), dst_mode(split_m) or dst_mode(split_n)",
                        items.size() == 1 && !items[0].word.empty() ? std::string(items[0].word) : std::to_string(items.size()) + " items");
        } else if (c == "disable_gemv") {
            flag(c, items);
            form_.disable_gemv = true;
        } else if (c == "n_dir") {
            flag(c, items);  // the order results are produced in; the same results
        } else if (c == "sat") {
            if (items.empty()) form_.saturation = "sat";
            else if (fixpipe && !word(c, items, {"preserve_nan"}).empty()) form_.saturation = "sat(preserve_nan)";
            else if (!fixpipe) flag(c, items);
        } else if (c == "nosat") {
            flag(c, items);
            form_.saturation = "nosat";
        } else if (c == "tf32_mode") {
            form_.tf32_mode = word(c, items, {"round_even", "round_away"});
        } else if (c == "nburst" || c == "loop" || c == "loop3") {
            const std::vector<const Value*> v = operands(c, items, 3);
            if (v.size() != 3) return;
            if (c == "loop3") form_.loop3 = v;
            else form_.bursts.push_back({v[0], v[1], v[2]});
        } else if (c == "pad") {
            // pad(value) or pad(value, left, right): both counts, or neither.
            form_.pad = operands(c, items, 1, 2);
            if (form_.pad.size() == 2)
                problem("STRUCT_CLAUSE", "pad(...) takes both padding counts or neither", "pad(value) or pad(value, left, right)", "one count");
        } else if (c == "nd2nz" || c == "dn2nz") {
            flag(c, items);
            form_.dn2nz = c == "dn2nz";
        } else if (c == "shape") {
            form_.frac_shape = operands(c, items, 2);
        } else if (c == "src_layout") {
            form_.frac_src_layout = operands(c, items, 1, 1);
        } else if (c == "dst_group") {
            form_.frac_dst_group = operands(c, items, 4);
        } else if (c == "ctrl") {
            form_.frac_ctrl = operands(c, items, 2);
        } else if (c == "nz2nd") {
            flag(c, items);
            form_.layout = "nz2nd";
        } else if (c == "nz2dn") {
            const std::vector<const Value*> v = operands(c, items, 1);
            form_.layout = "nz2dn";
            if (!v.empty()) form_.loop0_src_stride = v[0];
        } else if (c == "nz2nz") {
            const std::vector<const Value*> v = operands(c, items, 0, 1);
            form_.layout = "nz2nz";
            if (!v.empty()) form_.nz2nz_split = v[0];
        } else if (c == "pre_quant") {
            const GroupEntry* mode = keyed(items, "mode");
            if (items.size() != 2 || !items[0].value || !items[0].key.empty() || !mode || mode->word.empty())
                problem("STRUCT_CLAUSE", "pre_quant takes a payload and a mode", "pre_quant(%payload, mode = <mode>)", std::to_string(items.size()) + " items");
            else {
                form_.quant_payload = items[0].value;
                form_.quant_mode = std::string(mode->word);
            }
        } else if (c == "pre_relu") {
            const GroupEntry* mode = keyed(items, "mode");
            const GroupEntry* clip = keyed(items, "clip");
            const bool payload = !items.empty() && items[0].value && items[0].key.empty();
            const std::size_t expected = (payload ? 1 : 0) + (mode ? 1 : 0) + (clip ? 1 : 0);
            if (!mode || mode->word.empty() || expected != items.size() || (clip && !clip->value))
                problem("STRUCT_CLAUSE", "pre_relu takes an optional payload, a mode and an optional clip",
                        "pre_relu([%payload, ]mode = <mode>[, clip = %clip])", std::to_string(items.size()) + " items");
            else {
                form_.relu_payload = payload ? items[0].value : nullptr;
                form_.relu_mode = std::string(mode->word);
                form_.clip = clip ? clip->value : nullptr;
            }
        } else if (c == "atomic") {
            const GroupEntry* type = keyed(items, "type");
            const GroupEntry* operation = keyed(items, "op");
            if (items.size() != 2 || !type || !operation || type->word.empty() || operation->word.empty())
                problem("STRUCT_CLAUSE", "atomic takes a type and an operation", "atomic(type = <type>, op = add|max|min)",
                        std::to_string(items.size()) + " items");
            else {
                form_.atomic_type = std::string(type->word);
                form_.atomic_op = std::string(operation->word);
            }
        }
    }

    const Operation& op_;
    std::vector<CubeProblem>& problems_;
    CubeForm form_;
};

}  // namespace

std::optional<engine::DType> atomic_dtype(std::string_view name)
{
    using enum engine::DType;
    if (name == "f32") return F32;
    if (name == "f16") return F16;
    if (name == "bf16") return BF16;
    if (name == "s32" || name == "i32") return I32;
    if (name == "s16" || name == "i16") return I16;
    if (name == "s8" || name == "i8") return I8;
    return std::nullopt;
}

PointerInfo pointer_info(const Type& t)
{
    PointerInfo p;
    if (const auto* ptr = t.dyn_cast<PtrType>()) {
        p.memory = ptr->space ? memory_of(*ptr->space) : std::nullopt;
        if (ptr->element && ptr->element->element_dtype()) p.dtype = *ptr->element->element_dtype();
    }
    return p;
}

std::optional<pto::TileType> memory_of(AddressSpace space)
{
    switch (space) {
        case AddressSpace::GM: return std::nullopt;
        case AddressSpace::VEC: return pto::TileType::Vec;
        case AddressSpace::MAT: return pto::TileType::Mat;
        case AddressSpace::LEFT: return pto::TileType::Left;
        case AddressSpace::RIGHT: return pto::TileType::Right;
        case AddressSpace::ACC: return pto::TileType::Acc;
        case AddressSpace::BIAS: return pto::TileType::Bias;
        case AddressSpace::SCALING: return pto::TileType::Scaling;
    }
    return std::nullopt;
}

CubeForm read_cube_form(const Operation& op, std::vector<CubeProblem>& problems) { return Reader(op, problems).read(); }

std::optional<CubeProblem> mad_extent_problem(const profile::Profile& p, bool mx, std::optional<int64_t> m,
                                              std::optional<int64_t> n, std::optional<int64_t> k)
{
    for (const std::optional<int64_t> e : {m, n, k})
        if (e && !rules::matmul_extent_ok(int(std::clamp<int64_t>(*e, -1, 1 << 20))))
            return CubeProblem{"RUN_MATMUL_EXTENT", "m, n and k are 1 to 4095", "1..4095", std::to_string(*e)};
    if (k && mx && !rules::mad_mx_k_ok(p, *k))
        return CubeProblem{"RUN_MAD_MX_K", "the target's MX cube consumes k in multiples of 64 (two scale groups)", "a multiple of 64",
                           std::to_string(*k)};
    return std::nullopt;
}

std::optional<CubeProblem> fixpipe_stride_problem(std::optional<int64_t> rows_read, std::optional<int64_t> rows_apart)
{
    if (!rows_read || !rows_apart || rules::fixpipe_src_stride_ok(*rows_apart, *rows_read)) return std::nullopt;
    return CubeProblem{"RUN_FIXPIPE_STRIDE", "the accumulator's box columns lie a whole number of 16-row boxes apart",
                       "a multiple of 16, at least the " + std::to_string(*rows_read) + " rows read", std::to_string(*rows_apart)};
}

std::optional<CubeProblem> fixpipe_loop0_problem(std::optional<int64_t> loop0_src_stride, bool unit_flag)
{
    if (!loop0_src_stride || rules::fixpipe_loop0_ok(*loop0_src_stride, unit_flag)) return std::nullopt;
    if (*loop0_src_stride < 1)
        return CubeProblem{"RUN_FIXPIPE_LOOP0", "nz2dn's loop0 source stride is the accumulator rows between result rows", "at least 1",
                           std::to_string(*loop0_src_stride)};
    return CubeProblem{"RUN_FIXPIPE_LOOP0", "unit_flag must be omitted when nz2dn's loop0 source stride is not 1", "nz2dn(1) or no unit_flag",
                       "unit_flag with nz2dn(" + std::to_string(*loop0_src_stride) + ")"};
}

std::optional<CubeProblem> fixpipe_sub_block_problem(std::optional<int64_t> sub_blockid)
{
    if (!sub_blockid || rules::fixpipe_sub_block_ok(*sub_blockid)) return std::nullopt;
    return CubeProblem{"RUN_FIXPIPE_SUB_BLOCK", "dst_mode(%sub_blockid) names UB sub-block 0 or 1", "0 or 1", std::to_string(*sub_blockid)};
}

std::optional<CubeProblem> fixpipe_split_problem(std::string_view split, std::optional<int64_t> m, std::optional<int64_t> n)
{
    if (split == "split_m" && m && !rules::fixpipe_split_m_ok(*m))
        return CubeProblem{"RUN_FIXPIPE_SPLIT", "dst_mode(split_m) gives each sub-block m / 2 rows: m must be even", "an even m", std::to_string(*m)};
    if (split == "split_n" && n && !rules::fixpipe_split_n_ok(*n))
        return CubeProblem{"RUN_FIXPIPE_SPLIT", "dst_mode(split_n) gives each sub-block n / 2 columns: n must be a multiple of 32",
                           "a multiple of 32", std::to_string(*n)};
    return std::nullopt;
}

void check_cube_rules(const Operation& op, const CubeForm& form, const profile::Profile& p, std::vector<CubeProblem>& problems)
{
    using engine::dtype_name;
    auto broken = [&](std::string code, std::string what, std::string expected, std::string actual) {
        problems.push_back({std::move(code), std::move(what), std::move(expected), std::move(actual)});
    };
    auto pair = [](engine::DType a, engine::DType b) { return std::string(dtype_name(a)) + " -> " + std::string(dtype_name(b)); };
    const std::string& n = op.name;
    const std::vector<PointerOperand>& ptr = form.pointers;
    if (n.rfind("pto.mad", 0) == 0 && ptr.size() >= 3) {
        const engine::DType a = ptr[0].dtype, b = ptr[1].dtype, c = ptr[2].dtype;
        const std::string triple = std::string(dtype_name(c)) + "; " + std::string(dtype_name(a)) + ", " + std::string(dtype_name(b));
        if (n.find("_mx") != std::string::npos) {
            if (!rules::matmul_mx_dtype_ok(p, c, a, b))
                broken("LEGAL_MATMUL_MX_DTYPE", "not a (result; left, right) type triple of the target's MX cube", "f32; fp8 or fp4 operands", triple);
        } else if (!rules::matmul_dtype_ok(p, c, a, b)) {
            broken("LEGAL_MATMUL_DTYPE", "not a (result; left, right) type triple the target's cube has", "e.g. f32; f16, f16", triple);
        }
        if (!form.tf32_mode.empty() && !rules::mad_tf32_ok(a, b, c))
            broken("LEGAL_MAD_TF32", "tf32_mode(...) needs f32 operands and result", "f32 x f32 -> f32", std::string(dtype_name(a)) + " inputs");
        if (!form.saturation.empty() && !rules::mad_saturation_ok(c))
            broken("LEGAL_MAD_SAT", "sat / nosat apply to floating multiplies", "an f32 result", std::string(dtype_name(c)));
        if (n == "pto.mad_bias" && ptr.size() >= 4 && ptr[3].dtype != c)
            broken("LEGAL_MATMUL_BIAS", "the bias has the result's element type", std::string(dtype_name(c)), std::string(dtype_name(ptr[3].dtype)));
    }
    // What the run checks of the extents, checked here already when constants state them.
    auto constant_of = [](const Value* v) -> std::optional<int64_t> {
        const Attribute* c = v ? constant_value(v) : nullptr;
        return c && c->is(Attribute::Kind::Integer) ? std::optional<int64_t>(c->int_value()) : std::nullopt;
    };
    auto constant = [&](std::size_t i) { return i < form.scalars.size() ? constant_of(form.scalars[i]) : std::nullopt; };
    auto add = [&](std::optional<CubeProblem> problem) {
        if (problem) problems.push_back(std::move(*problem));
    };
    if (n.rfind("pto.mad", 0) == 0 && !ptr.empty())
        add(mad_extent_problem(p, n.find("_mx") != std::string::npos, constant(0), constant(1), constant(2)));
    if (n.rfind("pto.mte_l0c", 0) == 0) {
        const std::optional<int64_t> loop0 = form.loop0_src_stride ? constant_of(form.loop0_src_stride) : std::optional<int64_t>(1);
        std::optional<CubeProblem> loop0_problem = fixpipe_loop0_problem(loop0, form.unit_flag);
        // An unknown loop0 stride reads at least m rows.
        const std::optional<int64_t> m = constant(0);
        const std::optional<int64_t> rows_read = m && !loop0_problem ? rules::fixpipe_rows_read(*m, loop0.value_or(1)) : m;
        add(std::move(loop0_problem));
        add(fixpipe_stride_problem(rows_read, constant(2)));
        add(fixpipe_sub_block_problem(constant_of(form.sub_blockid)));
        add(fixpipe_split_problem(form.dst_split, m, constant(1)));
    }
    if ((n == "pto.mte_l1_l0a" || n == "pto.mte_l1_l0b") && ptr.size() == 2 && !rules::cube_move_dtype_ok(ptr[0].dtype, ptr[1].dtype))
        broken("LEGAL_MTE_DTYPE", "the move keeps the element type", std::string(dtype_name(ptr[0].dtype)), std::string(dtype_name(ptr[1].dtype)));
    if (n == "pto.mte_l1_bt" && ptr.size() == 2 && !rules::bias_load_dtype_ok(ptr[0].dtype, ptr[1].dtype))
        broken("LEGAL_MTE_BT_DTYPE", "the bias table loads f32 -> f32, i32 -> i32, f16 -> f32 and bf16 -> f32", "one of those pairs",
               pair(ptr[0].dtype, ptr[1].dtype));
    if (n.rfind("pto.mte_l0c", 0) != 0 || ptr.size() != 2) return;
    const engine::DType acc = ptr[0].dtype, out = ptr[1].dtype;
    if (form.layout == "nz2nz" && !rules::fixpipe_nz2nz_ok(out, !form.loop3.empty()))
        broken("LEGAL_FIXPIPE_NZ2NZ", "nz2nz writes an f32 result and takes no loop3", "f32 without loop3",
               std::string(dtype_name(out)) + (form.loop3.empty() ? "" : " with loop3"));
    if (!rules::fixpipe_dtype_ok(acc, out, form.quant_payload != nullptr))
        broken("LEGAL_FIXPIPE_DTYPE", "not an accumulator conversion the fixpipe has", form.quant_payload ? "with pre_quant" : "without pre_quant", pair(acc, out));
    const bool plain_layout = form.layout.empty() || form.layout == "nz2nd";
    if (!form.dst_split.empty() && !rules::fixpipe_dual_ok(form.quant_payload != nullptr, !form.relu_mode.empty(), plain_layout)) {
        std::string refused;  // the clauses given that a split does not take
        for (const auto& [given, clause] : {std::pair{form.quant_payload != nullptr, "pre_quant"}, std::pair{!form.relu_mode.empty(), "pre_relu"},
                                            std::pair{!plain_layout, form.layout.c_str()}})
            if (given) refused += (refused.empty() ? "" : ", ") + std::string(clause);
        broken("LEGAL_FIXPIPE_DUAL", "dst_mode(" + form.dst_split + ") takes no pre_quant, pre_relu or layout clause but nz2nd", "none, or nz2nd",
               refused);
    }
    if (n == "pto.mte_l0c_ub" && !form.atomic_op.empty()) {
        broken("LEGAL_FIXPIPE_ATOMIC", "atomic(...) updates global memory: pto.mte_l0c_ub takes none", "no atomic clause",
               "atomic(type = " + form.atomic_type + ", op = " + form.atomic_op + ")");
    } else if (!form.atomic_op.empty()) {
        const std::optional<engine::DType> type = atomic_dtype(form.atomic_type);
        if (!type || *type != out || !rules::fixpipe_atomic_type_ok(*type))
            broken("LEGAL_FIXPIPE_ATOMIC", "atomic(type = T) names the destination's type: f32, f16, bf16, s32, s16 or s8",
                   std::string(dtype_name(out)), form.atomic_type);
        if (form.atomic_op != "add" && form.atomic_op != "max" && form.atomic_op != "min")
            broken("LEGAL_FIXPIPE_ATOMIC", "the atomic operation", "add, max or min", form.atomic_op);
    }
    // A payload is a scalar in a scalar mode and a pointer into the fixpipe buffer in a vector mode.
    auto payload = [&](const Value* v, const std::string& mode, bool vector, const char* clause) {
        if (!v) return;
        const Type t = v->type;
        const auto* ptr_type = t.dyn_cast<PtrType>();
        const bool fb = ptr_type && ptr_type->space == AddressSpace::SCALING;
        if (vector ? !fb : !t.is_scalar())
            broken("LEGAL_FIXPIPE_PAYLOAD", std::string(clause) + "'s " + mode + " takes " + (vector ? "a pointer into fb" : "a scalar"),
                   vector ? "!pto.ptr<T, fb>" : "a scalar", t.is_none() ? std::string("an untyped value") : to_string(t));
    };
    if (form.quant_payload) {
        const bool scalar = form.quant_mode.ends_with("_scalar"), vector = form.quant_mode.ends_with("_vector");
        if (!scalar && !vector)
            broken("LEGAL_FIXPIPE_QUANT_MODE", "a pre_quant mode is scalar or vector", "a mode ending in _scalar or _vector", form.quant_mode);
        payload(form.quant_payload, form.quant_mode, vector, "pre_quant");
    }
    const std::string& relu = form.relu_mode;
    if (!relu.empty() && relu != "no_relu" && relu != "normal_relu" && relu != "scalar_relu" && relu != "vector_relu")
        broken("LEGAL_FIXPIPE_RELU", "the ReLU mode", "no_relu, normal_relu, scalar_relu or vector_relu", relu);
    if (!relu.empty() && (relu == "scalar_relu" || relu == "vector_relu") != (form.relu_payload != nullptr))
        broken("LEGAL_FIXPIPE_PAYLOAD", "scalar_relu and vector_relu take a payload, the other modes none",
               relu == "scalar_relu" || relu == "vector_relu" ? "a payload" : "none", form.relu_payload ? "a payload" : "none");
    payload(form.relu_payload, relu, relu == "vector_relu", "pre_relu");
    if (form.clip && !form.clip->type.is_none() && !form.clip->type.is_scalar())
        broken("LEGAL_FIXPIPE_PAYLOAD", "the clip value is a scalar", "a scalar", to_string(form.clip->type));
}

}  // namespace pto::as
