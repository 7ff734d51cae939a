"""The rules of Claim (1983) in plain Python: the reference the Cython engine
is tested against, written to be read next to seeds/claim/RULES.md, clause by
clause.  Comments quote or name the clause they implement; "[D]" marks the
decisions RULES.md took where no source settles the question, "[R]" the
decisions this reference had to take beyond RULES.md.  The position file and
the move notation are described in docs/positions.md; a move string is read
by notation.py, and the canonical one is written here, where the turns are
listed.

Vocabulary used throughout:
- a *cell* is a square of the island's grid, `row * width + column`, row 0
  at the bottom; a *point* is a cell on the island (see islands.py);
- `board[cell]` is None for a free point (and for every sea square) or a
  Piece: a Viking or a tower of a colour;
- seats (players) are 1..players; colours are 1..4.  Colour c is seat c's,
  except in battle-for-two, where player 1 plays colours 1 and 3 and player 2
  colours 2 and 4;
- a *turn* is everything one player does when it is his turn to move; it is
  written as one move string, and `legal_turns` lists one for each different
  position a turn can lead to.

All functions are pure: a State is never changed, a new one is returned.
"""
from collections import Counter, deque, namedtuple
from dataclasses import dataclass, replace
from itertools import chain, combinations, product

VIKINGS_PER_COLOUR = 18
TOWERS_PER_COLOUR = 3
BRAWL_CAP = 4               # [D] no colour loses more than 4 Vikings in the brawl
BRAWL_REMOVALS = 4          # each brawl turn removes 4 opposing Vikings
MAX_COUNT = 65535           # streak counts and quiet plies are at most this

PHASES = ("settle", "brawl", "towers", "play")
VARIANTS = ("standard", "battle-for-two")
STANDSTILLS = ("same-viking", "off")
BRAWLS = ("even", "cap")

Piece = namedtuple("Piece", "kind colour")      # kind: "viking" or "tower"
VIKING = {colour: Piece("viking", colour) for colour in range(1, 5)}
TOWER = {colour: Piece("tower", colour) for colour in range(1, 5)}


@dataclass(frozen=True)
class Rules:
    """The switches of a position's `rules` object (RULES.md [D])."""
    standstill: str = "same-viking"     # "same-viking" or "off"
    draw_after: int = 200               # quiet plies that draw the game
    third_party_anvil: bool = True      # capture between two different opponents
    brawl: str = "even"                 # "even" or "cap" (RULES.md, Brawl)


@dataclass(frozen=True)
class State:
    """A whole position.  `streak[player - 1]` is None or (cell, count): the
    Viking standing on `cell` was moved by that player in his last `count`
    turns in a row.  `quiet_plies` counts play-phase plies since the last
    capture or tower placed or swapped."""
    island: object              # islands.Island
    players: int                # seats: 2, 3 or 4
    variant: str                # "standard" or "battle-for-two"
    board: tuple                # per cell: None or a Piece
    phase: str                  # "settle", "brawl", "towers" or "play"
    first_player: int
    to_move: int
    rules: Rules
    streak: tuple
    quiet_plies: int


Turn = namedtuple("Turn", "move state")         # a canonical move string and where it leads


# --- Seats, colours and teams ---------------------------------------------------

def is_battle_for_two(state):
    return state.variant == "battle-for-two"


def brawl_rule_counts(players, variant="standard"):
    """True where `rules.brawl` can change a game: 3 seats.  With 2 or 4
    seats, and in battle-for-two, "even" and "cap" never differ (RULES.md,
    Brawl)."""
    return players == 3 and variant != "battle-for-two"


def colours_in_play(state):
    """"Each seat has one colour, numbered like the seat"; battle-for-two:
    "two players and four colours"."""
    return (1, 2, 3, 4) if is_battle_for_two(state) else tuple(range(1, state.players + 1))


