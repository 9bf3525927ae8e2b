#include "asm/pipe_frontend.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "asm/printer.hpp"

namespace pto::as {

namespace {

bool is_init(std::string_view name) { return name == "pto.aic_initialize_pipe" || name == "pto.aiv_initialize_pipe"; }

const char* direction_name(uint8_t direction) { return direction == 1 ? "C2V" : "V2C"; }

bool is_transfer(std::string_view name)
{
    return name == "pto.tpush_to_aiv" || name == "pto.tpush_to_aic" || name == "pto.tpop_from_aic" || name == "pto.tpop_from_aiv" ||
           name == "pto.tfree_from_aic" || name == "pto.tfree_from_aiv";
}

// The kind of function a front-end operation belongs in: the cube pushes to the vector cores and pops
// and frees what they send; the vector cores the other way round.
std::optional<KernelKind> home_of(std::string_view name)
{
    if (name == "pto.aic_initialize_pipe" || name == "pto.tpush_to_aiv" || name == "pto.tpop_from_aiv" || name == "pto.tfree_from_aiv")
        return KernelKind::Cube;
    if (name == "pto.aiv_initialize_pipe" || name == "pto.tpush_to_aic" || name == "pto.tpop_from_aic" || name == "pto.tfree_from_aic")
        return KernelKind::Vector;
    return std::nullopt;
}

const char* kind_name(KernelKind k) { return k == KernelKind::Cube ? "cube" : "vector"; }

std::string describe(const Attribute* a)
{
    if (!a) return "none";
    switch (a->kind()) {
        case Attribute::Kind::Integer: return std::to_string(a->int_value());
        case Attribute::Kind::Bool: return a->bool_value() ? "true" : "false";
        case Attribute::Kind::Symbol: return "@" + a->text();
        default: return a->text().empty() ? "another kind of value" : a->text();
    }
}

// A logical pipe, as the assembler keys it: the function that reserves its buffer, the buffer's name,
// and the direction (1: C2V, 2: V2C).
using PipeKey = std::tuple<std::string, std::string, uint8_t>;

// Collects the problems of one module; each check names the rule it enforces.
class Analysis {
public:
    explicit Analysis(const Module& m) : module_(m) {}

    FrontendPipes run()
    {
        for (const auto& f : module_.functions) scan(*f);
        pair_peers();
        return std::move(out_);
    }

private:
    void problem(std::string_view code, const Operation& op, std::string what, std::string expected, std::string actual)
    {
        out_.problems.push_back({code, &op, op.loc, std::move(what), std::move(expected), std::move(actual)});
    }

    // An integer attribute within [min, max]; nothing (and a problem) otherwise.
    std::optional<int64_t> integer(const Operation& op, std::string_view name, int64_t min, int64_t max)
    {
        const Attribute* a = op.attribute(name);
        if (!a) {
            problem("STRUCT_MISSING_ATTRIBUTE", op, "missing attribute", std::string(name), "none");
            return std::nullopt;
        }
        if (!a->is(Attribute::Kind::Integer) || a->int_value() < min || a->int_value() > max) {
            problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute " + std::string(name),
                    "an integer from " + std::to_string(min) + " to " + std::to_string(max), describe(a));
            return std::nullopt;
        }
        return a->int_value();
    }

    std::optional<bool> boolean(const Operation& op, std::string_view name)
    {
        const Attribute* a = op.attribute(name);
        if (!a) return std::nullopt;
        if (!a->is(Attribute::Kind::Bool)) {
            problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute " + std::string(name), "true or false", describe(a));
            return std::nullopt;
        }
        return a->bool_value();
    }

