/* End-to-end tests of the `gsp` command line: run the built binary, check
 * its output and exit codes. Path answers are checked against a Dijkstra
 * written here on a graph file parsed here, sharing no code with gsp. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_harness.h"
#include "gsp_test.h"

/* gsp runs beside the bundled data: arguments name data/... */
static void setup(void) {
  cli_harness_setup("cli");
  cli_cwd = GSP_TEST_DATA_DIR "/..";
}

TestSuite(cli, .init = setup, .fini = cli_harness_teardown);

/* ---- an independent reference: DIMACS parsed by fscanf, Dijkstra ---- */

typedef struct {
  int n, m;
  int *from, *to;
  long long *w;
} graph;

static graph parse_gr(const char *path) {
  graph g = {0};
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "%s", path);
  char line[256];
  int k = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == 'p') {
      cr_assert_eq(sscanf(line, "p sp %d %d", &g.n, &g.m), 2);
      g.from = malloc(sizeof(int) * (size_t)g.m);
      g.to = malloc(sizeof(int) * (size_t)g.m);
      g.w = malloc(sizeof(long long) * (size_t)g.m);
    } else if (line[0] == 'a') {
      cr_assert_eq(sscanf(line, "a %d %d %lld", &g.from[k], &g.to[k], &g.w[k]), 3);
      k++;
    }
  }
  fclose(f);
  cr_assert_eq(k, g.m);
  return g;
}

static void free_graph(graph *g) {
  free(g->from);
  free(g->to);
  free(g->w);
}

/* O(n^2) Dijkstra (non-negative weights), 1-based vertices; -1 = none. */
static void dijkstra(const graph *g, int s, long long *d) {
  char *done = calloc((size_t)g->n + 1, 1);
  for (int v = 1; v <= g->n; v++) d[v] = -1;
  d[s] = 0;
  for (;;) {
    int u = -1;
    for (int v = 1; v <= g->n; v++)
      if (!done[v] && d[v] >= 0 && (u < 0 || d[v] < d[u])) u = v;
    if (u < 0) break;
    done[u] = 1;
    for (int e = 0; e < g->m; e++)
      if (g->from[e] == u && (d[g->to[e]] < 0 || d[u] + g->w[e] < d[g->to[e]])) d[g->to[e]] = d[u] + g->w[e];
  }
  free(done);
}

/* Lightest arc u -> v; false if there is none. */
static bool arc(const graph *g, int u, int v, long long *w) {
  bool found = false;
  for (int e = 0; e < g->m; e++)
    if (g->from[e] == u && g->to[e] == v && (!found || g->w[e] < *w)) {
      *w = g->w[e];
      found = true;
    }
  return found;
}

/* Check a printed path line "  a -> b -> c" against the graph: starts at
 * s, ends at t, every step is an arc, and the weights sum to want. */
static void check_path_text(const graph *g, const char *text, int s, int t, long long want) {
  const char *p = strstr(text, "\n  ");
  cr_assert_not_null(p, "no path line in:\n%s", text);
  p += 3;
  int prev = -1, first = -1, count = 0;
  long long sum = 0;
  while (*p && *p != '\n') {
    int v = (int)strtol(p, (char **)&p, 10);
    if (prev < 0) first = v;
    else {
      long long w = 0;
      cr_assert(arc(g, prev, v, &w), "%d -> %d is not an arc", prev, v);
      sum += w;
    }
    prev = v;
    count++;
    while (*p == ' ' || *p == '-' || *p == '>') p++;
  }
  cr_expect_eq(first, s);
  cr_expect_eq(prev, t);
  cr_expect_eq(sum, want, "path weighs %lld, shortest is %lld", sum, want);
}