def colours_of(state, player):
    """The colours a player moves ("P's colours"): his own; battle-for-two:
    "player 1 plays colours 1 and 3, player 2 colours 2 and 4"."""
    return (player, player + 2) if is_battle_for_two(state) else (player,)


def team_of(state, colour):
    """A team number shared by allies.  "With 4 seats, seats 1 and 3 are
    allies, and so are seats 2 and 4"; in battle-for-two "a player's two
    colours are allies".  With four colours in play odd colours are team 1,
    even colours team 2; otherwise each colour is a team of its own.  (A
    seat's team is the team of the colour numbered like it.)"""
    if len(colours_in_play(state)) == 4:
        return 1 if colour % 2 else 2
    return colour


def opposing(state, colour, other):
    """"Pieces of another team are opposing.  Allies' pieces are never
    opposing.\""""
    return team_of(state, colour) != team_of(state, other)


def teams(state):
    """The seats of each team: [[1, 3], [2, 4]] with 4 seats, one seat a team
    otherwise (in battle-for-two a player is his own team)."""
    if state.players == 4:
        return [[1, 3], [2, 4]]
    return [[seat] for seat in range(1, state.players + 1)]


def next_seat(state, player):
    return player % state.players + 1


def tower_target(state):
    """"With 2 or 3 seats, a player with his 3 towers on the island wins.
    With 4 seats, and in battle-for-two, a team with 5 towers on the island
    wins.\""""
    return 5 if len(colours_in_play(state)) == 4 else TOWERS_PER_COLOUR


# --- Counting pieces --------------------------------------------------------------

def vikings_on_island(board, colour):
    return board.count(VIKING[colour])


def towers_on_island(board, colour):
    return board.count(TOWER[colour])


def towers_in_hand(board, colour):
    """"Each seat has one colour ... with 18 Vikings and 3 towers": the towers
    not on the island are in hand (a captured tower "goes back to its owner's
    hand")."""
    return TOWERS_PER_COLOUR - towers_on_island(board, colour)


def vikings_in_hand(state, colour):
    """Vikings not yet settled: 18 minus those on the island in the settle
    phase, none afterwards."""
    return VIKINGS_PER_COLOUR - vikings_on_island(state.board, colour) if state.phase == "settle" else 0


def vikings_lost(state, colour):
    """Vikings removed in the brawl or captured: 18 minus those on the island
    once the settle is over."""
    return 0 if state.phase == "settle" else VIKINGS_PER_COLOUR - vikings_on_island(state.board, colour)


def team_towers(state, board, team):
    return sum(towers_on_island(board, c) for c in colours_in_play(state) if team_of(state, c) == team)


def free_points(state, board, cells=None):
    """The free points among `cells` (default: the whole island)."""
    return [cell for cell in (state.island.points if cells is None else cells) if board[cell] is None]


# --- The end of the game ---------------------------------------------------------------

def winning_team(state):
    """The team that has its tower target on the island, or None.  [D] "The
    win is checked at the end of every turn ... A position in which a player
    or team has its towers is over." """
    target = tower_target(state)
    for team in sorted(set(team_of(state, c) for c in colours_in_play(state))):
        if team_towers(state, state.board, team) >= target:
            return team
    return None


def is_draw(state):
    """[D] "The game is drawn when that many plies pass in the play phase with
    no capture and no tower placed or swapped" (a win counts first)."""
    return (state.phase == "play" and state.quiet_plies >= state.rules.draw_after
            and winning_team(state) is None)


def is_over(state):
    return winning_team(state) is not None or is_draw(state)


def winners(state):
    """The seats of the winning team; on a draw every seat; while the game
    goes on, the seats of the team(s) with the most towers on the island."""
    won = winning_team(state)
    if won is not None:
        return [seat for seat in range(1, state.players + 1) if team_of(state, seat) == won]
    if is_draw(state):
        return list(range(1, state.players + 1))
    counts = [(seats, team_towers(state, state.board, team_of(state, seats[0]))) for seats in teams(state)]
    best = max(n for _, n in counts)
    return sorted(seat for seats, n in counts if n == best for seat in seats)


