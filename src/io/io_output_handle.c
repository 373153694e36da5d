/* The public output files (gsp_output, gsp.h's advanced part): a handle
 * over the library's own all-or-nothing output file (gsp_output.h), which
 * gsp_matrix_write uses, so a program's outputs behave as the library's. */
#include "gsp_internal.h"
#include "gsp_output.h"

struct gsp_output_s {
  gsp__ofile f;
  bool failed; /* a write or finish failed: the temporary is gone, a commit
                  must not report success */
};

gsp_info gsp_output_open(gsp_output *out, const char *path) {
  gsp_info info = GSP_SUCCESS;
  struct gsp_output_s *o = NULL;
#define GSP_FREE_ALL gsp__free(o)
  GSP_CHECK(out != NULL && path != NULL, GSP_NULL_POINTER, "gsp_output_open: out or path is NULL");
  GSP_ALLOC(o, 1, sizeof *o);
  GSP_TRY(gsp__ofile_open(&o->f, path)); /* creates nothing on error */
  o->failed = false;
  *out = o;
#undef GSP_FREE_ALL
  return info;
}

/* The checks every call on an open output shares. */
static gsp_info usable(gsp_output out, const char *fn) {
  if (out == NULL) return GSP_ERROR(GSP_NULL_POINTER, "%s: out is NULL", fn);
  if (out->failed) return GSP_ERROR(GSP_IO_ERROR, "%s: the output was given up after an earlier error", fn);
  return GSP_SUCCESS;
}

gsp_info gsp_output_stream(FILE **stream, gsp_output out) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(stream != NULL, GSP_NULL_POINTER, "gsp_output_stream: stream is NULL");
  GSP_TRY(usable(out, "gsp_output_stream"));
  FILE *f = NULL;
  GSP_TRY(gsp__ofile_stream(&out->f, &f));
  *stream = f;
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_output_npy_header(gsp_output out, gsp_type t, gsp_index nrows, gsp_index ncols) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_TRY(usable(out, "gsp_output_npy_header"));
  GSP_CHECK(t >= GSP_BOOL && t <= GSP_FP64, GSP_INVALID_VALUE, "gsp_output_npy_header: invalid type %d", (int)t);
  FILE *f = NULL;
  GSP_TRY(gsp__ofile_stream(&out->f, &f));
  unsigned char h[128];
  const size_t len = gsp__npy_header(h, t, nrows, ncols);
  GSP_CHECK(fwrite(h, 1, len, f) == len, GSP_IO_ERROR, "%s: cannot write the .npy header", out->f.shown);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp_output_finish(gsp_output out) {
  gsp_info info = usable(out, "gsp_output_finish");
  if (info < 0) return info;
  info = gsp__ofile_finish(&out->f); /* removes the temporary on error */
  out->failed = info < 0;
  return info;
}

gsp_info gsp_matrix_write_output(gsp_output out, const gsp_matrix A, const gsp_write_opts *opts) {
  gsp_info info = usable(out, "gsp_matrix_write_output");
  if (info < 0) return info;
  info = gsp__matrix_write_to(&out->f, A, opts); /* finishes, or aborts on error */
  out->failed = info < 0;
  return info;
}

gsp_info gsp_output_commit(gsp_output *out) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  GSP_CHECK(out != NULL, GSP_NULL_POINTER, "gsp_output_commit: out is NULL");
  info = usable(*out, "gsp_output_commit");
  if (info == GSP_SUCCESS) info = gsp__ofile_commit(&(*out)->f); /* closed either way */
  gsp_output_abort(out);
#undef GSP_FREE_ALL
  return info;
}

void gsp_output_abort(gsp_output *out) {
  if (!out || !*out) return;
  gsp__ofile_abort(&(*out)->f); /* nothing left to do after a commit */
  gsp__free(*out);
  *out = NULL;
}

void gsp_output_remove_temporaries(void) {
  gsp__remove_temporaries();
}
