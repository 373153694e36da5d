/*
 * AVX2 vector operations of the phase-3 tile kernel
 * (closure_cpu_fw_tile.h); the same set as closure_cpu_simd_avx512.h on
 * 256-bit vectors (16 registers: a 4 x 2 register tile, 8 accumulators;
 * the float add as an FMA for the same reason). AVX2 has no 64-bit integer
 * min / max: compare and blend.
 */
#include <immintrin.h>

#define FW_SIMD_ISA 1

#define FW_V_f32          __m256
#define FW_VL_f32         8
#define FW_VLOAD_f32(p)   _mm256_loadu_ps(p)
#define FW_VSTORE_f32     _mm256_storeu_ps
#define FW_VSET1_f32      _mm256_set1_ps
#define FW_VADD_f32(x, y) _mm256_fmadd_ps(x, _mm256_set1_ps(1.0f), y)
#define FW_VMIN_f32       _mm256_min_ps
#define FW_VMAX_f32       _mm256_max_ps
#define FW_MR_f32         4
#define FW_MW_f32         2

#define FW_V_f64          __m256d
#define FW_VL_f64         4
#define FW_VLOAD_f64(p)   _mm256_loadu_pd(p)
#define FW_VSTORE_f64     _mm256_storeu_pd
#define FW_VSET1_f64      _mm256_set1_pd
#define FW_VADD_f64(x, y) _mm256_fmadd_pd(x, _mm256_set1_pd(1.0), y)
#define FW_VMIN_f64       _mm256_min_pd
#define FW_VMAX_f64       _mm256_max_pd
#define FW_MR_f64         4
#define FW_MW_f64         2

#define FW_V_i32                     __m256i
#define FW_VL_i32                    8
#define FW_VLOAD_i32(p)              _mm256_loadu_si256((const __m256i *)(p))
#define FW_VSTORE_i32(p, v)          _mm256_storeu_si256((__m256i *)(p), v)
#define FW_VSET1_i32                 _mm256_set1_epi32
#define FW_VADD_i32                  _mm256_add_epi32
#define FW_VMIN_i32                  _mm256_min_epi32
#define FW_VMAX_i32                  _mm256_max_epi32
#define FW_VSELEQ_i32(b, x, yes, no) _mm256_blendv_epi8(no, yes, _mm256_cmpeq_epi32(b, x))
#define FW_MR_i32                    4
#define FW_MW_i32                    2

#define FW_V_i64                     __m256i
#define FW_VL_i64                    4
#define FW_VLOAD_i64(p)              _mm256_loadu_si256((const __m256i *)(p))
#define FW_VSTORE_i64(p, v)          _mm256_storeu_si256((__m256i *)(p), v)
#define FW_VSET1_i64(x)              _mm256_set1_epi64x((long long)(x))
#define FW_VADD_i64                  _mm256_add_epi64
#define FW_VMIN_i64(x, y)            fw_avx2_min_i64(x, y)
#define FW_VMAX_i64(x, y)            fw_avx2_max_i64(x, y)
#define FW_VSELEQ_i64(b, x, yes, no) _mm256_blendv_epi8(no, yes, _mm256_cmpeq_epi64(b, x))
#define FW_MR_i64                    4
#define FW_MW_i64                    2

static inline __m256i fw_avx2_min_i64(__m256i x, __m256i y) {
  return _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi64(x, y));
}
static inline __m256i fw_avx2_max_i64(__m256i x, __m256i y) {
  return _mm256_blendv_epi8(x, y, _mm256_cmpgt_epi64(y, x));
}
