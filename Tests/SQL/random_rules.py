#!/usr/bin/env python3
"""Random rule sets for the SQL agreement tests: seeded segments over every attribute type and
built-in field (operators, negations, nesting, `ignoring case`, relative instants, literals with
quotes, backslashes and SQL comment markers), audiences over them, and placements with splits,
`nothing` rows and placements without `everyone`, `matches` with random patterns
over values that some of them accept, and the forms of experiments: experiments used
across placements, experiment and split rows `by KEY` (profile.id, profile.customer_user_id or a
custom string attribute; `everyone` rows among them), sticky experiments, a holdout with or
without `by` and `except`, and caps on the placements (`shown p0 in 7d < 2`, `last shown p1 <=
now - 3d`).

With `DEPENDENT` true (the default), rule sets also depend on rules: caps over groups of
placements (`shown [p0, p2] in 7d >= 2`, `last shown [p1, p2] <= now - 3d`); layers holding one
to three of the experiments, with and without `by KEY`, whose shares leave some profiles in
none; and prerequisites. Those are segments `placement pM -> DEST` (alone, under `not`, inside
`or` and `and`, one built on another) whose audiences are added as rows of later placements
only, so placement pN depends on p0 to p(N-1) and no cycle can arise. DEST is one of the
destinations pM's rows give (a flow, `nothing`, a variant of an experiment pM uses, `no match`
where pM has no `everyone` row) or a list of them. Set it false for the rule sets of before;
the twenty placements of `write_wide` never have these forms.

Each rule set is written to a directory and must pass `targeting check`; the agreement scripts
then compare every placement with `resolve`.
"""

import os
import random

TEXT_LITERALS = ["low", "mid", "HIGH", "o'b", "Al\\\\b", "x -- y", "/* z */", "é", "100%_", "it's", "--", "Straße"]
NUMBERS = ["0", "1", "2.5", "-3", "10", "20", "100", "5.4999"]
VERSIONS = ["1.0.0", "2.0", "2.0.0-rc.1", "10.0.0", "4.2.0", "4.2.0-0", "v1.2", "3"]
DATES = ["2026-01-01", "2026-11-29T12:00:00Z", "2026-06-01T12:30:00.5+02:00", "now", "now - 7d", "now + 30d", "now - 12h"]
SET_LITERALS = ["a", "b", "c", "Ünï", "x y", "sports", "music"]
COUNTRIES = ["US", "DE", "FR", "us", "GB"]

DECLARATIONS = """attribute level: string
attribute nick: string
attribute experience: string
attribute score: number
attribute visits: number
attribute weekly_hours: number
attribute opted_in: bool
attribute reminders: bool
attribute goal_date: date
attribute sdk: version
attribute tags: set
attribute interests: set
attribute account: string
attribute code: string
"""
# The keys a draw can take (None: no `by`, so profile.id).
KEYS = [None, "profile.id", "profile.customer_user_id", "account", "nick"]
WEIGHTS = [(50, 50), (10, 40, 50), (90, 10), (33, 33, 34), (25, 25, 25, 25)]


def quoted(text):
    return '"' + text.replace('"', '\\"') + '"'


def text_list(rng, pool, low=1, high=3):
    return "[" + ", ".join(quoted(item) for item in rng.sample(pool, rng.randint(low, high))) + "]"


# Windows of `shown PLACEMENT in …` and the shifts of `last shown` comparisons; placements p0–p2
# are those the generated histories of agreement.py show.
WINDOWS = ["", " in 30m", " in 12h", " in 1d", " in 7d", " in 30d"]

# Whether the rule sets also depend on rules: prerequisites, layers and caps over groups of
# placements (see the module's description); false gives the rule sets of before, seed for seed.
DEPENDENT = True


def capped_placements(rng, grouped):
    """The placements a cap counts: one of p0–p2 (`p1`), or if `grouped` sometimes a group of
    them (`[p2, p0]`, a group of one now and then); and how many it names."""
    if grouped and rng.random() < 0.5:
        group = rng.sample(["p0", "p1", "p2"], rng.choice([1, 2, 2, 3, 3]))
        return "[" + ", ".join(group) + "]", len(group)
    return "p%d" % rng.randint(0, 2), 1


