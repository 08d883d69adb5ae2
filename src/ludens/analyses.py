"""The analysis of a position: the tree search's estimates, and the exact
solver's proofs where it finds them, told apart.

``analyse(state)`` runs ``ludens.Solver`` for a short budget first (an
endgame is proven outright), then ``ludens.MCTS``; each move's value is
marked *proven* (exact: by the solver, or by the search's own MCTS-Solver)
or *estimated* (a mean of simulations), and the principal variation of a
proven position is the proof's line. ``ludens analyse`` prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ludens._checks import index_in, number_in
from ludens._mcts import MCTS
from ludens._solver import Solver
from ludens._state import State
from ludens.errors import ParameterError

__all__ = ["Analysis", "AnalysisRow", "analyse"]

_RESULTS = {1.0: "a proven win", 0.0: "a proven draw", -1.0: "a proven loss"}


@dataclass(frozen=True)
class AnalysisRow:
    """One move: its visits by the search, its value for the player to move, and
    whether that value is proven (exact: +1, 0, -1) or estimated (a mean)."""

    move: str
    visits: int
    value: float
    proven: bool


@dataclass(frozen=True)
class Analysis:
    """What ``analyse`` found. ``value`` is the root's value for ``player``;
    ``proven_by`` says who proved it ("solver" or "search"), None for an
    estimate. ``rows`` lists the moves best first: proven wins, then the rest
    by visits, proven losses last."""

    player: int
    value: float
    proven_by: Optional[str]
    rows: list[AnalysisRow]
    principal_variation: str
    simulations: int
    search_nodes: int
    solver_nodes: int
    seconds: float

    @property
    def proven(self) -> bool:
        return self.proven_by is not None

    def summary(self) -> str:
        """The root's line: the value, proven (by whom) or estimated, and the work done."""
        if self.proven_by is not None:
            what = f"{_RESULTS[self.value]} (by the {self.proven_by})"
        else:
            what = f"expected value {self.value:+.3f} (an estimate)"
        return (f"player {self.player} to move: {what}; {self.simulations:,} simulations, "
                f"{self.search_nodes:,} search nodes, {self.solver_nodes:,} solver nodes, {self.seconds:.2f} s")

    def table(self) -> str:
        """The moves as text: move, visits, value, and whether the value is proven or estimated."""
        lines = [f"{'action':>10}{'visits':>10}{'value':>9}  kind"]
        for r in self.rows:
            lines.append(f"{r.move:>10}{r.visits:>10,}{r.value:>+9.3f}  {'proven' if r.proven else 'estimate'}")
        return "\n".join(lines)


def analyse(state: State, *, simulations: Optional[int] = None, seconds: Optional[float] = None,
            threads: int = 1, seed: int = 0, top: int = 10, solver_seconds: float = 0.5,
            solver_mib: float = 64) -> Analysis:
    """Analyse a live position: ``Solver`` for ``solver_seconds`` (0: not at all;
    two-player games only), then ``MCTS`` for ``simulations`` and/or ``seconds``
    (10000 simulations by default) on ``threads`` threads, seeded ``seed``;
    the ``top`` best moves. Neither touches ``state``.

    Threads: each call builds its own solver and search; calls may run in parallel.
    """
    if not isinstance(state, State):
        raise ParameterError(f"analyse needs a ludens State, not {type(state).__name__}")
    if state.is_terminal():
        raise ParameterError("analyse: the game is over in this state; there is nothing to analyse")
    top = index_in(top, 1, None, "top")
    solver_seconds = number_in(solver_seconds, 0, "solver_seconds")
    if simulations is None and seconds is None:
        simulations = 10000
    search = MCTS(state, seed=seed, threads=threads)       # checks threads and seed first
    acts = state.legal_actions()
    exact = np.full(len(acts), np.nan)
    solver: Optional[Solver] = None
    if solver_seconds > 0 and state.game.num_players == 2:
        solver = Solver(state, max_mib=solver_mib)
        exact = solver.action_values(seconds=solver_seconds)
    search.run(simulations=simulations, seconds=seconds)
    exact = np.where(np.isnan(exact), search.proven_values, exact)
    visits, means = search.visits, search.values
    proven = ~np.isnan(exact)
    values = np.where(proven, exact, means)
    if solver is not None and solver.value is not None:
        value, by, pv = solver.value, "solver", solver.principal_variation()
        best = solver.best_action
    elif search.proven is not None:
        value, by, pv = search.proven, "search", search.principal_variation()
        best = search.best_action
    else:
        value, by, pv = search.root_value, None, search.principal_variation()
        best = search.best_action
    # proven wins first, the line's first move ahead of them; proven losses last
    order = np.lexsort((-values, -visits, exact == -1, acts != best, ~(exact == 1)))
    rows = [AnalysisRow(state.action_to_string(int(acts[i])), int(visits[i]), float(values[i]), bool(proven[i]))
            for i in order[:top]]
    return Analysis(player=state.current_player, value=float(value), proven_by=by, rows=rows,
                    principal_variation=pv, simulations=search.simulations, search_nodes=search.nodes,
                    solver_nodes=0 if solver is None else solver.nodes,
                    seconds=search.seconds_spent + (0.0 if solver is None else solver.seconds_spent))
