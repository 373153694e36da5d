/* Option parsing for all subcommands: "--name value", "--name=value",
 * "-x value", flags, and "--" to end options. Small and table-driven so
 * every subcommand's --help comes from the same table it parses. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const cli_opt cli_common_opts[] = {
    {"backend", 0, OPT_VALUE, "auto|cpu|cuda  where to compute (default auto: CUDA when usable)"},
    {"threads", 0, OPT_VALUE, "N  CPU threads (default: OpenMP's choice)"},
    {"quiet", 'q', OPT_FLAG, "   print only results and errors"},
    {"verbose", 'v', OPT_FLAG, "   print details (timings, sizes, choices)"},
    {"progress", 0, OPT_FLAG, "   report progress on stderr also when it is not a terminal (a line per 10%)"},
    {"help", 'h', OPT_FLAG, "   show this help"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_opt cli_read_opts[] = {
    {"input-format", 0, OPT_VALUE, "F  auto|mtx|dimacs|edgelist|dense|npy (default: by extension/content)"},
    {"type", 't', OPT_VALUE, "T  bool|int32|int64|fp32|fp64 (default: from the file)"},
    {"one-based", 0, OPT_FLAG, "   edge lists: ids start at 1"},
    {"remap", 0, OPT_FLAG, "   edge lists: ids are arbitrary labels"},
    {"symmetrize", 0, OPT_FLAG, "   undirected: add the reverse of every arc"},
    {"dup", 0, OPT_VALUE, "P  parallel arcs: min|max|first|last|plus|error (default min)"},
    {"no-self-loops", 0, OPT_FLAG, "   drop arcs i -> i"},
    {"absent", 0, OPT_VALUE, "X  dense input: the value meaning no arc (0, inf, nan, ...)"},
    {"round", 0, OPT_FLAG, "   store a value the type cannot hold exactly as its nearest (default: refuse)"},
    {NULL, 0, OPT_FLAG, NULL}};

const cli_opt cli_map_opts[] = {
    {"geojson", 0, OPT_VALUE, "FILE  write the path (sssp: the shortest-path tree) as GeoJSON"},
    {"svg", 0, OPT_VALUE, "FILE  draw the path (sssp: the reached vertices) over the road network as SVG"},
    {"coords", 0, OPT_VALUE, "FILE  vertex coordinates, DIMACS .co (default: GRAPH's .co or .co.gz beside it)"},
    {NULL, 0, OPT_FLAG, NULL}};

/* The option named lng (or, when lng is NULL, with letter shrt) among
 * those cmd takes. */
static const cli_opt *find(const cli_command *cmd, const char *lng, char shrt) {
  const cli_opt *const tables[] = {cli_common_opts, cmd->reads ? cli_read_opts : NULL, cmd->maps ? cli_map_opts : NULL,
                                   cmd->opts};
  for (int k = 0; k < 4; k++)
    for (const cli_opt *t = tables[k]; t && t->lng; t++)
      if ((lng && strcmp(t->lng, lng) == 0) || (!lng && t->shrt == shrt)) return t;
  return NULL;
}

static int apply_common(cli_ctx *c, const char *cmd, const char *name, const char *v) {
  /* the reading flags */
  bool *flag = !strcmp(name, "symmetrize")      ? &c->read.symmetrize
               : !strcmp(name, "round")         ? &c->read.round
               : !strcmp(name, "no-self-loops") ? &c->read.drop_self_loops
                                                : NULL;
  if (flag) {
    *flag = true;
    return CLI_OK;
  }
  if (!strcmp(name, "one-based") || !strcmp(name, "remap")) {
    c->read.ids = !strcmp(name, "remap") ? GSP_IDS_REMAP : GSP_IDS_ONE_BASED; /* the last one given */
    return CLI_OK;
  }
  if (!strcmp(name, "backend")) {
    static const cli_name backends[] = {
        {"auto", GSP_BACKEND_AUTO}, {"cpu", GSP_BACKEND_CPU}, {"cuda", GSP_BACKEND_CUDA}, {NULL, 0}};
    int b;
    if (!cli_choice(cmd, name, v, backends, &b)) return CLI_USAGE;
    c->backend = (gsp_backend)b;
  } else if (!strcmp(name, "threads")) {
    int64_t t;
    if (!cli_int(cmd, "threads", v, 0, 4096, &t)) return CLI_USAGE;
    c->threads = (int)t;
  } else if (!strcmp(name, "quiet")) {
    c->verbosity = 0;
  } else if (!strcmp(name, "verbose")) {
    c->verbosity = 2;
  } else if (!strcmp(name, "progress")) {
    c->progress = true;
  } else if (!strcmp(name, "help")) {
    c->help = true;
  } else if (!strcmp(name, "input-format")) {
    if (!cli_format(cmd, name, v, &c->read.format)) return CLI_USAGE;
  } else if (!strcmp(name, "type")) {
    if (!cli_type(cmd, v, &c->read.type)) return CLI_USAGE;
    c->read.use_type = true;
  } else if (!strcmp(name, "absent")) {
    char *end;
    errno = 0;
    double a = strtod(v, &end); /* accepts nan, inf, -inf */
    if (errno || end == v || *end != '\0') {
      fprintf(stderr,
              "gsp %s: --absent: '%s' is not a number (0, inf, nan, "
              "...)\n",
              cmd, v);
      return CLI_USAGE;
    }
    c->read.use_absent = true;
    c->read.absent = a;
  } else if (!strcmp(name, "dup")) {
    static const cli_name dups[] = {{"min", GSP_DUP_MIN},
                                    {"max", GSP_DUP_MAX},
                                    {"first", GSP_DUP_FIRST},
                                    {"last", GSP_DUP_LAST},
                                    {"plus", GSP_DUP_PLUS},
                                    {"error", GSP_DUP_ERROR},
                                    {NULL, 0}};
    int d;
    if (!cli_choice(cmd, name, v, dups, &d)) return CLI_USAGE;
    c->read.use_dup = true;
    c->read.dup = (gsp_dup)d;
  } else {
    return -1; /* not a common option */
  }
  return CLI_OK;
}

