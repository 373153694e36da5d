/* All-or-nothing output files (see gsp_output.h): a unique temporary in the
 * target's directory, renamed over the target once complete; special files
 * and standard output written through. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gsp_internal.h"
#include "gsp_output.h"

/* ---- temporaries open in this process, for a signal handler ---- */

/* Fixed slots with the path inside, so the handler never follows a pointer
 * that another thread is freeing: state 0 free, 1 being changed, 2 live. */
#define TMP_SLOTS 64
#define TMP_PATH  4096
static struct {
  atomic_int state;
  char path[TMP_PATH];
} slots[TMP_SLOTS];

static int slot_take(const char *path) {
  if (strlen(path) >= TMP_PATH) return -1; /* not cleaned on a signal */
  for (int k = 0; k < TMP_SLOTS; k++) {
    int free_state = 0;
    if (atomic_compare_exchange_strong(&slots[k].state, &free_state, 1)) {
      strcpy(slots[k].path, path);
      atomic_store(&slots[k].state, 2);
      return k;
    }
  }
  return -1;
}

static void slot_give(int k) {
  if (k < 0) return;
  atomic_store(&slots[k].state, 1);
  slots[k].path[0] = '\0';
  atomic_store(&slots[k].state, 0);
}

void gsp__remove_temporaries(void) {
  for (int k = 0; k < TMP_SLOTS; k++)
    if (atomic_load(&slots[k].state) == 2) unlink(slots[k].path);
}

/* ---- paths ---- */

static char *dup_str(const char *s, size_t n) {
  char *d = gsp__malloc(n + 1);
  if (d) {
    memcpy(d, s, n);
    d[n] = '\0';
  }
  return d;
}

/* The directory part of p ("." when none). */
static char *dir_of(const char *p) {
  const char *slash = strrchr(p, '/');
  if (!slash) return dup_str(".", 1);
  if (slash == p) return dup_str("/", 1);
  return dup_str(p, (size_t)(slash - p));
}

/* Follow symbolic links from path to the file they name (which may not
 * exist yet); *out is new. ELOOP after 40 links, as the kernel. */
static int resolve(const char *path, char **out) {
  char *p = dup_str(path, strlen(path));
  if (!p) return ENOMEM;
  for (int hops = 0;; hops++) {
    struct stat st;
    if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode)) break;
    if (hops == 40) {
      gsp__free(p);
      return ELOOP;
    }
    char link[TMP_PATH];
    ssize_t len = readlink(p, link, sizeof link - 1);
    if (len < 0) {
      int e = errno;
      gsp__free(p);
      return e;
    }
    link[len] = '\0';
    char *next;
    if (link[0] == '/' || !strchr(p, '/')) {
      next = dup_str(link, (size_t)len);
    } else { /* relative to the link's directory */
      char *d = dir_of(p);
      size_t n = d ? strlen(d) + 1 + (size_t)len : 0;
      next = d ? gsp__malloc(n + 1) : NULL;
      if (next) snprintf(next, n + 1, "%s/%s", d, link);
      gsp__free(d);
    }
    gsp__free(p);
    if (!next) return ENOMEM;
    p = next;
  }
  *out = p;
  return 0;
}

/* A name no other writer (thread or process) picks: pid, a process-wide
 * counter and the clock, mixed; O_EXCL settles any remaining clash. */
