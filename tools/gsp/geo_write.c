/* GeoJSON (RFC 7946) of paths and shortest-path trees, and the one helper
 * that writes every map file: a FeatureCollection of LineStrings with
 * [longitude, latitude] positions in degrees and the vertices named by
 * their file ids. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "geo.h"

/* Write an output opened by cli_map_open, all or nothing (cli_output.c). */
static int write_out(cli_out *o, const char *cmd, bool (*emit)(FILE *f, const void *ctx), const void *ctx) {
  FILE *f = cli_out_stream(o, cmd);
  if (!f) return CLI_OUTPUT;
  if (!emit(f, ctx)) {
    int err = errno;
    cli_out_abort(o);
    fprintf(stderr, "gsp %s: %s: cannot write: %s\n", cmd, o->path, strerror(err ? err : EIO));
    return CLI_OUTPUT;
  }
  return cli_out_commit(o, cmd);
}

/* A value as a JSON number (null when not finite). */
static void json_number(FILE *f, const char *s) {
  char *end;
  double x = strtod(s, &end);
  if (end != s && !*end && isfinite(x)) fputs(s, f);
  else fputs("null", f);
}

static void position(FILE *f, const cli_map *map, gsp_index v) {
  fprintf(f, "[%.6f,%.6f]", map->lon[v], map->lat[v]);
}

static void path_feature(FILE *f, const geo_doc *d) {
  const cli_graph *g = d->g;
  /* RFC 7946 LineStrings have two positions or more: a one-vertex path
   * (SRC == DST) is a Point */
  bool line = d->len > 1;
  fprintf(f,
          "{\"type\":\"Feature\",\"geometry\":{\"type\":\"%s\","
          "\"coordinates\":%s",
          line ? "LineString" : "Point", line ? "[" : "");
  for (gsp_index k = 0; k < d->len; k++) {
    if (k) fputc(',', f);
    position(f, d->map, d->path[k]);
  }
  fprintf(f,
          "%s},\"properties\":{\"kind\":\"path\",\"source\":%lld,"
          "\"target\":%lld,\"%s\":",
          line ? "]" : "", cli_id(g, d->path[0]), cli_id(g, d->path[d->len - 1]), d->what);
  json_number(f, d->value);
  fprintf(f, ",\"vertices\":%llu,\"ids\":[", (unsigned long long)d->len);
  for (gsp_index k = 0; k < d->len; k++) fprintf(f, "%s%lld", k ? "," : "", cli_id(g, d->path[k]));
  fputs("]}}", f);
}

static bool geojson_path(FILE *f, const void *ctx) {
  fputs("{\"type\":\"FeatureCollection\",\"features\":[\n", f);
  path_feature(f, ctx);
  fputs("\n]}\n", f);
  return true;
}

static bool geojson_tree(FILE *f, const void *ctx) {
  const geo_doc *d = ctx;
  const cli_graph *g = d->g;
  const cli_map *map = d->map;
  size_t ts = gsp_type_size(d->type);
  fputs("{\"type\":\"FeatureCollection\",\"features\":[\n", f);
  fputs("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\","
        "\"coordinates\":",
        f);
  position(f, map, d->src);
  fprintf(f,
          "},\"properties\":{\"kind\":\"source\",\"id\":%lld,"
          "\"distance\":0}}",
          cli_id(g, d->src));
  for (gsp_index k = 0; k < d->cnt; k++) {
    if (!geo_tree_arc(d, k)) continue;
    gsp_index v = d->I[k], u = d->parent[v];
    if (!cli_map_has(map, u) || !cli_map_has(map, v)) continue;
    char val[64];
    cli_value_str(val, sizeof val, d->type, (const char *)d->X + k * ts);
    fputs(",\n{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\","
          "\"coordinates\":[",
          f);
    position(f, map, u);
    fputc(',', f);
    position(f, map, v);
    fprintf(f,
            "]},\"properties\":{\"kind\":\"tree\",\"from\":%lld,\"to\":"
            "%lld,\"distance\":",
            cli_id(g, u), cli_id(g, v));
    json_number(f, val);
    fputs("}}", f);
  }
  if (d->path) {
    fputs(",\n", f);
    path_feature(f, d);
  }
  fputs("\n]}\n", f);
  return true;
}

/* Write the files asked for, saying where they are. */
static int write_docs(const cli_ctx *c, const char *cmd, const cli_map *map, const geo_doc *d,
                      bool (*geojson)(FILE *, const void *), bool (*svg)(FILE *, const void *), const char *of) {
  int rc;
  if (map->geojson) {
    if ((rc = write_out(&map->out[0], cmd, geojson, d))) return rc;
    cli_say(c, "GeoJSON of the %s: %s\n", of, map->geojson);
  }
  if (map->svg) {
    if ((rc = write_out(&map->out[1], cmd, svg, d))) return rc;
    cli_say(c, "picture of the %s: %s\n", of, map->svg);
  }
  return CLI_OK;
}

int cli_map_path(const cli_ctx *c, const char *cmd, const cli_graph *g, const cli_map *map, const gsp_index *p,
                 gsp_index len, const char *value, const char *what) {
  if (!map->on || len == 0) return CLI_OK;
  int rc = cli_map_require(cmd, g, map, p, len);
  if (rc) return rc;
  geo_doc d = {.g = g, .map = map, .path = p, .len = len, .value = value, .what = what};
  return write_docs(c, cmd, map, &d, geojson_path, geo_svg_path, "path");
}

int cli_map_tree(const cli_ctx *c, const char *cmd, const cli_graph *g, const cli_map *map, gsp_index src,
                 const gsp_index *I, const void *X, gsp_index cnt, const double *cutoff, const gsp_index *path,
                 gsp_index len) {
  if (!map->on) return CLI_OK;
  int rc = cli_map_require(cmd, g, map, &src, 1);
  if (rc || (path && (rc = cli_map_require(cmd, g, map, path, len)))) return rc;
  gsp_index *parent = NULL;
  gsp_info info = cli_tight_tree(&parent, g->A, src, I, X, cnt, cutoff);
  if (info < 0) return cli_fail(cmd, "cannot build the shortest-path tree", info);
  char val[64] = "";
  if (path) { /* the --to path's value: its end's distance */
    for (gsp_index k = 0; k < cnt; k++)
      if (I[k] == path[len - 1]) cli_value_str(val, sizeof val, g->type, (const char *)X + k * gsp_type_size(g->type));
  }
  geo_doc d = {.g = g,
               .map = map,
               .path = path,
               .len = len,
               .value = val,
               .what = "distance",
               .src = src,
               .parent = parent,
               .I = I,
               .X = X,
               .cnt = cnt,
               .type = g->type,
               .cutoff = cutoff};
  for (gsp_index k = 0; k < cnt; k++) {
    if (parent[I[k]] == g->n) continue;
    double x = cli_value_at(g->type, X, k);
    d.dmin = d.in_tree ? fmin(d.dmin, x) : x;
    d.dmax = d.in_tree ? fmax(d.dmax, x) : x;
    d.in_tree++;
  }
  rc = write_docs(c, cmd, map, &d, geojson_tree, geo_svg_tree, "shortest-path tree");
  free(parent);
  return rc;
}
