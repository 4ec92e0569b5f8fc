"""The typed table of `targeting sql --layout columns`, for the agreement tests: an independent
reading of the table's contract.

`schema` reads the columns from `targeting sql --schema` (for a diff, of both rule sets: a
column either reads, its kinds merged as the query's table merges them); `row` turns a JSON
profile into that table's row (dates and instants as Unix ms, sets as lists, the `history`
as JSON text), or None when the table cannot hold what the profile says (a number in a text
field, an array with a non-string member, …); `representable` removes such fields from a
profile, so that `resolve` and the query read the same profile.
"""

import datetime
import json
import math
import re
import subprocess

# The white space trimmed from custom attribute keys and string values.
WHITE_SPACE = "".join(map(chr, [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
                                0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000]))
SET_FIELDS = {"access_levels"}


TYPES = {"TEXT": "text", "STRING": "text", "VARCHAR": "text", "Nullable(String)": "text",
         "DOUBLE PRECISION": "number", "DOUBLE": "number", "Nullable(Float64)": "number",
         "BOOLEAN": "bool", "Nullable(Bool)": "bool",
         "DATE": "date", "Nullable(Date32)": "date",
         "TIMESTAMPTZ": "instant", "TIMESTAMP": "instant", "TIMESTAMP WITH TIME ZONE": "instant",
         "Nullable(DateTime64(3, 'UTC'))": "instant",
         "TEXT[]": "set", "ARRAY<STRING>": "set", "VARCHAR[]": "set", "Array(String)": "set",
         "JSONB": "json", "JSON": "json"}


def schema(binary, rule_paths, dialect, now):
    """[(name, kind)] with kind `text`, `number`, `bool`, `date`, `instant`, `set` or `json`
    (the history), `id` first."""
    columns = {}
    order = []
    for rules in rule_paths:
        result = subprocess.run([binary, "sql", "--schema", "--dialect", dialect, "--rules", rules, "--now", now],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit("error: targeting sql --schema failed: " + result.stderr)
        for line in result.stdout.splitlines()[1:]:
            if line.startswith(")"):
                break
            match = re.fullmatch(r'\s*("(?:[^"]|"")*"|`(?:[^`]|``)*`|\w+) (.+?),?', line)
            if not match:
                raise SystemExit("error: unexpected --schema line %r" % line)
            name, kind = match.group(1), TYPES[match.group(2)]
            if name[0] in "\"`":
                name = name[1:-1].replace(name[0] * 2, name[0])
            if name == "history":
                kind = "json"
            if name not in columns:
                order.append(name)
                columns[name] = kind
            elif columns[name] != kind:
                # As `SQLTableSchema.merge`: a number with a bool or an instant is a number, else text.
                numeric = {"number", "bool", "instant"}
                columns[name] = "number" if {kind, columns[name]} <= numeric else "text"
    if not order or order[0] != "id":
        raise SystemExit("error: --schema does not start with `id`")
    return [(name, columns[name]) for name in order]


class Unrepresentable(Exception):
    pass


DAY = 86_400_000
# Years 1 to 9999: what PostgreSQL's, Spark's and DuckDB's dates hold.
FIRST_MS, LAST_MS = -62_135_596_800_000, 253_402_300_799_999
DATE_PATTERN = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:[.]([0-9]+))?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2})))?")


def parse_instant(text):
    """Unix ms of a date or RFC 3339 instant, as `Timestamp.parse` reads it, or None."""
    match = DATE_PATTERN.fullmatch(text)
    if not match:
        return None
    year, month, day = int(match.group(1)), int(match.group(2)), int(match.group(3))
    hour, minute, second = (int(match.group(i) or 0) for i in (4, 5, 6))
    fraction = match.group(7) or ""
    millis = int((fraction + "000")[:3]) if fraction else 0
    sign = -1 if match.group(8) == "-" else 1
    offset_hour, offset_minute = int(match.group(9) or 0), int(match.group(10) or 0)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    lengths = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= month <= 12 and 1 <= day <= lengths[month - 1] and hour <= 23 and minute <= 59 and second <= 59
            and offset_hour <= 23 and offset_minute <= 59):
        return None
    days = days_from_civil(year, month, day)
    seconds = hour * 3600 + minute * 60 + second - sign * (offset_hour * 60 + offset_minute) * 60
    return days * DAY + seconds * 1000 + millis


