"""ludens: exact, fast rules engines for abstract strategy games.

    >>> import ludens
    >>> game = ludens.load("hex", size=11)
    >>> state = game.new_initial_state()
    >>> state.apply("f6")
    >>> ludens.simulate(game, 1000, seed=1).summary()       # doctest: +SKIP
    >>> picture = ludens.svg(state)                         # an SVG string
"""

from ludens._board import Board
from ludens.analyses import Analysis, AnalysisRow, analyse
from ludens.branching import BranchingRow, branching, branching_table
from ludens._mcts import MCTS, BatchedMCTS
from ludens._registry import games, load
from ludens._simulate import Rng
from ludens._solver import Solver
from ludens._state import Game, State
from ludens._vector import VectorEnv
from ludens.evaluation import EvaluationInterrupted, evaluate, skill_trace
from ludens.errors import (IllegalActionError, LudensError, NotationError, ParameterError, PositionError,
                           RecordError)
from ludens import bots
from ludens.matches import MatchInterrupted, MatchResult, match
from ludens import metrics
from ludens.pictures import svg
from ludens import records
from ludens.simulation import SimulationResult, simulate
from ludens.sweeps import sweep

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "AnalysisRow",
    "BatchedMCTS",
    "Board",
    "EvaluationInterrupted",
    "BranchingRow",
    "Game",
    "IllegalActionError",
    "LudensError",
    "MCTS",
    "MatchInterrupted",
    "MatchResult",
    "NotationError",
    "ParameterError",
    "PositionError",
    "RecordError",
    "Rng",
    "SimulationResult",
    "Solver",
    "State",
    "VectorEnv",
    "branching",
    "branching_table",
    "bots",
    "analyse",
    "evaluate",
    "games",
    "load",
    "match",
    "metrics",
    "records",
    "simulate",
    "skill_trace",
    "svg",
    "sweep",
]
