"""gsp.read_graph / write_graph against the gsp command's reading of the same files.

Every file of the reader corpus (tests/data: valid files of each format and
the malformed ones) goes through both ``gsp convert FILE OUT.mtx`` and
``gsp.read_graph(FILE)``: where the command reads the file, the matrix it
wrote (read back by scipy.io.mmread) equals read_graph's; where it refuses
the file, read_graph refuses it too, with the same sentence.
"""

import gzip
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import gspgraph as gsp

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "tests", "data")
DATA = os.path.join(HERE, "..", "..", "data")


def gsp_command():
    """The installed console command (beside this Python), which must exist."""
    exe = os.path.join(os.path.dirname(sys.executable), "gsp")
    if not os.path.exists(exe):
        exe = shutil.which("gsp")
    assert exe, "the package installs a `gsp` command; none beside %s or on PATH" % sys.executable
    return exe


def cli_read(path, tmp_path, *opts):
    """(matrix, None) as `gsp convert` reads path, or (None, stderr) when it refuses it."""
    out = tmp_path / "cli.mtx"
    r = subprocess.run([gsp_command(), "convert", *opts, path, str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        assert r.returncode in (2, 3), r.stderr  # usage or input error, never a crash
        return None, r.stderr
    with open(out) as f:
        pattern = "pattern" in f.readline()
    M = sp.csr_array(scipy.io.mmread(str(out)))
    return (M, pattern), None


def assert_same(A, cli):
    M, pattern = cli
    assert A.shape == M.shape
    A = sp.csr_array(A)
    A.sort_indices()
    M.sort_indices()
    np.testing.assert_array_equal(A.indptr, M.indptr)
    np.testing.assert_array_equal(A.indices, M.indices)
    if pattern:
        assert A.dtype == np.bool_ and A.data.all()
    else:
        np.testing.assert_array_equal(A.data, M.data.astype(A.dtype))


CORPUS_FILES = sorted(f for f in os.listdir(CORPUS) if f.split(".")[-1] in ("mtx", "gr", "txt", "csv", "npy", "gspd"))
OPTIONS = {"el_onebased.txt": ("--one-based",), "el_zero_onebased.txt": ("--one-based",),
           "el_sparse_ids.txt": ("--remap",)}
KWARGS = {"--one-based": {"ids": "one"}, "--remap": {"ids": "remap"}}


def check_same_reading(path, tmp_path, *opts, **kw):
    """read_graph(path) equals the command's reading, or both refuse the file with one sentence."""
    cli, err = cli_read(path, tmp_path, *opts)
    if cli is not None:
        assert_same(gsp.read_graph(path, **kw), cli)
    else:
        with pytest.raises((ValueError, OSError, MemoryError)) as e:
            gsp.read_graph(path, **kw)
        assert str(e.value) in err, (str(e.value), err)
    return cli is not None


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_corpus_reads_as_the_command_reads(name, tmp_path):
    opts = OPTIONS.get(name, ())
    kw = {}
    for o in opts:
        kw.update(KWARGS[o])
    check_same_reading(os.path.join(CORPUS, name), tmp_path, *opts, **kw)


def test_dense_zero_is_refused_as_the_command_refuses_it(tmp_path):
    path = tmp_path / "z.npy"
    np.save(path, np.array([[0.0, 1.0], [0.0, 0.0]]))  # numpy's "no edge" is 0: ambiguous
    assert not check_same_reading(str(path), tmp_path)
    A = gsp.read_graph(path, absent=0.0)
    assert A.nnz == 1 and A[0, 1] == 1.0


def test_corpus_is_not_empty():
    assert len(CORPUS_FILES) > 40  # the corpus moved: this test must see it


@pytest.mark.parametrize("name", ["helsinki_drive.gr.gz", "helsinki_walk.gr.gz"])
def test_bundled_graphs_gzip_and_pipe(name, tmp_path):
    path = os.path.join(DATA, name)
    cli, err = cli_read(path, tmp_path)
    A = gsp.read_graph(path)
    assert_same(A, cli)
    # the same bytes through a pipe (stdin) give the same matrix
    with gzip.open(path, "rb") as f:
        raw = f.read()
    code = ("import sys, numpy as np, gspgraph as gsp; A = gsp.read_graph('-', format='dimacs'); "
            "sys.stdout.write('%d %d %d' % (A.shape[0], A.nnz, int(A.data.sum())))")
    r = subprocess.run([sys.executable, "-c", code], input=raw, capture_output=True, check=True)
    assert r.stdout.decode() == "%d %d %d" % (A.shape[0], A.nnz, int(A.data.sum()))


def test_options(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("# u v w\n10 20 1.5\n20 10 0.5\n10 20 0.25\n30 30 2\n")
    A, ids = gsp.read_graph(p, ids="remap", return_ids=True)
    np.testing.assert_array_equal(ids, [10, 20, 30])
    assert A.dtype == np.float64 and A[0, 1] == 0.25  # the lightest of parallel arcs
    B = gsp.read_graph(p, ids="remap", duplicates="max", drop_self_loops=True, dtype=np.float32)
    assert B.dtype == np.float32 and B[0, 1] == 1.5 and B.nnz == 2
    S = gsp.read_graph(p, ids="remap", symmetrize=True)
    assert S[1, 0] == 0.25 or S[1, 0] == 0.5
    with pytest.raises(ValueError, match="duplicate"):
        gsp.read_graph(p, ids="remap", duplicates="error")
    with pytest.raises(ValueError):
        gsp.read_graph(p, ids="remap", dtype=np.int32)  # 1.5 is not an int32
    R = gsp.read_graph(p, ids="remap", dtype=np.int32, round=True)
    assert R.dtype == np.int32
    with pytest.raises(ValueError, match="format must be one of"):
        gsp.read_graph(p, format="xml")
    with pytest.raises(OSError):
        gsp.read_graph(tmp_path / "missing.mtx")


@pytest.mark.parametrize("ext", [".mtx", ".gr", ".txt", ".npy", ".gspd", ".mtx.gz"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_write_then_read(ext, dtype, tmp_path):
    rng = np.random.default_rng(7)
    n = 30
    r, c = rng.integers(0, n, 90), rng.integers(0, n, 90)
    w = rng.integers(0, 50, 90).astype(dtype)  # explicit zeros are arcs
    G = sp.coo_array((w, (r, c)), shape=(n, n)).tocsr()
    G.sum_duplicates()
    path = tmp_path / ("g" + ext)
    if ext in (".npy", ".gspd"):
        D = G.toarray()
        if np.dtype(dtype).kind == "f":
            D[G.toarray() == 0] = np.inf  # inf: no arc, as the writer's default
        gsp.write_graph(path, D)
        if ext == ".npy":
            np.testing.assert_array_equal(np.load(path), D)
        check_same_reading(str(path), tmp_path)
        return
    gsp.write_graph(path, G, comment="written by test_files")
    cli, err = cli_read(str(path), tmp_path)
    assert err is None, err
    assert_same(gsp.read_graph(path, dtype=dtype), cli)
    assert_same(gsp.read_graph(path, dtype=dtype), (G, False))


def test_write_is_all_or_nothing(tmp_path):
    path = tmp_path / "keep.mtx"
    path.write_text("old contents\n")
    with pytest.raises(ValueError):  # DIMACS needs a square matrix
        gsp.write_graph(path, sp.csr_array(np.ones((2, 3))), format="dimacs")
    assert path.read_text() == "old contents\n"
    assert sorted(os.listdir(tmp_path)) == ["keep.mtx"]  # no temporary left behind
    with pytest.raises(OSError):
        gsp.write_graph(tmp_path / "no" / "such" / "dir.mtx", sp.csr_array(np.eye(2)))
    with pytest.raises(ValueError, match="dtype"):
        gsp.write_graph(path, np.ones((2, 2), dtype=np.complex128))


def test_console_command():
    r = subprocess.run([gsp_command(), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "usage: gsp COMMAND" in r.stdout
    r = subprocess.run([gsp_command(), "info", os.path.join(DATA, "helsinki_drive.gr.gz")], capture_output=True,
                       text=True)
    assert r.returncode == 0 and "1437" in r.stdout, r.stdout + r.stderr
