/* SNAP-style edge lists: one "u v" or "u v w" per line, separated by spaces,
 * tabs or commas; '#' or '%' starts a comment (a whole line or the rest of
 * one). Every data line must have as many columns as the first. */
#include <string.h>

#include "io_internal.h"

/* ---- id remapping: open addressing, original id -> dense index ---- */

typedef struct {
  uint64_t *slot_id; /* original id + 1; 0 = empty */
  uint32_t *slot_ix;
  size_t mask, count;
  int64_t *ids; /* dense index -> original id */
  size_t ids_cap;
} id_map;

static void map_free(id_map *m) {
  GSP_FREE(m->slot_id);
  GSP_FREE(m->slot_ix);
  GSP_FREE(m->ids);
}

static gsp_info map_init(id_map *m) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL map_free(m)
  memset(m, 0, sizeof *m);
  m->mask = 1023;
  GSP_CALLOC(m->slot_id, m->mask + 1, sizeof *m->slot_id);
  GSP_ALLOC(m->slot_ix, m->mask + 1, sizeof *m->slot_ix);
  m->ids_cap = 1024;
  GSP_ALLOC(m->ids, m->ids_cap, sizeof *m->ids);
#undef GSP_FREE_ALL
  return info;
}

static inline size_t map_hash(uint64_t id) {
  return (size_t)gsp__mix64(id);
}

static gsp_info map_rehash(id_map *m) {
  gsp_info info = GSP_SUCCESS;
  size_t ncap = (m->mask + 1) * 2;
  uint64_t *sid = NULL;
  uint32_t *six = NULL;
#define GSP_FREE_ALL (gsp__free(sid), gsp__free(six))
  GSP_CALLOC(sid, ncap, sizeof *sid);
  GSP_ALLOC(six, ncap, sizeof *six);
  for (size_t s = 0; s <= m->mask; s++) {
    if (!m->slot_id[s]) continue;
    size_t h = map_hash(m->slot_id[s] - 1) & (ncap - 1);
    while (sid[h]) h = (h + 1) & (ncap - 1);
    sid[h] = m->slot_id[s];
    six[h] = m->slot_ix[s];
  }
  gsp__free(m->slot_id);
  gsp__free(m->slot_ix);
  m->slot_id = sid;
  m->slot_ix = six;
  m->mask = ncap - 1;
#undef GSP_FREE_ALL
  return info;
}

/* Dense index of id, numbering new ids in order of appearance. */
static gsp_info map_get(id_map *m, uint64_t id, uint64_t *ix) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL
  size_t h = map_hash(id) & m->mask;
  for (;;) {
    uint64_t s = m->slot_id[h];
    if (s == id + 1) {
      *ix = m->slot_ix[h];
      return GSP_SUCCESS;
    }
    if (s == 0) break;
    h = (h + 1) & m->mask;
  }
  GSP_CHECK(m->count < GSP_INDEX_MAX, GSP_TOO_LARGE, "more than %llu distinct vertex ids",
            (unsigned long long)GSP_INDEX_MAX);
  if (m->count == m->ids_cap) {
    size_t nc = m->ids_cap * 2;
    int64_t *ni = gsp__realloc_array(m->ids, nc, sizeof *ni);
    GSP_CHECK(ni != NULL, GSP_OUT_OF_MEMORY, "cannot grow the id map");
    m->ids = ni;
    m->ids_cap = nc;
  }
  m->slot_id[h] = id + 1;
  m->slot_ix[h] = (uint32_t)m->count;
  m->ids[m->count] = (int64_t)id;
  *ix = m->count++;
  if (m->count * 2 > m->mask + 1) GSP_TRY(map_rehash(m));
  return info;
}

/* ---- reader ---- */

/* Move past the separator after a field: blanks with at most one comma.
 * Returns 0 when another field follows, 1 at the end of the data on the
 * line, -1 for an empty field (",," or a trailing comma). */
static inline int next_field(const char **pp) {
  const char *p = gsp__skip_space(*pp);
  bool comma = *p == ',';
  if (comma) p = gsp__skip_space(p + 1);
  *pp = p;
  if (*p == ',') return -1;
  if (*p == '\0' || *p == '#' || *p == '%') return comma ? -1 : 1;
  return 0;
}

/* The source and target of an edge line, as row and column indices (ids
 * remapped, made 0-based, checked against the limit). */
static gsp_info endpoints(uint64_t ix[2], gsp__reader *r, const char **pp, const gsp__read_ctx *c, id_map *map) {
  gsp_info info = GSP_SUCCESS;
  const gsp_id_mode mode = c->o.ids;
  const uint64_t limit = c->o.nvertices; /* 0: none */
  const char *p = *pp;
  uint64_t id[2];
  for (int k = 0; k < 2; k++) {
    const char *what = k ? "target vertex id" : "source vertex id";
    if (k) {
      int nf = next_field(&p);
      if (nf < 0) GSP_TRY(gsp__parse_error(r, "empty field (a stray ',')"));
      if (nf > 0)
        GSP_TRY(gsp__parse_error(r,
                                 "missing %s (need \"u v\" or \"u v "
                                 "w\")",
                                 what));
    }
    GSP_TRY(gsp__read_index_fast(r, &p, &id[k], what));
    if (mode == GSP_IDS_REMAP) {
      if (id[k] > (uint64_t)INT64_MAX)
        GSP_TRY(gsp__parse_error(r, "%s %llu is too large", what, (unsigned long long)id[k]));
      GSP_TRY(map_get(map, id[k], &ix[k]));
      continue;
    }
    if (mode == GSP_IDS_ONE_BASED && id[k] == 0) GSP_TRY(gsp__parse_error(r, "%s 0 in a file read as 1-based", what));
    ix[k] = id[k] - (mode == GSP_IDS_ONE_BASED);
    if (limit ? ix[k] >= limit : ix[k] >= GSP_INDEX_MAX) {
      uint64_t lo = mode == GSP_IDS_ONE_BASED;
      uint64_t hi = (limit ? limit : GSP_INDEX_MAX) - 1 + lo;
      GSP_TRY(gsp__parse_error(r, "%s %llu out of range %llu..%llu%s", what, (unsigned long long)id[k],
                               (unsigned long long)lo, (unsigned long long)hi,
                               limit ? ""
                                     : " (use id remapping for sparse "
                                       "ids)"));
    }
  }
  *pp = p;
  return info;
}

