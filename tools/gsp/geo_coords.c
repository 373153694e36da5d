/* Vertex coordinates for the map outputs (--geojson, --svg): a DIMACS
 * coordinate file (`v ID X Y`, X = longitude and Y = latitude in integer
 * micro-degrees, plain or gzip), given by --coords or found beside the
 * graph file, matched to the graph's vertices by file id. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "cli.h"

typedef struct {
  int64_t id;
  gsp_index v;
} id_slot;

static int cmp_slot(const void *a, const void *b) {
  int64_t x = ((const id_slot *)a)->id, y = ((const id_slot *)b)->id;
  return (x > y) - (x < y);
}

static bool is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* GRAPH with ".gz" and then its extension replaced by ext: the coordinate
 * file of the same stem (data/x.gr.gz -> data/x.co). */
static char *beside(const char *graph, const char *ext) {
  size_t n = strlen(graph);
  if (n > 3 && strcmp(graph + n - 3, ".gz") == 0) n -= 3;
  const char *slash = strrchr(graph, '/');
  size_t base = slash ? (size_t)(slash - graph) + 1 : 0;
  for (size_t k = n; k > base + 1; k--)
    if (graph[k - 1] == '.') {
      n = k - 1;
      break;
    }
  char *s = malloc(n + strlen(ext) + 1);
  if (!s) return NULL;
  memcpy(s, graph, n);
  strcpy(s + n, ext);
  return s;
}

/* One integer field of a `v` line; false at a non-integer. */
static bool field(char **s, long long *out) {
  char *end;
  errno = 0;
  *out = strtoll(*s, &end, 10);
  if (errno || end == *s || (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n')) return false;
  *s = end;
  return true;
}

/* Read map->path into map->lon/lat for the vertices of g. */
static int read_coords(const char *cmd, const cli_graph *g, cli_map *map) {
  int rc = CLI_INPUT;
  gzFile f = gzopen(map->path, "rb");
  id_slot *slots = malloc((g->n ? g->n : 1) * sizeof *slots);
  if (!f || !slots) {
    fprintf(stderr, "gsp %s: %s: cannot open: %s\n", cmd, map->path,
            f ? "out of memory" : strerror(errno ? errno : ENOENT));
    rc = f ? CLI_FAILURE : CLI_INPUT;
    goto done;
  }
  for (gsp_index v = 0; v < g->n; v++) slots[v] = (id_slot){cli_id(g, v), v};
  qsort(slots, g->n, sizeof *slots, cmp_slot);
  char line[1024];
  long long lineno = 0;
  while (gzgets(f, line, sizeof line)) {
    lineno++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
      fprintf(stderr, "gsp %s: %s:%lld: line too long\n", cmd, map->path, lineno);
      goto done;
    }
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == 'c' || *s == 'p' || *s == '\n' || *s == '\r' || !*s) continue;
    long long id, x, y;
    char *t = s + 1;
    if (*s != 'v' || (s[1] != ' ' && s[1] != '\t') || !field(&t, &id) || !field(&t, &x) || !field(&t, &y) ||
        t[strspn(t, " \t\r\n")]) {
      fprintf(stderr,
              "gsp %s: %s:%lld: expected 'v ID X Y' (integer "
              "micro-degrees)\n",
              cmd, map->path, lineno);
      goto done;
    }
    if (x < -180000000LL || x > 180000000LL || y < -90000000LL || y > 90000000LL) {
      fprintf(stderr,
              "gsp %s: %s:%lld: vertex %lld: (%lld, %lld) is not a "
              "longitude and latitude in micro-degrees\n",
              cmd, map->path, lineno, id, x, y);
      goto done;
    }
    id_slot key = {id, 0};
    const id_slot *hit = bsearch(&key, slots, g->n, sizeof *slots, cmp_slot);
    if (!hit) continue; /* a vertex without arcs, absent from the graph */
    if (!isnan(map->lon[hit->v])) {
      fprintf(stderr, "gsp %s: %s:%lld: vertex %lld given twice\n", cmd, map->path, lineno, id);
      goto done;
    }
    map->lon[hit->v] = (double)x * 1e-6;
    map->lat[hit->v] = (double)y * 1e-6;
  }
  int zerr = Z_OK;
  const char *msg = gzerror(f, &zerr);
  if (zerr != Z_OK && zerr != Z_STREAM_END) {
    fprintf(stderr, "gsp %s: %s: cannot read: %s\n", cmd, map->path, msg);
    goto done;
  }
  rc = CLI_OK;
done:
  if (f) gzclose(f);
  free(slots);
  return rc;
}

