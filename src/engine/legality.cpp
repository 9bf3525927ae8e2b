#include <pto/engine/legality.hpp>

namespace pto::engine {

void StopAtFirstFinding::report(Diagnostic finding) { runtime::fail(std::move(finding)); }

}  // namespace pto::engine
