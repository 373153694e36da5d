/* Self-contained SVG maps: the road network as thin grey arcs, with a path
 * drawn over it (`gsp path --svg`, `gsp apsp --svg`) or the vertices
 * reached from a source coloured by distance (`gsp sssp --svg`).
 * Longitude and latitude are projected equirectangularly with x scaled by
 * cos(mean latitude), so that a metre is as long across as up and down at
 * the map's latitude. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "geo.h"

enum { SIDE = 960, MARGIN = 16, MIN_WIDTH = 640 };

typedef struct {
  double lon0, lat1, kx, s; /* x = ox + (lon - lon0) kx s, y = ... */
  double ox;                /* left edge: a narrow map is centred */
  double width, height;     /* of the map area with its margins */
} proj;

static proj projection(const cli_map *map) {
  proj p = {.lon0 = map->lon_min, .lat1 = map->lat_max, .kx = cos(map->lat_mean * 3.14159265358979323846 / 180.0)};
  double w = (map->lon_max - map->lon_min) * p.kx;
  double h = map->lat_max - map->lat_min;
  double big = fmax(w, h);
  p.s = big > 0 ? SIDE / big : 1.0;
  p.width = w * p.s + 2 * MARGIN;
  p.height = h * p.s + 2 * MARGIN;
  p.ox = MARGIN;
  if (p.width < MIN_WIDTH) { /* room for the caption */
    p.ox += (MIN_WIDTH - p.width) / 2;
    p.width = MIN_WIDTH;
  }
  return p;
}

static double px(const proj *p, const cli_map *m, gsp_index v) {
  return p->ox + (m->lon[v] - p->lon0) * p->kx * p->s;
}

static double py(const proj *p, const cli_map *m, gsp_index v) {
  return MARGIN + (p->lat1 - m->lat[v]) * p->s;
}

/* Text content with the XML specials escaped. */
static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
    if (e) fputs(e, f);
    else fputc(*s, f);
  }
}

static void header(FILE *f, double w, double h, const char *title) {
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
          "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
          "font-family=\"sans-serif\">\n<title>",
          w, h, w, h);
  xml_text(f, title);
  fprintf(f, "</title>\n<rect width=\"100%%\" height=\"100%%\" "
             "fill=\"white\"/>\n");
}

/* The graph's arcs, each road once: u -> v is drawn unless v -> u is also
 * an arc and v < u (columns are sorted: binary search). */
static void network(FILE *f, const proj *p, const cli_map *m) {
  fputs("<path class=\"network\" fill=\"none\" stroke=\"#b4b4b4\" "
        "stroke-width=\"0.7\" stroke-linecap=\"round\" d=\"",
        f);
  int col = 0;
  for (gsp_index u = 0; u < m->n; u++) {
    if (!cli_map_has(m, u)) continue;
    for (gsp_index k = m->rp[u]; k < m->rp[u + 1]; k++) {
      gsp_index v = m->ci[k];
      if (v == u || !cli_map_has(m, v)) continue;
      if (v < u) {
        const gsp_index *lo = m->ci + m->rp[v], *hi = m->ci + m->rp[v + 1];
        while (lo < hi) {
          const gsp_index *mid = lo + (hi - lo) / 2;
          if (*mid < u) lo = mid + 1;
          else hi = mid;
        }
        if (lo < m->ci + m->rp[v + 1] && *lo == u) continue;
      }
      col += fprintf(f, "M%.1f %.1fL%.1f %.1f", px(p, m, u), py(p, m, u), px(p, m, v), py(p, m, v));
      if (col > 200) fputc('\n', f), col = 0;
    }
  }
  fputs("\"/>\n", f);
}

/* A scale bar of a round length near a fifth of the width, at (x, y). */
static void scale_bar(FILE *f, const proj *p, double x, double y) {
  double px_per_m = p->s / 111320.0; /* a degree of latitude is 111.32 km */
  double target = (p->width - 2 * MARGIN) / 5 / px_per_m, len = 1;
  static const double steps[] = {1, 2, 5};
  for (double dec = 1; dec < 1e8; dec *= 10)
    for (int k = 0; k < 3; k++)
      if (steps[k] * dec <= target) len = steps[k] * dec;
  double w = len * px_per_m;
  fprintf(f,
          "<g class=\"scale\"><path d=\"M%.1f %.1fv4h%.1fv-4\" fill=\"none\" "
          "stroke=\"#333\" stroke-width=\"1\"/><text x=\"%.1f\" y=\"%.1f\" "
          "font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">",
          x, y, w, x + w / 2, y - 3);
  if (len >= 1000) fprintf(f, "%g km</text></g>\n", len / 1000);
  else fprintf(f, "%g m</text></g>\n", len);
}