def points(state):
    """"A win is worth 1 to every seat of the winning team and 0 to the
    others; a draw is shared equally among the teams" (a game not over:
    shared equally among the leading teams)."""
    won = set(winners(state))
    leading = [seats for seats in teams(state) if seats[0] in won]
    return tuple(1.0 / len(leading) if seat in won else 0.0 for seat in range(1, state.players + 1))


# --- Movement ------------------------------------------------------------------------------

def jump_chains(island, board, start):
    """Where jump chains of the Viking on `start` lead: {point: the point
    its last jump came from}, `start` itself mapped to None.  "A jump goes
    over a neighbouring piece (a Viking or a tower, of any colour) to the
    free point directly behind it.  From there the Viking may jump again, as
    often as he likes and in any direction ... The point the Viking started
    from counts as free while he jumps."  Breadth first, in direction order
    (up, right, down, left): walking back from a point gives the shortest
    chain to it, the first in direction order among chains of one length."""
    came_from, todo = {start: None}, deque([start])
    while todo:
        here = todo.popleft()
        for direction in range(4):
            over = island.next(here, direction)
            if over is None or over == start or board[over] is None:
                continue                        # nothing to jump over
            landing = island.next(over, direction)
            if landing is None or landing in came_from or (board[landing] is not None and landing != start):
                continue
            came_from[landing] = here
            todo.append(landing)
    return came_from


def movement_ends(island, board, start):
    """Every point the Viking on `start` can end a movement on, in cell order:
    - "A step goes to a free neighbouring point."
    - the end of a jump chain (jump_chains);
    - "A chain that ends where it started is no movement."
    Steps and jumps never share an end: a jump moves two points."""
    ends = set(n for n in island.neighbours(start) if board[n] is None)
    reached = set(jump_chains(island, board, start))
    reached.discard(start)
    return sorted(ends | reached)


def movement_route(island, board, start, end):
    """The points of the shortest movement from `start` to `end`, both
    included: [start, end] for a step, else every landing of a jump chain
    (jump_chains: the first in direction order among chains of one length);
    None when no movement leads there.  The rules do not tell routes apart:
    this is the route a movement written start-end is drawn and described
    by."""
    if end in island.neighbours(start):
        return [start, end]
    came_from = jump_chains(island, board, start)
    if end not in came_from or end == start:
        return None
    route = [end]
    while came_from[route[-1]] is not None:
        route.append(came_from[route[-1]])
    return route[::-1]


def captured_by_landing(state, board, landing, colour):
    """The points whose pieces a Viking of `colour` landing on `landing`
    captures, in direction order.  "Look in each of the four directions d.
    Let N be the point next to L in direction d and B the one after it.  The
    piece on N is captured when it is opposing to the mover and
    - B is not an island point (the shore), or
    - B holds a piece (Viking or tower) of the mover's team, or
    - [D] B holds a piece of a third team, opposing to N's owner as well"
    (switch rules.third_party_anvil).  "Moving between two enemy pieces is
    safe: only the moving side captures" (only the landing is looked at)."""
    island = state.island
    captured = []
    for direction in range(4):
        n = island.next(landing, direction)
        if n is None or board[n] is None or not opposing(state, colour, board[n].colour):
            continue
        b = island.next(n, direction)
        if b is None:
            captured.append(n)                                  # the shore
            continue
        anvil = board[b]
        if anvil is None:
            continue
        if not opposing(state, colour, anvil.colour):
            captured.append(n)                                  # the mover's team
        elif state.rules.third_party_anvil and opposing(state, anvil.colour, board[n].colour):
            captured.append(n)                                  # a third team
    return captured


# --- Towers ------------------------------------------------------------------------------------

def tower_colour_to_place(state, board, player):
    """The colour of the tower `player` places next, or None when he has
    none in hand: his own colour; [D] in battle-for-two "it is of his
    lowest-numbered colour that still has one in hand"."""
    for colour in colours_of(state, player):
        if towers_in_hand(board, colour) > 0:
            return colour
    return None


