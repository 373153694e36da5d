/* The map outputs of the `gsp` command line: --geojson and --svg of `gsp
 * path`, `gsp sssp` and `gsp apsp` on a small graph with hand-written
 * DIMACS coordinates, compared byte for byte where the content is exact
 * (GeoJSON), and the errors for missing or malformed coordinates. The
 * bundled Helsinki graph is checked with Python's parsers in
 * tests/check_geo.py. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_harness.h"

static char file[1 << 16];

/* A 6-vertex graph (vertex 6 has no arcs): shortest 1 -> 5 is
 * 1 -> 3 -> 2 -> 4 -> 5, weight 3 + 4 + 2 + 5 = 14. */
static const char *graph_gr = "c six vertices\np sp 6 7\na 1 2 10\na 1 3 3\n"
                              "a 2 4 2\na 3 2 4\na 3 4 8\na 4 5 5\na 5 1 1\n";
/* micro-degrees; vertex 3 west of Greenwich and south of the equator */
static const char *graph_co = "c coordinates\np aux sp co 6\n"
                              "v 1 24937024 60164325\nv 2 24940429 60164349\n"
                              "v 3 -500000 -33000001\nv 4 24939344 60165135\n"
                              "v 5 180000000 -90000000\nv 6 0 0\n";

static void setup(void) {
  cli_harness_setup("cli_geo");
  put(tmp("g.gr"), graph_gr);
  put(tmp("g.co"), graph_co);
}

TestSuite(cli_geo, .init = setup, .fini = cli_harness_teardown);

/* Read dir/name into `file`; false when it does not exist. */
static bool read_out(const char *name) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  if (access(p, F_OK) != 0) return false;
  slurp(p, file, sizeof file);
  return true;
}

/* No temporary left behind by an interrupted or failed write. */
static void expect_no_temporaries(void) {
  char pat[512];
  snprintf(pat, sizeof pat, "%s/*.tmp*", dir);
  glob_t g;
  int r = glob(pat, 0, NULL, &g);
  cr_expect_eq(r, GLOB_NOMATCH, "temporary file left: %s", r == 0 ? g.gl_pathv[0] : "");
  if (r == 0) globfree(&g);
}

static const char *path_geojson = "{\"type\":\"FeatureCollection\",\"features\":[\n"
                                  "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":"
                                  "[[24.937024,60.164325],[-0.500000,-33.000001],[24.940429,60.164349],"
                                  "[24.939344,60.165135],[180.000000,-90.000000]]},\"properties\":{\"kind\":"
                                  "\"path\",\"source\":1,\"target\":5,\"distance\":14,\"vertices\":5,"
                                  "\"ids\":[1,3,2,4,5]}}\n]}\n";

Test(cli_geo, path_geojson_is_exact) {
  cr_assert_eq(gsp("path g.gr 1 5 --geojson p.json"), 0, "%s", err);
  cr_expect(strstr(out, "GeoJSON of the path: p.json"), "%s", out);
  cr_assert(read_out("p.json"));
  cr_expect_str_eq(file, path_geojson);
  /* the same path from apsp --path, and from the closure method */
  cr_assert_eq(gsp("apsp g.gr --path 1:5 --geojson a.json"), 0, "%s", err);
  cr_assert(read_out("a.json"));
  cr_expect_str_eq(file, path_geojson);
  cr_assert_eq(gsp("path --method closure g.gr 1 5 --geojson c.json"), 0, "%s", err);
  cr_assert(read_out("c.json"));
  cr_expect_str_eq(file, path_geojson);
  expect_no_temporaries();
}

Test(cli_geo, coordinates_found_gzipped_or_given) {
  char cmd[600];
  snprintf(cmd, sizeof cmd,
           "cd %s && gzip -c g.co > h.co.gz && cp g.gr h.gr.gz.tmp"
           " && gzip -c h.gr.gz.tmp > h.gr.gz && rm h.gr.gz.tmp"
           " && cp g.co other.co && cp g.gr k.gr",
           dir);
  cr_assert_eq(system(cmd), 0);
  cr_assert_eq(gsp("path h.gr.gz 1 5 --geojson p.json"), 0, "%s", err);
  cr_assert(read_out("p.json"));
  cr_expect_str_eq(file, path_geojson);
  /* k.gr has no coordinates beside it: --coords names them */
  cr_assert_eq(gsp("path k.gr 1 5 --coords other.co --geojson q.json"), 0, "%s", err);
  cr_assert(read_out("q.json"));
  cr_expect_str_eq(file, path_geojson);
}