int cli_parse(cli_ctx *c, int argc, char **argv, const cli_command *command) {
  const char *cmd = argv[0];
  memset(c, 0, sizeof *c);
  c->cmd = cmd;
  c->verbosity = 1;
  bool only_pos = false;
  for (int k = 1; k < argc; k++) {
    const char *a = argv[k];
    if (only_pos || a[0] != '-' || a[1] == '\0') {
      if (c->npos == 16) {
        fprintf(stderr, "gsp %s: too many arguments\n", cmd);
        return CLI_USAGE;
      }
      c->pos[c->npos++] = a;
      continue;
    }
    if (!strcmp(a, "--")) {
      only_pos = true;
      continue;
    }
    char name[64];
    const char *value = NULL;
    const cli_opt *o;
    if (a[1] == '-') {
      const char *eq = strchr(a + 2, '=');
      size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      if (len >= sizeof name) len = sizeof name - 1;
      memcpy(name, a + 2, len);
      name[len] = '\0';
      if (eq) value = eq + 1;
      o = find(command, name, 0);
    } else {
      if (a[2] != '\0') value = a + 2; /* -o FILE or -oFILE */
      o = find(command, NULL, a[1]);
    }
    if (!o) {
      fprintf(stderr, "gsp %s: unknown option '%s' (see gsp %s --help)\n", cmd, a, cmd);
      return CLI_USAGE;
    }
    if (o->kind == OPT_FLAG) {
      if (value) {
        fprintf(stderr, "gsp %s: --%s takes no value\n", cmd, o->lng);
        return CLI_USAGE;
      }
      value = "1";
    } else if (!value) {
      if (k + 1 >= argc) {
        fprintf(stderr, "gsp %s: --%s needs a value\n", cmd, o->lng);
        return CLI_USAGE;
      }
      value = argv[++k];
    }
    int rc = apply_common(c, cmd, o->lng, value);
    if (rc == CLI_OK) continue;
    if (rc > 0) return rc;
    if (!strcmp(o->lng, "output")) {
      c->output = value;
    } else if (!strcmp(o->lng, "format")) {
      if (!cli_format(cmd, o->lng, value, &c->out_format)) return CLI_USAGE;
    } else if (!strcmp(o->lng, "semiring")) {
      c->semiring_name = value;
    }
    if (c->nvalues < 64) {
      c->names[c->nvalues] = o->lng;
      c->values[c->nvalues++] = value;
    }
  }
  return CLI_OK;
}

const char *cli_get(const cli_ctx *c, const char *name) {
  const char *v = NULL;
  for (int k = 0; k < c->nvalues; k++)
    if (!strcmp(c->names[k], name)) v = c->values[k]; /* last one wins */
  return v;
}

bool cli_int(const char *cmd, const char *name, const char *s, int64_t lo, int64_t hi, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end != '\0' || v < lo || v > hi) {
    fprintf(stderr, "gsp %s: --%s: '%s' is not an integer in %lld..%lld\n", cmd, name, s, (long long)lo, (long long)hi);
    return false;
  }
  *out = v;
  return true;
}

bool cli_double(const char *cmd, const char *name, const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end != '\0' || !isfinite(v)) {
    fprintf(stderr, "gsp %s: --%s: '%s' is not a number\n", cmd, name, s);
    return false;
  }
  *out = v;
  return true;
}

