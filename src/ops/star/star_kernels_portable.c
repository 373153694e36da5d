/*
 * The portable instance of the sparse star's kernels (star_kernels_isa.h).
 */
#include "cpu_isa.h"

#define STAR_ISA portable
#include "star_kernels_isa.h"