Test(cli, help_and_usage_errors) {
  cr_expect_eq(gsp("--help"), 0);
  cr_expect(strstr(out, "apsp") && strstr(out, "generate") && strstr(out, "Exit codes"));
  const char *cmds[] = {"apsp", "closure", "sssp", "path", "generate", "info", "convert", "check", "queries"};
  for (int k = 0; k < 9; k++) {
    cr_expect_eq(gsp("%s --help", cmds[k]), 0, "%s --help", cmds[k]);
    cr_expect(strstr(out, "usage: gsp") != NULL, "%s", cmds[k]);
  }
  cr_expect_eq(gsp(""), 2);
  cr_expect_eq(gsp("frobnicate"), 2);
  cr_expect(strstr(err, "unknown command 'frobnicate'"));
  cr_expect_eq(gsp("apsp --bogus data/gr_valid.gr"), 2);
  cr_expect(strstr(err, "unknown option '--bogus'"), "%s", err);
  cr_expect_eq(gsp("apsp --semiring min-times data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("apsp --threads many data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("sssp data/gr_valid.gr"), 2); /* --source missing */
  cr_expect_eq(gsp("path data/gr_valid.gr 1 99"), 2);
  cr_expect(strstr(err, "vertex 99 is not in the graph"), "%s", err);
  cr_expect_eq(gsp("generate blob -o %s", tmp("x.gr")), 2);
}

Test(cli, input_errors_exit_3_with_line) {
  cr_expect_eq(gsp("info data/mtx_col_zero.mtx"), 3);
  cr_expect(strstr(err, "mtx_col_zero.mtx line 5: column 0 out of range 1..100"), "%s", err);
  cr_expect_eq(gsp("apsp data/no_such_file.gr"), 3);
  cr_expect(strstr(err, "cannot open"), "%s", err);
  cr_expect_eq(gsp("apsp data/mtx_general.mtx"), 3); /* not square */
}

Test(cli, info_describes_graph) {
  cr_expect_eq(gsp("info data/gr_valid.gr"), 0);
  cr_expect(strstr(out, "vertices:    5\n"), "%s", out);
  cr_expect(strstr(out, "arcs:        7 (directed, 0 self-loops)"), "%s", out);
  cr_expect(strstr(out, "weights:     1 .. 10\n"), "%s", out);
  cr_expect_eq(gsp("info --symmetrize data/gr_valid.gr"), 0);
  cr_expect(strstr(out, "symmetric: undirected graph"), "%s", out);
  cr_expect_eq(gsp("info data/el_weighted.txt"), 0);
  cr_expect(strstr(out, "negative:    1 arcs"), "%s", out);
}

Test(cli, path_matches_dijkstra) {
  char g_path[512]; /* tmp() buffers rotate: keep a copy */
  snprintf(g_path, sizeof g_path, "%s", tmp("rand.gr"));
  cr_assert_eq(gsp("generate random --n 300 --m 1500 --wmin 1 --wmax 1000 "
                   "--seed 5 -o %s",
                   g_path),
               0, "%s", err);
  graph g = parse_gr(g_path);
  cr_assert_eq(g.n, 300);
  long long *d = malloc(sizeof(long long) * 301);
  const int sources[] = {1, 17, 150, 299};
  for (int q = 0; q < 4; q++) {
    int s = sources[q];
    dijkstra(&g, s, d);
    for (int t = 1; t <= 300; t += 37) {
      int rc = gsp("path %s %d %d", g_path, s, t);
      if (d[t] < 0) {
        cr_expect_eq(rc, 6, "%d -> %d should be unreachable", s, t);
        continue;
      }
      cr_assert_eq(rc, 0, "path %d %d: %s", s, t, err);
      char want[128];
      snprintf(want, sizeof want, "path %d -> %d: value %lld,", s, t, d[t]);
      cr_expect(strstr(out, want) != NULL, "expected '%s' in\n%s", want, out);
      check_path_text(&g, out, s, t, d[t]);
    }
    /* the closure route and apsp --path give the same values */
    int t = 1 + (s * 7) % 300;
    if (d[t] >= 0) {
      cr_assert_eq(gsp("path --method closure %s %d %d", g_path, s, t), 0, "%s", err);
      check_path_text(&g, out, s, t, d[t]);
      cr_assert_eq(gsp("path --method vxm %s %d %d", g_path, s, t), 0, "%s", err);
      cr_expect(strstr(out, "gsp_vxm") != NULL, "%s", out);
      check_path_text(&g, out, s, t, d[t]);
      cr_assert_eq(gsp("apsp --no-sample --path %d:%d %s", s, t, g_path), 0, "%s", err);
      char want[128];
      snprintf(want, sizeof want, "path: %d -> %d, value %lld,", s, t, d[t]);
      cr_expect(strstr(out, want) != NULL, "expected '%s' in\n%s", want, out);
    }
  }
  /* sssp -o: every reached vertex with its Dijkstra distance */
  dijkstra(&g, 17, d);
  cr_assert_eq(gsp("sssp --source 17 -o %s %s", tmp("d.txt"), g_path), 0, "%s", err);
  FILE *f = fopen(tmp("d.txt"), "r");
  char line[128];
  int seen = 0, reach = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    int v;
    long long x;
    cr_assert_eq(sscanf(line, "%d %lld", &v, &x), 2);
    cr_expect_eq(x, d[v], "distance to %d", v);
    seen++;
  }
  fclose(f);
  for (int v = 1; v <= 300; v++) reach += d[v] >= 0;
  cr_expect_eq(seen, reach);
  free(d);
  free_graph(&g);
}