Test(cli_geo, missing_coordinates_are_a_clear_error) {
  put(tmp("bare.gr"), graph_gr);
  put(tmp("keep.svg"), "old");
  const char *cmds[] = {"path bare.gr 1 5 --geojson x.json", "path bare.gr 1 5 --svg keep.svg",
                        "sssp --source 1 bare.gr --svg keep.svg", "sssp --source 1 bare.gr --geojson x.json",
                        "apsp bare.gr --svg keep.svg"};
  for (int k = 0; k < 5; k++) {
    cr_expect_eq(gsp("%s", cmds[k]), 3, "%s", cmds[k]);
    cr_expect(strstr(err, "needs vertex coordinates: no coordinates file "
                          "bare.co (or bare.co.gz) beside bare.gr; give one "
                          "with --coords FILE.co"),
              "%s: %s", cmds[k], err);
    cr_expect(!read_out("x.json"), "%s wrote a file", cmds[k]);
    cr_expect(read_out("keep.svg") && !strcmp(file, "old"), "%s", cmds[k]);
  }
  cr_expect_eq(gsp("path bare.gr 1 5 --coords none.co --svg y.svg"), 3);
  cr_expect(strstr(err, "none.co: cannot open"), "%s", err);
}

Test(cli_geo, malformed_coordinates_name_the_line) {
  put(tmp("b.gr"), graph_gr);
  put(tmp("b.co"), "c bad\nv 1 24937024 60164325\nv 2 24.94 60.16\n");
  cr_expect_eq(gsp("path b.gr 1 5 --geojson x.json"), 3);
  cr_expect(strstr(err, "b.co:3: expected 'v ID X Y' (integer micro-degrees)"), "%s", err);
  put(tmp("b.co"), "v 1 24937024 60164325\nv 2 190000000 60164349\n");
  cr_expect_eq(gsp("path b.gr 1 5 --geojson x.json"), 3);
  cr_expect(strstr(err, "b.co:2: vertex 2: (190000000, 60164349) is not a "
                        "longitude and latitude in micro-degrees"),
            "%s", err);
  put(tmp("b.co"), "v 1 24937024 60164325\nv 1 24937024 60164325\n");
  cr_expect_eq(gsp("path b.gr 1 5 --geojson x.json"), 3);
  cr_expect(strstr(err, "b.co:2: vertex 1 given twice"), "%s", err);
  /* vertex 4 of the path has none */
  put(tmp("b.co"), "v 1 1 1\nv 2 2 2\nv 3 3 3\nv 5 5 5\n");
  cr_expect_eq(gsp("path b.gr 1 5 --geojson x.json"), 3);
  cr_expect(strstr(err, "vertex 4 has no coordinates in b.co"), "%s", err);
  cr_expect(!read_out("x.json"));
}

Test(cli_geo, path_svg_draws_network_path_and_ends) {
  cr_assert_eq(gsp("path g.gr 1 5 --svg p.svg"), 0, "%s", err);
  cr_expect(strstr(out, "picture of the path: p.svg"), "%s", out);
  cr_assert(read_out("p.svg"));
  const char *head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
                     "xmlns=\"http://www.w3.org/2000/svg\"";
  cr_expect(!strncmp(file, head, strlen(head)), "%.120s", file);
  const char *pl = strstr(file, "<polyline class=\"path\"");
  cr_assert(pl, "no path polyline");
  const char *pts = strstr(pl, "points=\"");
  cr_assert(pts);
  int n = 0;
  for (const char *s = pts + 8; *s != '"'; s++) n += *s == ',';
  cr_expect_eq(n, 5, "polyline of %d points", n);
  cr_expect(strstr(file, "<path class=\"network\""));
  cr_expect(strstr(file, "<g class=\"source\">") && strstr(file, "<g class=\"target\">"));
  cr_expect(strstr(file, "1 &#8594; 5: distance 14, 5 vertices (g.gr)"), "caption");
  cr_expect(strstr(file, "</svg>\n"));
  /* the network: 6 roads (3 <-> 2 and 1 <-> 3 are not both ways; 7 arcs,
   * none reversed), so 7 segments */
  const char *net = strstr(file, "<path class=\"network\"");
  const char *d = strstr(net, " d=\"");
  int segs = 0;
  for (const char *s = d + 4; *s != '"'; s++) segs += *s == 'M';
  cr_expect_eq(segs, 7);
}

Test(cli_geo, undirected_roads_drawn_once) {
  cr_assert_eq(gsp("path --symmetrize g.gr 1 5 --svg p.svg"), 0, "%s", err);
  cr_assert(read_out("p.svg"));
  const char *d = strstr(strstr(file, "<path class=\"network\""), " d=\"");
  int segs = 0;
  for (const char *s = d + 4; *s != '"'; s++) segs += *s == 'M';
  cr_expect_eq(segs, 7, "14 arcs, 7 roads");
}

