"""simulate(): determinism across threads, chunks and executors; the result object."""

import json
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import ludens
from ludens.simulation import wilson_interval

FIELDS = ("returns", "scores", "winner", "plies", "turns", "decisions", "legal_sum", "truncated")


def same(a, b):
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


@pytest.fixture(scope="module")
def reference():
    return ludens.simulate(ludens.load("hex", size=6), 300, seed=42, threads=1, chunk_size=300)


@pytest.mark.parametrize("threads,chunk", [(1, 1), (1, 7), (2, 1), (2, 13), (3, 64), (8, 5)])
def test_same_results_whatever_threads_and_chunks(reference, threads, chunk):
    res = ludens.simulate(ludens.load("hex", size=6), 300, seed=42, threads=threads, chunk_size=chunk)
    same(res, reference)


def test_seed_and_game_index_decide_each_game(reference):
    other = ludens.simulate(ludens.load("hex", size=6), 300, seed=43, threads=1)
    assert not np.array_equal(other.plies, reference.plies)
    # Game i of a batch is game i whatever the batch size.
    head = ludens.simulate(ludens.load("hex", size=6), 50, seed=42, threads=2)
    assert np.array_equal(head.plies, reference.plies[:50])


def test_process_pool_executor(reference):
    with ProcessPoolExecutor(max_workers=2) as pool:
        res = ludens.simulate(ludens.load("hex", size=6), 300, seed=42, executor=pool, chunk_size=40)
    same(res, reference)


def test_executor_from_a_state():
    state = ludens.load("hox", size=5).new_initial_state()
    state.apply("a1")
    local = ludens.simulate(state, 40, seed=5, threads=1)
    with ProcessPoolExecutor(max_workers=2) as pool:
        remote = ludens.simulate(state, 40, seed=5, executor=pool, chunk_size=9)
    same(local, remote)


def test_dask_local_cluster(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        res = ludens.simulate(ludens.load("hex", size=6), 300, seed=42, executor=client.get_executor(),
                              chunk_size=50)
    same(res, reference)


def test_truncation_is_reported():
    res = ludens.simulate("hex", 20, seed=1, max_plies=10, threads=1)
    assert res.truncated.all() and (res.plies == 10).all() and (res.winner == -1).all()
    assert not res.returns.any()
    assert res.summary()["truncated"] == 20


def test_bad_arguments():
    for kwargs in ({"n": -1}, {"n": 1.5}, {"n": 10, "threads": 0}, {"n": 10, "max_plies": -2},
                   {"n": 10, "seed": -1}, {"n": 10, "chunk_size": 0}):
        with pytest.raises(ValueError):
            ludens.simulate("hex", **kwargs)
    with pytest.raises(TypeError):
        ludens.simulate(3, 10)
    with pytest.raises(ludens.ParameterError):
        ludens.simulate("nosuchgame", 10)
    done = ludens.load("hex", size=1).new_initial_state()
    done.apply("a1")
    with pytest.raises(ValueError, match="finished"):
        ludens.simulate(done, 3)


def test_zero_games():
    res = ludens.simulate("hex", 0)
    assert res.n == 0 and res.returns.shape == (0, 2)
    assert res.summary()["games"] == 0


def test_summary_and_exports(tmp_path, reference):
    s = reference.summary()
    assert s["games"] == 300 and s["finished"] == 300
    assert sum(w["wins"] for w in s["wins"]) + s["draws"]["count"] == 300
    for w in s["wins"]:
        lo, hi = w["ci95"]
        assert lo <= w["rate"] <= hi
    assert s["plies"]["median"] <= s["plies"]["p95"] <= 37
    assert s["branching"] == pytest.approx(reference.legal_sum.sum() / reference.decisions.sum())
    assert np.allclose(reference.mean_legal, reference.legal_sum / reference.decisions)
    d = reference.to_dict()
    assert json.loads(json.dumps(d))["winner"] == reference.winner.tolist()
    path = tmp_path / "games.csv"
    reference.to_csv(path)
    lines = path.read_text().splitlines()
    assert lines[0].split(",")[:4] == ["game", "winner", "plies", "turns"] and len(lines) == 301
    pd = pytest.importorskip("pandas")
    df = reference.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 300
    assert (df["plies"].to_numpy() == reference.plies).all()
    assert "player 0 wins" in reference.report()


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_progress_bar_is_per_chunk(monkeypatch):
    import tqdm.auto

    updates = []

    class Bar:
        def __init__(self, total, **kwargs):
            assert total == 64

        def update(self, k):
            updates.append(k)

        def close(self):
            updates.append("closed")

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    ludens.simulate("hex", 64, seed=1, threads=2, chunk_size=16, progress=True)
    assert updates == [16, 16, 16, 16, "closed"]
    updates.clear()
    ludens.simulate("hex", 64, seed=1, threads=2, chunk_size=16)
    assert updates == []


def test_rng_streams():
    a, b = ludens.Rng(1, 2), ludens.Rng(1, 2)
    assert [a.below(10) for _ in range(20)] == [b.below(10) for _ in range(20)]
    assert ludens.Rng(1, 2).next64() != ludens.Rng(1, 3).next64()
    r = ludens.Rng(7)
    counts = np.bincount([r.below(3) for _ in range(30000)], minlength=3)
    assert (abs(counts - 10000) < 400).all()
    with pytest.raises(ValueError):
        r.below(0)
    assert 0.0 <= r.random() < 1.0
    # Pinned values: a seed must give these numbers on every platform, forever.
    r = ludens.Rng(12345, 6)
    assert [r.next64() for _ in range(3)] == [11410847049727683383, 14599153227496344828, 14914502231754195978]
    r = ludens.Rng(12345, 6)
    assert [r.below(1000) for _ in range(8)] == [618, 791, 808, 348, 742, 221, 420, 379]


M64 = (1 << 64) - 1


def _splitmix(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return x, z ^ (z >> 31)


class PyRng:
    """xoshiro256** seeded as _rng.pxd documents, in plain Python."""

    def __init__(self, seed, stream):
        x, key = _splitmix(seed)
        x = key ^ ((stream * 0xD1342543DE82EF95) & M64)
        x, _ = _splitmix(x)
        self.s = []
        for _ in range(4):
            x, z = _splitmix(x)
            self.s.append(z)

    def next64(self):
        s0, s1, s2, s3 = self.s
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & M64
        result = (rotl((s1 * 5) & M64, 7) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def below(self, n):
        m = (self.next64() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next64() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32


@pytest.mark.parametrize("seed,stream", [(0, 0), (1, 2), (2**64 - 1, 10**9), (987654321, 0)])
def test_rng_matches_a_python_model(seed, stream):
    ours, model = ludens.Rng(seed, stream), PyRng(seed, stream)
    assert [ours.next64() for _ in range(50)] == [model.next64() for _ in range(50)]
    for n in (1, 2, 3, 7, 1000, 2**31 + 11, 2**32 - 1):
        assert [ours.below(n) for _ in range(20)] == [model.below(n) for _ in range(20)]