    void scan(const Function& fn)
    {
        const Attribute* kind_attr = find_attribute(fn.attributes, "pto.kernel_kind");
        const std::optional<KernelKind> kind = kernel_kind(fn);
        if (kind_attr && !kind)
            out_.problems.push_back({"STRUCT_ATTRIBUTE_VALUE", nullptr, fn.loc, "@" + fn.name + ": attribute pto.kernel_kind",
                                     "#pto.kernel_kind<cube> or #pto.kernel_kind<vector>", describe(kind_attr)});
        if (!fn.body) return;
        std::vector<const Operation*> inits, transfers, reserves, imports;
        walk(*fn.body, [&](const Operation& op) {
            if (is_init(op.name)) inits.push_back(&op);
            else if (is_lowered_pipe_init(op.name)) scan_lowered_init(fn, op);
            else if (is_transfer(op.name)) transfers.push_back(&op);
            else if (op.name == "pto.reserve_buffer") reserves.push_back(&op);
            else if (op.name == "pto.import_reserved_buffer") imports.push_back(&op);
            if (const auto home = home_of(op.name); home && kind != home)
                problem("STRUCT_KERNEL_KIND", op, "the operation belongs in a " + std::string(kind_name(*home)) + " kernel function",
                        "@" + fn.name + " with pto.kernel_kind = #pto.kernel_kind<" + kind_name(*home) + ">",
                        kind ? std::string("a ") + kind_name(*kind) + " kernel function" : "a function without pto.kernel_kind");
        });
        for (const Operation* op : reserves) check_reserve(*op, reserves.size());
        for (const Operation* op : imports) check_import(*op, imports.size());
        for (std::size_t i = 1; i < inits.size(); ++i)
            problem("STRUCT_PIPE_INIT", *inits[i], "a kernel function initializes one pipe, which its transfers use",
                    "one initialize_pipe in @" + fn.name, std::to_string(inits.size()));
        const Operation* init = inits.empty() ? nullptr : inits.front();
        std::optional<int64_t> dir_mask, slot_size;
        if (init) {
            out_.init[&fn] = init;
            function_of_[init] = &fn;
            dir_mask = integer(*init, "dir_mask", 1, 3);
            slot_size = integer(*init, "slot_size", 1, int64_t(1) << 30);
            explicit_nosplit_[init] = boolean(*init, "nosplit");
            if (!init->results.empty())
                problem("STRUCT_RESULT_COUNT", *init, "a front-end pipe initialization defines no handle: the transfers find it",
                        "no results", std::to_string(init->results.size()));
            if (init->operands.size() >= 2 && dir_mask && slot_size) {
                // c2v_consumer_buf and v2c_consumer_buf, after gm_slot_buffer when given.
                const std::size_t first = init->operands.size() - 2;
                all_inits_.push_back(init);
                join_logical_pipes(fn, *init, *dir_mask, init->operands[first], init->operands[first + 1]);
                check_consumer_buffers(*init, *dir_mask, *slot_size);
            }
        }
        for (const Operation* op : transfers) check_transfer(fn, *op, init, dir_mask);
    }

    void check_transfer(const Function& fn, const Operation& op, const Operation* init, std::optional<int64_t> dir_mask)
    {
        const std::optional<int64_t> split = integer(op, "split", 0, 4);
        if (split && init) split_users_[init].insert(*split == 0);
        const bool pop = op.name == "pto.tpop_from_aic" || op.name == "pto.tpop_from_aiv";
        if (pop && (op.results.size() != 1 || !op.results[0]->type.is<TileType>()))
            problem("STRUCT_RESULT_COUNT", op, "a pop defines the tile it receives", "one !pto.tile_buf result",
                    std::to_string(op.results.size()) + " results");
        const bool push = op.name == "pto.tpush_to_aiv" || op.name == "pto.tpush_to_aic";
        if (push && op.operands.size() == 1 && !op.operand_type(0).is<TileType>())
            problem("STRUCT_OPERAND_KIND", op, "a push sends a tile", "a !pto.tile_buf", to_string(op.operand_type(0)));
        if (pop && op.operands.size() == 1)
            problem("STRUCT_OPERAND_COUNT", op, "a pop's valid row and column count come together", "(%valid_row, %valid_col) or none", "1 operand");
        const uint8_t needs = transfer_direction(op.name);
        if (!init || !dominates(*init, op)) {
            problem("STRUCT_PIPE_INIT", op, "a transfer uses its function's pipe, initialized before it",
                    std::string(home_of(op.name) == KernelKind::Cube ? "pto.aic" : "pto.aiv") + "_initialize_pipe in @" + fn.name + " before it",
                    init ? "one after it, or in a region that does not enclose it" : "none");
            return;
        }
        if (dir_mask && !(*dir_mask & needs))
            problem("STRUCT_PIPE_INIT", op, "the function's pipe does not carry this transfer's direction",
                    std::string(needs == 1 ? "C2V" : "V2C") + " (dir_mask " + (needs == 1 ? "1" : "2") + " or 3)",
                    "dir_mask " + std::to_string(*dir_mask));
    }