def team_has_tower_in(state, board, player, letter):
    team = team_of(state, player)
    return any(board[cell] is not None and board[cell].kind == "tower" and team_of(state, board[cell].colour) == team
               for cell in state.island.territory_points(letter))


def conquest_in(state, board, player, letter):
    """What the conquest check for `player` does in territory `letter`:
    None, ("swap", cell, colour) or ("place", free points, colour).

    "For each territory where P's team has no tower: if P has a tower in
    hand, at least one Viking of P's colours stands there and no opposing
    Viking stands there, P conquers it:
    - if an opposing tower stands there, it goes back to its owner's hand
      and P's tower takes its point;
    - otherwise P places a tower on a free point of that territory, of his
      choice (if no point is free, nothing happens).\""""
    if team_has_tower_in(state, board, player, letter):
        return None
    colour = tower_colour_to_place(state, board, player)
    if colour is None:
        return None
    mine = colours_of(state, player)
    own_viking = opposing_viking = False
    opposing_tower = None
    free = []
    for cell in state.island.territory_points(letter):
        piece = board[cell]
        if piece is None:
            free.append(cell)
        elif piece.kind == "viking":
            own_viking = own_viking or piece.colour in mine
            opposing_viking = opposing_viking or opposing(state, player, piece.colour)
        elif opposing(state, player, piece.colour):
            opposing_tower = cell
    if not own_viking or opposing_viking:
        return None
    if opposing_tower is not None:
        return ("swap", opposing_tower, colour)
    if not free:
        return None
    return ("place", free, colour)


def place_tower_after_capture(state, board, player, cell):
    """"A captured tower goes back to its owner's hand.  If the capturing
    colour has a tower in hand and his team has no tower in that territory,
    his tower is placed on that same point at once."  [R] The capturing
    colour is the player's (in battle-for-two, the tower is his
    lowest-numbered colour with one in hand, as for every tower he places).
    `board` is a list, the captured tower already taken off `cell`."""
    colour = tower_colour_to_place(state, board, player)
    if colour is None or team_has_tower_in(state, board, player, state.island.territory(cell)):
        return
    board[cell] = TOWER[colour]


# --- A turn in progress -------------------------------------------------------------------

@dataclass(frozen=True)
class Progress:
    """A play-phase or towers-phase turn played so far.  `written` is the move
    string's tokens so far and `key` its canonical sort key: the points in
    the order written, each as (column, row)."""
    board: tuple
    streak: tuple
    written: tuple = ()
    key: tuple = ()
    movements: int = 0
    eventful: bool = False          # something captured, or a tower placed or swapped
    start: object = None            # where the moving Viking began the turn
    at: object = None               # where it stands now
    captured_last: bool = False     # the last landing captured


def _start(state):
    return Progress(board=state.board, streak=state.streak)


def _with_tower(progress, cell, colour, island=None):
    """`progress` with a tower of `colour` on `cell` (in a swap, in place of
    the opposing tower there); written `T@p` when `island` is given."""
    board = list(progress.board)
    board[cell] = TOWER[colour]
    written, key = progress.written, progress.key
    if island is not None:
        written += ("T@" + island.point_name(cell),)
        key += (island.sort_key(cell),)
    return replace(progress, board=tuple(board), written=written, key=key, eventful=True)


def conquest_outcomes(state, progress, player):
    """Every way the conquest check for `player` can go from `progress`.
    "Territories are taken in letter order", "Conquest is not optional, and
    one check can conquer several territories"; each placement on a free
    point branches on the point chosen (written `T@p`); swaps involve no
    choice and are not written."""
    outcomes = [progress]
    for letter in state.island.territories:
        after = []
        for p in outcomes:
            action = conquest_in(state, p.board, player, letter)
            if action is None:
                after.append(p)
            elif action[0] == "swap":
                after.append(_with_tower(p, action[1], action[2]))
            else:
                _, free, colour = action
                after.extend(_with_tower(p, cell, colour, state.island) for cell in free)
        outcomes = after
    return outcomes


