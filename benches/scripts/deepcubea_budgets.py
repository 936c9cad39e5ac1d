#!/usr/bin/env python3
"""npuzzle's anytime answers against DeepCubeA's, per time budget (issue 50).

Five subcommands:

  run      solve every state of a DeepCubeA dev set with `npuzzle solve --anytime T`, one
           process a state, for each budget T, and append one row a state to a TSV file;
  summary  print, per set and budget, the mean length against DeepCubeA's mean, seconds a
           process, CPU / wall and peak memory, and check that a longer budget never gave a
           longer answer to the same state;
  plot     draw the ratio of the means (npuzzle / DeepCubeA) against the budget, one line a
           board size, DeepCubeA's line at 1.0 (needs matplotlib: `pip install matplotlib`);
  compare  like run, for two binaries side by side: state by state, each budget, both binaries
           in turn (`--vs` first on even states, `--npuzzle` first on odd ones), one row each
           with a last column `binary` (`npuzzle` or `vs`);
  versus   per set and budget of a compare file, both binaries' ratio of the means to
           DeepCubeA's, the ratio of theirs, the states each answered shorter, the slowest
           process and the peak memory.

Example (the record in benches/records/deepcubea-budgets.tsv, drawn in
docs/deepcubea-budgets.png):

  python3 benches/scripts/deepcubea_budgets.py run --npuzzle target/release/npuzzle \\
      --set testdata/deepcubea35_dev.txt --size 6x6 --budgets 1,30 --out budgets.tsv
  python3 benches/scripts/deepcubea_budgets.py summary budgets.tsv
  python3 benches/scripts/deepcubea_budgets.py plot budgets.tsv --out docs/deepcubea-budgets.png

The dev sets are DeepCubeA's (Agostinelli et al., Nature Machine Intelligence 2019); their
format is described in their headers (testdata/README.md). Only the standard library is used,
except by `plot`.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

COLUMNS = [
    "size",
    "budget_s",
    "id",
    "deepcubea_length",
    "length",
    "lower_bound",
    "engine",
    "wall_s",
    "user_s",
    "sys_s",
    "max_rss_kb",
    "exit_code",
]


# Issue 50's targets: the ratio of the means at a budget (seconds), per board size.
TARGETS = {("6x6", 1.0): 1.03, ("7x7", 1.0): 1.10, ("6x6", 30.0): 0.99, ("7x7", 30.0): 1.00}


def read_states(path):
    """(id, DeepCubeA's length, tiles as a string) for each state line of a dev-set file."""
    states = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.split()
            states.append((fields[0], int(fields[1]), " ".join(fields[3:])))
    return states


def solve(npuzzle, size, budget, threads, tiles):
    """One process: (length, lower bound, engine, wall s, user s, sys s, peak RSS KiB, exit code).

    The child's own resource usage, from wait4 (so the peak RSS is this process's, not the
    largest child's so far)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(
            [npuzzle, "solve", "--size", size, "--threads", str(threads), "--anytime",
             str(budget), "--format", "json", tiles],
            stdout=out,
            stderr=err,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    length, bound, engine = "", "", ""
    if proc.returncode == 0:
        answer = json.loads(stdout)
        length, bound, engine = answer["length"], answer.get("lower_bound", ""), answer["engine"]
    else:
        sys.stderr.write(stderr)
    return (length, bound, engine, round(wall, 3), round(usage.ru_utime, 3),
            round(usage.ru_stime, 3), usage.ru_maxrss, proc.returncode)


def append_rows(args, binaries):
    """Solve the set's states at each budget with each of `binaries` ((label, path) pairs),
    appending one row a process to args.out (its header first if the file is new). With one
    binary the rows have COLUMNS; with two they also have the label in a last column
    `binary`, and the binaries take turns going first (the first of the list on even
    states)."""
    states = read_states(args.set)[: args.states]
    budgets = [b for b in args.budgets.split(",") if b]
    labelled = len(binaries) > 1
    new = not os.path.exists(args.out) or os.path.getsize(args.out) == 0
    with open(args.out, "a") as out:
        if new:
            out.write("\t".join(COLUMNS + (["binary"] if labelled else [])) + "\n")
        for budget in budgets:
            for i, (state_id, dca, tiles) in enumerate(states):
                for label, path in (binaries if i % 2 == 0 else binaries[::-1]):
                    row = (args.size, budget, state_id, dca) + solve(
                        path, args.size, budget, args.threads, tiles)
                    if labelled:
                        row += (label,)
                    out.write("\t".join(str(x) for x in row) + "\n")
                    out.flush()
                    print("\t".join(str(x) for x in row), file=sys.stderr)


def cmd_run(args):
    append_rows(args, [("npuzzle", args.npuzzle)])


def cmd_compare(args):
    append_rows(args, [("vs", args.vs), ("npuzzle", args.npuzzle)])


def cmd_versus(args):
    rows = read_rows(args.tsv)
    print("| set | budget s | states | `--vs` | `--npuzzle` | `--npuzzle` ÷ `--vs` | shorter / "
          "longer | wall s, max | peak RSS, max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (size, budget), rs in groups(rows).items():
        by_state = {}
        for r in rs:
            by_state.setdefault(r["id"], {})[r["binary"]] = r
        both = [b for b in by_state.values()
                if b.get("npuzzle", {}).get("length") and b.get("vs", {}).get("length")]
        if not both:
            continue
        dca = sum(int(b["vs"]["deepcubea_length"]) for b in both)
        ours = sum(int(b["npuzzle"]["length"]) for b in both)
        theirs = sum(int(b["vs"]["length"]) for b in both)
        shorter = sum(int(b["npuzzle"]["length"]) < int(b["vs"]["length"]) for b in both)
        longer = sum(int(b["npuzzle"]["length"]) > int(b["vs"]["length"]) for b in both)
        wall = max(float(r["wall_s"]) for b in both for r in b.values())
        rss = max(int(r["max_rss_kb"]) for b in both for r in b.values())
        print(f"| {size} | {budget:g} | {len(both)} | {theirs / dca:.4f}× | {ours / dca:.4f}× | "
              f"**{ours / theirs:.4f}** | {shorter} / {longer} | {wall:.2f} | "
              f"{rss / 1e6:.2f} GB |")


def read_rows(path):
    rows = []
    with open(path) as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if header is None:
                header = fields
                continue
            rows.append(dict(zip(header, fields)))
    return rows


def groups(rows):
    """{(size, budget in s): [rows]} in size and budget order."""
    out = {}
    for r in rows:
        out.setdefault((r["size"], float(r["budget_s"])), []).append(r)
    return dict(sorted(out.items()))


def ratio_of_means(rows):
    answered = [r for r in rows if r["length"]]
    ours = sum(int(r["length"]) for r in answered)
    theirs = sum(int(r["deepcubea_length"]) for r in answered)
    return ours / theirs, ours / len(answered), theirs / len(answered), len(answered)


def cmd_summary(args):
    rows = read_rows(args.tsv)
    print("| set | budget s | states | mean length | DeepCubeA's mean | ratio of the means | "
          "shorter / equal / longer than DeepCubeA | wall s a process, median / max | "
          "CPU / wall | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (size, budget), rs in groups(rows).items():
        ratio, mean, dca, n = ratio_of_means(rs)
        walls = [float(r["wall_s"]) for r in rs]
        cpu = sum(float(r["user_s"]) + float(r["sys_s"]) for r in rs)
        answered = [r for r in rs if r["length"]]
        shorter = sum(int(r["length"]) < int(r["deepcubea_length"]) for r in answered)
        equal = sum(int(r["length"]) == int(r["deepcubea_length"]) for r in answered)
        rss = max(int(r["max_rss_kb"]) for r in rs) / 1024
        print(f"| {size} | {budget:g} | {n} of {len(rs)} | {mean:.2f} | {dca:.2f} | "
              f"**{ratio:.4f}×** | {shorter} / {equal} / {len(answered) - shorter - equal} | "
              f"{statistics.median(walls):.2f} / {max(walls):.2f} | {cpu / sum(walls):.2f} | "
              f"{rss:.0f} |")
    # A longer budget never gives a longer answer (issue 50): state by state.
    by_state = {}
    for r in rows:
        if r["length"]:
            by_state.setdefault((r["size"], r["id"]), []).append(
                (float(r["budget_s"]), int(r["length"])))
    worse = []
    for (size, state_id), runs in sorted(by_state.items()):
        runs.sort()
        for (b1, l1), (b2, l2) in zip(runs, runs[1:]):
            if b2 > b1 and l2 > l1:
                worse.append(f"{size} state {state_id}: {l1} moves at {b1:g} s, {l2} at {b2:g} s")
    print()
    if worse:
        print(f"{len(worse)} answers longer at a longer budget:")
        for w in worse:
            print("  " + w)
    else:
        print("No state got a longer answer at a longer budget.")


def cmd_plot(args):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_rows(args.tsv)
    fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=120)
    series = {}
    for (size, budget), rs in groups(rows).items():
        series.setdefault(size, []).append((budget, ratio_of_means(rs)[0]))
    budgets = sorted({b for points in series.values() for b, _ in points})
    for size, points in series.items():
        xs, ys = zip(*points)
        line = ax.plot(xs, ys, marker="o", label=f"npuzzle, {size} (2 threads)")[0]
        for x, y in points:
            ax.annotate(f"{y:.3f}", (x, y), textcoords="offset points", xytext=(6, 4), fontsize=8)
        targets = [(b, TARGETS[(size, b)]) for b in budgets if (size, b) in TARGETS]
        if targets:
            tx, ty = zip(*targets)
            ax.plot(tx, ty, linestyle="none", marker="_", markersize=14, markeredgewidth=2,
                    color=line.get_color(), label=f"issue 50's target, {size}")
    ax.axhline(1.0, color="black", linestyle="--", linewidth=1,
               label="DeepCubeA (45 GPU-s a state on 6x6, 144 on 7x7)")
    ax.set_xscale("log")
    ax.set_xticks(budgets)
    ax.set_xticklabels([f"{b:g}" for b in budgets])
    ax.minorticks_off()
    ax.set_xlabel("budget a state, seconds (npuzzle solve --anytime)")
    ax.set_ylabel("mean length / DeepCubeA's mean length")
    ax.set_title("DeepCubeA's dev sets, 100 states each")
    # Below the axes, so that it never hides a point or its label.
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, metadata={"Software": None} if args.out.endswith(".png") else None)
    print(f"wrote {args.out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    def add_set_args(parser, budgets):
        """The arguments `run` and `compare` share: the dev set, the budgets, the output."""
        parser.add_argument("--set", required=True, help="a DeepCubeA dev-set file (testdata/)")
        parser.add_argument("--size", required=True, help="6x6 or 7x7")
        parser.add_argument("--budgets", default=budgets,
                            help="comma-separated seconds (--anytime)")
        parser.add_argument("--threads", type=int, default=2)
        parser.add_argument("--states", type=int, default=None, help="the first N states only")
        parser.add_argument("--out", required=True, help="the TSV file to append to")

    r = sub.add_parser("run", help="solve a dev set at each budget, append rows to a TSV")
    r.add_argument("--npuzzle", default="npuzzle", help="the npuzzle binary")
    add_set_args(r, "1,30")
    r.set_defaults(func=cmd_run)
    s = sub.add_parser("summary", help="a Markdown table per set and budget")
    s.add_argument("tsv")
    s.set_defaults(func=cmd_summary)
    c = sub.add_parser("compare", help="run for two binaries, interleaved state by state")
    c.add_argument("--npuzzle", required=True, help="the npuzzle binary measured")
    c.add_argument("--vs", required=True, help="the npuzzle binary it is compared with")
    add_set_args(c, "1")
    c.set_defaults(func=cmd_compare)
    v = sub.add_parser("versus", help="a Markdown table of a compare file")
    v.add_argument("tsv")
    v.set_defaults(func=cmd_versus)
    g = sub.add_parser("plot", help="length / DeepCubeA against the budget")
    g.add_argument("tsv")
    g.add_argument("--out", required=True)
    g.set_defaults(func=cmd_plot)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
