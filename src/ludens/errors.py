"""The exceptions ludens raises for bad input.

All are ``ValueError`` subclasses, so ``except ValueError`` catches any of
them; the state an operation was applied to is left unchanged.
"""


class LudensError(ValueError):
    """Base class of every error ludens raises for bad input."""


class IllegalActionError(LudensError):
    """An action or move is not legal in the position (or out of range)."""


class NotationError(LudensError):
    """A move string or cell name cannot be read."""


class ParameterError(LudensError):
    """A game parameter is unknown, of the wrong type or out of range."""
