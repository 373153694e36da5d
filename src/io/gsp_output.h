/*
 * All-or-nothing output files (src/io/io_output_file.c), shared by
 * gsp_matrix_write and the command line.
 *
 * A regular file (existing or new) is written to a temporary created with
 * O_EXCL in the same directory, synced, and renamed over it only when
 * everything was written: on any error, or a signal in a program that calls
 * gsp__remove_temporaries from its handler, the old file stays as it was
 * and no temporary is left. A symbolic link is followed to its target (the
 * link stays a link); the target's permission bits are kept, a new file gets
 * 0666 less the umask. Character devices, FIFOs, sockets and "-" (standard
 * output) cannot be replaced and are written through.
 */
#ifndef GSP_OUTPUT_H
#define GSP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "gsp.h"

typedef struct {
  char *shown;  /* the path as given (messages) */
  char *target; /* the file that gets the result (symbolic links resolved) */
  char *tmp;    /* the temporary, NULL when written through */
  int fd;       /* open for writing, -1 when closed */
  FILE *stream; /* fdopen(fd), once asked for */
  int slot;     /* registry slot of tmp (signal cleanup), -1 if none */
  bool through; /* special file or standard output: written in place */
  bool keep_mode;
  unsigned mode; /* permission bits of the replaced file (keep_mode) */
  unsigned uid, gid;
} gsp__ofile;

/* Open the output `path` ("-": standard output). Refuses what cannot be
 * written (missing or read-only directory, a directory, no permission)
 * with GSP_IO_ERROR naming the path and the reason, creating nothing. */
gsp_info gsp__ofile_open(gsp__ofile *f, const char *path);
/* The open descriptor's stream (fdopen'ed once; closed by commit/abort). */
gsp_info gsp__ofile_stream(gsp__ofile *f, FILE **out);
/* Complete the data: flush the stream, fsync and close, naming the write
 * error's reason (ENOSPC, EFBIG). The temporary stays registered (a signal
 * still removes it) until commit renames it; on error it is removed, the
 * target untouched. Several outputs are finished first and committed
 * only when all are complete. */
gsp_info gsp__ofile_finish(gsp__ofile *f);
/* Finish (when not done yet), rename the temporary over the target, fsync
 * the directory. GSP_IO_ERROR (and the temporary removed, the target
 * untouched) when any of it fails. f is closed either way. */
gsp_info gsp__ofile_commit(gsp__ofile *f);
/* Give up: close and remove the temporary; the target is untouched. */
void gsp__ofile_abort(gsp__ofile *f);

/* Remove every temporary still open in this process. Async-signal-safe (it
 * only calls unlink): a program's SIGINT/SIGTERM handler calls it. The
 * library installs no handler itself. */
void gsp__remove_temporaries(void);

/* gsp_matrix_write into an output file opened earlier (its path as given
 * picks the format and compression, as gsp_matrix_write's does); out is
 * finished (not yet committed) on success and aborted on error. */
gsp_info gsp__matrix_write_to(gsp__ofile *out, const gsp_matrix A, const gsp_write_opts *opts);

/* The .npy header (version 1.0, 64-byte aligned) of a C-order nrows x ncols
 * array of type t into buf (at least 128 bytes); returns its length. */
size_t gsp__npy_header(unsigned char *buf, gsp_type t, gsp_index nrows, gsp_index ncols);

#endif /* GSP_OUTPUT_H */
