/*
 * gsp_apsp's plan (apsp_plan.h): from the facts the entry gathered, the
 * shape the cost model prices (whether the result goes out in blocks, what
 * fits the GPU, the batch within a memory cap), the algorithm, where it
 * runs and the row blocks. No device call, no allocation: tests run it
 * with made-up machines.
 */
#include <string.h>

#include "apsp_plan.h"
#include "star.h"

const char *gsp__apsp_algo_name(gsp_apsp_algo a) {
  switch (a) {
  case GSP_APSP_FLOYD_WARSHALL:
    return "Floyd-Warshall";
  case GSP_APSP_MSSSP:
    return "many-source relaxation";
  case GSP_APSP_JOHNSON:
    return "Johnson";
  case GSP_APSP_SPARSE_STAR:
    return "the sparse star";
  default:
    return "AUTO";
  }
}

/* Bytes of one result row: values (at least 8 bytes each, the width rows
 * are computed in) and int64 parents. */
static size_t row_bytes(const gsp__apsp_facts *f) {
  const size_t os = gsp_type_size(f->out);
  return (size_t)(f->shape.n > 0 ? f->shape.n : 1) * ((os > 8 ? os : 8) + (f->shape.paths ? 8 : 0));
}

/* The shape as the cost model prices it: the caller's facts plus what
 * follows from the machine. */
static gsp__apsp_shape priced_shape(const gsp__apsp_facts *f) {
  gsp__apsp_shape s = f->shape;
  const size_t result_bytes = (size_t)s.ns * row_bytes(f);
  /* rows to a callback go out in blocks, unless they land in the caller's
   * whole-result array (rows_out): that is the whole result, and AUTO may
   * take Floyd-Warshall for it */
  s.blocks = (f->callback && !f->rows_out) || (f->device_cap && result_bytes > f->device_cap) ||
             (f->gpu && result_bytes > f->dev_bytes);
  s.fw_gpu = s.relax_gpu = false;
  s.batch = 0;
  if (f->gpu) {
    s.fw_gpu = f->closure_bytes <= f->dev_bytes && (!s.paths || f->positive);
    /* the many-source kernel within the cap: a batch of at least 32 */
    s.relax_gpu = s.n < INT32_MAX && f->msssp_bytes[0] <= f->dev_bytes;
    if (s.relax_gpu && f->device_cap) {
      int k = 0;
      while (k + 1 < GSP_APSP_BATCHES && f->msssp_bytes[k + 1] <= f->dev_bytes) k++;
      s.batch = 32 * (int64_t)(k + 1);
    }
  }
  return s;
}

bool gsp__apsp_plan_wants_depth(const gsp__apsp_facts *f) {
  if (f->asked != GSP_APSP_AUTO || f->shape.depth != 0) return false;
  const gsp__apsp_shape s = priced_shape(f);
  /* the sparse star's gate needs it (the star runs on the CPU) */
  if (s.n > 0 && !f->required) return true;
  /* the relaxation looks cheaper for a random graph's depth: probe this
   * graph's (O(m), small beside the relaxation's k m) before trusting it */
  double sec[GSP_APSP_ALGOS];
  gsp__apsp_predict(sec, &s);
  return s.relax_gpu && !s.blocks && gsp__apsp_pick(sec, &s) != GSP_APSP_FLOYD_WARSHALL;
}

bool gsp__apsp_plan_wants_star(const gsp__apsp_facts *f) {
  if (f->shape.n <= 0 || f->shape.star) return false;
  if (f->asked == GSP_APSP_SPARSE_STAR) return true;
  if (f->asked != GSP_APSP_AUTO || f->required) return false;
  const gsp__apsp_shape s = priced_shape(f);
  double sec[GSP_APSP_ALGOS];
  gsp__apsp_predict(sec, &s);
  return gsp__apsp_star_worth(&s, sec);
}

/* Rows per block when gsp_apsp stages rows itself (blocks, or a type
 * conversion): sized to the memory there is, since a fixed size would fail
 * where the whole result does not fit, the case blocks are for. */