/* Bellman-Ford reference (any weights, no negative cycle); -1 LL sentinel
 * replaced by a reached flag. */
static void bellman_ford(const graph *g, int s, long long *d, char *reached) {
  for (int v = 1; v <= g->n; v++) reached[v] = 0;
  d[s] = 0;
  reached[s] = 1;
  for (int round = 0; round < g->n; round++)
    for (int e = 0; e < g->m; e++) {
      int u = g->from[e], v = g->to[e];
      if (reached[u] && (!reached[v] || d[u] + g->w[e] < d[v])) {
        d[v] = d[u] + g->w[e];
        reached[v] = 1;
      }
    }
}

Test(cli, negative_weights_use_bellman_ford) {
  char gp[512];
  snprintf(gp, sizeof gp, "%s", tmp("neg_dag.gr"));
  cr_assert_eq(gsp("generate dag --n 80 --m 600 --wmin -20 --wmax 30 --seed 9 -o %s", gp), 0, "%s", err);
  graph g = parse_gr(gp);
  long long d[81];
  char reached[81];
  bellman_ford(&g, 1, d, reached);
  cr_assert_eq(gsp("sssp --source 1 -o %s %s", tmp("nd.txt"), gp), 0, "%s", err);
  cr_expect(strstr(out, "gsp_bellman_ford (negative weights)") != NULL, "%s", out);
  FILE *f = fopen(tmp("nd.txt"), "r");
  char line[128];
  int seen = 0, want = 0;
  while (fgets(line, sizeof line, f)) {
    int v;
    long long x;
    if (line[0] == '#') continue;
    cr_assert_eq(sscanf(line, "%d %lld", &v, &x), 2);
    cr_expect(reached[v] && x == d[v], "vertex %d: %lld vs %lld", v, x, d[v]);
    seen++;
  }
  fclose(f);
  for (int v = 1; v <= 80; v++) want += reached[v];
  cr_expect_eq(seen, want);
  for (int t = 2; t <= 80; t += 13) {
    int rc = gsp("path %s 1 %d", gp, t);
    if (!reached[t]) {
      cr_expect_eq(rc, 6);
      continue;
    }
    cr_assert_eq(rc, 0, "%s", err);
    check_path_text(&g, out, 1, t, d[t]);
  }
  /* the vxm loop gives the same distances */
  cr_assert_eq(gsp("sssp --method vxm --source 1 -o %s %s", tmp("nd2.txt"), gp), 0, "%s", err);
  cr_expect(strstr(out, "gsp_vxm") != NULL, "%s", out);
  f = fopen(tmp("nd2.txt"), "r");
  seen = 0;
  while (fgets(line, sizeof line, f)) {
    int v;
    long long x;
    if (line[0] == '#') continue;
    cr_assert_eq(sscanf(line, "%d %lld", &v, &x), 2);
    cr_expect(reached[v] && x == d[v], "vxm vertex %d: %lld vs %lld", v, x, d[v]);
    seen++;
  }
  fclose(f);
  cr_expect_eq(seen, want);
  cr_assert_eq(gsp("path --method bellman-ford %s 1 %d", gp, 80), reached[80] ? 0 : 6, "%s", err);
  cr_expect_eq(gsp("negcycle %s", gp), 0, "%s", err); /* a DAG */
  cr_expect(strstr(out, "no negative cycle") != NULL, "%s", out);
  /* the library's gsp_sssp refuses negative weights */
  cr_expect_eq(gsp("sssp --method library --source 1 %s", gp), 1);
  free_graph(&g);
}