    void check_reserve(const Operation& op, std::size_t count)
    {
        if (count > 1)
            problem("STRUCT_RESERVED_BUFFER", op, "a function reserves one consumer buffer", "one pto.reserve_buffer", std::to_string(count));
        const Attribute* name = op.attribute("name");
        if (!name || !name->is(Attribute::Kind::String)) problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute name", "a string", describe(name));
        integer(op, "size", 1, int64_t(1) << 30);
        const Attribute* location = op.attribute("location");
        const std::string space = location ? location->enum_value() : "";
        if (space != "vec" && space != "mat")
            problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute location", "#pto.address_space<vec> or #pto.address_space<mat>", describe(location));
        const Attribute* automatic = op.attribute("auto");
        if (!automatic || !automatic->is(Attribute::Kind::Bool))
            problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute auto", "true or false", describe(automatic));
        if (op.attribute("base")) integer(op, "base", 0, int64_t(1) << 30);
        if (automatic && automatic->is(Attribute::Kind::Bool) && !automatic->bool_value() && !op.attribute("base"))
            problem("STRUCT_RESERVED_BUFFER", op, "a buffer placed by hand (auto = false) gives its address", "base = <byte offset>", "none");
        if (op.results.size() != 1) problem("STRUCT_RESULT_COUNT", op, "wrong number of results", "1 (-> i32)", std::to_string(op.results.size()));
    }

    void check_import(const Operation& op, std::size_t count)
    {
        if (count > 1)
            problem("STRUCT_RESERVED_BUFFER", op, "a function imports one peer buffer", "one pto.import_reserved_buffer", std::to_string(count));
        if (op.results.size() != 1) problem("STRUCT_RESULT_COUNT", op, "wrong number of results", "1 (-> i32)", std::to_string(op.results.size()));
        const Attribute* name = op.attribute("name");
        const Attribute* peer = op.attribute("peer_func");
        if (!name || !name->is(Attribute::Kind::String)) return problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute name", "a string", describe(name));
        if (!peer || !peer->is(Attribute::Kind::Symbol))
            return problem("STRUCT_ATTRIBUTE_VALUE", op, "attribute peer_func", "@function", describe(peer));
        const Function* fn = module_.find_function(peer->text());
        if (!fn)
            return problem("STRUCT_RESERVED_BUFFER", op, "the peer function of an imported buffer", "a function of this module", "@" + peer->text());
        const Operation* found = nullptr;
        if (fn->body)
            walk(*fn->body, [&](const Operation& r) {
                if (!found && r.name == "pto.reserve_buffer")
                    if (const Attribute* n = r.attribute("name"); n && n->text() == name->text()) found = &r;
            });
        if (!found)
            return problem("STRUCT_RESERVED_BUFFER", op, "the imported buffer is reserved in the peer function",
                           "a pto.reserve_buffer named \"" + name->text() + "\" in @" + fn->name, "none");
        out_.reserve_of[&op] = found;
    }

    // A lowered initialization: `(gm_addr?, local_addr[, peer_local_addr])`, local_addr the C2V
    // consumer's buffer on a pipe of both directions. Its attributes are checked when it is lowered; one
    // of another dir_mask than the assembler's 1 to 3 keeps the flag_base it writes.
    void scan_lowered_init(const Function& fn, const Operation& init)
    {
        const Attribute* dir_mask = init.attribute("dir_mask");
        if (!dir_mask || !dir_mask->is(Attribute::Kind::Integer) || dir_mask->int_value() < 1 || dir_mask->int_value() > 3) return;
        all_inits_.push_back(&init);
        function_of_[&init] = &fn;
        const Attribute* flag = init.attribute("flag_base");
        explicit_flag_[&init] = flag && flag->is(Attribute::Kind::Integer) ? std::optional<int64_t>(flag->int_value()) : std::nullopt;
        const std::size_t first = init.name == "pto.initialize_l2g2l_pipe" ? 1 : 0;
        const auto operand = [&](std::size_t i) { return i < init.operands.size() ? init.operands[i] : nullptr; };
        const int64_t mask = dir_mask->int_value();
        join_logical_pipes(fn, init, mask, operand(first), mask == 3 ? operand(first + 1) : operand(first));
    }