/* The weight column, the last of the line. */
static gsp_info weight(gsp__val *w, gsp__reader *r, const char **p, const gsp__read_ctx *c, gsp__tuples *T) {
  gsp_info info = GSP_SUCCESS;
  GSP_TRY(gsp__read_value_fast(r, c, p, T, w));
  const int nf = next_field(p);
  if (nf < 0) GSP_TRY(gsp__parse_error(r, "empty field (a stray ',')"));
  if (nf == 0)
    GSP_TRY(gsp__parse_error(r,
                             "unexpected '%.*s' after the weight "
                             "(at most 3 columns: u v w)",
                             gsp__token_len(*p, 40), *p));
  return info;
}
#undef GSP_FREE_ALL

gsp_info gsp__read_edgelist(gsp_matrix *A, gsp__reader *r, const gsp__read_ctx *c) {
  gsp_info info = GSP_SUCCESS;
  gsp__tuples T = {0};
  id_map map = {0};
#define GSP_FREE_ALL (gsp__tuples_free(&T), map_free(&map))
  const gsp_id_mode mode = c->o.ids;
  const uint64_t limit = c->o.nvertices; /* 0: none */
  const bool remap = mode == GSP_IDS_REMAP;
  if (remap) GSP_TRY(map_init(&map));
  int columns = 0; /* 2 or 3, from the first data line */
  char *line, *end;
  for (;;) {
    GSP_TRY(gsp__reader_line(r, &line, &end));
    if (!line) break;
    const char *p = gsp__skip_space(line);
    if (*p == '\0' || *p == '#' || *p == '%') continue;
    if (*p == ',') GSP_TRY(gsp__parse_error(r, "empty field before the first ','"));
    uint64_t ix[2];
    GSP_TRY(endpoints(ix, r, &p, c, &map));
    int nf = next_field(&p);
    if (nf < 0) GSP_TRY(gsp__parse_error(r, "empty field (a stray ',')"));
    bool has_w = nf == 0;
    if (columns == 0) {
      columns = has_w ? 3 : 2;
      GSP_TRY(gsp__tuples_for(&T, c, has_w, (size_t)1 << 16));
    } else if ((columns == 3) != has_w) {
      GSP_TRY(gsp__parse_error(r, "%d columns, but the first edge line had %d", has_w ? 3 : 2, columns));
    }
    gsp__val w = {0};
    if (has_w) GSP_TRY(weight(&w, r, &p, c, &T));
    GSP_TRY(gsp__tuples_push(&T, ix[0], ix[1], w));
    if (c->o.symmetrize && ix[0] != ix[1]) GSP_TRY(gsp__tuples_push(&T, ix[1], ix[0], w));
  }
  if (columns == 0) GSP_TRY(gsp__tuples_for(&T, c, false, 0)); /* no edges */
  gsp_index n = remap ? (gsp_index)map.count : (T.maxrow > T.maxcol ? T.maxrow : T.maxcol);
  if (limit) {
    GSP_CHECK(!remap || n <= limit, GSP_PARSE_ERROR, "%s: %llu distinct vertex ids, more than nvertices = %llu",
              r->path, (unsigned long long)n, (unsigned long long)limit);
    n = limit;
  }
  /* ids imply the size: a lone id of 2e8 must not allocate 2e8 rows for a
   * few bytes of input (an explicit nvertices is the caller's choice) */
  if (!remap && !limit)
    GSP_TRY(gsp__check_dims(r, n, n, "the largest vertex id implies",
                            "; read sparse ids with id remapping "
                            "(GSP_IDS_REMAP, gsp --remap) or give nvertices"));
  T.nrows = T.ncols = n;
  T.id_base = mode == GSP_IDS_ONE_BASED;
  T.id_of = remap ? map.ids : NULL;
  if (c->ids_out && remap) {
    /* hand over the id array, trimmed */
    int64_t *ids = gsp__realloc_array(map.ids, map.count ? map.count : 1, sizeof *ids);
    if (ids) {
      map.ids = ids;
      T.id_of = ids;
    }
  }
  GSP_TRY(gsp__tuples_build(A, &T, gsp__result_type(c, &T), c->dup, c->o.drop_self_loops, r->path));
  if (c->ids_out && remap) {
    *c->ids_out = map.ids;
    *c->nids_out = map.count;
    map.ids = NULL;
  }
  map_free(&map);
#undef GSP_FREE_ALL
  return info;
}