Test(cli, no_path_and_negative_cycle_exit_codes) {
  cr_expect_eq(gsp("path data/el_unweighted.txt 3 0"), 6);
  cr_expect(strstr(out, "no path from 3 to 0"), "%s", out);
  cr_expect_eq(gsp("path data/el_unweighted.txt 0 3"), 0);
  cr_expect(strstr(out, "value 3, 4 vertices"), "%s", out); /* hop count */
  FILE *f = fopen(tmp("neg.gr"), "w");
  fprintf(f, "p sp 3 3\na 1 2 1\na 2 3 -2\na 3 1 -1\n");
  fclose(f);
  cr_expect_eq(gsp("apsp %s", tmp("neg.gr")), 5, "%s", err);
  cr_expect_eq(gsp("sssp --source 1 %s", tmp("neg.gr")), 5, "%s", err);
  cr_expect(strstr(err, "negative cycle"), "%s", err);
  cr_expect_eq(gsp("sssp --method bellman-ford --source 1 %s", tmp("neg.gr")), 5, "%s", err);
  cr_expect_eq(gsp("negcycle %s", tmp("neg.gr")), 5, "%s", err);
  cr_expect(strstr(out, "negative cycle of 3 vertices, weight -2"), "%s", out);
  cr_expect(strstr(out, "1 -> 2 -> 3 -> 1"), "%s", out);
  cr_expect_eq(gsp("sssp --method dijkstra --source 1 %s", tmp("neg.gr")), 2, "%s", err);
}

Test(cli, apsp_bundled_graph_and_outputs) {
  cr_assert_eq(gsp("apsp data/../../data/helsinki_drive.gr.gz -o %s", tmp("dist.gspd")), 0, "%s", err);
  cr_expect(strstr(out, "1437 vertices, 2126 arcs"), "%s", out);
  cr_expect(strstr(out, "min-plus closure"), "%s", out);
  cr_expect(strstr(out, "sample path (the pair farthest apart)"), "%s", out);
  cr_expect_eq(err[0], '\0', "stderr not empty (no progress bar off a tty): %s", err);
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_read(&D, tmp("dist.gspd"), NULL));
  gsp_index n, nv;
  GSP_OK(gsp_matrix_nrows(&n, D));
  GSP_OK(gsp_matrix_nvals(&nv, D));
  cr_expect_eq(n, 1437);
  cr_expect(strstr(out, "connected pairs: ") != NULL);
  char want[64];
  snprintf(want, sizeof want, "connected pairs: %llu of", (unsigned long long)nv);
  cr_expect(strstr(out, want) != NULL, "'%s' in %s", want, out);
  gsp_matrix_free(&D);
  /* reachability and -q */
  cr_expect_eq(gsp("closure -q --semiring or-and data/gr_valid.gr -o %s", tmp("r.mtx")), 0);
  cr_expect_eq(out[0], '\0', "-q printed: %s", out);
  cr_expect_eq(gsp("apsp data/gr_valid.gr -o /nonexistent-dir/x.mtx"), 4);
}

/* --device-memory-cap and --gpus: values parsed strictly; a generous cap
 * and one GPU give the same result as no option (also on the CPU backend,
 * which has no device to cap). */