def history_comparison(rng, grouped):
    placement, count = capped_placements(rng, grouped)
    if rng.random() < 0.5:
        # N runs from 0 to 100 for each placement counted.
        bounds = [0, 1, 2, 3, 100] + ([4, 7, 100 * count - 1, 100 * count] if count > 1 else [])
        return "shown %s%s %s %d" % (placement, rng.choice(WINDOWS), rng.choice(["==", "!=", "<", "<=", ">", ">="]), rng.choice(bounds))
    op = rng.choice(["<", "<=", ">", ">=", "==", "!=", "between", "is set", "is not set"])
    if op in ("is set", "is not set"):
        return "last shown %s %s" % (placement, op)
    if op == "between":
        return "last shown %s between now - 7d and now" % placement
    return "last shown %s %s %s" % (placement, op, rng.choice(["now", "now - 1d", "now - 3d", "now - 12h", "2026-11-22T12:00:00Z"]))


# Whether the generated rules may read history (caps, sticky experiments); an engine that
# cannot read it sets this false before writing.
READS_HISTORY = [True]


def comparison(rng, grouped=False):
    kinds = ["text", "text", "number", "bool", "date", "version", "set", "builtin", "pattern", "pattern", "history"]
    kind = rng.choice(kinds if READS_HISTORY[0] else kinds[:-1])
    if kind == "pattern":
        return pattern_comparison(rng)
    if kind == "history":
        return history_comparison(rng, grouped)
    if kind == "text":
        subject = rng.choice(["level", "nick", "experience"])
        op = rng.choice(["==", "!=", "in", "not in", "contains", "starts with", "ends with", "is set", "is not set"])
        if op in ("is set", "is not set"):
            return "%s %s" % (subject, op)
        literal = text_list(rng, TEXT_LITERALS) if op in ("in", "not in") else quoted(rng.choice(TEXT_LITERALS))
        return "%s %s %s%s" % (subject, op, literal, " ignoring case" if rng.random() < 0.25 else "")
    if kind == "number":
        subject = rng.choice(["score", "visits", "weekly_hours"])
        op = rng.choice(["==", "!=", "<", "<=", ">", ">=", "between", "in", "not in"])
        if op == "between":
            low, high = sorted(rng.sample([float(n) for n in NUMBERS], 2))
            return "%s between %g and %g" % (subject, low, high)
        if op in ("in", "not in"):
            return "%s %s [%s]" % (subject, op, ", ".join(rng.sample(NUMBERS, 2)))
        return "%s %s %s" % (subject, op, rng.choice(NUMBERS))
    if kind == "bool":
        return "%s %s %s" % (rng.choice(["opted_in", "reminders"]), rng.choice(["==", "!="]), rng.choice(["true", "false"]))
    if kind == "date":
        op = rng.choice(["<", "<=", ">", ">=", "==", "between"])
        if op == "between":
            return "goal_date between now - 7d and now + 30d"
        return "goal_date %s %s" % (op, rng.choice(DATES))
    if kind == "version":
        op = rng.choice(["==", "!=", "<", "<=", ">", ">=", "in"])
        if op == "in":
            return "sdk in %s" % text_list(rng, VERSIONS, 2, 3)
        return "sdk %s %s" % (op, quoted(rng.choice(VERSIONS)))
    if kind == "set":
        subject = rng.choice(["tags", "interests"])
        op = rng.choice(["has", "has any", "has all", "has none"])
        literal = quoted(rng.choice(SET_LITERALS)) if op == "has" else text_list(rng, SET_LITERALS)
        return "%s %s %s%s" % (subject, op, literal, " ignoring case" if rng.random() < 0.2 else "")
    return rng.choice([
        "profile.age >= %d" % rng.choice([13, 18, 21, 30]),
        "profile.age between 18 and %d" % rng.choice([24, 35, 60]),
        "profile.country in %s" % text_list(rng, COUNTRIES),
        'profile.platform == "ios"',
        "profile.app_version >= %s" % quoted(rng.choice(VERSIONS)),
        "profile.os_version < %s" % quoted(rng.choice(VERSIONS)),
        "profile.installed_at >= now - %dd" % rng.choice([1, 7, 30]),
        "profile.days_since_install <= %d" % rng.choice([0, 7, 30]),
        'profile.access_levels has "premium"',
        "profile.total_revenue_usd > %s" % rng.choice(["0", "4.99", "10"]),
        "profile.email ends with %s ignoring case" % quoted("@gmail.com"),
        "profile.subscription_expires_at > now",
    ])


