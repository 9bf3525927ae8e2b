// ulp_sweep: the worst error, in units in the last place, of the vectorised elementary functions of
// src/engine/elementwise/math_lines.hpp over every input of a format (or every N-th float).
//
//   ulp_sweep [--step N] [--fn exp,log,sqrt,rsqrt,recip] [--format f32,f16,bf16] [--accuracy default,high]
//             [--threads T]
//
// The reference is the function in long double (x87, 64-bit significand: expl, logl, sqrtl, 1/sqrtl,
// 1/x), accurate to about 2^-63 relative, i.e. 2^-39 float ulp: enough to measure an error, though an
// input within that distance of a rounding tie could be counted on the wrong side of 0.5 ulp. The
// error of a result r for the exact value v is |r - v| / ulp(v), ulp(v) the spacing of the format at
// |v| (its subnormal spacing below the normal range, its top binade's above it); infinity is right where
// v rounds to it, and counts as 2^(emax+1) elsewhere.
// A result that is the correctly rounded value has error <= 0.5; "misrounded" counts those above.
#include <pto/common/numeric.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/elementwise/math_lines.hpp"

namespace {

namespace ew = pto::engine::elementwise;
using ew::MathAccuracy;
using ew::MathFn;

struct FnInfo {
    const char* name;
    MathFn fn;
    long double (*reference)(long double);
};

const FnInfo kFunctions[] = {
    {"exp", MathFn::Exp, [](long double x) { return std::exp(x); }},
    {"log", MathFn::Log, [](long double x) { return std::log(x); }},
    {"sqrt", MathFn::Sqrt, [](long double x) { return std::sqrt(x); }},
    {"rsqrt", MathFn::Rsqrt, [](long double x) { return 1.0L / std::sqrt(x); }},
    {"recip", MathFn::Recip, [](long double x) { return 1.0L / x; }},
};

// A binary float format: its significand's fraction bits and its normal exponent range.
struct FormatInfo {
    const char* name;
    int fraction_bits;
    int min_exponent;  // of the smallest normal
    int max_exponent;  // of the largest finite
    int bits;          // 32 or 16
};

constexpr FormatInfo kF32{"f32", 23, -126, 127, 32};
constexpr FormatInfo kF16{"f16", 10, -14, 15, 16};
constexpr FormatInfo kBf16{"bf16", 7, -126, 127, 16};

long double ulp_error(const FormatInfo& f, long double exact, long double got)
{
    constexpr long double kInfinite = std::numeric_limits<long double>::infinity();
    if (std::isnan(exact) || std::isnan(got)) return std::isnan(exact) && std::isnan(got) ? 0 : kInfinite;
    if (std::isinf(exact)) return got == exact ? 0 : kInfinite;
    const long double magnitude = std::fabs(exact);
    // From the largest finite value plus half its ulp on, the correctly rounded result is infinity.
    const long double overflow = std::ldexp(2.0L - std::ldexp(1.0L, -f.fraction_bits - 1), f.max_exponent);
    if (magnitude >= overflow && std::isinf(got) && std::signbit(got) == std::signbit(exact)) return 0;
    if (std::isinf(got)) got = std::copysign(std::ldexp(1.0L, f.max_exponent + 1), got);
    int exponent = magnitude == 0 ? f.min_exponent : std::ilogb(magnitude);
    if (exponent < f.min_exponent) exponent = f.min_exponent;
    if (exponent > f.max_exponent) exponent = f.max_exponent;
    return std::fabs(got - exact) / std::ldexp(1.0L, exponent - f.fraction_bits);
}

struct Worst {
    long double ulp = -1;
    uint32_t input = 0;
    long double result = 0;
    uint64_t misrounded = 0;
    uint64_t checked = 0;

