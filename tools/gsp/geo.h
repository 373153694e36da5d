/* What the map writers share (geo_write.c: GeoJSON and the files;
 * geo_svg.c: the pictures). */
#ifndef GSP_CLI_GEO_H
#define GSP_CLI_GEO_H

#include "cli.h"

/* One picture or GeoJSON document: a path, or a shortest-path tree. */
typedef struct {
  const cli_graph *g;
  const cli_map *map;
  /* the path (tree: the --to path, or NULL) */
  const gsp_index *path;
  gsp_index len;
  const char *value; /* its value as printed */
  const char *what;  /* "distance" or "value" */
  /* the tree */
  gsp_index src;
  const gsp_index *parent; /* cli_tight_tree; NULL for a path */
  const gsp_index *I;      /* reached vertices and their distances */
  const void *X;
  gsp_index cnt;
  gsp_type type;
  double dmin, dmax; /* smallest and largest distance in the tree */
  gsp_index in_tree; /* vertices in the tree */
  const double *cutoff;
} geo_doc;

bool geo_svg_path(FILE *f, const void *doc);
bool geo_svg_tree(FILE *f, const void *doc);

/* In the tree: vertex I[k] has a parent other than itself. */
static inline bool geo_tree_arc(const geo_doc *d, gsp_index k) {
  gsp_index v = d->I[k], p = d->parent[v];
  return p != d->g->n && p != v;
}

#endif /* GSP_CLI_GEO_H */