def expression(rng, segments, depth=0, grouped=False):
    roll = rng.random()
    if depth < 2 and roll < 0.3:
        items = [expression(rng, segments, depth + 1, grouped) for _ in range(rng.randint(2, 3))]
        return "(" + (" and " if rng.random() < 0.5 else " or ").join(items) + ")"
    if roll < 0.4:
        return "not " + expression(rng, segments, depth + 1, grouped)
    if segments and roll < 0.55:
        return rng.choice(segments)
    return comparison(rng, grouped)


class Row:
    """One row of a placement: its lines, the destinations it can give (`flow "x"`, `nothing`),
    and the experiment it draws, if any."""

    def __init__(self, audience, lines, destinations, experiment=None):
        self.audience = audience
        self.lines = lines
        self.destinations = destinations
        self.experiment = experiment


def rule_set(seed, placements=10, audience_count=None, rows=None, dependent=None):
    """The text of one rule set with `placements` placements; `audience_count` audiences (default 3
    to 6), and in each placement `rows` rows before `everyone` (default: up to all audiences);
    with rules that depend on rules if `dependent` (default: `DEPENDENT`)."""
    dependent = DEPENDENT if dependent is None else dependent
    rng = random.Random(seed)
    lines = [DECLARATIONS]
    segments = []
    for index in range(rng.randint(6, 12)):
        name = "s%d" % index
        lines.append("segment %s = %s" % (name, expression(rng, segments, grouped=dependent)))
        segments.append(name)
    audiences = []
    for index in range(audience_count or rng.randint(3, 6)):
        name = "a%d" % index
        used = rng.sample(segments, rng.randint(1, 3))
        joined = (" and " if rng.random() < 0.6 else " or ").join(("not " if rng.random() < 0.2 else "") + item for item in used)
        lines.append("audience %s = %s" % (name, joined))
        audiences.append(name)
    # The segments and audiences of prerequisites go here.
    dependent_at = len(lines)

    def by():
        key = rng.choice(KEYS)
        return "" if key is None else " by " + key

    experiments = []
    for index in range(rng.choice([0, 1, 2, 3])):
        name = "ex%d" % index
        weights = rng.choice(WEIGHTS)
        sticky = " sticky %s" % rng.choice(["1d", "7d", "30d"]) if rng.random() < 0.5 and READS_HISTORY[0] else ""
        lines.append("experiment %s%s%s {" % (name, by(), sticky))
        lines.extend("  %d%% v%d" % (weight, variant) for variant, weight in enumerate(weights))
        lines.append("}")
        experiments.append((name, len(weights)))
    if dependent:
        lines.extend(layers(rng, seed, [name for name, _ in experiments], by))
    split = [0]

    def split_row(audience):
        split[0] += 1
        out = ['  %s -> split "sp%d_%d"%s {' % (audience, seed, split[0], by() if rng.random() < 0.5 else "")]
        destinations = []
        for variant, weight in enumerate(rng.choice(WEIGHTS[:4])):
            target = "nothing" if variant == 0 and rng.random() < 0.5 else 'flow "f%d"' % variant
            out.append("    %d%% -> %s" % (weight, target))
            destinations.append(target)
        out.append("  }")
        return Row(audience, out, destinations)

    def experiment_row(audience):
        name, variants = rng.choice(experiments)
        out = ["  %s -> %s {" % (audience, name)]
        destinations = []
        # A small pool, so that variants often share a destination.
        for variant in rng.sample(range(variants), variants):
            target = rng.choice(["nothing", 'flow "fa"', 'flow "fb"', 'flow "f_%s_v%d"' % (name, variant)])
            out.append("    v%d -> %s" % (variant, target))
            destinations.append(target)
        out.append("  }")
        return Row(audience, out, destinations, (name, variants))

    placed = []
    for number in range(placements):
        own = []
        for audience in rng.sample(audiences, min(rows, len(audiences)) if rows else rng.randint(1, len(audiences))):
            roll = rng.random()
            if roll < 0.2:
                own.append(split_row(audience))
            elif roll < 0.35 and experiments:
                own.append(experiment_row(audience))
            elif roll < 0.45:
                # Some rows are `always` (held-out profiles take them too), from the same roll.
                own.append(Row(audience, ["  %s%s -> nothing" % ("always " if roll < 0.4 else "", audience)], ["nothing"]))
            else:
                target = 'flow "f_%s_%d"' % (audience, number)
                own.append(Row(audience, ["  %s%s -> %s" % ("always " if roll > 0.85 else "", audience, target)], [target]))
        roll = rng.random()
        if roll < 0.1 and experiments:
            own.append(experiment_row("everyone"))
        elif roll < 0.2:
            own.append(split_row("everyone"))
        elif roll < 0.7:
            own.append(Row("everyone", ['  everyone -> flow "default"'], ['flow "default"']))
        placed.append(own)
    holdout = []
    if rng.random() < 0.6:
        excepted = rng.sample(range(placements), rng.choice([0, 0, 1, 3]))
        holdout.append("holdout h%d %d%%%s%s" % (seed, rng.choice([5, 20, 50, 100]), by() if rng.random() < 0.6 else "",
                                                 " except " + ", ".join("p%d" % number for number in excepted) if excepted else ""))
    if dependent:
        lines[dependent_at:dependent_at] = prerequisites(rng, placed, segments, split_row, experiment_row if experiments else None)
    for number, own in enumerate(placed):
        lines.append("placement p%d {" % number)
        for row in own:
            lines.extend(row.lines)
        lines.append("}")
    return "\n".join(lines + holdout) + "\n"