bool cli_bytes(const char *cmd, const char *name, const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  unsigned shift = 0;
  if (end != s && *end && !end[1]) {
    switch (*end) {
    case 'k':
    case 'K':
      shift = 10;
      end++;
      break;
    case 'm':
    case 'M':
      shift = 20;
      end++;
      break;
    case 'g':
    case 'G':
      shift = 30;
      end++;
      break;
    default:
      break;
    }
  }
  if (errno || end == s || *end != '\0' || s[0] == '-' || (shift && v > (SIZE_MAX >> shift))) {
    fprintf(stderr, "gsp %s: --%s: '%s' is not a byte count (digits, optional k/M/G)\n", cmd, name, s);
    return false;
  }
  *out = (size_t)v << shift;
  return true;
}

bool cli_choice(const char *cmd, const char *opt, const char *s, const cli_name *names, int *out) {
  for (const cli_name *k = names; k->name; k++)
    if (!strcmp(s, k->name)) {
      *out = k->value;
      return true;
    }
  fprintf(stderr, "gsp %s: --%s: '%s' is not ", cmd, opt, s);
  for (const cli_name *k = names; k->name; k++)
    fprintf(stderr, "%s%s", k->name, !k[1].name ? "\n" : !k[2].name ? " or " : ", ");
  return false;
}

/* The name of value v in names (NULL-terminated), "?" when none. */
static const char *name_of(const cli_name *names, int v) {
  for (const cli_name *k = names; k->name; k++)
    if (k->value == v) return k->name;
  return "?";
}

static const cli_name semirings[] = {{"min-plus", GSP_MIN_PLUS}, {"max-plus", GSP_MAX_PLUS}, {"max-min", GSP_MAX_MIN},
                                     {"min-max", GSP_MIN_MAX},   {"or-and", GSP_OR_AND},     {NULL, 0}};
static const cli_name types[] = {{"bool", GSP_BOOL}, {"int32", GSP_INT32}, {"int64", GSP_INT64},
                                 {"fp32", GSP_FP32}, {"fp64", GSP_FP64},   {NULL, 0}};
static const cli_name formats[] = {{"auto", GSP_FILE_AUTO},
                                   {"mtx", GSP_FILE_MTX},
                                   {"dimacs", GSP_FILE_DIMACS},
                                   {"edgelist", GSP_FILE_EDGELIST},
                                   {"dense", GSP_FILE_DENSE},
                                   {"npy", GSP_FILE_NPY},
                                   {NULL, 0}};

bool cli_semiring(const char *cmd, const char *s, gsp_semiring *out) {
  int v;
  if (!strcmp(s, "plus-times")) v = GSP_PLUS_TIMES; /* refused by each command, with its reason */
  else if (!cli_choice(cmd, "semiring", s, semirings, &v)) return false;
  *out = (gsp_semiring)v;
  return true;
}

const char *cli_semiring_name(gsp_semiring s) {
  return s == GSP_PLUS_TIMES ? "plus-times" : name_of(semirings, s);
}

bool cli_type(const char *cmd, const char *s, gsp_type *out) {
  int v;
  if (!cli_choice(cmd, "type", s, types, &v)) return false;
  *out = (gsp_type)v;
  return true;
}

const char *cli_type_name(gsp_type t) {
  return name_of(types, t);
}

bool cli_format(const char *cmd, const char *opt, const char *s, gsp_file_format *out) {
  int v;
  if (!cli_choice(cmd, opt, s, formats, &v)) return false;
  *out = (gsp_file_format)v;
  return true;
}

static void print_opts(FILE *f, const cli_opt *o) {
  for (; o && o->lng; o++) {
    const char *sp = strchr(o->help, ' ');
    size_t arg = sp ? (size_t)(sp - o->help) : 0;
    char left[48];
    if (o->shrt) snprintf(left, sizeof left, "-%c, --%s %.*s", o->shrt, o->lng, (int)arg, o->help);
    else snprintf(left, sizeof left, "    --%s %.*s", o->lng, (int)arg, o->help);
    fprintf(f, "  %-30s %s\n", left, sp ? sp + 1 + strspn(sp + 1, " ") : o->help);
  }
}

void cli_usage(FILE *f, const cli_command *cmd) {
  fprintf(f, "usage: %s\n\n%s\n", cmd->synopsis, cmd->description);
  if (cmd->opts && cmd->opts->lng) {
    fprintf(f, "\noptions:\n");
    print_opts(f, cmd->opts);
  }
  if (cmd->maps) {
    fprintf(f, "\nmaps (need vertex coordinates):\n");
    print_opts(f, cli_map_opts);
  }
  if (cmd->reads) {
    fprintf(f, "\nreading the graph:\n");
    print_opts(f, cli_read_opts);
  }
  fprintf(f, "\ncommon options:\n");
  print_opts(f, cli_common_opts);
  fprintf(f, "\nExit codes: 0 ok, 1 failure, 2 usage, 3 bad input, 4 cannot "
             "write output,\n5 negative cycle, 6 no path, 7 check mismatch, 8 "
             "not available in this build.\n");
}
