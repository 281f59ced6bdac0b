"""Figures colour an estimate by what its 95% interval says (above, below or holding its
par), never by the point estimate alone (fig04 seat advantage, fig07 holding value)."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from catchten_sim import plotting as P  # noqa: E402

BLUE, RED = P.OKABE_ITO["blue"].lower(), P.OKABE_ITO["vermillion"].lower()
GREY = to_hex(P.GREY)


def test_interval_colours():
    got = P.interval_colours([0.1, -0.5, -0.2, np.nan], [0.3, -0.1, 0.4, np.nan])
    assert [to_hex(c) for c in got] == [BLUE, RED, GREY, GREY]
    assert [to_hex(c) for c in P.interval_colours([5, 5], [9, 9], [4, 6])] == [BLUE, GREY]


def test_seat_advantage_bars_follow_the_interval():
    # position 2's estimate is above 0 but its interval holds 0: grey, not blue
    data = pd.DataFrame({"position": [1, 2, 3, 4], "role": ["eldest", "", "", "dealer"],
                         "advantage_mean": [0.8, 0.1, -0.05, -0.85],
                         "advantage_lo": [0.5, -0.2, -0.3, -1.1],
                         "advantage_hi": [1.1, 0.4, 0.2, -0.6],
                         "total_mean": [20.0, 19.0, 19.0, 18.0]})
    fig = P.plot_seat_advantage(data)
    bars = [p for p in fig.axes[0].patches]
    assert [to_hex(b.get_facecolor()) for b in bars] == [BLUE, GREY, GREY, RED]


def test_holding_value_dots_follow_the_interval():
    data = pd.DataFrame({"holding": ["J", "A", "Q"], "honours_dealt": [11, 4, 2],
                         "sides": [100, 100, 100], "total_mean": [14.0, 4.5, 1.0],
                         "lo": [12.0, 3.0, 0.5], "hi": [16.0, 6.0, 1.5],
                         "net": [3.0, 0.5, -1.0]})
    fig = P.plot_holding_value(data)
    cols = {}
    for line in fig.axes[0].lines:
        if line.get_marker() == "o":
            for yv in line.get_ydata():
                cols[int(yv)] = to_hex(line.get_color())
    # rows from the top: sorted by honours dealt (Q 2, A 4, J 11) and drawn top down
    assert sorted(cols.values()) == sorted([BLUE, GREY, RED])
    assert cols[0] == BLUE and cols[1] == GREY and cols[2] == RED