def layers(rng, seed, experiments, by):
    """Sometimes one layer of two or three of `experiments` (or of the one there is), and now
    and then a second layer of one that the first left out: the declarations' lines. The shares
    are whole numbers adding up to 100 or less, so some profiles may enter none."""
    out = []
    free = list(experiments)
    number = 0
    while free and rng.random() < (0.6 if number == 0 else 0.3):
        taken = rng.sample(free, min(len(free), rng.choice([2, 2, 3])) if number == 0 else 1)
        free = [name for name in free if name not in taken]
        total = rng.choice([100, 100, 99, 90, 60, 30])
        cuts = sorted(rng.sample(range(1, total), len(taken) - 1)) if len(taken) > 1 else []
        shares = [high - low for low, high in zip([0] + cuts, cuts + [total])]
        out.append("layer ly%d_%d%s {" % (seed, number, by()))
        out.extend("  %d%% %s" % (share, name) for share, name in zip(shares, taken))
        out.append("}")
        number += 1
    return out


def destinations(own):
    """What a placement with rows `own` can give, as a prerequisite names it: its flows,
    `nothing`, the variants of the experiments its rows draw, and `no match` without `everyone`."""
    out = []
    for row in own:
        out.extend(target for target in row.destinations if target not in out)
        if row.experiment:
            name, variants = row.experiment
            out.extend(item for item in ("%s.v%d" % (name, variant) for variant in range(variants)) if item not in out)
    if not any(row.audience == "everyone" for row in own):
        out.append("no match")
    return out


