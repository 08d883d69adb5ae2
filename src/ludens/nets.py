"""Policy-value networks that run with numpy alone.

A network maps a batch of observations (``game.observation_shape``, seen by
the player to move) to policy logits over ``game.num_actions`` and values in
[-1, 1], one per seat counted from the player to move (index 0 is the mover).
Two architectures:

* ``"mlp"``: the flattened planes through dense layers with ReLU
  (``hidden``: their widths);
* ``"resnet"``: a 3x3 convolution to ``channels`` planes, ``blocks`` residual
  blocks (two 3x3 convolutions and a skip), then a policy head (a 1x1
  convolution to two planes, a dense layer) and a value head (the planes'
  means, a dense layer of ``value_hidden`` with ReLU, a dense layer); no
  batch normalisation, so training and inference compute the same thing.

Convolutions are im2col plus one matrix product, so every layer is a batched
GEMM through numpy's BLAS: the cost per position falls as batches grow.

The file format (``.lnet``), little-endian::

    8 bytes   b"LUDNET1\\n"
    4 bytes   n, the header's length (uint32)
    n bytes   the header: UTF-8 JSON {"arch", "config", "input_shape",
              "num_actions", "num_players", "game": {"name", "params"} or null,
              "tensors": [{"name", "shape"}, ...], "meta": {...}}
    then      every tensor in the header's order, float32, C order

``load`` refuses a file that is truncated, too long, or whose tensors'
shapes are not those its architecture implies (``NetworkFormatError``).

Threads: a ``Network`` is never changed by evaluating it (its weights are
read-only arrays), so threads may share one.
"""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ludens._checks import short_repr
from ludens.errors import LudensError, ParameterError

__all__ = ["ARCHS", "Network", "NetworkFormatError", "load", "save", "shipped"]

MAGIC = b"LUDNET1\n"
ARCHS = ("mlp", "resnet")
_DIR = Path(__file__).resolve().parent / "networks"

Array = npt.NDArray[np.float32]


class NetworkFormatError(LudensError):
    """A network file cannot be read: bad magic, a truncated or overlong file,
    a malformed header, or tensors of the wrong shape for the architecture."""


def _defaults(arch: str, config: dict[str, Any]) -> dict[str, Any]:
    if arch == "mlp":
        out: dict[str, Any] = {"hidden": [128, 128]}
    elif arch == "resnet":
        out = {"channels": 32, "blocks": 3, "value_hidden": 64}
    else:
        raise ParameterError(f"unknown network architecture {arch!r}; known: {', '.join(ARCHS)}")
    unknown = set(config) - set(out)
    if unknown:
        raise ParameterError(f"{arch}: unknown setting(s) {sorted(unknown)}; known: {sorted(out)}")
    out.update(config)
    if arch == "mlp":
        hidden = out["hidden"]
        if not isinstance(hidden, (list, tuple)) or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ParameterError(f"mlp hidden must be a list of positive ints, not {hidden!r}")
        out["hidden"] = [int(h) for h in hidden]
    else:
        for key in ("channels", "blocks", "value_hidden"):
            v = out[key]
            if not isinstance(v, int) or isinstance(v, bool) or v < (0 if key == "blocks" else 1):
                raise ParameterError(f"resnet {key} must be a {'non-negative' if key == 'blocks' else 'positive'}"
                                     f" int, not {v!r}")
    return out