Test(cli_geo, one_vertex_path_is_a_point) {
  cr_assert_eq(gsp("path g.gr 2 2 --geojson p.json"), 0, "%s", err);
  cr_assert(read_out("p.json"));
  cr_expect(strstr(file, "\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                         "[24.940429,60.164349]}"),
            "%s", file);
  cr_expect(strstr(file, "\"distance\":0,\"vertices\":1,\"ids\":[2]"), "%s", file);
}

Test(cli_geo, no_path_writes_nothing) {
  put(tmp("keep.json"), "old");
  cr_expect_eq(gsp("path g.gr 1 6 --geojson keep.json --svg n.svg"), 6);
  cr_expect(read_out("keep.json") && !strcmp(file, "old"));
  cr_expect(!read_out("n.svg"));
}

Test(cli_geo, unwritable_output_exits_4) {
  cr_expect_eq(gsp("path g.gr 1 5 --svg no/such/dir/p.svg"), 4);
  cr_expect(strstr(err, "no/such/dir/p.svg: cannot write"), "%s", err);
  expect_no_temporaries();
}

Test(cli_geo, sssp_tree_up_to_cutoff) {
  /* distances from 1: 1:0 3:3 2:7 4:9 5:14; within 7: the arcs 1->3, 3->2 */
  cr_assert_eq(gsp("sssp --source 1 g.gr --tree-cutoff 7 --geojson t.json --svg t.svg"), 0, "%s", err);
  cr_expect(strstr(out, "GeoJSON of the shortest-path tree: t.json"), "%s", out);
  cr_expect(strstr(out, "picture of the shortest-path tree: t.svg"), "%s", out);
  cr_assert(read_out("t.json"));
  cr_expect_str_eq(file, "{\"type\":\"FeatureCollection\",\"features\":[\n"
                         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                         "[24.937024,60.164325]},\"properties\":{\"kind\":\"source\",\"id\":1,"
                         "\"distance\":0}},\n"
                         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":"
                         "[[-0.500000,-33.000001],[24.940429,60.164349]]},\"properties\":{\"kind\":"
                         "\"tree\",\"from\":3,\"to\":2,\"distance\":7}},\n"
                         "{\"type\":\"Feature\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":"
                         "[[24.937024,60.164325],[-0.500000,-33.000001]]},\"properties\":{\"kind\":"
                         "\"tree\",\"from\":1,\"to\":3,\"distance\":3}}\n]}\n");
  cr_assert(read_out("t.svg"));
  int circles = 0;
  const char *g = strstr(file, "<g class=\"reached\">");
  cr_assert(g);
  for (const char *s = g; (s = strstr(s, "<circle")) && s < strstr(g, "</g>"); s++) circles++;
  cr_expect_eq(circles, 3, "vertices 1, 3, 2 coloured");
  cr_expect(strstr(file, "<linearGradient id=\"ramp\">"), "legend");
  cr_expect(strstr(file, "3 vertices reached within 7"), "caption");
  /* without a cutoff every reached vertex but the source heads an arc; the
   * --to path follows the tree */
  cr_assert_eq(gsp("sssp --source 1 --to 5 g.gr --geojson t.json"), 0, "%s", err);
  cr_assert(read_out("t.json"));
  int arcs = 0;
  for (const char *s = file; (s = strstr(s, "\"kind\":\"tree\"")); s++) arcs++;
  cr_expect_eq(arcs, 4);
  cr_expect(strstr(file, "\"kind\":\"path\",\"source\":1,\"target\":5,"
                         "\"distance\":14,\"vertices\":5,\"ids\":[1,3,2,4,5]"),
            "%s", file);
  cr_expect_eq(gsp("sssp --source 1 g.gr --tree-cutoff x --svg t.svg"), 2);
}

Test(cli_geo, apsp_svg_needs_a_path_to_draw) {
  cr_expect_eq(gsp("apsp g.gr --svg a.svg --no-sample"), 2);
  cr_expect(strstr(err, "--svg and --geojson draw the sample path or --path"), "%s", err);
  cr_assert_eq(gsp("apsp g.gr --svg a.svg"), 0, "%s", err);
  cr_expect(strstr(out, "picture of the path: a.svg"), "%s", out);
  cr_expect(read_out("a.svg") && strstr(file, "<polyline class=\"path\""));
  /* -q still draws the sample path */
  cr_assert_eq(gsp("apsp -q g.gr --svg q.svg"), 0, "%s", err);
  cr_expect(read_out("q.svg"));
}
