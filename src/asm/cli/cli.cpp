#include "asm/cli/cli.hpp"

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "asm/array_io.hpp"
#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/printer.hpp"
#include "asm/verifier.hpp"

namespace pto::as {

namespace {

constexpr int kOk = 0, kFailed = 1, kUsage = 2;

void report(std::ostream& err, std::string_view code, const std::string& message)
{
    err << "ptosim: error[" << code << "]: " << message << "\n";
}

void report_all(std::ostream& err, const std::vector<Diagnostic>& diagnostics)
{
    for (const Diagnostic& d : diagnostics) err << d.format() << "\n";
}

bool read_program(const std::string& path, std::string& text, std::ostream& err)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        report(err, "CLI_FILE", "cannot open " + path);
        return false;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

// Parses and verifies; prints every diagnostic. Returns false when there were any.
bool load(const std::string& path, profile::Target target, SyncChecking sync, ParseResult& parsed, std::ostream& err)
{
    std::string text;
    if (!read_program(path, text, err)) return false;
    parsed = parse(text, path);
    if (!parsed.ok()) {
        report_all(err, parsed.diagnostics);
        return false;
    }
    const std::vector<Diagnostic> diagnostics = verify(parsed.module, target, sync);
    report_all(err, diagnostics);
    return diagnostics.empty();
}

// An argument value: a host array or a number.
struct ArgValue {
    std::optional<HostArray> array;
    std::optional<double> number;
};

ArgValue parse_value(const std::string& value)
{
    ArgValue v;
    const auto ends_with = [&](std::string_view s) { return value.size() >= s.size() && value.compare(value.size() - s.size(), s.size(), s) == 0; };
    if (ends_with(".npy")) {
        v.array = read_npy(value);
        return v;
    }
    // PATH.bin:DTYPE:SHAPE, or DTYPE:SHAPE.
    const std::size_t bin = value.find(".bin:");
    const std::size_t spec_at = bin != std::string::npos ? bin + 5 : 0;
    const std::size_t colon = value.find(':', spec_at);
    if (colon != std::string::npos) {
        const std::string dtype = value.substr(spec_at, colon - spec_at);
        const auto type = array_type_from_name(dtype);
        const auto shape = parse_shape(std::string_view(value).substr(colon + 1));
        if (!type) throw ArrayError{"CLI_ARRAY_SPEC", "unknown element type '" + dtype + "' in " + value};
        if (!shape) throw ArrayError{"CLI_ARRAY_SPEC", "bad shape in " + value + " (expected e.g. 64x128)"};
        v.array = bin != std::string::npos ? read_raw(value.substr(0, bin + 4), *type, *shape) : zeros(*type, *shape);
        return v;
    }
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size())
        throw ArrayError{"CLI_ARRAY_SPEC", "'" + value + "' is neither an .npy path, PATH.bin:DTYPE:SHAPE, DTYPE:SHAPE nor a number"};
    v.number = number;
    return v;
}

bool split_assignment(const std::string& text, std::string& name, std::string& value)
{
    const std::size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    name = text.substr(0, eq);
    if (!name.empty() && name.front() == '%') name.erase(0, 1);
    value = text.substr(eq + 1);
    return true;
}

int command_run(const std::string& path, const std::string& entry, profile::Target target, SyncChecking sync, bool checked,
                runtime::Schedule schedule, uint32_t blocks, const std::vector<std::string>& args, const std::vector<std::string>& outs, std::ostream& out, std::ostream& err)
{
    ParseResult parsed;
    if (!load(path, target, sync, parsed, err)) return kFailed;
    Interpreter interpreter(parsed.module);
    const Function* fn = interpreter.entry_function(entry);
    if (!fn) {
        std::string names;
        for (const auto& f : parsed.module.functions) names += (names.empty() ? "@" : ", @") + f->name;
        report(err, codes::kUnknownEntry, "no entry function @" + entry + " — expected one of " + (names.empty() ? "(none)" : names) + ", got @" + entry);
        return kFailed;
    }
    const std::vector<const Value*> params = interpreter.arguments(*fn);

    std::map<std::string, HostArray> arrays;  // stable storage of the bound arrays
    std::vector<ArgumentBinding> bindings;
    bool ok = true;
    for (const std::string& a : args) {
        std::string name, value;
        if (!split_assignment(a, name, value)) {
            report(err, "CLI_USAGE", "--arg takes NAME=VALUE, got '" + a + "'");
            return kUsage;
        }
        ArgValue v;
        try {
            v = parse_value(value);
        } catch (const ArrayError& e) {
            report(err, e.code, "--arg " + name + ": " + e.message);
            ok = false;
            continue;
        }
        ArgumentBinding b;
        b.name = name;
        if (v.array) {
            const auto it = std::find_if(params.begin(), params.end(), [&](const Value* p) { return p->name == name; });
            if (it != params.end() && (*it)->type.is<PtrType>()) {
                const auto dtype = (*it)->type.element_dtype();
                if (dtype && !array_fits(v.array->type, *dtype)) {
                    err << format_location(path, (*it)->loc) << ": error[" << codes::kArgDType << "]: array for %" << name
                        << " has the wrong element type — expected " << array_type_name(array_type_of(*dtype)) << " (for "
                        << engine::dtype_name(*dtype) << "), got " << array_type_name(v.array->type) << "\n";
                    ok = false;
                    continue;
                }
            }
            HostArray& stored = arrays[name] = std::move(*v.array);
            b.data = stored.bytes.data();
            b.bytes = stored.bytes.size();
        } else {
            b.scalar = v.number;
        }
        bindings.push_back(std::move(b));
    }
    std::vector<std::pair<std::string, std::string>> writes;
    for (const std::string& o : outs) {
        std::string name, file;
        if (!split_assignment(o, name, file)) {
            report(err, "CLI_USAGE", "--out takes NAME=PATH, got '" + o + "'");
            return kUsage;
        }
        if (!arrays.count(name)) {
            report(err, "CLI_OUT_UNBOUND", "--out " + name + ": no array is bound to %" + name + " — expected a pointer argument given by --arg, got " + name);
            ok = false;
            continue;
        }
        writes.emplace_back(name, file);
    }
    if (!ok) return kFailed;

    RunOptions options;
    options.entry = fn->name;
    options.target = target;
    options.checked = checked;
    options.schedule = schedule;
    options.blocks = blocks;
    const RunResult result = interpreter.run(bindings, options);
    if (!result.ok()) {
        report_all(err, result.diagnostics);
        return kFailed;
    }
    for (double r : result.results) out << r << "\n";
    for (const auto& [name, file] : writes) {
        try {
            write_npy(file, arrays[name]);
        } catch (const ArrayError& e) {
            report(err, e.code, e.message);
            return kFailed;
        }
    }
    return kOk;
}

}  // namespace

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    CLI::App app{"ptosim: run, verify and format PTO-AS programs", "ptosim"};
    app.require_subcommand(1);
    const std::map<std::string, profile::Target> targets{{"cpu", profile::Target::Cpu}, {"a2a3", profile::Target::A2A3}, {"a5", profile::Target::A5}};
    const std::map<std::string, SyncChecking> syncs{{"auto", SyncChecking::Auto}, {"explicit", SyncChecking::Explicit}};
    const std::map<std::string, Form> forms{{"preserve", Form::Preserve}, {"asm", Form::Asm}, {"ssa", Form::SSA}, {"dps", Form::DPS}, {"generic", Form::Generic}};

    std::string program, entry;
    profile::Target target = profile::Target::Cpu;
    Form form = Form::Preserve;
    SyncChecking sync = SyncChecking::Auto;
    const std::string sync_help = "which functions the pipe synchronisation check covers: auto (those with a sync operation) or explicit (all)";
    bool checked = false;
    const std::map<std::string, runtime::Schedule> schedules{{"program", runtime::Schedule::Program}, {"adversarial", runtime::Schedule::Adversarial}};
    runtime::Schedule schedule = runtime::Schedule::Program;
    uint32_t blocks = 1;
    std::vector<std::string> args, outs;

    CLI::App* run = app.add_subcommand("run", "run a function of a program on host arrays");
    run->add_option("program", program, "the .pto file")->required();
    run->add_option("--entry", entry, "the function to run (default: the pto.entry one, else the first)");
    run->add_option("--target", target, "target profile")->transform(CLI::CheckedTransformer(targets));
    run->add_option("--sync", sync, sync_help)->transform(CLI::CheckedTransformer(syncs));
    run->add_flag("--check", checked, "checked mode: bounds, uninitialised reads, gather indices, pipe synchronisation");
    run->add_option("--schedule", schedule,
                    "program (each instruction when issued), or adversarial (held back as late as the flags allow, "
                    "the latest issued first: a missing flag gives the wrong answer the device could give)")
        ->transform(CLI::CheckedTransformer(schedules));
    run->add_option("--blocks", blocks, "blocks of the launch")->check(CLI::Range(1u, 65535u));
    run->add_option("--arg", args, "NAME=VALUE: an .npy path, PATH.bin:DTYPE:SHAPE, DTYPE:SHAPE (zeros) or a number");
    run->add_option("--out", outs, "NAME=PATH: write the array of a pointer argument to an .npy file after the run");

    CLI::App* ver = app.add_subcommand("verify", "check a program's structure and legality on a target");
    ver->add_option("program", program, "the .pto file")->required();
    ver->add_option("--target", target, "target profile")->transform(CLI::CheckedTransformer(targets));
    ver->add_option("--sync", sync, sync_help)->transform(CLI::CheckedTransformer(syncs));

    CLI::App* fmt = app.add_subcommand("fmt", "print a program in one spelling");
    fmt->add_option("program", program, "the .pto file")->required();
    fmt->add_option("--form", form, "tile instruction spelling (preserve, asm, ssa, dps), or generic: MLIR's generic form")
        ->transform(CLI::CheckedTransformer(forms));

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        out << app.help();
        return kOk;
    } catch (const CLI::ParseError& e) {
        const CLI::App* sub = app.get_subcommands().empty() ? &app : app.get_subcommands().front();
        report(err, "CLI_USAGE", e.what());
        err << sub->help();
        return kUsage;
    }

    if (run->parsed()) {
        try {
            return command_run(program, entry, target, sync, checked, schedule, blocks, args, outs, out, err);
        } catch (const ArrayError& e) {
            report(err, e.code, e.message);
            return kFailed;
        }
    }
    if (ver->parsed()) {
        ParseResult parsed;
        return load(program, target, sync, parsed, err) ? kOk : kFailed;
    }
    std::string text;
    if (!read_program(program, text, err)) return kFailed;
    const ParseResult parsed = parse(text, program);
    if (!parsed.ok()) {
        report_all(err, parsed.diagnostics);
        return kFailed;
    }
    out << print(parsed.module, form);
    return kOk;
}

}  // namespace pto::as
