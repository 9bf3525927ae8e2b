// pto.vtranspose: a UB-to-UB transpose of a row-major matrix through TTRANS's block kernel.
#include <pto/engine/ops/vector.hpp>

#include <string>
#include <vector>

#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include "engine/layout/transpose_kernel.hpp"

namespace pto::engine::vector {

std::string_view ub_transpose_problem(DType dtype) { return rules::ub_transpose_dtype_ok(dtype) ? "" : "elements of 8, 16 or 32 bits"; }

void transpose_matrix(int element_bytes, const std::byte* src, int rows, int cols, std::byte* dst)
{
    const std::size_t bytes = std::size_t(rows) * std::size_t(cols) * std::size_t(element_bytes);
    if (runtime::checked())
        if (const int64_t bad = runtime::first_unwritten(src, bytes); bad >= 0)
            runtime::fail({"RUN_UNINIT_READ", "", "src", "reads a byte " + std::to_string(bad) + " bytes past its address that nothing has written",
                           "initialised data", "never-written bytes", ""});
    // The kernel writes while it reads: a source the result overlaps is read from a copy.
    thread_local std::vector<std::byte> copy;
    if (dst < src + bytes && src < dst + bytes) {
        copy.assign(src, src + bytes);
        src = copy.data();
    }
    layout::transpose_rows(element_bytes, {src, cols, dst, rows, rows, cols});
    runtime::mark_written(dst, bytes);
}

}  // namespace pto::engine::vector
