// Compiled for the default target (cpu); mismatch_b.cpp is compiled for a5 into the same program.
#include <pto/pto-inst.hpp>

int run_other_unit();

int main()
{
    pto::Tile<pto::TileType::Vec, float, 8, 64> t;
    TASSIGN(t, 0);
    return run_other_unit();
}