    // Each direction of the pipe whose consumer buffer comes from a reserve or an import joins the
    // logical pipe of that buffer and direction (the assembler's peer key).
    void join_logical_pipes(const Function& fn, const Operation& init, int64_t dir_mask, const Value* c2v_buffer, const Value* v2c_buffer)
    {
        for (const uint8_t direction : {uint8_t(1), uint8_t(2)}) {
            const Value* buffer = direction == 1 ? c2v_buffer : v2c_buffer;
            const Operation* def = buffer ? buffer->defining_op : nullptr;
            if (!(dir_mask & direction) || !def) continue;
            const Attribute* name = def->attribute("name");
            const Attribute* peer = def->attribute("peer_func");
            std::optional<PipeKey> key;
            if (def->name == "pto.reserve_buffer" && name) key = PipeKey{fn.name, name->text(), direction};
            if (def->name == "pto.import_reserved_buffer" && name && peer) key = PipeKey{peer->text(), name->text(), direction};
            if (!key) continue;
            peers_[*key].push_back(&init);
            keys_of_[&init].push_back(*key);
        }
    }

    // The function's own consumer buffer (C2V's in the vector function, V2C's in the cube function),
    // when reserved here, lies in the consumer's memory and holds every slot.
    void check_consumer_buffers(const Operation& init, int64_t dir_mask, int64_t slot_size)
    {
        const std::size_t first = init.operands.size() - 2;  // after gm_slot_buffer, when given
        for (const uint8_t direction : {uint8_t(1), uint8_t(2)}) {
            if (!(dir_mask & direction)) continue;
            const Value* buffer = init.operands[first + (direction == 1 ? 0 : 1)];
            const Operation* def = buffer ? buffer->defining_op : nullptr;
            if (!def || def->name != "pto.reserve_buffer") continue;
            const bool consumer_here = (direction == 1) == (init.name == "pto.aiv_initialize_pipe");
            const Attribute* location = def->attribute("location");
            const std::string want = direction == 1 ? "vec" : "mat";
            if (consumer_here && location && location->enum_value() != want)
                problem("STRUCT_RESERVED_BUFFER", *def,
                        std::string("the ") + direction_name(direction) + " consumer's buffer lies in its " + (direction == 1 ? "UB" : "L1"),
                        "location = #pto.address_space<" + want + ">", location->enum_value());
            const Attribute* size = def->attribute("size");
            const int64_t needed = slot_size * frontend_slot_num(dir_mask);
            if (size && size->is(Attribute::Kind::Integer) && size->int_value() < needed)
                problem("STRUCT_RESERVED_BUFFER", *def, "the reserved buffer holds every slot of the pipe",
                        "at least " + std::to_string(needed) + " bytes (slot_size " + std::to_string(slot_size) + " x " +
                            std::to_string(frontend_slot_num(dir_mask)) + " slots)",
                        std::to_string(size->int_value()) + " bytes");
        }
    }

