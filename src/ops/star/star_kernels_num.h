/*
 * The sparse star's kernels of one numeric type (STAR_CT, STAR_SFX defined
 * by star_kernels_isa.h, undefined here) on the four numeric closure
 * semirings, each stamped from star_kernels_body.h.
 */
#define STAR_SR  min_plus
#define STAR_SRE GSP_MIN_PLUS
#include "star_kernels_body.h"
#undef STAR_SR
#undef STAR_SRE
#define STAR_SR  max_plus
#define STAR_SRE GSP_MAX_PLUS
#include "star_kernels_body.h"
#undef STAR_SR
#undef STAR_SRE
#define STAR_SR  max_min
#define STAR_SRE GSP_MAX_MIN
#include "star_kernels_body.h"
#undef STAR_SR
#undef STAR_SRE
#define STAR_SR  min_max
#define STAR_SRE GSP_MIN_MAX
#include "star_kernels_body.h"
#undef STAR_SR
#undef STAR_SRE
#undef STAR_CT
#undef STAR_SFX