def tensor_shapes(arch: str, config: dict[str, Any], input_shape: tuple[int, ...], num_actions: int,
                  num_players: int) -> list[tuple[str, tuple[int, ...]]]:
    """The names and shapes of an architecture's tensors, in file order."""
    config = _defaults(arch, config)
    out: list[tuple[str, tuple[int, ...]]] = []
    if arch == "mlp":
        width = int(np.prod(input_shape))
        for i, h in enumerate(config["hidden"]):
            out += [(f"dense{i}.w", (width, h)), (f"dense{i}.b", (h,))]
            width = h
        out += [("policy.w", (width, num_actions)), ("policy.b", (num_actions,)),
                ("value.w", (width, num_players)), ("value.b", (num_players,))]
        return out
    c, h, w = input_shape
    f = config["channels"]
    out += [("stem.w", (3, 3, c, f)), ("stem.b", (f,))]
    for i in range(config["blocks"]):
        for j in (1, 2):
            out += [(f"block{i}.conv{j}.w", (3, 3, f, f)), (f"block{i}.conv{j}.b", (f,))]
    v = config["value_hidden"]
    out += [("policy_conv.w", (1, 1, f, 2)), ("policy_conv.b", (2,)),
            ("policy.w", (h * w * 2, num_actions)), ("policy.b", (num_actions,)),
            ("value1.w", (f, v)), ("value1.b", (v,)),
            ("value2.w", (v, num_players)), ("value2.b", (num_players,))]
    return out


def _conv(x: Array, w: Array, b: Array) -> Array:
    """A 'same' convolution of NHWC ``x`` by HWIO ``w`` (odd kernel), as im2col and one GEMM."""
    kh, kw, ci, co = w.shape
    if kh == kw == 1:
        one: Array = x @ w[0, 0] + b
        return one
    n, hh, ww = x.shape[:3]
    ph, pw = kh // 2, kw // 2
    xp = np.zeros((n, hh + 2 * ph, ww + 2 * pw, ci), np.float32)
    xp[:, ph:ph + hh, pw:pw + ww] = x
    # The columns in the weights' (kh, kw, C) order.  For one kernel row, the
    # kw cells of a window and their channels are kw * C contiguous floats of
    # the padded input, so each kernel row is one copy of such runs (a strided
    # view; measured on Hex 7's 32 planes, a copy per (row, column) of the
    # kernel, C floats at a time, took about twice as long, and numpy's own
    # window view of (C, kh, kw) about four times).
    cols = np.empty((n, hh, ww, kh, kw * ci), np.float32)
    s = xp.strides
    for i in range(kh):
        cols[:, :, :, i] = np.lib.stride_tricks.as_strided(xp[:, i:], shape=(n, hh, ww, kw * ci), strides=s,
                                                           writeable=False)
    out: Array = (cols.reshape(n * hh * ww, kh * kw * ci) @ w.reshape(kh * kw * ci, co) + b).reshape(n, hh, ww, co)
    return out