    // The two ends of each logical pipe: one initialization in the function that reserves its buffer
    // and one in the function that imports it. Then the flag of every pipe, and the `nosplit` of every
    // front-end pipe joined to others through them: given explicitly, or inferred from its transfers'
    // splits (all 0: no split) on both ends.
    void pair_peers()
    {
        std::map<const Operation*, std::set<const Operation*>> joined;
        std::set<PipeKey> complete;
        for (const auto& [key, inits] : peers_) {
            const auto& [owner, name, direction] = key;
            std::set<const Function*> functions;
            bool owner_joins = false;
            for (const Operation* i : inits) {
                functions.insert(function_of_.at(i));
                owner_joins = owner_joins || function_of_.at(i)->name == owner;
            }
            if (inits.size() != 2 || functions.size() != 2 || !owner_joins) {
                problem("STRUCT_PIPE_PEER", *inits.front(),
                        "the buffer \"" + name + "\" of @" + owner + " joins a " + direction_name(direction) +
                            " pipe: one initialization in each of two peer functions",
                        "2 initializations in 2 functions, one of them @" + owner,
                        std::to_string(inits.size()) + " in " + std::to_string(functions.size()) + (owner_joins ? "" : ", none @" + owner));
                continue;
            }
            complete.insert(key);
            if (!is_init(inits[0]->name) || !is_init(inits[1]->name)) continue;  // nosplit: the front-end pipes'
            joined[inits[0]].insert(inits[1]);
            joined[inits[1]].insert(inits[0]);
        }
        resolve_flag_bases(complete);
        std::set<const Operation*> done;
        for (const auto& [fn, root] : out_.init) {
            if (done.count(root)) continue;
            std::vector<const Operation*> group{root}, pending{root};
            done.insert(root);
            while (!pending.empty()) {
                const Operation* i = pending.back();
                pending.pop_back();
                for (const Operation* j : joined[i])
                    if (done.insert(j).second) group.push_back(j), pending.push_back(j);
            }
            resolve_nosplit(group);
        }
    }

    // The assembler's flag assignment (its design page, 7.7.3 and 8): a logical pipe's flag_base is the
    // one either end writes (both must agree), else 0, or 2 for the V2C pipe of two peer functions that
    // exchange tiles both ways. A pipe of both directions takes its C2V pipe's flag and runs its V2C
    // tiles on the pair after it, 2 and 3, where a V2C pipe of its peer meets them. A pipe that writes
    // no flag_base must join a logical pipe.
    void resolve_flag_bases(const std::set<PipeKey>& complete)
    {
        const auto peer_functions = [&](const PipeKey& key) {
            const std::vector<const Operation*>& ends = peers_.at(key);
            return std::set<const Function*>{function_of_.at(ends[0]), function_of_.at(ends[1])};
        };
        std::map<std::set<const Function*>, uint8_t> directions_between;
        for (const PipeKey& key : complete) directions_between[peer_functions(key)] |= std::get<2>(key);
        std::map<PipeKey, int64_t> flag_of;
        for (const PipeKey& key : complete) {
            std::optional<int64_t> written;
            for (const Operation* init : peers_.at(key)) {
                const std::optional<int64_t> own = explicit_flag_[init];
                if (own && written && *own != *written)
                    problem("STRUCT_PIPE_PEER", *init, "the two ends of a logical pipe use one flag_base",
                            "flag_base = " + std::to_string(*written) + " as at the peer", "flag_base = " + std::to_string(*own));
                if (own && !written) written = own;
            }
            const bool both_ways = directions_between[peer_functions(key)] == 3;
            flag_of[key] = written.value_or(std::get<2>(key) == 2 && both_ways ? 2 : 0);
        }
        for (const Operation* init : all_inits_) {
            if (const std::optional<int64_t> own = explicit_flag_[init]) {
                out_.flag_base[init] = uint32_t(*own);
                continue;
            }
            const std::vector<PipeKey>& keys = keys_of_[init];  // C2V's first
            const auto paired = std::find_if(keys.begin(), keys.end(), [&](const PipeKey& k) { return complete.count(k) > 0; });
            if (paired != keys.end()) out_.flag_base[init] = uint32_t(flag_of.at(*paired));
            else if (keys.empty())
                problem("STRUCT_PIPE_INIT", *init, "a pipe without flag_base takes its consumer buffer from a reserved buffer, which pairs it with its peer",
                        is_init(init->name) ? "c2v_consumer_buf / v2c_consumer_buf from pto.reserve_buffer or pto.import_reserved_buffer"
                                            : "flag_base = N, or local_addr from pto.reserve_buffer or pto.import_reserved_buffer",
                        "a buffer of neither");
        }
    }

