// ptosim: the PTO-AS command line (see src/asm/cli/cli.hpp).
#include <iostream>

#include "asm/cli/cli.hpp"

int main(int argc, char** argv) { return pto::as::run_cli(argc, argv, std::cout, std::cerr); }