class Network:
    """A policy-value network (see the module docstring) with its weights.

    ``Network(arch, config, input_shape, num_actions, num_players, params,
    game=None, meta=None)``; ``Network.init(arch, game, seed=0, **config)``
    makes one with random weights.  Calling it as ``net(observations,
    legal_mask, current_player)`` is an evaluator for ``ludens.MCTS`` and the
    batched search: priors (a softmax over the legal actions) and values by
    seat.  Threads may share a network (evaluating never changes it)."""

    def __init__(self, arch: str, config: dict[str, Any], input_shape: tuple[int, ...], num_actions: int,
                 num_players: int, params: dict[str, np.ndarray], game: Optional[dict[str, Any]] = None,
                 meta: Optional[dict[str, Any]] = None) -> None:
        self.arch = arch
        self.config = _defaults(arch, dict(config))
        self.input_shape = tuple(int(d) for d in input_shape)
        if arch == "resnet" and len(self.input_shape) != 3:
            raise ParameterError(f"a resnet needs (planes, rows, columns) observations, not {self.input_shape}")
        self.num_actions = int(num_actions)
        self.num_players = int(num_players)
        self.game = game
        self.meta = dict(meta or {})
        shapes = tensor_shapes(arch, self.config, self.input_shape, self.num_actions, self.num_players)
        missing = [name for name, _ in shapes if name not in params]
        if missing:
            raise ParameterError(f"{arch}: missing weights {missing}")
        extra = sorted(set(params) - {name for name, _ in shapes})
        if extra:
            raise ParameterError(f"{arch}: unexpected weights {extra}")
        self.params: dict[str, Array] = {}
        for name, shape in shapes:
            a = np.ascontiguousarray(params[name], dtype=np.float32)
            if a.shape != shape:
                raise ParameterError(f"{arch}: weight {name} has shape {a.shape}, expected {shape}")
            a.flags.writeable = False
            self.params[name] = a

    @classmethod
    def init(cls, arch: str, game: Any, seed: int = 0, **config: Any) -> "Network":
        """Random weights (He-scaled normals, zero biases) for ``game`` (a ludens Game)."""
        config = _defaults(arch, config)
        rng = np.random.default_rng(seed)
        params = {}
        shape = tuple(game.observation_shape)
        for name, s in tensor_shapes(arch, config, shape, game.num_actions, game.num_players):
            if name.endswith(".b"):
                params[name] = np.zeros(s, np.float32)
            else:
                fan_in = int(np.prod(s[:-1]))
                params[name] = (rng.standard_normal(s) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        return cls(arch, config, shape, game.num_actions, game.num_players, params,
                   game={"name": game.name, "params": _jsonable(game.params)})

    @property
    def size(self) -> int:
        """The number of weights."""
        return sum(a.size for a in self.params.values())

    def forward(self, observations: npt.ArrayLike) -> tuple[Array, Array]:
        """Policy logits (B, num_actions) and values (B, num_players) by seat
        from the mover, for observations of shape ``(B, *input_shape)``."""
        x = np.asarray(observations, dtype=np.float32)
        if x.shape[1:] != self.input_shape:
            raise ParameterError(f"observations have shape {x.shape}, expected (B, {self.input_shape})")
        p = self.params
        n = x.shape[0]
        if self.arch == "mlp":
            h = x.reshape(n, -1)
            for i in range(len(self.config["hidden"])):
                h = np.maximum(h @ p[f"dense{i}.w"] + p[f"dense{i}.b"], 0)
            return h @ p["policy.w"] + p["policy.b"], np.tanh(h @ p["value.w"] + p["value.b"])
        h = np.maximum(_conv(x.transpose(0, 2, 3, 1), p["stem.w"], p["stem.b"]), 0)
        for i in range(self.config["blocks"]):
            y = np.maximum(_conv(h, p[f"block{i}.conv1.w"], p[f"block{i}.conv1.b"]), 0)
            h = np.maximum(h + _conv(y, p[f"block{i}.conv2.w"], p[f"block{i}.conv2.b"]), 0)
        pol = np.maximum(_conv(h, p["policy_conv.w"], p["policy_conv.b"]), 0).reshape(n, -1)
        logits = pol @ p["policy.w"] + p["policy.b"]
        v = np.maximum(h.mean(axis=(1, 2)) @ p["value1.w"] + p["value1.b"], 0)
        return logits, np.tanh(v @ p["value2.w"] + p["value2.b"])

    def __call__(self, observations: npt.ArrayLike, legal_mask: npt.ArrayLike,
                 current_player: npt.ArrayLike) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The evaluator: priors (softmax of the logits over the legal actions)
        and values (B, num_players) by seat."""
        logits, rel = self.forward(observations)
        return priors_from_logits(logits, legal_mask), values_by_seat(rel, current_player)

    def __repr__(self) -> str:
        game = f" for {self.game['name']}" if self.game else ""
        return f"<Network {self.arch}{game}: {self.size} weights>"


def priors_from_logits(logits: npt.ArrayLike, legal_mask: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """A softmax of ``logits`` over the actions ``legal_mask`` allows (zero elsewhere)."""
    z = np.where(np.asarray(legal_mask, dtype=bool), np.asarray(logits, dtype=np.float64), -np.inf)
    top = z.max(axis=1, keepdims=True)
    e = np.exp(z - np.where(np.isfinite(top), top, 0))
    total = e.sum(axis=1, keepdims=True)
    out: npt.NDArray[np.float64] = e / np.where(total > 0, total, 1)
    return out


def values_by_seat(relative: npt.ArrayLike, current_player: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Values counted from the mover (column j: seat mover + j) turned into values by seat."""
    rel = np.asarray(relative, dtype=np.float64)
    n, players = rel.shape
    seat = (np.asarray(current_player, dtype=np.int64)[:, None] + np.arange(players)) % players
    out = np.empty_like(rel)
    out[np.arange(n)[:, None], seat] = rel
    return out


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in params.items()}