Test(cli, apsp_device_memory_cap_and_gpus) {
  cr_expect_eq(gsp("apsp --device-memory-cap 12x data/gr_valid.gr"), 2);
  cr_expect(strstr(err, "not a byte count"), "%s", err);
  cr_expect_eq(gsp("apsp --device-memory-cap -5 data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("apsp --device-memory-cap 99999999999999999999G data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("apsp --gpus many data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("apsp --gpus -1 data/gr_valid.gr"), 2);
  cr_assert_eq(gsp("apsp --no-sample data/gr_valid.gr -o %s", tmp("nocap.mtx")), 0, "%s", err);
  cr_assert_eq(gsp("apsp --no-sample --device-memory-cap 64M --gpus 1 data/gr_valid.gr -o %s", tmp("cap.mtx")), 0, "%s",
               err);
  char a[8192], b[8192];
  slurp(tmp("nocap.mtx"), a, sizeof a);
  slurp(tmp("cap.mtx"), b, sizeof b);
  cr_expect_str_eq(a, b);
}

Test(cli, convert_and_generate) {
  cr_assert_eq(gsp("convert data/gr_valid.gr %s", tmp("v.mtx.gz")), 0, "%s", err);
  cr_assert_eq(gsp("convert %s %s", tmp("v.mtx.gz"), tmp("v.txt")), 0, "%s", err);
  gsp_matrix A = NULL, B = NULL;
  char p[1024];
  snprintf(p, sizeof p, "%s/gr_valid.gr", GSP_TEST_DATA_DIR);
  GSP_OK(gsp_matrix_read(&A, p, NULL));
  GSP_OK(gsp_matrix_read(&B, tmp("v.txt"), NULL));
  gsp_test_assert_matrix_same(A, B, 0);
  gsp_matrix_free(&A);
  gsp_matrix_free(&B);
  cr_expect_eq(gsp("convert --format npy data/gr_valid.gr %s", tmp("v.bin")), 0);
  char head[8] = {0};
  FILE *f = fopen(tmp("v.bin"), "rb");
  cr_assert(f && fread(head, 1, 6, f) == 6);
  fclose(f);
  cr_expect(memcmp(head, "\x93NUMPY", 6) == 0);
  /* generators are deterministic from the seed */
  const char *kinds[] = {"rmat --scale 8", "grid --rows 5 --cols 6", "ring --n 9",
                         "complete --n 6", "dag --n 20 --m 50",      "random --n 40 --m 99"};
  for (int k = 0; k < 6; k++) {
    cr_assert_eq(gsp("generate %s --seed 3 -o %s", kinds[k], tmp("g1.mtx")), 0, "%s", err);
    cr_assert_eq(gsp("generate %s --seed 3 -o %s", kinds[k], tmp("g2.mtx")), 0, "%s", err);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", tmp("g1.mtx"), tmp("g2.mtx"));
    cr_expect_eq(system(cmd), 0, "generate %s is not deterministic", kinds[k]);
  }
}

Test(cli, dimacs_query_files) {
  /* distances in gr_valid.gr worked out by hand: from 1: 0 7 3 9 14 */
  cr_assert_eq(gsp("queries data/gr_valid.gr data/gr_valid.ss"), 0, "%s", err);
  cr_expect(strstr(out, "s 1 5 33 14 ") != NULL, "%s", out);
  cr_assert_eq(gsp("queries data/gr_valid.gr data/gr_valid.p2p"), 0, "%s", err);
  cr_expect(strstr(out, "q 1 5 14\nq 4 2 13\n") != NULL, "%s", out);
  cr_assert_eq(gsp("queries -m vxm -o %s data/gr_valid.gr data/gr_valid.p2p", tmp("q.txt")), 0, "%s", err);
  char text[256];
  slurp(tmp("q.txt"), text, sizeof text);
  cr_expect_str_eq(text, "q 1 5 14\nq 4 2 13\n");
  cr_expect_eq(gsp("queries data/gr_valid.gr data/gr_bad.ss"), 3);
  cr_expect(strstr(err, "gr_bad.ss line 3: vertex 9 out of range 1..5"), "%s", err);
}

Test(cli, check_against_graphblas) {
  int rc = gsp("check data/gr_valid.gr -k 0");
  if (rc == 8) cr_skip_test("gsp built without GraphBLAS");
  cr_expect_eq(rc, 0, "%s %s", out, err);
  cr_expect(strstr(out, "5 source rows, 25 pairs compared, 0 disagree"), "%s", out);
  cr_expect_eq(gsp("check --semiring or-and data/gr_valid.gr"), 0, "%s", err);
  cr_expect_eq(gsp("check --semiring max-min --apsp-limit 2 data/gr_valid.gr"), 2);
  cr_expect_eq(gsp("check --apsp-limit 2 -k 3 data/gr_valid.gr"), 0, "%s", err);
}

/* gsp apsp --algo / --sources / --cutoff / --parent-output (min-plus through
 * gsp_apsp): every algorithm gives the Bellman-Ford distances of a graph
 * with negative weights, -v names the algorithm that ran, and the options
 * that need min-plus are refused elsewhere. */
Test(cli, apsp_algorithms_and_sources) {
  char gp[512];
  snprintf(gp, sizeof gp, "%s", tmp("neg_apsp.gr"));
  cr_assert_eq(gsp("generate dag --n 60 --m 400 --wmin -20 --wmax 30 --seed 4 -o %s", gp), 0, "%s", err);
  graph g = parse_gr(gp);
  long long d[61];
  char reached[61];
  const char *algos[] = {"auto", "fw", "johnson"};
  for (int a = 0; a < 3; a++) {
    /* with parents recorded, as the sample path once made every run do:
     * the cost model's pick for auto is then Johnson's */
    cr_assert_eq(gsp("apsp -v --algo %s --sources 1,7,60 -o %s --parent-output %s %s", algos[a], tmp("nd.mtx"),
                     tmp("np.mtx"), gp),
                 0, "%s", err);
    char want[64];
    snprintf(want, sizeof want, "algorithm: %s", a == 0 ? "johnson" : algos[a]);
    cr_expect(strstr(err, want) != NULL, "expected '%s' in %s", want, err);
    cr_expect(strstr(out, "connected pairs: "), "%s", out);
    gsp_matrix D = NULL;
    GSP_OK(gsp_matrix_read(&D, tmp("nd.mtx"), NULL));
    const int srcs[] = {1, 7, 60};
    for (int k = 0; k < 3; k++) {
      bellman_ford(&g, srcs[k], d, reached);
      for (int v = 1; v <= 60; v++) {
        int64_t x = 0;
        gsp_info info = gsp_matrix_extract_element(&x, D, (gsp_index)k, (gsp_index)(v - 1));
        if (!reached[v]) {
          cr_expect_eq(info, GSP_NO_VALUE, "%s row %d vertex %d", algos[a], k, v);
          continue;
        }
        cr_expect(info == GSP_SUCCESS && x == d[v], "%s row %d vertex %d: %lld vs %lld", algos[a], k, v, (long long)x,
                  d[v]);
      }
    }
    gsp_matrix_free(&D);
  }
  /* the path query walks the parent matrix, and must name a listed source */
  bellman_ford(&g, 7, d, reached);
  for (int t = 8; t <= 60; t++) {
    if (!reached[t]) continue;
    cr_assert_eq(gsp("apsp --algo johnson --sources 1,7 --path 7:%d %s", t, gp), 0, "%s", err);
    check_path_text(&g, out, 7, t, d[t]);
    break;
  }
  cr_expect_eq(gsp("apsp --sources 1,7 --path 2:5 %s", gp), 2);
  cr_expect_eq(gsp("apsp --algo msssp %s", gp), 2); /* negative weights: a usage error */
  cr_expect(strstr(err, "non-negative"), "%s", err);
  cr_expect_eq(gsp("apsp --algo dijkstra %s", gp), 2);
  cr_expect_eq(gsp("apsp --sources 1,999 %s", gp), 2);
  cr_expect_eq(gsp("apsp --semiring max-min --algo fw %s", gp), 2);
  cr_expect_eq(gsp("apsp --cutoff -3 %s", gp), 2);
  /* cutoff and the parent matrix */
  cr_assert_eq(gsp("apsp -q --cutoff 0 --sources 1 --parent-output %s -o %s %s", tmp("par.mtx"), tmp("cut.mtx"), gp), 0,
               "%s", err);
  gsp_matrix C = NULL, P = NULL;
  GSP_OK(gsp_matrix_read(&C, tmp("cut.mtx"), NULL));
  GSP_OK(gsp_matrix_read(&P, tmp("par.mtx"), NULL));
  bellman_ford(&g, 1, d, reached);
  gsp_index nv = 0, want = 0;
  GSP_OK(gsp_matrix_nvals(&nv, C));
  for (int v = 1; v <= 60; v++) want += reached[v] && d[v] <= 0;
  cr_expect_eq(nv, want);
  int64_t root = -1;
  GSP_OK(gsp_matrix_extract_element(&root, P, 0, 0));
  cr_expect_eq(root, 0);
  /* int32 parents: the same file */
  cr_assert_eq(gsp("apsp -q --sources 1,7 --parent-type int32 --parent-output %s %s", tmp("par32.mtx"), gp), 0, "%s",
               err);
  cr_assert_eq(gsp("apsp -q --sources 1,7 --parent-output %s %s", tmp("par64.mtx"), gp), 0, "%s", err);
  gsp_matrix P32 = NULL, P64 = NULL;
  GSP_OK(gsp_matrix_read(&P32, tmp("par32.mtx"), NULL));
  GSP_OK(gsp_matrix_read(&P64, tmp("par64.mtx"), NULL));
  gsp_test_assert_matrix_same(P32, P64, 0);
  cr_expect_eq(gsp("apsp --parent-type fp32 %s", gp), 2);
  cr_expect_eq(gsp("apsp --semiring max-min --parent-type int32 %s", gp), 2);
  gsp_matrix_free(&C), gsp_matrix_free(&P), gsp_matrix_free(&P32), gsp_matrix_free(&P64);
  free_graph(&g);
}

/* The thread count follows the CPU affinity (taskset), and the program's
 * OpenMP threads wait passively unless the user chose a policy. */
Test(cli, threads_follow_affinity_and_wait_passively) {
  if (sh("command -v taskset > /dev/null") != 0) cr_skip_test("taskset is not installed");
  put(tmp("t.gr"), "p sp 3 2\na 1 2 1\na 2 3 1\n");
  cr_assert_eq(sh("taskset -c 0 GSP apsp -v --no-sample %s", tmp("t.gr")), 0, "%s", err);
  cr_expect(strstr(out, "; 1 CPU thread (") || strstr(err, "; 1 CPU thread ("), "%s%s", out, err);
  cr_assert_eq(sh("env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT GSP apsp -v --no-sample %s", tmp("t.gr")), 0, "%s", err);
  cr_expect(strstr(out, "(OMP_WAIT_POLICY=PASSIVE)") || strstr(err, "(OMP_WAIT_POLICY=PASSIVE)"), "%s%s", out, err);
  cr_assert_eq(sh("OMP_WAIT_POLICY=active GSP apsp -v --no-sample %s", tmp("t.gr")), 0, "%s", err);
  cr_expect(strstr(out, "(OMP_WAIT_POLICY=active)") || strstr(err, "(OMP_WAIT_POLICY=active)"), "%s%s", out, err);
}

/* The sample path comes from one single-source search after the run, not
 * from the parents of every source: it is the path --path (the parents
 * gsp_apsp records) prints for the same pair, and the run records no
 * parents for it. */
Test(cli, sample_path_is_the_path_from_parents) {
  const char *g = "data/../../data/helsinki_drive.gr.gz";
  cr_assert_eq(gsp("apsp -v %s", g), 0, "%s", err);
  const char *line = strstr(out, "sample path (the pair farthest apart): ");
  cr_assert(line, "%s", out);
  long long s, d;
  cr_assert_eq(sscanf(line, "sample path (the pair farthest apart): %lld -> %lld", &s, &d), 2, "%s", line);
  char sample[1 << 14];
  snprintf(sample, sizeof sample, "%s", strchr(line, ','));
  cr_expect(strstr(out, ", with paths") == NULL, "the run recorded parents: %s", out);
  cr_assert_eq(gsp("apsp -v --no-sample --path %lld:%lld %s", s, d, g), 0, "%s", err);
  const char *p = strstr(out, "path: ");
  cr_assert(p, "%s", out);
  cr_expect_str_eq(strchr(p, ','), sample);
}

/* --progress: progress lines on stderr also when it is a pipe (a line per
 * tenth); without it a pipe gets nothing. */
Test(cli, progress_lines_when_stderr_is_a_pipe) {
  cr_assert_eq(gsp("generate random --n 2000 --m 8000 --wmin 1 --wmax 100 --type int32 -o %s", tmp("p.gr")), 0, "%s",
               err);
  cr_assert_eq(gsp("apsp --algo msssp %s", tmp("p.gr")), 0, "%s", err);
  cr_expect_eq(err[0], '\0', "stderr not empty without --progress: %s", err);
  cr_assert_eq(gsp("apsp --algo msssp --progress %s", tmp("p.gr")), 0, "%s", err);
  cr_expect(strstr(err, "reading: 100% ("), "%s", err);
  cr_expect(strstr(err, "computing: 10% (") && strstr(err, "computing: 100% ("), "%s", err);
  cr_expect(strchr(err, '\r') == NULL, "a bar (carriage returns) on a pipe: %s", err);
}

/* Count the lines of err that start with `label`. */
static int lines_of(const char *label) {
  int k = 0;
  for (const char *q = err; (q = strstr(q, label)) != NULL; q += strlen(label)) k += q == err || q[-1] == '\n';
  return k;
}

/* --progress also for the closures: gsp_apsp's Floyd-Warshall and the
 * closure on another semiring report rounds (a few hundred vertices: 5
 * blocks of 64, each a tenth line of its own). */
Test(cli, progress_lines_of_closures) {
  cr_assert_eq(gsp("generate random --n 300 --m 1800 --wmin 1 --wmax 100 --type int32 -o %s", tmp("c.gr")), 0, "%s",
               err);
  cr_assert_eq(gsp("apsp --algo fw --progress --no-sample %s", tmp("c.gr")), 0, "%s", err);
  cr_expect_geq(lines_of("computing: "), 3, "%s", err);
  cr_expect(strstr(err, "computing: 100% ("), "%s", err);
  cr_assert_eq(gsp("apsp --semiring max-min --progress --no-sample %s", tmp("c.gr")), 0, "%s", err);
  cr_expect_geq(lines_of("computing: "), 3, "%s", err);
  cr_expect(strstr(err, "computing: 100% ("), "%s", err);
  cr_assert_eq(gsp("apsp --algo fw %s", tmp("c.gr")), 0, "%s", err);
  cr_expect_eq(err[0], '\0', "stderr not empty without --progress: %s", err);
}

/* Integer distances in a .npy say "no path" with the type's maximum: the
 * run says so, and the file holds exactly that value where there is none. */
Test(cli, npy_integer_no_path_is_the_types_maximum_and_said) {
  put(tmp("np.gr"), "p sp 3 1\na 1 2 5\n");
  cr_assert_eq(gsp("apsp -t int32 -o %s %s", tmp("d.npy"), tmp("np.gr")), 0, "%s", err);
  cr_expect(strstr(err, "no path is 2147483647 in ") && strstr(err, "(the type's maximum, not a weight)"), "%s", err);
  gsp_matrix D = NULL;
  GSP_OK(gsp_matrix_read(&D, tmp("d.npy"), NULL));
  int32_t x[9], big = INT32_MAX;
  GSP_OK(gsp_matrix_export_dense(x, &big, D));
  cr_expect(x[1] == 5 && x[2] == INT32_MAX && x[3] == INT32_MAX, "%d %d %d", x[1], x[2], x[3]);
  GSP_OK(gsp_matrix_free(&D));
  cr_assert_eq(gsp("apsp -t fp64 -o %s %s", tmp("f.npy"), tmp("np.gr")), 0, "%s", err);
  cr_expect(strstr(err, "no path is") == NULL, "float distances hold inf: %s", err);
}