def standstill_blocked(state, player):
    """[D] Standstill `same-viking`: "a player may not move the same Viking in
    three consecutive turns of his".  The point of the Viking he may not
    move now (his streak names it with count 2), or None."""
    streak = state.streak[player - 1]
    if state.rules.standstill == "same-viking" and streak is not None and streak[1] >= 2:
        return streak[0]
    return None


def movable_vikings(state, board, player):
    """The points of the Vikings `player` may move: "He moves one of his
    Vikings" (battle-for-two: "he may use either of his colours"), except the
    one the standstill rule holds back."""
    mine = colours_of(state, player)
    blocked = standstill_blocked(state, player)
    return [cell for cell in state.island.points
            if board[cell] is not None and board[cell].kind == "viking" and board[cell].colour in mine
            and cell != blocked]


def move_viking(state, progress, player, start, end):
    """`progress` after the Viking on `start` moves to `end` (a legal end) and
    makes its captures.  "A captured Viking leaves the game" (a streak
    pointing at it is forgotten); "A captured tower goes back to its owner's
    hand" and the capturer's tower may take its point ([R] when one landing
    captures several towers, they are taken in territory letter order)."""
    island = state.island
    board = list(progress.board)
    colour = board[start].colour
    board[start] = None
    board[end] = VIKING[colour]
    captured = captured_by_landing(state, board, end, colour)
    streak = progress.streak
    towers = []
    for cell in captured:
        if board[cell].kind == "viking":
            streak = tuple(None if s is not None and s[0] == cell else s for s in streak)
        else:
            towers.append(cell)
        board[cell] = None
    for cell in sorted(towers, key=island.territory):
        place_tower_after_capture(state, board, player, cell)
    return replace(progress, board=tuple(board), streak=streak,
                   written=progress.written + (f"{island.point_name(start)}-{island.point_name(end)}",),
                   key=progress.key + (island.sort_key(start), island.sort_key(end)),
                   movements=progress.movements + 1, eventful=progress.eventful or bool(captured),
                   start=start if progress.start is None else progress.start, at=end,
                   captured_last=bool(captured))


def movement_outcomes(state, progress, player):
    """Every way to play step 2, "He moves one of his Vikings, with any
    captures and continuations", from `progress`; `pass` when "a player ...
    has no legal movement".

    "If the landing captured at least one piece, the same Viking may move
    again (or stop), but only with a movement whose landing captures at
    least one piece."  Each place where the Viking may stop is an outcome.
    They are found level by level (one movement more at each level), each
    level in canonical order, and each board reached is kept once, with the
    first way found to it: that is the canonical one, since a way with fewer
    movements, or with smaller points so far, stays ahead whatever follows."""
    island = state.island
    level = [move_viking(state, progress, player, start, end)
             for start in movable_vikings(state, progress.board, player)
             for end in movement_ends(island, progress.board, start)]
    if not level:
        return [replace(progress, written=progress.written + ("pass",))]
    outcomes, seen = [], set()
    while level:
        level.sort(key=lambda p: p.key)
        deeper = []
        for p in level:
            if (p.board, p.at) in seen:
                continue
            seen.add((p.board, p.at))
            outcomes.append(p)
            if p.captured_last:
                for end in movement_ends(island, p.board, p.at):
                    q = move_viking(state, p, player, p.at, end)
                    if q.captured_last:
                        deeper.append(q)
        level = deeper
    return outcomes


# --- Ending a turn ------------------------------------------------------------------------------

