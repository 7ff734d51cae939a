"""Lines of engine decisions as move strings.

A search answers with engine move codes, one per decision; a move string is
a whole turn, which in some games takes several decisions (ext/game.h,
`in_turn`).  `move_names` cuts a line into its turns and names each one.
"""


def move_names(position, codes):
    """The move strings of the line of engine decisions `codes` from
    `position`; a turn the line leaves unfinished is left out."""
    names = []
    state = position.engine_state()
    turn = []
    for code in codes:
        if state.to_move() < 0:
            break
        state.apply(code)
        turn.append(code)
        if state.in_turn():
            continue
        name = position.turn_name(tuple(turn))
        names.append(name)
        position = position.play(name)
        turn = []
    return names