/* A vertex marker with its file id as tooltip and label. */
static void marker(FILE *f, const proj *p, const geo_doc *d, gsp_index v, const char *cls, const char *fill,
                   const char *role) {
  double x = px(p, d->map, v), y = py(p, d->map, v);
  long long id = cli_id(d->g, v);
  fprintf(f,
          "<g class=\"%s\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
          "fill=\"%s\" stroke=\"white\" stroke-width=\"2\"><title>%s "
          "%lld</title></circle><text x=\"%.1f\" y=\"%.1f\" "
          "font-size=\"13\" font-weight=\"bold\" fill=\"#222\" "
          "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">%lld"
          "</text></g>\n",
          cls, x, y, fill, role, id, x + 8, y - 8, id);
}

/* Basename of the graph file, for captions. */
static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

bool geo_svg_path(FILE *f, const void *ctx) {
  const geo_doc *d = ctx;
  const cli_map *m = d->map;
  proj p = projection(m);
  double h = p.height + 52;
  char title[512];
  snprintf(title, sizeof title, "shortest path %lld -> %lld in %s", cli_id(d->g, d->path[0]),
           cli_id(d->g, d->path[d->len - 1]), base(m->graph));
  header(f, p.width, h, title);
  network(f, &p, m);
  fputs("<polyline class=\"path\" fill=\"none\" stroke=\"#d62728\" "
        "stroke-width=\"3.5\" stroke-linejoin=\"round\" "
        "stroke-linecap=\"round\" stroke-opacity=\"0.9\" points=\"",
        f);
  for (gsp_index k = 0; k < d->len; k++)
    fprintf(f, "%s%.1f,%.1f", k ? (k % 8 ? " " : "\n") : "", px(&p, m, d->path[k]), py(&p, m, d->path[k]));
  fputs("\"/>\n", f);
  marker(f, &p, d, d->path[0], "source", "#2ca02c", "from");
  marker(f, &p, d, d->path[d->len - 1], "target", "#1f3b99", "to");
  fprintf(f,
          "<text class=\"caption\" x=\"%d\" y=\"%.1f\" font-size=\"15\" "
          "fill=\"#222\">",
          MARGIN, p.height + 20);
  fprintf(f, "%lld &#8594; %lld: %s ", cli_id(d->g, d->path[0]), cli_id(d->g, d->path[d->len - 1]), d->what);
  xml_text(f, d->value);
  fprintf(f, ", %llu vertices (", (unsigned long long)d->len);
  xml_text(f, base(m->graph));
  fputs(")</text>\n", f);
  scale_bar(f, &p, MARGIN, p.height + 42);
  fputs("</svg>\n", f);
  return true;
}