def end_settle_turn(state, board):
    """"Each player places two Vikings ... until every colour has placed all
    18.  [D] The turn passes to the next seat that still has Vikings in
    hand"; when none has, the brawl begins with the first player."""
    after = replace(state, board=board)
    for k in range(1, state.players + 1):
        seat = (state.to_move - 1 + k) % state.players + 1
        if any(vikings_in_hand(after, c) for c in colours_of(state, seat)):
            return replace(after, to_move=seat)
    return replace(after, phase="brawl", to_move=state.first_player)


def end_brawl_turn(state, board):
    """"The brawl ends when the turn would come back to the first player
    (battle-for-two: when every colour has lost 4)"; battle-for-two turns
    alternate.  Then the towers phase begins with the first player."""
    after = replace(state, board=board)
    following = next_seat(state, state.to_move)
    if is_battle_for_two(state):
        over = all(vikings_lost(after, c) >= BRAWL_CAP for c in colours_in_play(state))
    else:
        over = following == state.first_player
    if over:
        return replace(after, phase="towers", to_move=state.first_player)
    return replace(after, to_move=following)


def end_towers_turn(state, board):
    """"From the first player on, each player makes the conquest check once.
    Then the play phase begins with the first player.\""""
    following = next_seat(state, state.to_move)
    if following == state.first_player:
        return replace(state, board=board, phase="play", to_move=state.first_player)
    return replace(state, board=board, to_move=following)


def end_play_turn(state, progress):
    """The state after a whole play turn: the history is updated and the next
    seat is to move.
    - Streak [D]: after a movement of the Viking from s to e, [e, k + 1] if
      the player's streak pointed at s with count k, else [e, 1]; after a
      pass, none ("a pass ... forgets it").  [R] Counts stop at 65535.
    - Quiet plies [D]: 0 after a turn that captured, or placed or swapped a
      tower; otherwise one more ("A pass counts as a ply")."""
    player = state.to_move
    streak = list(progress.streak)
    if progress.start is None:
        streak[player - 1] = None
    else:
        old = state.streak[player - 1]
        count = old[1] + 1 if old is not None and old[0] == progress.start else 1
        streak[player - 1] = (progress.at, min(count, MAX_COUNT))
    quiet = 0 if progress.eventful else min(state.quiet_plies + 1, MAX_COUNT)
    return replace(state, board=progress.board, streak=tuple(streak), quiet_plies=quiet,
                   to_move=next_seat(state, player))


# --- Listing turns -------------------------------------------------------------------------------

def _settle_turns(state, build):
    """"Each player places two Vikings of his colours on free points": every
    pair of free points, and in battle-for-two every choice of colours among
    those he has in hand (then written with the colours, `c3=1+d5=3`)."""
    island = state.island
    free = sorted(free_points(state, state.board), key=island.sort_key)
    names = {cell: island.point_name(cell) for cell in free}
    hand = {c: vikings_in_hand(state, c) for c in colours_of(state, state.to_move)}
    colours = [c for c in hand if hand[c] > 0]
    named = is_battle_for_two(state)
    out = []
    for first, second in combinations(free, 2):
        for a in colours:
            for b in colours:
                if a == b and hand[a] < 2:
                    continue
                if named:
                    move = f"{names[first]}={a}+{names[second]}={b}"
                else:
                    move = f"{names[first]}+{names[second]}"
                result = None
                if build:
                    board = list(state.board)
                    board[first], board[second] = VIKING[a], VIKING[b]
                    result = end_settle_turn(state, tuple(board))
                out.append(Turn(move, result))
    return out


def brawl_quota(state):
    """(how many Vikings the player to move removes in his brawl turn, how
    many the cap allows, the opposing Vikings he may pick from): "removes 4
    opposing Vikings from the island.  [D] No colour may lose more than 4
    Vikings in the brawl in all; a player who cannot remove 4 within that cap
    removes as many as he can (none: he passes)"."""
    player = state.to_move
    allowed, cells = 0, []
    for colour in colours_in_play(state):
        if not opposing(state, player, colour):
            continue
        room = max(0, BRAWL_CAP - vikings_lost(state, colour))
        on_island = [cell for cell in state.island.points if state.board[cell] == VIKING[colour]]
        allowed += min(room, len(on_island))
        if room:
            cells.extend(on_island)
    return min(BRAWL_REMOVALS, allowed), allowed, sorted(cells, key=state.island.sort_key)


