#!/usr/bin/env python3
"""Summarises repeated paired runs of the load benchmarks as Markdown (used by lib.sh).

Input: the rows file `pair_run` (lib.sh) appends to, one line per run and side:

    PAIR <group> <side> <run> key=value key=value ...   (lines of one run and side merge)
    LOAD start|end <1 min> <5 min> <15 min>

Output: one Markdown row per group and measure with the min / median / max of each side
over the runs, and of the ratio of the two sides taken run by run (the two sides of a run
ran one right after the other). Ratios: throughput is side A ÷ side B; CPU per request is
side B ÷ side A, so that for both a ratio of 100 % means "as good as the baseline" and less
means worse. Then the machine's load average at the start and at the end of the runs.

    aggregate.py ROWS_FILE SIDE_A SIDE_B [GROUP_TITLE]

Running `aggregate.py --self-test` checks the arithmetic on a fixed example.
"""

import statistics
import sys

# measure key -> (label, unit format, ratio: "a/b", "b/a" or None)
MEASURES = [
    ("ok_rps", "2xx/s", "{:.0f}", "a/b"),
    ("rps", "req/s", "{:.0f}", None),
    ("cpu_us", "server CPU µs/req", "{:.1f}", "b/a"),
    ("p50_ms", "p50 ms", "{:.2f}", None),
    ("p99_ms", "p99 ms", "{:.2f}", None),
    ("non2xx", "non-2xx", "{:.0f}", None),
    ("errors", "socket errors", "{:.0f}", None),
    ("digest_run_rps", "digested/s during the HTTP run", "{:.0f}", None),
    ("digest_rps", "digested/s sustained (until the backlog is done)", "{:.0f}", None),
    ("backlog_s", "s to digest the backlog after the HTTP run", "{:.1f}", None),
    ("digest_cpu_us", "digest worker CPU µs/req", "{:.1f}", None),
]


def parse(lines):
    """Rows {(group, side, run): {key: float}} in input order, and load lines {start|end: text}."""
    rows, groups, load = {}, [], {}
    for line in lines:
        parts = line.split()
        if len(parts) >= 4 and parts[0] == "PAIR":
            group, side, run = parts[1], parts[2], parts[3]
            values = {}
            for item in parts[4:]:
                key, _, value = item.partition("=")
                try:
                    values[key] = float(value)
                except ValueError:
                    continue
            rows.setdefault((group, side, run), {}).update(values)
            if group not in groups:
                groups.append(group)
        elif len(parts) >= 5 and parts[0] == "LOAD":
            text = " ".join(parts[2:5])
            if parts[1] == "start":
                load.setdefault("start", text)  # the first start
            else:
                load[parts[1]] = text  # the last end
    return rows, groups, load


def spread(values, fmt):
    """'min / median / max' of the values, or '—' when there are none."""
    if not values:
        return "—"
    return " / ".join(fmt.format(v) for v in (min(values), statistics.median(values), max(values)))


def summarise(rows, groups, a, b):
    """The Markdown table rows (without the header)."""
    out = []
    for group in groups:
        runs = sorted({run for (g, _, run) in rows if g == group}, key=lambda r: (len(r), r))
        for key, label, fmt, ratio in MEASURES:
            va = [rows[(group, a, r)][key] for r in runs if key in rows.get((group, a, r), {})]
            vb = [rows[(group, b, r)][key] for r in runs if key in rows.get((group, b, r), {})]
            if not va and not vb:
                continue
            ratios = []
            if ratio:
                for r in runs:
                    x, y = rows.get((group, a, r), {}).get(key), rows.get((group, b, r), {}).get(key)
                    if x is None or y is None:
                        continue
                    num, den = (x, y) if ratio == "a/b" else (y, x)
                    if den > 0:
                        ratios.append(100.0 * num / den)
            cell = spread(ratios, "{:.0f} %") if ratio else "—"
            out.append(f"| `{group}` | {label} | {spread(va, fmt)} | {spread(vb, fmt)} | {cell} | {len(runs)} |")
    return out


def table(rows, groups, load, a, b, title="measure"):
    lines = [
        f"| {title} | measure | {a} min / median / max | {b} min / median / max | ratio min / median / max | runs |",
        "|---|---|---:|---:|---:|---:|",
    ]
    lines += summarise(rows, groups, a, b)
    lines.append("")
    lines.append(f"Load average (1 / 5 / 15 min): {load.get('start', '?')} at the start, {load.get('end', '?')} at the end.")
    return "\n".join(lines)


def self_test():
    text = [
        "LOAD start 0.10 0.20 0.30",
        "PAIR / veranda 1 ok_rps=800 rps=800 cpu_us=50 p99_ms=2",
        "PAIR / nginx 1 ok_rps=1000 rps=1000 cpu_us=20 p99_ms=1",
        "PAIR / veranda 2 ok_rps=900 rps=900 cpu_us=40 p99_ms=3",
        "PAIR / nginx 2 ok_rps=1000 rps=1000 cpu_us=20 p99_ms=1",
        "PAIR / veranda 3 ok_rps=600 rps=600 cpu_us=80 p99_ms=4",
        "PAIR / nginx 3 ok_rps=1000 rps=1000 cpu_us=20 p99_ms=1",
        "LOAD end 1.50 0.90 0.40",
    ]
    rows, groups, load = parse(text)
    out = table(rows, groups, load, "veranda", "nginx", "page")
    assert "| `/` | 2xx/s | 600 / 800 / 900 | 1000 / 1000 / 1000 | 60 % / 80 % / 90 % | 3 |" in out, out
    assert "| `/` | server CPU µs/req | 40.0 / 50.0 / 80.0 | 20.0 / 20.0 / 20.0 | 25 % / 40 % / 50 % | 3 |" in out, out
    assert "| `/` | p99 ms | 2.00 / 3.00 / 4.00 | 1.00 / 1.00 / 1.00 | — | 3 |" in out, out
    assert "0.10 0.20 0.30 at the start, 1.50 0.90 0.40 at the end" in out, out
    print("aggregate.py: self-test passed")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--self-test"]:
        self_test()
        sys.exit(0)
    if len(sys.argv) < 4:
        sys.exit("usage: aggregate.py ROWS_FILE SIDE_A SIDE_B [GROUP_TITLE]")
    with open(sys.argv[1], encoding="utf-8") as f:
        parsed = parse(f.read().splitlines())
    print(table(*parsed, sys.argv[2], sys.argv[3], *(sys.argv[4:5] or ["measure"])))