/* Colour of t in [0, 1] on the viridis ramp (five stops, linear). */
static void ramp(double t, char out[8]) {
  static const unsigned char stop[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  if (!(t > 0)) t = 0;
  if (t > 1) t = 1;
  double x = t * 4;
  int k = x >= 4 ? 3 : (int)x;
  double u = x - k;
  int rgb[3];
  for (int c = 0; c < 3; c++) rgb[c] = (int)lround(stop[k][c] + u * (stop[k + 1][c] - stop[k][c]));
  snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

enum { BINS = 16 }; /* tree arcs drawn in this many colours */

/* The tree's arcs, one path element per colour bin of their head's
 * distance. */
static void tree_arcs(FILE *f, const proj *pp, const geo_doc *d, double span) {
  const cli_map *m = d->map;
  const proj p = *pp;
  char col[8];
  for (int b = 0; b < BINS; b++) {
    ramp((b + 0.5) / BINS, col);
    int col_n = 0;
    bool open = false;
    for (gsp_index k = 0; k < d->cnt; k++) {
      if (!geo_tree_arc(d, k)) continue;
      gsp_index v = d->I[k], u = d->parent[v];
      if (!cli_map_has(m, u) || !cli_map_has(m, v)) continue;
      double t = span > 0 ? (cli_value_at(d->type, d->X, k) - d->dmin) / span : 0;
      int bin = (int)(t * BINS);
      if ((bin >= BINS ? BINS - 1 : bin) != b) continue;
      if (!open)
        fprintf(f,
                "<path class=\"tree\" fill=\"none\" stroke=\"%s\" "
                "stroke-width=\"1.6\" stroke-linecap=\"round\" d=\"",
                col);
      open = true;
      col_n += fprintf(f, "M%.1f %.1fL%.1f %.1f", px(&p, m, u), py(&p, m, u), px(&p, m, v), py(&p, m, v));
      if (col_n > 200) fputc('\n', f), col_n = 0;
    }
    if (open) fputs("\"/>\n", f);
  }
}

/* The legend (the ramp from the nearest to the farthest distance), the
 * caption and the scale bar. */
static void tree_legend(FILE *f, const proj *pp, const geo_doc *d) {
  const cli_map *m = d->map;
  const proj p = *pp;
  double lx = MARGIN, ly = p.height + 32, lw = 240;
  fprintf(f,
          "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
          "height=\"12\" fill=\"url(#ramp)\" stroke=\"#555\" "
          "stroke-width=\"0.5\"/>",
          lx, ly, lw);
  char lo[64], hi[64];
  snprintf(lo, sizeof lo, "%.15g", d->dmin);
  snprintf(hi, sizeof hi, "%.15g", d->dmax);
  fprintf(f,
          "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#222\">%s"
          "</text><text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
          "text-anchor=\"end\" fill=\"#222\">%s</text></g>\n",
          lx, ly + 26, lo, lx + lw, ly + 26, hi);
  fprintf(f,
          "<text class=\"caption\" x=\"%.1f\" y=\"%.1f\" font-size=\"15\" "
          "fill=\"#222\">distance from %lld: %llu vertices reached",
          lx, p.height + 20, cli_id(d->g, d->src), (unsigned long long)d->in_tree);
  if (d->cutoff) fprintf(f, " within %.15g", *d->cutoff);
  fputs(" (", f);
  xml_text(f, base(m->graph));
  fputs(")</text>\n", f);
  scale_bar(f, &p, lx + lw + 40, ly + 10);
}

bool geo_svg_tree(FILE *f, const void *ctx) {
  const geo_doc *d = ctx;
  const cli_map *m = d->map;
  proj p = projection(m);
  size_t ts = gsp_type_size(d->type);
  double h = p.height + 78, span = d->dmax - d->dmin;
  char title[512], col[8], val[64];
  snprintf(title, sizeof title, "shortest distances from %lld in %s", cli_id(d->g, d->src), base(m->graph));
  header(f, p.width, h, title);
  fputs("<defs><linearGradient id=\"ramp\">", f);
  for (int k = 0; k <= 8; k++) {
    ramp(k / 8.0, col);
    fprintf(f, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", k / 8.0, col);
  }
  fputs("</linearGradient></defs>\n", f);
  network(f, &p, m);
  tree_arcs(f, &p, d, span);
  /* the vertices of the tree, each in its own colour */
  fputs("<g class=\"reached\">\n", f);
  for (gsp_index k = 0; k < d->cnt; k++) {
    gsp_index v = d->I[k];
    if (d->parent[v] == d->g->n || !cli_map_has(m, v)) continue;
    double x = cli_value_at(d->type, d->X, k);
    ramp(span > 0 ? (x - d->dmin) / span : 0, col);
    cli_value_str(val, sizeof val, d->type, (const char *)d->X + k * ts);
    fprintf(f,
            "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"%s\"><title>"
            "%lld: ",
            px(&p, m, v), py(&p, m, v), col, cli_id(d->g, v));
    xml_text(f, val);
    fputs("</title></circle>\n", f);
  }
  fputs("</g>\n", f);
  if (d->path) {
    fputs("<polyline class=\"path\" fill=\"none\" stroke=\"#d62728\" "
          "stroke-width=\"3\" stroke-linejoin=\"round\" points=\"",
          f);
    for (gsp_index k = 0; k < d->len; k++)
      fprintf(f, "%s%.1f,%.1f", k ? (k % 8 ? " " : "\n") : "", px(&p, m, d->path[k]), py(&p, m, d->path[k]));
    fputs("\"/>\n", f);
    marker(f, &p, d, d->path[d->len - 1], "target", "#d62728", "to");
  }
  marker(f, &p, d, d->src, "source", "#000000", "source");
  tree_legend(f, &p, d);
  fputs("</svg>\n", f);
  return true;
}
