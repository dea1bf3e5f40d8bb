"""Hidden Nim: a game that exists only in the tests (issue 19, "a game is a folder and a
line"). Two players take 1 to 3 tokens in turn from a visible pile; a deal (chance)
shuffles ten cards numbered 1 to 10, gives each player one as a secret bonus and picks
who starts. When the pile is empty each seat scores the tokens it took plus its bonus;
the higher score wins. The bonuses are shown to their own seats only until the game is
over. Pure Python, like games/dice.
"""
