/*
 * AVX-512 vector operations of the phase-3 tile kernel
 * (closure_cpu_fw_tile.h), per type suffix: the vector type and its lane
 * count, unaligned load / store, broadcast, add, min / max with the operand
 * order of gsp_min / gsp_max (x < y ? x : y: y when unordered) and, for
 * integers, a per-lane select on b == x. FW_MR_ x FW_MW_ is the register
 * tile: rows of C by vectors of a row.
 *
 * Measured on Zen 4 (bench_cpu_ceiling): vaddps and vminps share two
 * pipes, the FMA pipes are free, so the float add is fma(a, 1, b), which
 * rounds a + b once, exactly as the add does (+50%); an 8 x 1 register
 * tile (one B vector, eight broadcasts a k) beat 4 x 4, 2 x 4, 8 x 2,
 * 16 x 1 and 32 x 1 (5.2e10 fp32 tasks/s a core against 3.4-5.0e10).
 */
#include <immintrin.h>

#define FW_SIMD_ISA 1

#define FW_V_f32          __m512
#define FW_VL_f32         16
#define FW_VLOAD_f32(p)   _mm512_loadu_ps(p)
#define FW_VSTORE_f32     _mm512_storeu_ps
#define FW_VSET1_f32      _mm512_set1_ps
#define FW_VADD_f32(x, y) _mm512_fmadd_ps(x, _mm512_set1_ps(1.0f), y) /* x + y, one rounding */
#define FW_VMIN_f32       _mm512_min_ps
#define FW_VMAX_f32       _mm512_max_ps
#define FW_MR_f32         8
#define FW_MW_f32         1

#define FW_V_f64          __m512d
#define FW_VL_f64         8
#define FW_VLOAD_f64(p)   _mm512_loadu_pd(p)
#define FW_VSTORE_f64     _mm512_storeu_pd
#define FW_VSET1_f64      _mm512_set1_pd
#define FW_VADD_f64(x, y) _mm512_fmadd_pd(x, _mm512_set1_pd(1.0), y) /* x + y, one rounding */
#define FW_VMIN_f64       _mm512_min_pd
#define FW_VMAX_f64       _mm512_max_pd
#define FW_MR_f64         8
#define FW_MW_f64         1

#define FW_V_i32                     __m512i
#define FW_VL_i32                    16
#define FW_VLOAD_i32(p)              _mm512_loadu_si512((const void *)(p))
#define FW_VSTORE_i32(p, v)          _mm512_storeu_si512((void *)(p), v)
#define FW_VSET1_i32                 _mm512_set1_epi32
#define FW_VADD_i32                  _mm512_add_epi32
#define FW_VMIN_i32                  _mm512_min_epi32
#define FW_VMAX_i32                  _mm512_max_epi32
#define FW_VSELEQ_i32(b, x, yes, no) _mm512_mask_blend_epi32(_mm512_cmpeq_epi32_mask(b, x), no, yes)
#define FW_MR_i32                    8
#define FW_MW_i32                    1

#define FW_V_i64                     __m512i
#define FW_VL_i64                    8
#define FW_VLOAD_i64(p)              _mm512_loadu_si512((const void *)(p))
#define FW_VSTORE_i64(p, v)          _mm512_storeu_si512((void *)(p), v)
#define FW_VSET1_i64(x)              _mm512_set1_epi64((long long)(x))
#define FW_VADD_i64                  _mm512_add_epi64
#define FW_VMIN_i64                  _mm512_min_epi64
#define FW_VMAX_i64                  _mm512_max_epi64
#define FW_VSELEQ_i64(b, x, yes, no) _mm512_mask_blend_epi64(_mm512_cmpeq_epi64_mask(b, x), no, yes)
#define FW_MR_i64                    8
#define FW_MW_i64                    1