int cli_map_open(const cli_ctx *c, const char *cmd, const cli_graph *g, cli_map *map) {
  memset(map, 0, sizeof *map);
  map->geojson = cli_get(c, "geojson");
  map->svg = cli_get(c, "svg");
  map->graph = c->pos[0];
  if (!map->geojson && !map->svg) return CLI_OK;
  const char *asked = cli_get(c, "coords");
  const char *opt = map->svg ? "--svg" : "--geojson";
  int rc = CLI_FAILURE;
  if (!(map->out = calloc(2, sizeof *map->out))) goto fail;
  if ((rc = cli_out_open(&map->out[0], cmd, map->geojson)) || (rc = cli_out_open(&map->out[1], cmd, map->svg)))
    goto fail;
  rc = CLI_FAILURE;
  if (asked) {
    map->path = strdup(asked);
  } else {
    char *plain = beside(c->pos[0], ".co"), *gz = beside(c->pos[0], ".co.gz");
    if (plain && gz && !is_file(plain) && !is_file(gz)) {
      fprintf(stderr,
              "gsp %s: %s needs vertex coordinates: no coordinates "
              "file %s (or %s) beside %s; give one with --coords "
              "FILE.co\n",
              cmd, opt, plain, gz, c->pos[0]);
      free(plain);
      free(gz);
      cli_map_free(map);
      return CLI_INPUT;
    }
    if (plain && is_file(plain)) {
      map->path = plain;
      free(gz);
    } else {
      map->path = gz;
      free(plain);
    }
  }
  map->n = g->n;
  map->lon = malloc((g->n ? g->n : 1) * sizeof *map->lon);
  map->lat = malloc((g->n ? g->n : 1) * sizeof *map->lat);
  map->rp = malloc((g->n + 1) * sizeof *map->rp);
  map->ci = malloc((g->nvals ? g->nvals : 1) * sizeof *map->ci);
  if (!map->path || !map->lon || !map->lat || !map->rp || !map->ci) goto fail;
  for (gsp_index v = 0; v < g->n; v++) map->lon[v] = map->lat[v] = NAN;
  if ((rc = read_coords(cmd, g, map))) goto fail;
  /* the arcs as read, before a closure overwrites the matrix */
  gsp_info info = gsp_matrix_export_csr(map->rp, map->ci, NULL, g->A);
  if (info < 0) {
    rc = cli_fail(cmd, "cannot read the arcs", info);
    goto fail;
  }
  double lat_sum = 0;
  for (gsp_index v = 0; v < g->n; v++) {
    if (isnan(map->lon[v])) continue;
    double x = map->lon[v], y = map->lat[v];
    if (map->placed == 0) {
      map->lon_min = map->lon_max = x;
      map->lat_min = map->lat_max = y;
    }
    map->lon_min = fmin(map->lon_min, x);
    map->lon_max = fmax(map->lon_max, x);
    map->lat_min = fmin(map->lat_min, y);
    map->lat_max = fmax(map->lat_max, y);
    lat_sum += y;
    map->placed++;
  }
  if (map->placed == 0) {
    fprintf(stderr, "gsp %s: %s: no vertex of %s has coordinates there\n", cmd, map->path, c->pos[0]);
    rc = CLI_INPUT;
    goto fail;
  }
  map->lat_mean = lat_sum / (double)map->placed;
  map->on = true;
  cli_verbose(c, "coordinates: %s: %" PRIu64 " of %" PRIu64 " vertices\n", map->path, map->placed, g->n);
  return CLI_OK;
fail:
  cli_map_free(map);
  return rc;
}

void cli_map_free(cli_map *map) {
  if (map->out) {
    cli_out_abort(&map->out[0]);
    cli_out_abort(&map->out[1]);
    free(map->out);
    map->out = NULL;
  }
  free(map->path);
  free(map->lon);
  free(map->lat);
  free(map->rp);
  free(map->ci);
  map->path = NULL;
  map->lon = map->lat = NULL;
  map->rp = map->ci = NULL;
  map->on = false;
}

bool cli_map_has(const cli_map *map, gsp_index v) {
  return v < map->n && !isnan(map->lon[v]);
}

int cli_map_require(const char *cmd, const cli_graph *g, const cli_map *map, const gsp_index *p, gsp_index len) {
  for (gsp_index k = 0; k < len; k++)
    if (!cli_map_has(map, p[k])) {
      fprintf(stderr, "gsp %s: vertex %lld has no coordinates in %s\n", cmd, cli_id(g, p[k]), map->path);
      return CLI_INPUT;
    }
  return CLI_OK;
}
