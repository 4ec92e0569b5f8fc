"""The typed table of `targeting sql --layout columns`, for the agreement tests.

`schema` reads the columns from `targeting sql --schema` (for a diff, of both rule sets: a
column either reads, text where their kinds differ, as the query's table has it); `row` turns
a JSON profile into that table's row (the `history` column holding the profile's
`history` as JSON text), or None when the table cannot hold what the profile says (a number in a text field, an array with a non-string member, …): such a profile means
something no typed row means, so it is left out of the comparison.
"""

import json
import math
import re
import subprocess

# The white space trimmed from custom attribute keys and string values.
WHITE_SPACE = "".join(map(chr, [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
                                0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]))
SET_FIELDS = {"access_levels"}


def schema(binary, rule_paths, dialect, now):
    """[(name, kind)] with kind `text`, `number` or `bool`, `id` first."""
    columns = {}
    order = []
    for rules in rule_paths:
        result = subprocess.run([binary, "sql", "--schema", "--dialect", dialect, "--rules", rules, "--now", now],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit("error: targeting sql --schema failed: " + result.stderr)
        for line in result.stdout.splitlines()[1:-1]:
            match = re.fullmatch(r'\s*("(?:[^"]|"")*"|`(?:[^`]|``)*`|\w+) (.+?),?', line)
            if not match:
                raise SystemExit("error: unexpected --schema line %r" % line)
            name, kind = match.group(1), {"TEXT": "text", "STRING": "text", "DOUBLE PRECISION": "number", "DOUBLE": "number",
                                           "BOOLEAN": "bool"}[match.group(2)]
            if name[0] in "\"`":
                name = name[1:-1].replace(name[0] * 2, name[0])
            if name not in columns:
                order.append(name)
                columns[name] = kind
            elif columns[name] != kind:
                columns[name] = "text" if "text" in (kind, columns[name]) else "number"
    if not order or order[0] != "id":
        raise SystemExit("error: --schema does not start with `id`")
    return [(name, columns[name]) for name in order]


class Unrepresentable(Exception):
    pass


def _custom(profile):
    attributes = profile.get("custom_attributes")
    if not isinstance(attributes, dict):
        return {}
    return {key.strip(WHITE_SPACE): value for key, value in attributes.items()}


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Unrepresentable()
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def _value(name, kind, profile, custom):
    if name.startswith("ca_"):
        value = custom.get(name[3:])
        if value is None:
            return None
        if kind == "text":
            if isinstance(value, str):
                return value
            if isinstance(value, list) and all(isinstance(item, str) for item in value):
                return ",".join(value)
            raise Unrepresentable()
        if kind == "number":
            return float(value) if isinstance(value, bool) else _number(value)
        if isinstance(value, bool):
            return value
        number = _number(value)
        if number not in (0.0, 1.0):
            raise Unrepresentable()
        return number == 1.0
    value = profile.get(name)
    if value is None:
        return None
    if name == "history":
        # The history's JSON as the profile holds it (`{}` included).
        return json.dumps(value, ensure_ascii=False)
    if kind == "number":
        return _number(value)
    if name in SET_FIELDS:
        if not isinstance(value, list) or not all(isinstance(item, str) and "," not in item for item in value) or value == [""]:
            raise Unrepresentable()
        return ",".join(value)
    if not isinstance(value, str):
        raise Unrepresentable()
    return value


def row(profile, columns):
    """The typed row of `profile` (a dict), a list in the order of `columns`, or None."""
    if not isinstance(profile, dict):
        return None
    custom = _custom(profile)
    try:
        return [_value(name, kind, profile, custom) for name, kind in columns]
    except Unrepresentable:
        return None


def representable(lines, columns):
    """The JSON lines whose profiles the typed table can hold."""
    kept = []
    for line in lines:
        try:
            profile = json.loads(line)
        except ValueError:
            continue
        if row(profile, columns) is not None:
            kept.append(line)
    return kept


def quoted(name, dialect):
    if re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        return name
    mark = '"' if dialect == "postgres" else "`"
    return mark + name.replace(mark, mark * 2) + mark


def postgres_table(columns, table="profiles"):
    """A temporary PostgreSQL table for `columns`."""
    types = {"text": "TEXT", "number": "DOUBLE PRECISION", "bool": "BOOLEAN"}
    return "CREATE TEMP TABLE %s (%s);\n" % (table, ", ".join("%s %s" % (quoted(name, "postgres"), types[kind]) for name, kind in columns))


def csv_line(values):
    """One row for PostgreSQL's `COPY … (FORMAT csv)`: NULL unquoted and empty, text quoted."""
    def field(value):
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return "Infinity" if value == math.inf else "-Infinity" if value == -math.inf else repr(value)
        return '"' + value.replace('"', '""') + '"'
    return ",".join(field(value) for value in values)
