#include "asm/sync_order.hpp"

#include <algorithm>
#include <array>
#include <compare>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include <pto/engine/dtype.hpp>
#include <pto/engine/pipes.hpp>

#include "asm/diagnostics.hpp"
#include "asm/op_table.hpp"
#include "asm/operand_descriptors.hpp"

namespace pto::as {

namespace {

using engine::kPipeCount;

// Loops are analysed twice, so nested loops multiply the work; past this many operation visits a
// function's analysis stops (hostile input must not hang the verifier) and says so, since the
// findings it could not make are missing.
constexpr uint64_t kVisitBudget = uint64_t(1) << 20;
constexpr uint64_t kNever = UINT64_MAX;

bool is_sync_op(std::string_view name)
{
    const OpInfo* info = find_op(name);
    return info && info->cls == OpClass::Sync;
}

// Where an access lands.
struct Storage {
    const Value* root = nullptr;  // the allocation, or the pointer a view comes from
    bool global = false;
    std::optional<pto::TileType> memory;  // set for a tile at a constant address
    uint64_t begin = 0, end = 0;          // its byte range in that memory
};

bool overlaps(const Storage& a, const Storage& b)
{
    if (a.global != b.global) return false;
    if (a.root == b.root) return true;
    return a.memory && b.memory && *a.memory == *b.memory && a.begin < b.end && b.begin < a.end;
}

// One operation's access, and since when each pipe knows that it has finished. Times are the ticks
// of the checker's clock, which advances at every wait and barrier.
struct Access {
    uint64_t seq = 0;  // the operation's number on its pipe; 0: no access
    const Operation* op = nullptr;
    std::array<uint64_t, kPipeCount> known_since = filled(kNever);

    static std::array<uint64_t, kPipeCount> filled(uint64_t t)
    {
        std::array<uint64_t, kPipeCount> a;
        a.fill(t);
        return a;
    }
};

// After either of two paths: the later access, known to a pipe only if known on both paths.
Access join(const Access& a, const Access& b)
{
    if (!a.seq) return b;
    if (!b.seq) return a;
    Access r = a.seq >= b.seq ? a : b;
    for (std::size_t p = 0; p < kPipeCount; ++p) r.known_since[p] = std::max(a.known_since[p], b.known_since[p]);
    return r;
}

// The last read and the last write of one storage on every pipe (each pipe runs in order, so once
// its last access is known to have finished, all its earlier ones are).
struct AccessRecord {
    Storage storage;
    std::array<Access, kPipeCount> last_write{}, last_read{};
};

struct FlagKey {
    int32_t src, dst, event;
    auto operator<=>(const FlagKey&) const = default;
};

// A flag in the map is set on every path (`certain`) or on some; absent, it is set on none. Waiting
// for it teaches the waiting pipe what the setting pipe knew when it set it: its own operations up
// to `own_seq`, and what it had learnt by tick `set_tick`.
struct Flag {
    bool certain = true;
    uint64_t own_seq = 0;
    uint64_t set_tick = 0;
    const Operation* set_op = nullptr;