def days_from_civil(year, month, day):
    y = year - (1 if month <= 2 else 0)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


# What the engine under test holds: its instants, and whether an empty set differs from an
# unset one (ClickHouse: years 1900 to 2299, and no NULL array, so an empty set is unset).
ENGINE = {"range": (FIRST_MS, LAST_MS), "empty_sets": True}


def for_clickhouse():
    ENGINE["range"] = (-2_208_988_800_000, 10_413_791_999_999)
    ENGINE["empty_sets"] = False


def in_range(ms):
    if ms is None or not ENGINE["range"][0] <= ms <= ENGINE["range"][1]:
        raise Unrepresentable()
    return ms


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


def _custom_text(value):
    """A custom value's text as the rules read it (an array of strings joined), trimmed; None
    when empty. Raises for a number or bool."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        text = ",".join(value)
    else:
        raise Unrepresentable()
    return text.strip(WHITE_SPACE) or None


def _value(name, kind, profile, custom):
    """What the typed column `name` holds for `profile`: text, a float, a bool, Unix ms for a
    date (midnight) or an instant, a list for a set, JSON text for the history; None for unset."""
    if name.startswith("ca_"):
        key = CUSTOM_KEYS.get(name)
        value = custom.get(key) if key is not None else None
        if value is None:
            return None
        if kind == "text":
            return _custom_text(value)
        if kind == "set":
            text = _custom_text(value)
            return None if text is None else text.split(",")
        if kind == "number":
            return float(value) if isinstance(value, bool) else _number(value)
        if kind == "instant":
            number = float(value) if isinstance(value, bool) else _number(value)
            if not (math.isfinite(number) and abs(number) < 9.0e15):
                raise Unrepresentable()
            return in_range(math.floor(number))
        if isinstance(value, bool):
            return value
        number = _number(value)
        if number not in (0.0, 1.0):
            raise Unrepresentable()
        return number == 1.0
    value = profile.get(name)
    if value is None:
        return None
    if kind == "json":
        # The history's JSON as the profile holds it (`{}` included).
        return json.dumps(value, ensure_ascii=False)
    if kind == "number":
        return _number(value)
    if kind == "set":
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise Unrepresentable()
        if not value and not ENGINE["empty_sets"]:
            raise Unrepresentable()
        return list(value)
    if not isinstance(value, str):
        raise Unrepresentable()
    if kind == "date":
        ms = in_range(parse_instant(value))
        if ms % DAY:
            raise Unrepresentable()  # a birthday with a time of day: a date column holds its day only
        return ms
    if kind == "instant":
        return in_range(parse_instant(value))
    return value


# Each custom column's key: filled by `row` from the profile's keys (`ca_` and the key with
# characters outside [A-Za-z0-9_] made `_`, as `targeting sql --schema` names it).
CUSTOM_KEYS = {}


def column_name(key):
    return "ca_" + re.sub(r"[^A-Za-z0-9_]", "_", key)


def row(profile, columns):
    """The typed row of `profile` (a dict), a list in the order of `columns`, or None."""
    if not isinstance(profile, dict):
        return None
    custom = _custom(profile)
    CUSTOM_KEYS.clear()
    for key in custom:
        if column_name(key) in CUSTOM_KEYS:
            return None  # two keys in one column: which one the rules read is not known here
        CUSTOM_KEYS[column_name(key)] = key
    try:
        return [_value(name, kind, profile, custom) for name, kind in columns]
    except Unrepresentable:
        return None


def representable(lines, columns):
    """The JSON lines, each made a profile the typed table can hold: a field whose value the
    table cannot hold as the rules read it (a number in a text field, an unparsable date, a
    birthday with a time of day, …) is removed from the profile, so that `resolve` and the
    query read the same profile. A line that is no object, or has two custom keys in one
    column, is left out."""
    kept = []
    for line in lines:
        try:
            profile = json.loads(line)
        except ValueError:
            continue
        if not isinstance(profile, dict):
            continue
        changed = False
        for name, kind in columns:
            custom = _custom(profile)
            CUSTOM_KEYS.clear()
            clash = False
            for key in custom:
                clash = clash or column_name(key) in CUSTOM_KEYS
                CUSTOM_KEYS[column_name(key)] = key
            if clash:
                profile = None
                break
            try:
                _value(name, kind, profile, custom)
            except Unrepresentable:
                changed = True
                if name.startswith("ca_"):
                    key = CUSTOM_KEYS[name]
                    profile["custom_attributes"] = {k: v for k, v in profile["custom_attributes"].items() if k.strip(WHITE_SPACE) != key}
                else:
                    del profile[name]
        if profile is None or row(profile, columns) is None:
            continue
        kept.append(json.dumps(profile, ensure_ascii=False) if changed else line)
    return kept


def quoted(name, dialect):
    if re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        return name
    mark = '`' if dialect == "spark" else '"'
    return mark + name.replace(mark, mark * 2) + mark


def postgres_table(columns, table="profiles"):
    """A temporary PostgreSQL table for `columns`."""
    types = {"text": "TEXT", "number": "DOUBLE PRECISION", "bool": "BOOLEAN", "date": "DATE", "instant": "TIMESTAMPTZ",
             "set": "TEXT[]", "json": "JSONB"}
    return "CREATE TEMP TABLE %s (%s);\n" % (table, ", ".join("%s %s" % (quoted(name, "postgres"), types[kind]) for name, kind in columns))


def iso(ms, kind):
    """Unix ms as a date (`YYYY-MM-DD`) or an instant (`YYYY-MM-DDTHH:MM:SS.fffZ`)."""
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms)
    if kind == "date":
        return "%04d-%02d-%02d" % (moment.year, moment.month, moment.day)
    return "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ" % (moment.year, moment.month, moment.day, moment.hour, moment.minute,
                                                     moment.second, moment.microsecond // 1000)


def python_value(value, kind):
    """A typed value as Python's driver types for the engines: `datetime.date`, an aware
    `datetime.datetime` (UTC), a list, a float, a bool, a str."""
    if value is None:
        return None
    if kind == "date":
        return (datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=value)).date()
    if kind == "instant":
        return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=value)
    return value


def csv_line(values, columns):
    """One row for PostgreSQL's `COPY … (FORMAT csv)`: NULL unquoted and empty, text quoted."""
    def text(value):
        return '"' + value.replace('"', '""') + '"'

    def field(value, kind):
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, float):
            return "Infinity" if value == math.inf else "-Infinity" if value == -math.inf else repr(value)
        if kind == "date":
            return iso(value, "date")
        if kind == "instant":
            return iso(value, "instant")
        if kind == "set":
            return text("{" + ",".join('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' for item in value) + "}")
        return text(value)
    return ",".join(field(value, kind) for value, (_, kind) in zip(values, columns))


SPARK_TYPES = {"text": "string", "number": "double", "bool": "boolean", "date": "date", "instant": "timestamp",
               "set": "array<string>", "json": "string"}


def spark_rows(lines, columns):
    """(the rows of `lines` as tuples of Spark's Python types, the DDL schema string)."""
    schema = ", ".join("%s %s" % (quoted(name, "spark"), SPARK_TYPES[kind]) for name, kind in columns)
    rows = [tuple(python_value(value, kind) for value, (_, kind) in zip(row(json.loads(line), columns), columns)) for line in lines]
    return rows, schema


def sql_string(text):
    """A SQL string literal (quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"