def prerequisites(rng, placed, segments, split_row, experiment_row):
    """Adds rows to the placements of `placed` whose audiences hold prerequisites, each on
    placements before its own; returns the lines declaring their segments and audiences.

    A segment `dK` reads placements before some pN only; its level is the last placement it reads
    (through other `d` segments too), and an audience `bK` has the level of its segments. A row of
    pN may have an audience of a level below N only, so placement pN depends on p0 to p(N-1) and
    the dependencies cannot form a cycle."""
    lines = []
    levels = {}      # segment -> the last placement it reads
    audiences = {}   # audience -> its level

    def condition(limit):
        """`placement pM -> DEST` for some M below `limit`, and M."""
        number = rng.randrange(limit)
        choices = destinations(placed[number])
        if len(choices) == 1 or rng.random() < 0.55:
            target = rng.choice(choices)
        else:
            target = "[" + ", ".join(rng.sample(choices, rng.randint(1 if rng.random() < 0.1 else 2, min(3, len(choices))))) + "]"
        return "placement p%d -> %s" % (number, target), number

    def segment(limit):
        """A new segment over prerequisites of placements below `limit`; its name."""
        text, level = condition(limit)
        earlier = [name for name, at in levels.items() if at < limit]
        roll = rng.random()
        if roll < 0.15:
            text = "not " + text
        elif roll < 0.25:
            text = "not (%s)" % text
        elif roll < 0.45:
            other, at = condition(limit)
            level = max(level, at)
            text = "%s or %s" % ((text, other) if rng.random() < 0.5 else (other, text))
        elif roll < 0.6:
            other = rng.choice([rng.choice(segments), comparison(rng, True)])
            text = "(%s or not %s)" % (other, text) if rng.random() < 0.4 else "(%s or %s)" % (text, other)
        elif roll < 0.7:
            text = "%s and %s" % (comparison(rng, True), text)
        elif roll < 0.85 and earlier:
            other = rng.choice(earlier)
            level = max(level, levels[other])
            text = "(not %s or %s)" % (other, text) if rng.random() < 0.5 else "%s and not %s" % (other, text)
        name = "d%d" % len(levels)
        lines.append("segment %s = %s" % (name, text))
        levels[name] = level
        return name

    def audience(limit):
        """An audience of a level below `limit`: one made before, or a new one over one or two
        new segments (and now and then a segment without prerequisites)."""
        earlier = [name for name, at in audiences.items() if at < limit]
        if earlier and rng.random() < 0.3:
            return rng.choice(earlier)
        used = [segment(limit) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.3:
            used.append(rng.choice(segments))
        name = "b%d" % len(audiences)
        joined = (" and " if rng.random() < 0.5 else " or ").join(("not " if rng.random() < 0.2 else "") + item for item in used)
        lines.append("audience %s = %s" % (name, joined))
        audiences[name] = max(levels.get(item, -1) for item in used)
        return name

    for number in range(1, len(placed)):
        own = placed[number]
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            name = audience(number)
            if any(row.audience == name for row in own):
                continue
            roll = rng.random()
            if roll < 0.15:
                row = split_row(name)
            elif roll < 0.3 and experiment_row:
                row = experiment_row(name)
            elif roll < 0.45:
                row = Row(name, ["  %s%s -> nothing" % ("always " if roll < 0.38 else "", name)], ["nothing"])
            else:
                target = 'flow "f_%s_%d"' % (name, number)
                row = Row(name, ["  %s%s -> %s" % ("always " if roll > 0.9 else "", name, target)], [target])
            last = len(own) - (1 if own and own[-1].audience == "everyone" else 0)
            own.insert(rng.randint(0, last), row)
    return lines


def write_wide(directory, seed):
    """One rule set of 20 placements over 20 audiences, each placement with 20 rows and most
    with `everyone` after them, and no rules that depend on rules (its query's planning time is
    a yardstick kept from before); returns its path."""
    path = os.path.join(directory, "wide-%d.rules" % seed)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(rule_set(seed * 1000 + 999, placements=20, audience_count=20, rows=20, dependent=False))
    return path


def write(directory, count, seed):
    """Writes `count` rule sets of 10 placements each under `directory`; returns their paths."""
    paths = []
    for index in range(count):
        path = os.path.join(directory, "random-%d.rules" % index)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(rule_set(seed * 1000 + index))
        paths.append(path)
    return paths


# Patterns of `matches` for the random rule sets, and values for the profiles, some of
# which each pattern accepts. A pattern is a tree of the language's constructs, printed as the
# rules write it; `sample` draws a string it accepts, which `values` mutates into near misses.
# Atoms: (as written, the scalars it accepts as a list, or None for "any").
ATOMS = [
    ("a", ["a"]), ("b", ["b"]), ("x", ["x"]), ("Z", ["Z"]), ("é", ["é"]), ("É", ["É"]), ("ß", ["ß"]), ("Σ", ["Σ"]),
    ("ς", ["ς"]), ("σ", ["σ"]), ("İ", ["İ"]), ("i", ["i"]), ("😀", ["😀"]), ("\\u{1F600}", ["😀"]), ("e\u0301", ["e\u0301"]),
    ("\\u{301}", ["\u0301"]), (" ", [" "]), ("\\u{A0}", ["\u00a0"]), ("\\u{3000}", ["\u3000"]), ("\\u{A}", ["\n"]),
    ("\\u{9}", ["\t"]), ("\\u{D}", ["\r"]), ("\\u{2028}", ["\u2028"]), ("\\u{41}", ["A"]), ("%", ["%"]), ("_", ["_"]),
    ("'", ["'"]), ('"', ['"']), ("#", ["#"]), ("&", ["&"]), ("~", ["~"]), (",", [","]), ("@", ["@"]),
    ("\\\\", ["\\"]), ("\\/", ["/"]), ("\\.", ["."]), ("\\[", ["["]), ("\\]", ["]"]), ("\\(", ["("]), ("\\)", [")"]),
    ("\\{", ["{"]), ("\\}", ["}"]), ("\\*", ["*"]), ("\\+", ["+"]), ("\\?", ["?"]), ("\\|", ["|"]), ("\\^", ["^"]),
    ("\\$", ["$"]), ("\\-", ["-"]), ("-", ["-"]),
    ("\\d", list("0123456789")), ("\\w", list("aZ_09")), (".", None),
    ("[a-c]", list("abc")), ("[^a-c]", list("dA-\né😀")), ("[-a]", list("-a")), ("[a-]", list("a-")), ("[^-]", list("a-")),
    ("[\\]\\\\]", list("]\\")), ("[\\--\\/]", list("-./")), ("[^\\u{A}]", list("a\r ")), ("[é\\u{1F600}x]", ["é", "😀", "x"]),
    ("[A-Z]", list("AZaz")), ("[0-9\\.]", list("09.")), ("[\\d_]", list("5_")), ("[^\\w]", list("-é ")),
    ("[ÉΣİ]", ["É", "Σ", "İ", "é", "σ", "ς"]), ("[&&a]", list("&a")), ("[\\[\\^]", list("[^")), ("[\\u{0}-\\u{2F}]", list(" -/\n")),
    ("[😀\\u{1F64F}]", ["😀", "🙏"]), ("[$\\-]", list("$-")), ("[.*+?]", list(".*+?")),
]
ANY = ["a", "\n", "😀", "é", "-", "\\", " "]


def pattern_tree(rng, depth=0):
    """A random pattern tree: ("atom", text, accepted) | ("seq", items) | ("alt", branches) |
    ("rep", node, low, high or None, written)."""
    items = []
    for _ in range(rng.randint(1, 4 if depth == 0 else 3)):
        roll = rng.random()
        if depth < 2 and roll < 0.2:
            branches = [pattern_tree(rng, depth + 1) for _ in range(rng.randint(1, 3))]
            if rng.random() < 0.25:
                branches.insert(rng.randint(0, len(branches)), ("seq", []))
            node = ("alt", branches)
        else:
            text, accepted = rng.choice(ATOMS)
            node = ("atom", text, accepted)
        items.append(quantified(rng, node))
    return ("seq", items)


def unbounded(node):
    if node[0] == "atom":
        return False
    if node[0] == "rep":
        return node[3] is None or unbounded(node[1])
    return any(unbounded(item) for item in node[1])


def quantified(rng, node):
    roll = rng.random()
    if roll < 0.55:
        return node
    # A count that repeats may not apply to a group that repeats without bound. A group repeats
    # at most three times here: Java backtracks, and a long count of a group whose branches
    # overlap (`(a|ab)*`, `([a-z]{1,9}){1,9}`) takes it exponential time on a value that fails.
    if unbounded(node):
        choices = ["?", "{0,1}"]
    elif node[0] == "alt":
        choices = ["?", "{0,1}", "{2}", "{0,2}", "{1,3}"]
    else:
        choices = ["*", "+", "?", "{2}", "{0}", "{1,}", "{0,2}", "{1,3}", "{2,}", "{3,5}"]
    written = rng.choice(choices)
    low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}.get(written, (None, None))
    if low is None:
        parts = written[1:-1].split(",")
        low = int(parts[0])
        high = low if len(parts) == 1 else (int(parts[1]) if parts[1] else None)
    return ("rep", node, low, high, written)