    bool covers(const Access& a, std::size_t access_pipe, std::size_t src) const
    {
        return (access_pipe == src && a.seq <= own_seq) || a.known_since[src] <= set_tick;
    }
};

struct State {
    std::map<FlagKey, Flag> flags;
    // A called function may have set flags this one cannot see: waits for them are not judged.
    bool foreign_flags = false;
    std::vector<AccessRecord> records;
};

// The state after either of two paths: only what holds on both.
State join(const State& a, const State& b)
{
    State r;
    r.flags = a.flags;
    r.foreign_flags = a.foreign_flags || b.foreign_flags;
    for (auto& [key, flag] : r.flags)
        if (!b.flags.count(key)) flag.certain = false;
    for (const auto& [key, flag] : b.flags) {
        auto it = r.flags.find(key);
        if (it == r.flags.end()) {
            r.flags.emplace(key, Flag{false, flag.own_seq, flag.set_tick, flag.set_op});
            continue;
        }
        it->second.certain = it->second.certain && flag.certain;
        it->second.own_seq = std::min(it->second.own_seq, flag.own_seq);
        it->second.set_tick = std::min(it->second.set_tick, flag.set_tick);
    }
    r.records = a.records;
    for (const AccessRecord& rec : b.records) {
        auto it = std::find_if(r.records.begin(), r.records.end(), [&](const AccessRecord& x) {
            return x.storage.root == rec.storage.root && x.storage.global == rec.storage.global;
        });
        if (it == r.records.end()) {
            r.records.push_back(rec);
            continue;
        }
        for (std::size_t p = 0; p < kPipeCount; ++p) {
            it->last_write[p] = join(it->last_write[p], rec.last_write[p]);
            it->last_read[p] = join(it->last_read[p], rec.last_read[p]);
        }
    }
    return r;
}

// Every pipe learns that every access so far has finished.
void everything_finished(State& s, uint64_t now)
{
    for (AccessRecord& rec : s.records)
        for (auto* slots : {&rec.last_write, &rec.last_read})
            for (Access& a : *slots)
                for (uint64_t& t : a.known_since) t = std::min(t, now);
}

std::string flag_text(std::string_view name, int32_t src, int32_t dst, std::string_view event)
{
    return std::string(name) + "(" + std::string(engine::pipe_short_name(pipe_t(src))) + ", " +
           std::string(engine::pipe_short_name(pipe_t(dst))) + ", " + std::string(event) + ")";
}

std::string event_name(int32_t event) { return "EVENT_ID" + std::to_string(event); }

std::string line_of(const Operation& op) { return "line " + std::to_string(op.loc.line); }

std::string op_name(const Operation& op) { return is_tile_instruction(op.name) ? isa_mnemonic(op.name) : op.name; }

// The value an alias, a view or a loop-carried value stands for.
const Value* root_of(const Value* v)
{
    for (int hops = 0; v && hops < 1000; ++hops) {
        if (const Operation* def = v->defining_op) {
            const bool alias = def->name == "pto.treshape" || def->name == "pto.subset" || def->name == "pto.subview" ||
                               def->name == "pto.tsubview" || def->name == "pto.talias" ||
                               def->name == "pto.partition_view" || def->name == "pto.make_tensor_view";
            if (!alias || def->operands.empty()) return v;
            v = def->operands[0];
            continue;
        }
        const Region* region = v->owner_block ? v->owner_block->parent : nullptr;
        const Operation* loop = region ? region->parent : nullptr;
        if (!loop) return v;
        // scf.for's block arguments are (iv, iter_args...) for operands (lb, ub, step, inits...);
        // the first region of scf.while receives its operands.
        std::size_t operand = 0;
        if (loop->name == "scf.for" && v->number >= 1) operand = 3 + v->number - 1;
        else if (loop->name == "scf.while" && region == loop->regions.front().get()) operand = v->number;
        else return v;
        if (operand >= loop->operands.size()) return v;
        v = loop->operands[operand];
    }
    return v;
}

// The byte offset of `pto.alloc_tile addr = ...` when it is a constant.
std::optional<uint64_t> constant_address(const Operation& alloc)
{
    std::size_t cursor = 0;
    for (const OperandGroup& g : alloc.input_layout) {
        for (const OperandItem& item : g.items) {
            const Value* operand = item.literal ? nullptr : (cursor < alloc.operands.size() ? alloc.operands[cursor++] : nullptr);
            if (g.keyword != "addr") continue;
            if (item.literal) return item.value >= 0 ? std::optional<uint64_t>(uint64_t(item.value)) : std::nullopt;
            const Attribute* value = constant_value(operand);
            if (value && value->is(Attribute::Kind::Integer) && value->int_value() >= 0) return uint64_t(value->int_value());
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<Storage> storage_of(const Value* v, const Type& type)
{
    const bool tile = type.is<TileType>() || type.is<ConvTileType>();
    if (!v || (!tile && !type.is<TensorViewType>() && !type.is<PtrType>())) return std::nullopt;
    Storage s;
    s.root = root_of(v);
    s.global = !tile;
    const Operation* def = s.root->defining_op;
    const auto* t = s.root->type.dyn_cast<TileType>();
    const auto dtype = s.root->type.element_dtype();
    if (tile && def && def->name == "pto.alloc_tile" && t && dtype)
        if (const auto addr = constant_address(*def)) {
            s.memory = t->loc.value_or(pto::TileType::Vec);
            s.begin = *addr;
            const uint64_t bytes = uint64_t(std::max<int64_t>(t->rows, 0)) * uint64_t(std::max<int64_t>(t->cols, 0)) *
                                   uint64_t(engine::dtype_bits(*dtype)) / 8;
            s.end = std::max(s.begin, s.begin + bytes);  // an address past any memory must not wrap around
        }
    const auto* conv = s.root->type.dyn_cast<ConvTileType>();
    if (conv && def && def->name == "pto.alloc_tile")
        if (const auto addr = constant_address(*def); addr && conv_tile_descriptor(s.root->type)) {
            s.memory = conv->loc;
            s.begin = *addr;
            s.end = std::max(s.begin, s.begin + uint64_t(conv_tile_descriptor(s.root->type)->buffer_bytes));
        }
    return s;
}

pto::TileType location_of(const Type& type)
{
    if (const auto* c = type.dyn_cast<ConvTileType>()) return c->loc;
    const auto* t = type.dyn_cast<TileType>();
    return t && t->loc ? *t->loc : pto::TileType::Vec;
}

class FunctionChecker {
public:
    FunctionChecker(const Function& function, DiagnosticSink& sink) : function_(function), sink_(sink) {}

    // `entry`: no function of the module calls this one, so its flags must all be waited by its end.
    void run(bool entry)
    {
        State end = region(*function_.body, State{});
        if (exhausted_) {
            sink_.error(codes::kAnalysisLimit, function_.loc, "@" + function_.name + ": loops nest too deep for the synchronisation check, which stopped part way",
                        "at most " + std::to_string(kVisitBudget) + " operation visits", "more");
            return;
        }
        if (!entry) return;
        for (const auto& [key, flag] : end.flags)
            if (flag.certain)
                report(codes::kUnwaitedSet, *flag.set_op, nullptr, "the flag is still set when @" + function_.name + " returns",
                       flag_text("wait_flag", key.src, key.dst, event_name(key.event)) + " before the end", "none");
    }

private:
    State region(const Region& r, State s)
    {
        for (const auto& block : r.blocks)
            for (const auto& op : block->operations) s = operation(*op, std::move(s));
        return s;
    }

    State operation(const Operation& op, State s)
    {
        if (exhausted_ || ++visits_ > kVisitBudget) {
            exhausted_ = true;
            return s;
        }
        if (op.name == "scf.for" && !op.regions.empty()) {
            // Twice, so that the second pass sees what the first left behind on the back edge.
            State once = region(*op.regions[0], s);
            State twice = region(*op.regions[0], once);
            return join(s, join(once, twice));
        }
        if (op.name == "scf.while" && op.regions.size() == 2) {
            State exit = region(*op.regions[0], std::move(s));
            State at_condition = exit;
            for (int pass = 0; pass < 2; ++pass) {
                at_condition = region(*op.regions[0], region(*op.regions[1], std::move(at_condition)));
                exit = join(exit, at_condition);
            }
            return exit;
        }
        if (op.name == "scf.if" && !op.regions.empty()) {
            State taken = region(*op.regions[0], s);
            return join(taken, op.regions.size() > 1 ? region(*op.regions[1], std::move(s)) : std::move(s));
        }
        if (op.name == "func.call") return after_call(std::move(s));
        if (is_sync_op(op.name)) return synchronisation(op, std::move(s));
        const OpInfo* info = find_op(op.name);
        if (info && info->instruction) instruction(op, info->instruction->id, s);
        for (const auto& nested : op.regions) s = region(*nested, std::move(s));
        return s;
    }

    // A callee is checked on its own; here it counts as finishing everything issued before it, and
    // may have set or waited any flag.
    State after_call(State s)
    {
        everything_finished(s, ++tick_);
        for (auto& [key, flag] : s.flags) flag.certain = false;
        s.foreign_flags = true;
        return s;
    }

    State synchronisation(const Operation& op, State s)
    {
        auto arg = [&](std::size_t i) { return i < op.arguments.size() ? op.arguments[i].enum_value() : std::string(); };
        const bool set = op.name == "pto.set_flag" || op.name == "pto.record_event";
        const bool wait = op.name == "pto.wait_flag" || op.name == "pto.wait_event";
        if (!set && !wait) {
            // pipe_barrier of one pipe orders that pipe with itself, which it already is; PIPE_ALL
            // waits for everything issued.
            if (arg(0) == "PIPE_ALL") everything_finished(s, ++tick_);
            return s;
        }
        const bool by_pipe = op.name == "pto.set_flag" || op.name == "pto.wait_flag";
        const auto src = by_pipe ? engine::pipe_from_name(arg(0)) : engine::event_class_pipe(arg(0));
        const auto dst = by_pipe ? engine::pipe_from_name(arg(1)) : engine::event_class_pipe(arg(1));
        const auto event = engine::event_from_name(arg(2));
        if (!src || !dst || !event || *src >= int32_t(kPipeCount) || *dst >= int32_t(kPipeCount)) return s;
        const FlagKey key{*src, *dst, *event};
        auto it = s.flags.find(key);
        if (set) {
            if (it != s.flags.end() && it->second.certain)
                report(codes::kSetTwice, op, it->second.set_op, "the flag is already set and not yet waited (set at " + line_of(*it->second.set_op) + ")",
                       flag_text("wait_flag", key.src, key.dst, arg(2)) + " before setting it again", "a second set_flag");
            s.flags[key] = Flag{true, issued_[key.src], tick_, &op};
            return s;
        }
        if (it == s.flags.end()) {
            if (s.foreign_flags) return s;
            report(codes::kWaitWithoutSet, op, nullptr, "no set_flag for this wait: the waiting pipe would stall forever",
                   "an earlier " + flag_text("set_flag", key.src, key.dst, arg(2)), "no outstanding set_flag with this pipe pair and event");
            return s;
        }
        const Flag flag = it->second;
        s.flags.erase(it);
        const uint64_t now = ++tick_;
        for (AccessRecord& rec : s.records)
            for (auto* slots : {&rec.last_write, &rec.last_read})
                for (std::size_t q = 0; q < kPipeCount; ++q) {
                    Access& a = (*slots)[q];
                    if (a.seq && flag.covers(a, q, std::size_t(key.src))) a.known_since[key.dst] = std::min(a.known_since[key.dst], now);
                }
        return s;
    }

    void instruction(const Operation& op, engine::Instr instr, State& s)
    {
        // TASSIGN binds an address; the img2col configuration instructions read the tile's type, not its data.
        if (instr == engine::Instr::TASSIGN || instr == engine::Instr::SETFMATRIX || instr == engine::Instr::SET_IMG2COL_PADDING ||
            instr == engine::Instr::SET_IMG2COL_RPT)
            return;
        struct Touch {
            const Value* value;
            Type type;
            bool write;
        };
        std::vector<Touch> touches;
        const std::size_t inputs = op.inputs().size();
        for (std::size_t i = 0; i < op.operands.size(); ++i) {
            const Value* v = op.operands[i];
            const Type type = !v->type.is_none() ? v->type : i < op.operand_types.size() ? op.operand_types[i] : Type{};
            touches.push_back({v, type, i >= inputs});
        }
        for (const auto& r : op.results) touches.push_back({r.get(), r->type, true});

        auto first_tile = [&](bool write) {
            for (const Touch& t : touches)
                if (t.write == write && (t.type.is<TileType>() || t.type.is<ConvTileType>())) return location_of(t.type);
            return pto::TileType::Vec;
        };
        const pipe_t pipe = engine::instruction_pipe(instr, first_tile(false), first_tile(true));
        const Access self{++issued_[pipe], &op};
        for (const Touch& t : touches)
            if (const auto storage = storage_of(t.value, t.type)) access(op, *t.value, *storage, t.write, pipe, self, s);
    }

    void access(const Operation& op, const Value& value, const Storage& storage, bool write, pipe_t pipe, Access self, State& s)
    {
        for (const AccessRecord& rec : s.records) {
            if (!overlaps(rec.storage, storage)) continue;
            for (std::size_t other = 0; other < kPipeCount; ++other) {
                if (other == std::size_t(pipe)) continue;
                const Access& w = rec.last_write[other];
                if (w.seq && w.known_since[pipe] == kNever)
                    missing_sync(op, value, storage, w, write ? "overwrites" : "reads", "wrote", pipe_t(other), pipe, s);
                const Access& r = rec.last_read[other];
                if (write && r.seq && r.known_since[pipe] == kNever) missing_sync(op, value, storage, r, "overwrites", "read", pipe_t(other), pipe, s);
            }
        }
        auto it = std::find_if(s.records.begin(), s.records.end(),
                               [&](const AccessRecord& x) { return x.storage.root == storage.root && x.storage.global == storage.global; });
        if (it == s.records.end()) {
            s.records.push_back(AccessRecord{storage, {}, {}});
            it = s.records.end() - 1;
        }
        (write ? it->last_write : it->last_read)[pipe] = self;
    }

    void missing_sync(const Operation& op, const Value& value, const Storage& storage, const Access& earlier, std::string_view verb,
                      std::string_view first_verb, pipe_t from, pipe_t to, const State& s)
    {
        const Operation& first = *earlier.op;
        const std::string what_storage = storage.global ? "global memory of " + storage.root->reference() : "tile " + value.reference();
        const std::string src(engine::pipe_short_name(from)), dst(engine::pipe_short_name(to));
        // A flag from `from` to `to` set after the first access but never waited is the likeliest slip.
        std::string got = "no synchronisation from " + src + " to " + dst;
        for (const auto& [key, flag] : s.flags)
            if (key.src == from && key.dst == to && flag.covers(earlier, std::size_t(from), std::size_t(from))) {
                got = flag_text("set_flag", key.src, key.dst, event_name(key.event)) + " at " + line_of(*flag.set_op) + " without its wait_flag";
                break;
            }
        report(codes::kMissingSync, op, &first,
               std::string(verb) + " " + what_storage + ", which " + op_name(first) + " at " + line_of(first) + " " + std::string(first_verb) +
                   " on pipe " + src + ", while " + op_name(op) + " runs on pipe " + dst,
               "set_flag(" + src + ", " + dst + ", EVENT_IDn) / wait_flag(" + src + ", " + dst + ", EVENT_IDn) between " + line_of(first) +
                   " and " + line_of(op),
               got);
    }

    // Each finding once, although loop bodies are analysed twice.
    void report(std::string_view code, const Operation& at, const Operation* other, std::string what, std::string expected, std::string actual)
    {
        if (!reported_.emplace(code, &at, other).second) return;
        sink_.error(code, at.loc, std::move(what), std::move(expected), std::move(actual), op_name(at));
    }

    const Function& function_;
    DiagnosticSink& sink_;
    std::array<uint64_t, kPipeCount> issued_{};  // operations issued so far to each pipe, on any path
    uint64_t tick_ = 0;
    uint64_t visits_ = 0;
    bool exhausted_ = false;
    std::set<std::tuple<std::string_view, const Operation*, const Operation*>> reported_;
};

bool has_sync_op(const Function& f)
{
    bool found = false;
    walk(*f.body, [&](const Operation& op) { found = found || is_sync_op(op.name); });
    return found;
}

// Flags whose event ids the kernel computes (`set_flag_dyn`, `wait_flag_dyn`) pair up only at run time:
// such a function is left to the run-time check.
bool has_dynamic_flags(const Function& f)
{
    bool found = false;
    walk(*f.body, [&](const Operation& op) { found = found || op.name == "pto.set_flag_dyn" || op.name == "pto.wait_flag_dyn"; });
    return found;
}

}  // namespace

std::vector<Diagnostic> check_sync_order(const Module& module, SyncChecking mode)
{
    DiagnosticSink sink(module.filename, 200);
    std::set<std::string> called;
    for (const auto& f : module.functions)
        if (f->body)
            walk(*f->body, [&](const Operation& op) {
                if (const Attribute* callee = op.name == "func.call" ? op.attribute("callee") : nullptr) called.insert(callee->text());
            });
    for (const auto& f : module.functions) {
        if (!f->body || (mode == SyncChecking::Auto && !has_sync_op(*f)) || has_dynamic_flags(*f)) continue;
        FunctionChecker(*f, sink).run(!called.count(f->name));
    }
    return sink.take();
}

}  // namespace pto::as
