"""Brute-force double-dummy values, for testing the solver (never imported by the package).

Written separately from ``catchten_sim._kernels.solve``: plain minimax over every legal card
(no alpha-beta, no bounds, no move ordering, no merging of cards). The rules of play and the
scores come from ``tests/reference.py`` (the independent reference engine, written from
RULES.md): its legal cards, trick winner, honour values and shares. Positions reached twice
are looked up in a dictionary keyed by everything that decides the rest of the deal (the
cards each seat holds, the trick, the leader, the trick number, the cards each side has taken
in the current scoring unit), which changes no value: it is not pruning.

Value: the final hand score difference for the whole deal seen from one side (default: the
side of the player to move): that side's total minus the other sides' totals added together;
that side's seats maximise, every other seat minimises (paranoid with three or more sides).
"""
from __future__ import annotations

import reference as ref


def declared_trump(text: str) -> int | None:
    """A declared trump as written in a position (S, H, D, C or NT): a suit index of the
    reference, or None for no trumps."""
    return None if text.upper() == "NT" else ref.SUITS.index(text.upper())


class Ending:
    """A hand record replayed to its last card, ready to be searched."""

    def __init__(self, record: dict):
        # "trump" (S, H, D, C or NT) is this module's own key, for jaques dealer_declares,
        # which a hand record cannot express (§7.8): the declared trump, no turn-up
        declared = "trump" in record
        r = ref.ref_rules(record.get("rules", "foster"), record["players"],
                          record.get("variants") or {}) if declared else ref._rules_of(record)
        self.r = r
        n = r.n_players
        self.n = n
        self.dealer = record["dealer"]
        hands = [[ref.parse_card(c) for c in h] for h in record["hands"]]
        self.sets = [tuple(tuple(sorted(h[k * r.set_size:(k + 1) * r.set_size])) for h in hands)
                     for k in range(r.sets)]
        if declared:
            self.turnup = None
            self.trump = declared_trump(record["trump"])
        else:
            self.turnup = ref.parse_card(record["turnup"]) if record.get("turnup") else hands[
                self.dealer][-1]
            self.trump = ref.suit_of(self.turnup)
        # replay (the reference checks every card)
        deal = ref._Deal(r, self.dealer, hands, self.turnup,
                         self.trump if declared else "turnup")
        for i, c in enumerate(record.get("play") or []):
            deal.check_and_play(ref.parse_card(c), i)
        assert deal.revoke is None, "brute force needs legal play"
        self.held = tuple(tuple(sorted(h)) for h in deal.held)
        self.trick = tuple(deal.trick)
        self.leader = deal.leader
        self.t = deal.trick_index
        self.tricks = list(deal.tricks)
        self.to_move = deal.to_play()
        # each card's honour points under this trump, the reference's own, looked up once
        # (the search asks them ~1,000 times an ending)
        self.hon = [r.honour_value(c, self.trump) for c in range(52)]
        # and each card's power in a trick led in each suit (ref.trick_winner's own rule:
        # the highest power wins, §1)
        self.power = [{c: r.trick_power(c, led, self.trump) for c in r.deck}
                      for led in range(4)]
        self.unit = r.set_size if (r.sets > 1 and r.set_scoring == "per_set") else r.n_tricks

    # -- scores
    def side(self, seat: int) -> int:
        return self.r.side_of_seat[seat]

    def sign(self, side: int, root: int) -> int:
        return 1 if side == root else -1

    def unit_points(self, counts: tuple, root: int) -> int:
        """Card points of one finished unit, signed from ``root``'s view."""
        if not self.r.card_points:
            return 0
        return sum(self.sign(s, root) * ref.card_points(counts[s], self.r.share(s))
                   for s in range(self.r.n_sides))

    def past(self, root: int) -> tuple[int, tuple]:
        """Points of the tricks already played (finished units' card points included) and
        the cards each side has taken in the current unit."""
        pts = 0
        counts = [0] * self.r.n_sides
        for i, tr in enumerate(self.tricks):
            s = self.side(tr["winner"])
            pts += self.sign(s, root) * sum(self.hon[c]
                                            for c in tr["cards"])
            counts[s] += len(tr["cards"])
            if (i + 1) % self.unit == 0:
                pts += self.unit_points(tuple(counts), root)
                counts = [0] * self.r.n_sides
        return pts, tuple(counts)

    # -- search
    def legal(self, held, trick, leader, t):
        seat = (leader + len(trick)) % self.n
        r = self.r
        locked = None
        if (r.exposed_trump and seat == self.dealer and self.turnup in held[seat]
                and t < r.n_tricks - 2):
            locked = self.turnup
        first = not trick and t % r.set_size == 0
        return seat, ref.legal_cards(r, held[seat], list(trick), self.trump,
                                     first_lead_of_set=first, locked=locked)

    def future(self, held, trick, leader, t, counts, root, memo):
        """Points still to come (current unit's card points included)."""
        if t == self.r.n_tricks:
            return 0
        key = (held, trick, leader, t, counts)
        v = memo.get(key)
        if v is not None:
            return v
        seat, legal = self.legal(held, trick, leader, t)
        vals = [self.after(held, trick, leader, t, counts, root, memo, seat, c) for c in legal]
        v = max(vals) if self.side(seat) == root else min(vals)
        memo[key] = v
        return v

    def after(self, held, trick, leader, t, counts, root, memo, seat, c):
        """Future points after ``seat`` plays ``c`` (the hands and counts rebuilt by
        slicing: the search's most frequent step)."""
        h = held[seat]
        i = h.index(c)
        held = held[:seat] + (h[:i] + h[i + 1:],) + held[seat + 1:]
        trick = trick + (c,)
        if len(trick) < self.n:
            return self.future(held, trick, leader, t, counts, root, memo)
        pw = self.power[ref.suit_of(trick[0])]
        powers = [pw[x] for x in trick]
        w = (leader + powers.index(max(powers))) % self.n
        s = self.side(w)
        hon = self.hon
        pts = self.sign(s, root) * sum([hon[x] for x in trick])
        counts = counts[:s] + (counts[s] + self.n,) + counts[s + 1:]
        t += 1
        if t % self.unit == 0:
            pts += self.unit_points(counts, root)
            counts = (0,) * self.r.n_sides
        if t % self.r.set_size == 0 and t < self.r.n_tricks:
            held = self.sets[t // self.r.set_size]
        return pts + self.future(held, (), w, t, counts, root, memo)

    def values(self, root: int | None = None) -> dict[int, int]:
        """Each legal card of the player to move -> its value (from ``root``'s view)."""
        if root is None:
            root = self.side(self.to_move)
        base, counts = self.past(root)
        memo: dict = {}
        seat, legal = self.legal(self.held, self.trick, self.leader, self.t)
        return {c: base + self.after(self.held, self.trick, self.leader, self.t, counts, root,
                                     memo, seat, c) for c in legal}


def brute_values(record: dict, root: int | None = None) -> tuple[int, dict[str, int]]:
    """``(to_move, {card text: value})`` by brute force."""
    e = Ending(record)
    return e.to_move, {ref.card_str(c): v for c, v in e.values(root).items()}


def random_ending(rng, preset: str, players: int, variants: dict, left: int) -> dict:
    """A random hand record played at random (legal cards) until each hand holds at most
    ``left`` cards in all (some random number of cards of the next trick played too).
    With ``dealer_declares``, a random declaration (a suit or NT, this module's ``trump``
    key) and no turn-up."""
    r = ref.ref_rules(preset, players, variants)
    dealer = rng.randrange(players)
    hands, turnup, dead = ref.random_deal(r, dealer, rng)
    declared = rng.choice(["S", "H", "D", "C", "NT"]) if r.dealer_declares else None
    deal = ref._Deal(r, dealer, hands, turnup,
                     declared_trump(declared) if declared else "turnup")
    n_play = players * (r.n_tricks - left) + rng.randrange(players)
    n_play = max(0, min(n_play, players * r.n_tricks - 1))
    play = []
    for _ in range(n_play):
        legal = deal.legal()
        c = legal[rng.randrange(len(legal))]
        deal.play(c)
        play.append(c)
    rec = {"rules": preset, "variants": variants, "players": players, "dealer": dealer,
           "hands": [[ref.card_str(c) for c in h] for h in hands],
           "turnup": ref.card_str(turnup), "dead": [ref.card_str(c) for c in dead],
           "play": [ref.card_str(c) for c in play]}
    if declared:
        rec.update(turnup=None, trump=declared)
    return rec


def _multinomial(sizes) -> int:
    from math import factorial
    total = factorial(sum(sizes))
    for s in sizes:
        total //= factorial(s)
    return total


def exact_advice(record: dict, max_deals: int = 4000, values: bool = True) -> dict | None:
    """What ``advise --evaluator dd`` must give at the position where ``record``'s play
    stops, found without the package's information sets: ``{"seat", "hand",
    "n_consistent_deals", "n_fillings", "value_sum": {card: sum}}``, or None when the
    unseen cards can be dealt in more than ``max_deals`` ways.

    The mover knows its own cards of the current set, the cards played, the turn-up (in
    the dealer's last set until played) and the cards laid aside. Every way of dealing the
    other cards into the unseen places (each seat's rest of the current set and every
    later set; ``n_fillings`` ways) is tried; a deal is consistent when the reference
    replays the play on it with no error and no revoke (so voids, ``must_trump``,
    ``no_trump_first_lead`` and the exposed turn-up are inferred by the rules themselves,
    not by a model of them); each consistent deal is valued by :func:`brute_values` and
    counted once (``values`` False: counted only, ``value_sum`` empty).
    """
    from itertools import combinations
    ending = Ending(record)              # the rules, and the trump declared or turned up
    r, trumps = ending.r, (ending.trump if "trump" in record else "turnup")
    n, size = r.n_players, r.set_size
    dealer = record["dealer"]
    hands = [[ref.parse_card(c) for c in h] for h in record["hands"]]
    turnup = ending.turnup                   # None when the trump was declared
    play = [ref.parse_card(c) for c in record.get("play") or []]
    dead = [ref.parse_card(c) for c in record.get("dead") or []]
    deal = ref._Deal(r, dealer, hands, turnup, trumps)
    played_by = {}                      # (seat, set) -> cards it played there
    for i, c in enumerate(play):
        played_by.setdefault((deal.to_play(), deal.trick_index // size), []).append(c)
        deal.check_and_play(c, i)
    assert deal.revoke is None and not deal.done()
    cur = deal.trick_index // size
    mover = deal.to_play()
    own = sorted(deal.held[mover])
    known = set(play) | set(dead) | set(own) | ({turnup} if turnup is not None else set())
    pool = [c for c in r.deck if c not in known]
    places = []                         # (seat, set, unseen cards, known cards)
    for s in range(n):
        for st in range(cur, r.sets):
            fixed = own if (s, st) == (mover, cur) else []
            if turnup is not None and s == dealer and st == r.sets - 1 and \
                    turnup not in play and turnup not in fixed:
                fixed = fixed + [turnup]
            places.append((s, st, size - len(played_by.get((s, st), [])) - len(fixed), fixed))
    assert sum(p[2] for p in places) == len(pool)
    n_fillings = _multinomial([p[2] for p in places])
    if n_fillings > max_deals:
        return None

    def fillings(i, rest):
        if i == len(places):
            yield []
            return
        for combo in combinations(rest, places[i][2]):
            left = [c for c in rest if c not in combo]
            for tail in fillings(i + 1, left):
                yield [list(combo)] + tail

    sums: dict[str, int] = {}
    count = 0
    for filling in fillings(0, pool):
        full = []
        for s in range(n):
            cards = []
            for st in range(r.sets):
                part = list(played_by.get((s, st), []))
                for (ps, pst, _, fixed), got in zip(places, filling):
                    if (ps, pst) == (s, st):
                        part += got + [c for c in fixed if c != turnup]
                        part += [turnup] if turnup in fixed else []   # dealt last
                cards += part
            full.append(cards)
        replay = ref._Deal(r, dealer, full, turnup, trumps)
        try:
            for i, c in enumerate(play):
                replay.check_and_play(c, i)
        except ref.RefError:
            continue
        if replay.revoke is not None:
            continue
        count += 1
        if not values:
            continue
        to_move, vals = brute_values(dict(record, hands=[[ref.card_str(c) for c in h]
                                                         for h in full]))
        assert to_move == mover
        for c, v in vals.items():
            sums[c] = sums.get(c, 0) + v
    return {"seat": mover, "hand": [ref.card_str(c) for c in own], "n_consistent_deals": count,
            "n_fillings": n_fillings, "value_sum": sums}
