"""The rule sets of the chained `check` row of Benchmarks/run.sh, printed to stdout.

    python3 Benchmarks/generate/chained_rules.py prerequisites [CHAINS DEPTH]   # 10 chains of 20 by default
    python3 Benchmarks/generate/chained_rules.py plain [CHAINS DEPTH]           # the same placements without them

CHAINS × DEPTH placements `cC_pI`, each with three rows: an audience `cC_aI`, which for every
placement but the first of its chain is `placement cC_pI-1 -> flow "cC_pI-1_up"` and a comparison
of `level`; an audience `cC_bI` (a comparison of `tier`); and `everyone`. So each placement's
decision depends on the one before it, DEPTH deep. `plain` prints the same placements, segments
and audiences with the prerequisites left out (`cC_aI` keeps its comparison alone).
"""
import sys


def rules(with_prerequisites, chains, depth):
    lines = ["attribute level: number", "attribute tier: string", ""]
    for chain in range(chains):
        for step in range(depth):
            name = f"c{chain}_p{step}"
            comparison = f"level >= {chain + step}"
            if with_prerequisites and step > 0:
                condition = f'placement c{chain}_p{step - 1} -> flow "c{chain}_p{step - 1}_up" and {comparison}'
            else:
                condition = comparison
            lines += [
                f"segment c{chain}_s{step} = {condition}",
                f'segment c{chain}_t{step} = tier == "t{(chain * depth + step) % 13}"',
                f"audience c{chain}_a{step} = c{chain}_s{step}",
                f"audience c{chain}_b{step} = c{chain}_t{step}",
                f"placement {name} {{",
                f'  c{chain}_a{step} -> flow "{name}_up"',
                f'  c{chain}_b{step} -> flow "{name}_side"',
                f'  everyone -> flow "{name}_default"',
                "}",
                "",
            ]
    return "\n".join(lines)


if __name__ == "__main__":
    modes = {"prerequisites": True, "plain": False}
    if len(sys.argv) not in (2, 4) or sys.argv[1] not in modes:
        sys.exit("usage: chained_rules.py prerequisites|plain [CHAINS DEPTH]")
    chains, depth = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (10, 20)
    sys.stdout.write(rules(modes[sys.argv[1]], chains, depth))