def save(net: Network, path: Union[str, Path]) -> None:
    """Write ``net`` to ``path`` in the ``.lnet`` format (module docstring)."""
    shapes = tensor_shapes(net.arch, net.config, net.input_shape, net.num_actions, net.num_players)
    header = {"arch": net.arch, "config": net.config, "input_shape": list(net.input_shape),
              "num_actions": net.num_actions, "num_players": net.num_players, "game": net.game,
              "tensors": [{"name": name, "shape": list(shape)} for name, shape in shapes], "meta": net.meta}
    head = json.dumps(header, sort_keys=True).encode()
    buf = io.BytesIO()
    buf.write(MAGIC + struct.pack("<I", len(head)) + head)
    for name, _ in shapes:
        buf.write(net.params[name].astype("<f4").tobytes())
    Path(path).write_bytes(buf.getvalue())


def load(source: Union[str, Path]) -> Network:
    """A network from a ``.lnet`` file, or a shipped network by name (``"tiptoptoe"``, see ``shipped()``)."""
    path = Path(source)
    if not _is_file(path) and isinstance(source, str) and _is_file(_DIR / f"{source}.lnet"):
        path = _DIR / f"{source}.lnet"
    if not _is_file(path):
        known = ", ".join(shipped()) or "none"
        raise ParameterError(f"no network file {short_repr(str(source))} (shipped networks: {known})")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ParameterError(f"cannot read network file {short_repr(str(source))}: {e.strerror or e}") from None
    return parse(data, str(path))


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; False for names no file can have (too
    long, a NUL inside), which the file system answers with an error."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def shipped() -> list[str]:
    """The names of the networks that ship with ludens."""
    return sorted(p.stem for p in _DIR.glob("*.lnet"))


def parse(data: bytes, where: str = "network") -> Network:
    """A network from the bytes of a ``.lnet`` file (NetworkFormatError if they are not one)."""
    if data[:8] != MAGIC:
        raise NetworkFormatError(f"{where}: not a ludens network file (it does not start with {MAGIC!r})")
    if len(data) < 12:
        raise NetworkFormatError(f"{where}: truncated in the header length")
    (n,) = struct.unpack("<I", data[8:12])
    if len(data) < 12 + n:
        raise NetworkFormatError(f"{where}: truncated in the header ({len(data) - 12} of {n} bytes)")
    try:
        h = json.loads(data[12:12 + n].decode())
        arch, config = h["arch"], h["config"]
        input_shape = tuple(int(d) for d in h["input_shape"])
        actions, players = int(h["num_actions"]), int(h["num_players"])
        listed = [(t["name"], tuple(int(d) for d in t["shape"])) for t in h["tensors"]]
        game, meta = h.get("game"), h.get("meta", {})
    except (ValueError, KeyError, TypeError) as e:
        raise NetworkFormatError(f"{where}: malformed header ({e})") from None
    try:
        expected = tensor_shapes(arch, config, input_shape, actions, players)
    except (ParameterError, ValueError) as e:
        raise NetworkFormatError(f"{where}: {e}") from None
    if listed != expected:
        wrong = [f"{a} where {b} was expected" for a, b in zip(listed, expected) if a != b]
        first = wrong[0] if wrong else f"{len(listed)} tensors where {len(expected)} were expected"
        raise NetworkFormatError(f"{where}: tensors do not fit the {arch} architecture (first mismatch: {first})")
    need = 12 + n + 4 * sum(int(np.prod(s)) for _, s in expected)
    if len(data) != need:
        what = "truncated" if len(data) < need else "longer than its header says"
        raise NetworkFormatError(f"{where}: {what} ({len(data)} bytes, expected {need})")
    params, at = {}, 12 + n
    for name, shape in expected:
        size = int(np.prod(shape))
        params[name] = np.frombuffer(data, dtype="<f4", count=size, offset=at).reshape(shape)
        at += 4 * size
    return Network(arch, config, input_shape, actions, players, params, game=game, meta=meta)