def _within_cap(state, removed):
    losses = Counter(state.board[cell].colour for cell in removed)
    return all(vikings_lost(state, colour) + n <= BRAWL_CAP for colour, n in losses.items())


def later_brawlers(state):
    """The seats that still have their brawl turn after the player to move:
    on from him until the turn would come back to the first player."""
    seats = []
    seat = next_seat(state, state.to_move)
    while seat != state.first_player:
        seats.append(seat)
        seat = next_seat(state, seat)
    return seats


def brawl_shortfall(state, losses):
    """Under `rules.brawl` "even": after the player to move removes `losses`
    ({colour: Vikings}), can every later player of the brawl still remove
    his 4 within the cap?  None when they can, else (seats, Vikings): a
    smallest group of later seats that the opposing Vikings left within the
    cap cannot give 4 each, and how many they could remove between them.
    The counts per colour decide it (Hall's condition: every group of later
    seats needs 4 each from the room left in the colours opposing any of
    them).  [R] In battle-for-two the later turns are the same player's and
    his opponent's, whose colours his removals never touch, and with 2 or 4
    seats a removal of 4 always leaves the colours of the later seats the
    same room in all (RULES.md: the readings never differ there): the test
    is made for the standard variant only."""
    if is_battle_for_two(state):
        return None
    room = {colour: max(0, BRAWL_CAP - vikings_lost(state, colour) - losses.get(colour, 0))
            for colour in colours_in_play(state)}
    later = later_brawlers(state)
    for size in range(1, len(later) + 1):
        for group in combinations(later, size):
            colours = {c for c in colours_in_play(state) if any(opposing(state, seat, c) for seat in group)}
            left = sum(room[c] for c in colours)
            if left < BRAWL_REMOVALS * size:
                return group, left
    return None


def brawl_even_applies(state):
    """True when `rules.brawl` is "even" and some removal of 4 passes its
    test; otherwise "the cap rule decides that turn" (RULES.md, Brawl)."""
    if state.rules.brawl != "even":
        return False
    quota, _, cells = brawl_quota(state)
    if quota < BRAWL_REMOVALS:
        return False
    return bool(_even_losses(state, cells))


def _even_losses(state, cells, test=True):
    """The removals of 4 from `cells` within the cap that pass the "even"
    test (all of them without `test`), as the sorted (colour, Vikings)
    tuples of their losses per colour."""
    offer = Counter(state.board[cell].colour for cell in cells)
    colours = sorted(offer)
    passing = set()

    def walk(index, left, losses):
        if index == len(colours):
            if left == 0 and (not test or brawl_shortfall(state, losses) is None):
                passing.add(tuple(sorted((c, n) for c, n in losses.items() if n)))
            return
        colour = colours[index]
        room = min(offer[colour], BRAWL_CAP - vikings_lost(state, colour))
        for n in range(0, min(room, left) + 1):
            walk(index + 1, left - n, {**losses, colour: n})

    walk(0, BRAWL_REMOVALS, {})
    return passing


def _removals_of(state, cells, losses):
    """The removals from `cells` (sorted) whose losses per colour are one of
    `losses` ((colour, Vikings) tuples), in the order of
    combinations(cells, 4): each colour's Vikings chosen on their own."""
    rank = {cell: i for i, cell in enumerate(cells)}
    by_colour = {}
    for cell in cells:
        by_colour.setdefault(state.board[cell].colour, []).append(rank[cell])
    picks = []
    for vector in losses:
        for parts in product(*(combinations(by_colour[colour], n) for colour, n in vector)):
            picks.append(tuple(sorted(chain.from_iterable(parts))))
    picks.sort()
    return [tuple(cells[i] for i in pick) for pick in picks]