static int64_t staged_rows(const gsp__apsp_facts *f, const gsp__apsp_shape *s, gsp_apsp_algo algo) {
  const size_t per_row = row_bytes(f);
  const bool cpu_rows = algo == GSP_APSP_SPARSE_STAR || (algo != GSP_APSP_FLOYD_WARSHALL && !s->relax_gpu);
  size_t budget = f->device_cap ? f->device_cap : cpu_rows ? GSP_APSP_CPU_STAGING_BYTES : GSP_APSP_STAGING_BYTES;
  const size_t host = f->host_cap ? f->host_cap : f->host_bytes / 4;
  if (host < budget) budget = host;
  int64_t b = (int64_t)(budget / per_row);
  if (b >= 64) b -= b % 32; /* whole warps of sources on the GPU */
  /* the star solves STAR_B sources a thread at a time: unless the caller
   * caps the memory, a block keeps every thread busy twice over (measured
   * on 16 cores: 128-row blocks of a 65536-vertex grid ran 2 threads, 6x
   * slower) */
  const int64_t fill = (int64_t)STAR_B * 2 * s->threads, room = (int64_t)(host / per_row);
  if (algo == GSP_APSP_SPARSE_STAR && !f->device_cap && !f->host_cap && b < fill) b = fill < room ? fill : room;
  return b < 1 ? 1 : b < s->ns ? b : s->ns;
}

static int64_t block_rows(const gsp__apsp_facts *f, const gsp__apsp_shape *s, gsp_apsp_algo algo, bool *staged) {
  const int64_t ns = s->ns;
  int64_t B = ns;
  /* int32 parents are computed as int64 rows a block at a time */
  const bool staging = f->out != s->t || (algo == GSP_APSP_JOHNSON && s->t == GSP_INT32) || f->p32;
  if (f->row_block > 0) B = f->row_block < (gsp_index)ns ? (int64_t)f->row_block : ns;
  else if (s->blocks || staging) B = staged_rows(f, s, algo), *staged = true;
  if (f->progress && algo != GSP_APSP_FLOYD_WARSHALL && f->row_block == 0) {
    /* parts for the progress callback: 8 at least (whole batches of 1024
     * sources on the GPU); each part drains the GPU's copy pipeline once */
    int64_t part = (ns + 7) / 8;
    if (part > 1024) part = (part + 1023) / 1024 * 1024;
    if (part < B) B = part;
  }
  return B < 1 ? 1 : B;
}

gsp_info gsp__apsp_plan_make(gsp__apsp_plan *p, const gsp__apsp_facts *f, const char *fn) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  memset(p, 0, sizeof *p);
  p->shape = priced_shape(f);
  const gsp__apsp_shape *s = &p->shape;
  gsp__apsp_predict(p->predicted, s);
  const gsp_apsp_algo algo = f->asked != GSP_APSP_AUTO ? f->asked : gsp__apsp_pick(p->predicted, s);
  GSP_CHECK(!(algo == GSP_APSP_SPARSE_STAR && f->required), GSP_INVALID_VALUE,
            "%s: GSP_APSP_SPARSE_STAR runs on the CPU, and the CUDA backend was required", fn);
  GSP_CHECK(!(algo == GSP_APSP_MSSSP && s->negative), GSP_INVALID_VALUE,
            "%s: GSP_APSP_MSSSP needs non-negative weights and A has a negative one "
            "(use GSP_APSP_JOHNSON, FLOYD_WARSHALL or AUTO)",
            fn);
  p->algo = algo;
  p->batch = s->batch;
  p->row_block = block_rows(f, s, algo, &p->staged);
  p->row_blocks = (s->ns + p->row_block - 1) / p->row_block;
  const bool fits = algo == GSP_APSP_FLOYD_WARSHALL ? s->fw_gpu : s->relax_gpu;
  p->backend = algo != GSP_APSP_SPARSE_STAR && fits ? GSP_BACKEND_CUDA : GSP_BACKEND_CPU;
  /* An explicit CUDA request runs there or fails: relaxation needs at least
   * a batch of 32 sources on the device; Floyd-Warshall goes to the GPU
   * closure, which runs out of core when the matrix does not fit. */
  p->device_short = f->required && s->n > 0 && s->n < INT32_MAX && algo != GSP_APSP_FLOYD_WARSHALL &&
                    algo != GSP_APSP_SPARSE_STAR && !s->relax_gpu;
  p->gpu = f->gpu && algo != GSP_APSP_SPARSE_STAR &&
           (algo == GSP_APSP_FLOYD_WARSHALL ? s->fw_gpu || f->required : s->relax_gpu);
#undef GSP_FREE_ALL
  return info;
}