static void temp_name(char *buf, size_t len, const char *dir, const char *base) {
  static atomic_ullong counter;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t z = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
               (atomic_fetch_add(&counter, 1) * 0xd1b54a32d192ed03ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z ^= z >> 27;
  snprintf(buf, len, "%s/.%s.tmp-%012llx", dir, base, (unsigned long long)(z & 0xffffffffffffULL));
}

/* ---- the file ---- */

gsp_info gsp__ofile_open(gsp__ofile *f, const char *path) {
  gsp_info info = GSP_SUCCESS;
  char *dir = NULL;
#define GSP_FREE_ALL (gsp__free(dir), gsp__ofile_abort(f))
  memset(f, 0, sizeof *f);
  f->fd = -1;
  f->slot = -1;
  GSP_CHECK(path != NULL && path[0] != '\0', GSP_INVALID_VALUE, "output path is empty");
  f->shown = dup_str(path, strlen(path));
  GSP_CHECK(f->shown != NULL, GSP_OUT_OF_MEMORY, "%s: out of memory", path);
  if (strcmp(path, "-") == 0) { /* standard output, written in place */
    fflush(stdout);
    f->through = true;
    f->fd = dup(STDOUT_FILENO);
    GSP_CHECK(f->fd >= 0, GSP_IO_ERROR, "standard output: cannot write: %s", strerror(errno));
    return info;
  }
  /* stat follows every link, also the kernel's own (/dev/stdout ->
   * /proc/self/fd/1 -> "pipe:[...]"), which only an open can use */
  struct stat st;
  bool exists = stat(path, &st) == 0;
  if (exists) {
    GSP_CHECK(!S_ISDIR(st.st_mode), GSP_IO_ERROR, "%s: cannot write: is a directory", path);
    if (!S_ISREG(st.st_mode)) { /* a device, FIFO or socket: never replaced */
      f->through = true;
      errno = 0;
      f->fd = open(path, O_WRONLY | O_CLOEXEC);
      GSP_CHECK(f->fd >= 0, GSP_IO_ERROR, "%s: cannot write: %s", path, strerror(errno));
      return info;
    }
    errno = 0;
    GSP_CHECK(access(path, W_OK) == 0, GSP_IO_ERROR, "%s: cannot write: %s", path, strerror(errno));
    f->keep_mode = true;
    f->mode = (unsigned)(st.st_mode & 07777);
    f->uid = (unsigned)st.st_uid;
    f->gid = (unsigned)st.st_gid;
    char *real = realpath(path, NULL); /* the file the links lead to */
    if (real) {
      f->target = dup_str(real, strlen(real));
      free(real);
      GSP_CHECK(f->target != NULL, GSP_OUT_OF_MEMORY, "%s: out of memory", path);
    }
  }
  if (!f->target) { /* a new file, maybe at the end of a dangling link */
    int e = resolve(path, &f->target);
    GSP_CHECK(e == 0, e == ENOMEM ? GSP_OUT_OF_MEMORY : GSP_IO_ERROR, "%s: cannot write: %s", path, strerror(e));
  }
  dir = dir_of(f->target);
  GSP_CHECK(dir != NULL, GSP_OUT_OF_MEMORY, "%s: out of memory", path);
  struct stat ds;
  errno = 0;
  GSP_CHECK(stat(dir, &ds) == 0, GSP_IO_ERROR, "%s: cannot write: directory %s: %s", path, dir, strerror(errno));
  GSP_CHECK(S_ISDIR(ds.st_mode), GSP_IO_ERROR, "%s: cannot write: %s is not a directory", path, dir);
  const char *slash = strrchr(f->target, '/');
  const char *base = slash ? slash + 1 : f->target;
  size_t len = strlen(dir) + strlen(base) + 32;
  GSP_ALLOC(f->tmp, len, 1);
  for (int tries = 0;; tries++) {
    temp_name(f->tmp, len, dir, base);
    /* O_EXCL: a name that exists (a planted link too) is never opened;
     * a new file gets 0666 less the umask, a replaced one its own mode
     * at commit and nothing wider meanwhile */
    /* registered before it exists: a signal between the open and the
     * registration would leave the file behind (seen 1 in 40 runs); a
     * name registered but not created costs the handler an unlink */
    f->slot = slot_take(f->tmp);
    errno = 0;
    f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, exists ? 0600 : 0666);
    if (f->fd >= 0) break;
    const int e = errno;
    slot_give(f->slot);
    f->slot = -1;
    GSP_CHECK(e == EEXIST && tries < 100, GSP_IO_ERROR, "%s: cannot write in %s: %s", path, dir, strerror(e));
  }
  gsp__free(dir);
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ofile_stream(gsp__ofile *f, FILE **out) {
  if (!f->stream) {
    f->stream = fdopen(f->fd, "wb");
    if (!f->stream) return GSP_ERROR(GSP_IO_ERROR, "%s: cannot write: %s", f->shown, strerror(errno));
  }
  *out = f->stream;
  return GSP_SUCCESS;
}

/* Close the descriptor (and its stream); false when data could not be
 * written out. */
static bool close_fd(gsp__ofile *f, bool sync) {
  bool ok = true;
  if (f->stream) {
    /* a write that failed earlier left the error flag, not the data */
    ok &= fflush(f->stream) == 0 && !ferror(f->stream);
    if (sync && ok && fsync(f->fd) != 0 && errno != EINVAL && errno != ENOTSUP && errno != EROFS) ok = false;
    ok &= fclose(f->stream) == 0; /* closes fd */
  } else if (f->fd >= 0) {
    if (sync && fsync(f->fd) != 0 && errno != EINVAL && errno != ENOTSUP && errno != EROFS) ok = false;
    ok &= close(f->fd) == 0;
  }
  f->stream = NULL;
  f->fd = -1;
  return ok;
}

static void release(gsp__ofile *f) {
  slot_give(f->slot);
  f->slot = -1;
  GSP_FREE(f->tmp);
  GSP_FREE(f->target);
  GSP_FREE(f->shown);
}

/* The reason a buffered write failed: stdio keeps the error flag, not
 * errno, so one byte is written past the end of the temporary (which is
 * removed anyway) to learn it: ENOSPC, EFBIG (RLIMIT_FSIZE), EDQUOT... */
static int write_errno(const gsp__ofile *f) {
  if (!f->tmp || f->fd < 0) return EIO;
  const off_t end = lseek(f->fd, 0, SEEK_END);
  errno = 0;
  if (end >= 0 && pwrite(f->fd, "", 1, end) < 0 && errno) return errno;
  return EIO;
}

gsp_info gsp__ofile_finish(gsp__ofile *f) {
  gsp_info info = GSP_SUCCESS;
#define GSP_FREE_ALL gsp__ofile_abort(f)
  const char *shown = f->shown ? f->shown : "output";
  if (f->tmp && f->keep_mode && f->fd >= 0) {
    /* the replaced file's permissions (and owner, where allowed) */
    fchmod(f->fd, (mode_t)f->mode);
    if (fchown(f->fd, (uid_t)f->uid, (gid_t)f->gid) != 0) { /* only root may */
    }
  }
  int why = f->stream && ferror(f->stream) ? write_errno(f) : 0;
  errno = 0;
  bool ok = close_fd(f, true);
  if (!why) why = errno ? errno : EIO;
  GSP_CHECK(ok, GSP_IO_ERROR, "%s: write failed: %s", shown, strerror(why));
#undef GSP_FREE_ALL
  return info;
}

gsp_info gsp__ofile_commit(gsp__ofile *f) {
  gsp_info info = GSP_SUCCESS;
  char *dir = NULL;
#define GSP_FREE_ALL (gsp__free(dir), gsp__ofile_abort(f))
  const char *shown = f->shown ? f->shown : "output";
  GSP_TRY(gsp__ofile_finish(f));
  if (f->tmp) {
    errno = 0;
    GSP_CHECK(rename(f->tmp, f->target) == 0, GSP_IO_ERROR, "%s: cannot replace %s: %s", shown, f->target,
              strerror(errno));
    slot_give(f->slot); /* the name is the user's file now */
    f->slot = -1;
    GSP_FREE(f->tmp);
    /* the rename itself is durable once the directory is synced */
    dir = dir_of(f->target);
    int dfd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
      fsync(dfd);
      close(dfd);
    }
  }
  gsp__free(dir);
  release(f);
#undef GSP_FREE_ALL
  return info;
}

void gsp__ofile_abort(gsp__ofile *f) {
  close_fd(f, false);
  if (f->tmp) unlink(f->tmp);
  release(f);
}

size_t gsp__npy_header(unsigned char *buf, gsp_type t, gsp_index nrows, gsp_index ncols) {
  static const char *const descr[] = {"|b1", "<i4", "<i8", "<f4", "<f8"};
  char dict[160];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu, %llu), }", descr[t],
                   (unsigned long long)nrows, (unsigned long long)ncols);
  /* version 1.0: magic, 2 version bytes, 2-byte header length; the data
   * starts at a multiple of 64 and the header ends in '\n' */
  size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64, hlen = (size_t)n + pad + 1;
  const unsigned char pre[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  memcpy(buf, pre, 8);
  buf[8] = (unsigned char)(hlen & 0xff);
  buf[9] = (unsigned char)(hlen >> 8);
  memcpy(buf + 10, dict, (size_t)n);
  memset(buf + 10 + n, ' ', pad);
  buf[10 + (size_t)n + pad] = '\n';
  return 10 + hlen;
}