    void resolve_nosplit(const std::vector<const Operation*>& group)
    {
        std::optional<bool> stated, inferred;
        const Operation* stated_by = nullptr;
        for (const Operation* init : group) {
            const std::set<bool>& users = split_users_[init];  // true: split = 0
            if (users.size() == 2)
                return problem("STRUCT_PIPE_SPLIT", *init, "one pipe's transfers either all split or none does",
                               "split = 0 everywhere, or 1 to 4 everywhere", "both");
            if (users.size() == 1) {
                if (inferred && *inferred != *users.begin())
                    return problem("STRUCT_PIPE_SPLIT", *init, "the two ends of a pipe disagree on splitting",
                                   std::string("split ") + (*inferred ? "= 0" : "1 to 4") + " as at the peer",
                                   *users.begin() ? "split = 0" : "split 1 to 4");
                inferred = *users.begin();
            }
            if (const std::optional<bool> s = explicit_nosplit_[init]) {
                if (stated && *stated != *s)
                    return problem("STRUCT_PIPE_SPLIT", *init, "the two ends of a pipe disagree on nosplit",
                                   std::string("nosplit = ") + (*stated ? "true" : "false") + " as at the peer",
                                   std::string("nosplit = ") + (*s ? "true" : "false"));
                stated = s;
                stated_by = init;
            }
        }
        if (stated && inferred && *stated != *inferred)
            return problem("STRUCT_PIPE_SPLIT", *stated_by, "nosplit contradicts the transfers' splits",
                           std::string("nosplit = ") + (*inferred ? "true" : "false") + " for transfers of split " + (*inferred ? "0" : "1 to 4"),
                           std::string("nosplit = ") + (*stated ? "true" : "false"));
        for (const Operation* init : group) out_.nosplit[init] = stated.value_or(inferred.value_or(false));
    }

    const Module& module_;
    FrontendPipes out_;
    std::map<PipeKey, std::vector<const Operation*>> peers_;              // each logical pipe's ends
    std::unordered_map<const Operation*, std::vector<PipeKey>> keys_of_;  // the logical pipes each initialization joins
    std::vector<const Operation*> all_inits_;                             // front-end and lowered
    std::unordered_map<const Operation*, const Function*> function_of_;
    std::unordered_map<const Operation*, std::optional<int64_t>> explicit_flag_;  // a lowered initialization's flag_base
    std::unordered_map<const Operation*, std::set<bool>> split_users_;
    std::unordered_map<const Operation*, std::optional<bool>> explicit_nosplit_;
};

}  // namespace

std::optional<KernelKind> kernel_kind(const Function& fn)
{
    const Attribute* a = find_attribute(fn.attributes, "pto.kernel_kind");
    const std::string kind = a ? a->enum_value() : "";
    if (kind == "cube") return KernelKind::Cube;
    if (kind == "vector") return KernelKind::Vector;
    return std::nullopt;
}

bool dominates(const Operation& a, const Operation& b)
{
    if (!a.parent) return false;
    for (const Operation* at = &b; at; at = at->parent && at->parent->parent ? at->parent->parent->parent : nullptr) {
        if (at->parent != a.parent) continue;
        for (const auto& op : a.parent->operations) {
            if (op.get() == &a) return at != &a;
            if (op.get() == at) return false;
        }
    }
    return false;
}

bool is_lowered_pipe_init(std::string_view op_name) { return op_name == "pto.initialize_l2g2l_pipe" || op_name == "pto.initialize_l2l_pipe"; }

bool is_frontend_pipe_op(std::string_view op_name)
{
    return is_init(op_name) || is_transfer(op_name) || op_name == "pto.reserve_buffer" || op_name == "pto.import_reserved_buffer";
}

uint8_t transfer_direction(std::string_view op_name)
{
    return op_name == "pto.tpush_to_aiv" || op_name == "pto.tpop_from_aic" || op_name == "pto.tfree_from_aic" ? 1 : 2;
}

uint32_t frontend_slot_num(int64_t dir_mask) { return dir_mask == 3 ? 4 : 8; }

FrontendPipes analyze_frontend_pipes(const Module& module) { return Analysis(module).run(); }

}  // namespace pto::as
