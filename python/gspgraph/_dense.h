/* Reading a dense n x n numpy graph as scipy.sparse.csgraph reads it, in C:
 * one parallel pass from the caller's array (any real or integer numpy type,
 * or bool) to the library's type, instead of numpy's several passes over
 * n^2 values (null values, NaN and inf, casts, the non-edge marker). */
#ifndef GSP_PY_DENSE_H
#define GSP_PY_DENSE_H

#include <stdbool.h>
#include <stddef.h>

#include "gsp.h"

/* Room for a converted graph (released with free()): a large one 2 MiB
 * aligned and advised into transparent huge pages, as the library's own
 * large arrays are, so that the conversion's first writes fault it in
 * 2 MiB at a time rather than 4 KiB. */
void *dense_alloc(size_t bytes);

/* The numpy types read directly (others are cast by numpy first). */
typedef enum {
  DENSE_F64,
  DENSE_F32,
  DENSE_I64,
  DENSE_I32,
  DENSE_I16,
  DENSE_I8,
  DENSE_U32,
  DENSE_U16,
  DENSE_U8,
  DENSE_BOOL,
  DENSE_UNREAD
} dense_kind;

/* The kind of a buffer from its struct-module format and item size. */
dense_kind dense_kind_of(const char *format, size_t itemsize);

typedef struct {
  dense_kind src;
  gsp_type t;         /* the library's type */
  bool has_null;      /* entries equal to null_value are non-edges */
  double null_value;  /* NaN and +-inf are non-edges always */
  bool unweighted;    /* every edge weighs 1 (true for bool) */
  bool round;         /* the nearest value where t cannot hold one exactly */
  int undirected;     /* 0: as given; 1: both directions, the lighter; 2: the heavier (bool: either) */
  const void *absent; /* the marker of a non-edge in t (the semiring's zero): an infinity for floats
                         (never an edge), false for bool; an integer weight equal to it means no arc */
  int threads;
  bool stream; /* set by dense_convert: streaming stores for a large array */
} dense_read;

/* Converts the n x n values src into dst (n x n items of r->t). Returns
 * (size_t)-1, or the first cell (row-major) whose weight t cannot hold
 * (dst is then unspecified); dense_bad says why. */
size_t dense_convert(void *dst, const void *src, size_t n, const dense_read *r);

/* The sentence for bad cell k of src: "weight W at (i, j) <why>". */
void dense_bad(char *msg, size_t size, const void *src, size_t k, size_t n, const dense_read *r);

/* Whether src has an edge of negative weight (non-edges as dense_read). */
bool dense_has_negative(const void *src, size_t cells, const dense_read *r);

#endif