def _brawl_turns(state, build):
    island = state.island
    quota, _, cells = brawl_quota(state)
    if quota == 0:
        return [Turn("pass", end_brawl_turn(state, state.board) if build else None)]
    # the cap needs checking only when a colour could lose more than its room
    on_offer = Counter(state.board[cell].colour for cell in cells)
    check = any(min(n, quota) > BRAWL_CAP - vikings_lost(state, colour) for colour, n in on_offer.items())
    even = None
    if state.rules.brawl == "even" and quota == BRAWL_REMOVALS:
        # "a removal of 4 is legal only if every later player of this brawl
        # can still remove his 4 within the cap"; when none is, the cap decides
        even = _even_losses(state, cells) or None
        if even == _even_losses(state, cells, test=False):
            even = None                     # every removal within the cap passes
    names = {cell: "x" + island.point_name(cell) for cell in cells}
    if even is None:
        chosen = (removed for removed in combinations(cells, quota) if not check or _within_cap(state, removed))
    else:
        chosen = _removals_of(state, cells, even)
    out = []
    for removed in chosen:
        move = " ".join(names[cell] for cell in removed)
        result = None
        if build:
            board = list(state.board)
            for cell in removed:
                board[cell] = None
            result = end_brawl_turn(state, tuple(board))
        out.append(Turn(move, result))
    return out


def _towers_turns(state):
    """"Right after the brawl, from the first player on, each player makes the
    conquest check once": `pass` when it has no choice to write."""
    out = []
    for p in conquest_outcomes(state, _start(state), state.to_move):
        move = " ".join(p.written) if p.written else "pass"
        out.append((p.key, move, end_towers_turn(state, p.board)))
    return out


def _play_turns(state):
    """"1. The conquest check for the player to move.  2. He moves one of
    his Vikings, with any captures and continuations.  3. The conquest check
    for him again.\""""
    player = state.to_move
    out = []
    for p1 in conquest_outcomes(state, _start(state), player):
        for p2 in movement_outcomes(state, p1, player):
            for p3 in conquest_outcomes(state, p2, player):
                out.append(((p3.movements, p3.key), " ".join(p3.written), end_play_turn(state, p3)))
    return out


def _canonical(ways):
    """One Turn per resulting state from (sort key, move, state) ways: "when
    different strings lead to the same position, the canonical one has the
    fewest movements, then the smallest points in the order written"."""
    best = {}
    for key, move, result in ways:
        if result not in best or key < best[result][0]:
            best[result] = (key, move)
    return [Turn(move, result) for result, (key, move) in sorted(best.items(), key=lambda item: item[1][0])]


def legal_turns(state):
    """Every turn the player to move can play: one Turn(move, state) for each
    different resulting position, with its canonical move string."""
    if is_over(state):
        return []
    if state.phase == "settle":
        return _settle_turns(state, build=True)
    if state.phase == "brawl":
        return _brawl_turns(state, build=True)
    if state.phase == "towers":
        return _canonical(_towers_turns(state))
    return _canonical(_play_turns(state))


def legal_moves(state):
    """The canonical move strings of legal_turns.  Settle and brawl turns are
    listed without building their positions: there, different points always
    lead to different positions."""
    if is_over(state):
        return []
    if state.phase == "settle":
        return [t.move for t in _settle_turns(state, build=False)]
    if state.phase == "brawl":
        return [t.move for t in _brawl_turns(state, build=False)]
    return [t.move for t in legal_turns(state)]


def perft(state, depth):
    """Whole turns counted per depth: [n1, ..., n_depth], n1 the number of
    legal turns (different resulting positions); zeros past the end."""
    counts = [0] * depth

    def walk(node, ply):
        turns = legal_turns(node)
        counts[ply] += len(turns)
        if ply + 1 < depth:
            for turn in turns:
                walk(turn.state, ply + 1)

    if depth > 0:
        walk(state, 0)
    return counts
