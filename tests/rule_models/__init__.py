"""Plain-Python models of the games, written from the rules pages of docs/games alone (no ludens code), for comparing
with the engine at every decision of random games: ``geometry`` (boards and names), ``protocol``
(numeric movement protocols over any base game, and the comparison driver), and one module per
game with its base moves.  Slow and simple on purpose: dictionaries, flood fills, no caching."""