def written(node, top=True):
    kind = node[0]
    if kind == "atom":
        return node[1]
    if kind == "seq":
        return "".join(written(item, False) for item in node[1])
    if kind == "alt":
        return "(" + "|".join(written(branch, False) for branch in node[1]) + ")"
    inner = node[1]
    text = written(inner, False)
    if inner[0] == "atom" and len(inner[2] or ["."]) == 1 and len(inner[2][0] if inner[2] else ".") > 1 and not inner[1].startswith("\\"):
        text = "(" + text + ")"  # a literal of two scalars (`e` and a combining mark)
    return text + node[4]


def sample(rng, node):
    kind = node[0]
    if kind == "atom":
        return rng.choice(node[2] or ANY)
    if kind == "seq":
        return "".join(sample(rng, item) for item in node[1])
    if kind == "alt":
        return sample(rng, rng.choice(node[1]))
    _, inner, low, high, _ = node
    return "".join(sample(rng, inner) for _ in range(rng.randint(low, min(high if high is not None else low + 2, low + 2))))


def pattern_text(node):
    """The pattern as written; sometimes with the accepted `^` and `$` around it."""
    return written(node)


def mutated(rng, text):
    roll = rng.random()
    chars = list(text)
    if roll < 0.3 and chars:
        del chars[rng.randrange(len(chars))]
    elif roll < 0.6:
        chars.insert(rng.randint(0, len(chars)), rng.choice(ANY + ["A", "0", "]"]))
    elif roll < 0.8:
        return text.upper()
    elif chars:
        chars[rng.randrange(len(chars))] = rng.choice(ANY)
    return "".join(chars)


def make_patterns(count=80, seed=12):
    """[(written pattern, [values])]: each pattern with values it accepts (some wrapped in white
    space that trimming removes, some in upper case) and near misses."""
    rng = random.Random(seed)
    out = []
    for index in range(count):
        tree = pattern_tree(rng)
        text = written(tree)
        if index % 7 == 0:
            text = "^" + text
        if index % 5 == 0:
            text = text + "$"
        values = [sample(rng, tree) for _ in range(3)]
        values += [mutated(rng, value) for value in values[:2]]
        values = [rng.choice(["", "", " ", "\u3000", "\n"]) + value + rng.choice(["", "", " ", "\t", "\u2028"]) for value in values]
        out.append((text, values))
    return out


PATTERNS = make_patterns()


def pattern_values():
    """Every value of `PATTERNS` that a profile can store (1–50 characters after trimming)."""
    import typed_layout
    return [value for _, values in PATTERNS for value in values if 0 < len(value.strip(typed_layout.WHITE_SPACE)) <= 40]


def pattern_comparison(rng):
    text, _ = rng.choice(PATTERNS)
    subject = rng.choice(["code", "code", "profile.last_name"])
    return "%s matches /%s/%s" % (subject, text, " ignoring case" if rng.random() < 0.3 else "")