    void merge(const Worst& o)
    {
        if (o.ulp > ulp) {
            ulp = o.ulp;
            input = o.input;
            result = o.result;
        }
        misrounded += o.misrounded;
        checked += o.checked;
    }
};

long double widen(const FormatInfo& f, uint32_t bits)
{
    if (f.bits == 32) return std::bit_cast<float>(bits);
    if (f.fraction_bits == kF16.fraction_bits) return static_cast<float>(half::from_bits(static_cast<uint16_t>(bits)));
    return static_cast<float>(bfloat16_t::from_bits(static_cast<uint16_t>(bits)));
}

// Inputs first, first + step, ... below `end`, in batches through the line function.
Worst sweep_range(const FnInfo& fn, MathAccuracy accuracy, const FormatInfo& f, uint64_t first, uint64_t end,
                  uint64_t step)
{
    constexpr int64_t kBatch = 4096;
    std::vector<uint32_t> inputs(kBatch);
    std::vector<float> in32(kBatch), out32(kBatch);
    std::vector<uint16_t> in16(kBatch), out16(kBatch);
    Worst worst;
    for (uint64_t start = first; start < end;) {
        int64_t n = 0;
        for (; n < kBatch && start < end; ++n, start += step) inputs[n] = static_cast<uint32_t>(start);
        const ew::LineShape shape{1, n};
        if (f.bits == 32) {
            for (int64_t i = 0; i < n; ++i) in32[i] = std::bit_cast<float>(inputs[i]);
            ew::float_math_lines(fn.fn, accuracy, {out32.data(), 0}, {in32.data(), 0}, shape);
        } else {
            for (int64_t i = 0; i < n; ++i) in16[i] = static_cast<uint16_t>(inputs[i]);
            const auto lines = f.fraction_bits == kF16.fraction_bits ? ew::half_math_lines : ew::bfloat16_math_lines;
            lines(fn.fn, accuracy, {out16.data(), 0}, {in16.data(), 0}, shape);
        }
        for (int64_t i = 0; i < n; ++i) {
            const long double exact = fn.reference(widen(f, inputs[i]));
            const long double got = f.bits == 32 ? out32[i] : widen(f, out16[i]);
            const long double e = ulp_error(f, exact, got);
            if (e > worst.ulp) {
                worst.ulp = e;
                worst.input = inputs[i];
                worst.result = got;
            }
            worst.misrounded += e > 0.5L;
            ++worst.checked;
        }
    }
    return worst;
}

Worst sweep(const FnInfo& fn, MathAccuracy accuracy, const FormatInfo& f, uint64_t step, unsigned threads)
{
    const uint64_t end = uint64_t{1} << f.bits;
    // Thread t takes a contiguous share of the inputs, aligned to the step.
    const uint64_t count = (end + step - 1) / step;
    std::vector<Worst> parts(threads);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t) {
        const uint64_t from = count * t / threads * step, to = std::min(end, count * (t + 1) / threads * step);
        workers.emplace_back([&, t, from, to] { parts[t] = sweep_range(fn, accuracy, f, from, to, step); });
    }
    Worst total;
    for (unsigned t = 0; t < threads; ++t) {
        workers[t].join();
        total.merge(parts[t]);
    }
    return total;
}

std::vector<std::string> split(const std::string& list)
{
    std::vector<std::string> items;
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) items.push_back(item);
    return items;
}

bool listed(const std::string& list, const std::string& name)
{
    for (const auto& item : split(list)) {
        if (item == name) return true;
    }
    return false;
}

[[noreturn]] void usage()
{
    std::fprintf(stderr,
                 "usage: ulp_sweep [--step N] [--fn exp,log,sqrt,rsqrt,recip] [--format f32,f16,bf16]\n"
                 "                 [--accuracy default,high] [--threads T]\n");
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv)
{
    uint64_t step = 1;
    unsigned threads = 1;
    std::string fns = "exp,log,sqrt,rsqrt,recip", formats = "f16,bf16,f32", accuracies = "default,high";
    for (int i = 1; i < argc; ++i) {
        const std::string option = argv[i];
        if (i + 1 >= argc) usage();
        const std::string value = argv[++i];
        if (option == "--step") {
            step = std::strtoull(value.c_str(), nullptr, 10);
        } else if (option == "--threads") {
            threads = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
        } else if (option == "--fn") {
            fns = value;
        } else if (option == "--format") {
            formats = value;
        } else if (option == "--accuracy") {
            accuracies = value;
        } else {
            usage();
        }
    }
    if (step == 0 || threads == 0) usage();

    std::printf("%-6s %-5s %-8s %12s  %-12s %-16s %-16s %10s %12s\n", "fn", "type", "accuracy", "worst ulp",
                "input bits", "input", "result", "misrounded", "checked");
    for (const FormatInfo& f : {kF16, kBf16, kF32}) {
        if (!listed(formats, f.name)) continue;
        for (const FnInfo& fn : kFunctions) {
            if (!listed(fns, fn.name)) continue;
            for (const MathAccuracy accuracy : {MathAccuracy::Default, MathAccuracy::High}) {
                const char* accuracy_name = accuracy == MathAccuracy::Default ? "default" : "high";
                if (!listed(accuracies, accuracy_name)) continue;
                // Every input of the 16-bit formats; the step thins only the float sweep.
                const Worst w = sweep(fn, accuracy, f, f.bits == 32 ? step : 1, threads);
                std::printf("%-6s %-5s %-8s %12.6Lf  0x%08x   %-16.9Lg %-16.9Lg %10llu %12llu\n", fn.name, f.name,
                            accuracy_name, w.ulp, w.input, widen(f, w.input), w.result,
                            static_cast<unsigned long long>(w.misrounded), static_cast<unsigned long long>(w.checked));
                std::fflush(stdout);
            }
        }
    }
}
