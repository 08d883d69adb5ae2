"""The exceptions ludens raises for bad input.

All are ``ValueError`` subclasses, so ``except ValueError`` catches any of
them; the state an operation was applied to is left unchanged.

The rule for which exception a caller sees:

* Every **value** handed to ludens that it cannot use -- a move string, an
  action id, a player number, a cell, a position dict, a serialized state, a
  game parameter, an ``out=`` array -- raises a ``LudensError`` subclass whose
  message names the value and what was wrong, *whatever the value's Python
  type*: ``apply(None)``, ``new_state([])`` and ``{"to_move": "0"}`` are bad
  input like any other, not a programming error of another kind.  Integers
  are accepted as Python ints or numpy integers; ``bool`` is never an integer
  here and floats are never truncated.
* ``TypeError`` is kept for misusing the Python objects themselves, where
  Python would raise it for a built-in type: a call with the wrong number or
  names of arguments, creating a ``State`` directly (``State()``,
  ``State.__new__(State)``), using a ``Game`` that was never initialised
  (``HexGame.__new__(HexGame)``), or running ``__init__`` again on a live
  ``Game`` or ``Board``.
"""


class LudensError(ValueError):
    """Base class of every error ludens raises for bad input."""


class IllegalActionError(LudensError):
    """An action or move is not legal in the position (or out of range)."""


class NotationError(LudensError):
    """A move string or cell name cannot be read."""


class PositionError(NotationError):
    """A position dict or serialized state cannot be read, or describes no
    position the game can reach (``Game.new_state``, ``deserialize_state``,
    unpickling)."""


class ParameterError(LudensError):
    """A game parameter, or another argument of a call (a player, a cell, a
    direction, an ``out=`` array, a generator state), is unknown, of the wrong
    kind or out of range."""


class RecordError(LudensError):
    """A game record or a record file cannot be read or written: a line that
    is not a JSON object or is too long, a damaged gzip stream, a record
    lacking its fields or holding values JSON cannot encode."""


class EvaluatorError(LudensError):
    """An ``MCTS`` evaluator returned what the search cannot use (wrong shape
    or type, NaN or infinite numbers, values outside [-1, 1]), or called back
    into the search that is calling it (``run()`` or ``advance()`` from inside
    the evaluator)."""
