#!/usr/bin/env python3
"""Agreement test: `targeting sql --dialect postgres` against `targeting resolve`.

Generates profiles deterministically (messy data included), loads them into a temporary table
`profiles(profile jsonb)` on a running PostgreSQL server through psql, and for every placement
of each rule set compares the query's rows with `resolve --format json`, per profile id.

A profile without `id` whose deciding row is a split or an experiment keyed on `profile.id` is
rejected by `resolve` (its line is reported on stderr); a query cannot reject a row, so such
profiles are left out of the table for that placement. Rule sets with experiments or a holdout
(with experiments or a holdout) compare `experiment`, `variant` and `held_out` too, and run as `sql --all` as well,
where the placements share each profile's draws. Python 3 standard library only; starts no
server.
"""

import argparse
import collections
import datetime
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import random_rules  # noqa: E402
import typed_layout  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NOW = "2026-11-29T12:00:00Z"
NOW_MS = 1795953600000  # NOW
DAY = 86_400_000

STRINGS = ["low", "mid", "high", " low ", "HIGH", "High", "", "  ", "\tmid\n", "\u00a0high\u3000", 5, True, ["low"], [], None,
           "beginner", "amateur", "pro", "PRO", " pro",
           # Arrays are joined, then trimmed as a string is.
           [" low "], ["\u00a0mid", ""], ["  "]]
NICKS = ["o'brien", "Al\\b", "Al\\bert", "Albert", "ÉCOLE primaire", "une école", "Straße 5", "STRASSE", "FOÖR", "föör",
         "ÄLPHA", "älpha", "BETA", "BOB", "bob", "x%_", "x%", "100%_", "ΟΔΟΣ", "İstanbul", " padded ", "o'b", "al", "",
         "Ǆemal", "ﬁne", 7, ["Al", "x"], "ΟΔΟΣ ΚΑΙ", "Σ", "ΑΣ.", "ΑΣ.Α", "ΑΣΑ", "οδοσ", "Α\u0301Σ", "ΑΣ'Α", "1Σ"]
NUMBERS = [10, 10.0, 5.5, 5.4999, 0, -0.0, -3, -3.0001, 100, 100.5, 1, 2.5, 3, 20, 20.000001, "10", " 10", True, False,
           1e2, 2.50, 1e-400, 12345678901234567890, 0.1, -1e300, None]
BOOLS = [True, False, 1, 0, 2, "true", 1.0, -1, None, "1"]
DATES = [NOW_MS, NOW_MS + 5 * DAY, NOW_MS + 30 * DAY, NOW_MS + 30 * DAY + 1, NOW_MS - 7 * DAY, NOW_MS - 7 * DAY - 1,
         1767225600000, 1767225600000.7, 1780223400500, 1780223400499, "2026-01-01", 9.1e15, -5, True, None, 0]
VERSIONS = ["2.0", "2", "v2.0.0", "2.0.0-rc.1", "2.0.0-rc.0", "2.0.0-rc.1.0", "1.10.0-alpha.beta", "1.10.0-alpha.1",
            "1.10.0-alpha", "1.10.0-alpha.Beta", "2.0.0-alpha.10", "2.0.0-alpha.9", "2.0.0-alpha.a", "10.0.0",
            "9.99.99", "1.2.3-beta.2", "1.2.3-beta.10", "1.2.3-beta", "3.0.0", "3.0.0+build.7", "1.0.0", "2.0.0-beta.11",
            "3", "v1.2", "1.02.3", "4.2.0.1", "V4", "", "1.0.0-01", "99999999999999999999.0.0", "1.0.0-x-y.-",
            "2.0.0-rc.1+b.2", "v", "1..2", "1.0.0-", "1.0.0+", " 2.0", 2.0, None, "4.2.0", "4.2", "4.2.0-beta.11",
            "4.1.99", "17.0.0-beta.1", "17.0.0-beta.2", "17.0.0-beta.10", "17", "17.4.0", "17.4.1", "15", "14.9",
            "17.0.0-beta", "17.0.0-alpha.2"]
SETS = ["a,b", "a", "b,c", "Ünï", "ünï", "x y", "a, b", "A,B", "", ["a", "b"], ["x y", "c"], [], 5, ["Ünï"], "c,,a",
        [" a", "b "], ["\u3000a", "b\u2028"], [" " + "a" * 24, "b" * 24 + " "], [" " + "a" * 25, "b" * 24 + " "], ["\u001fa"], [""], ["", ""], "A", True, None, "sports,music", ["sports"], "music"]
BIRTHDAYS = ["2000-02-29", "2008-11-29", "2008-11-30", "2008-11-28", "2013-11-29", "2013-11-30", "1996-11-29T23:30:00-05:00",
             "1996-11-30T01:00:00+02:00", "2026-02-30", "yesterday", 19900101, None, "1990-13-01", "0000-01-01",
             "1990-06-15", "2004-02-29", "2008-02-29", "1999-12-31T23:59:59.999999Z", "2026-11-29", "2030-01-01", "1990-6-15",
             "1990-06-15 ", "1990-06-15t10:00:00z", "2012-02-29T12:00:00Z", "1900-02-29", "2000-02-30",
             "garbage", True, ["1990-06-15"], {"y": 1990}, 0,
             # Offsets that move the UTC calendar date across a month, a year, or onto or off 29 February.
             "2000-02-28T23:30:00-01:00", "2001-01-01T00:30:00+01:00", "1999-12-31T23:00:00-01:00", "2004-03-01T00:10:00+00:30",
             "0000-01-01T00:00:00+00:01", "2008-11-29T23:59:00-00:01", "2008-11-30T00:00:59+00:01", "2003-02-28T23:00:00-02:00",
             "2008-11-28T23:59:59.999-00:01", "2007-02-28T22:00:00-02:00",
             # The common forms with a separator, a letter or a non-ASCII digit where a digit belongs.
             "199--06-15", "1990-0--15", "1990-06-1-", "1990-06-1Z", "1990-0\u0661-15", "\uff11990-06-15"]
INSTANTS = ["2026-11-22T12:00:00Z", "2026-11-22T11:59:59.999Z", "2026-11-29T12:00:00Z", "2026-11-29T12:00:00.000000001Z",
            "2026-11-28T12:00:00.5Z", "2026-11-28T12:00:00.123456789+00:00", "2026-11-29t06:00:00z", "2026-11-29T17:30:00+05:30",
            "2026-11-29T12:00:00-00:01", "2026-12-01T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29 12:00:00Z",
            "2026-11-29T12:00:00", "2026-11-29", "2026-02-30", "yesterday", 1796040000000, None, "2026-01-01",
            "2026-06-30T23:59:59.999Z", "2026-06-30T23:59:59.9991Z", "2026-11-01T00:00:00+01:00", "2026-10-31T23:59:59Z",
            "2026-11-29T13:00:00Z", "2026-11-29T13:00:00.001Z", "2026-11-29T12:00:60Z", "2026-11-29T12:00:00+24:00",
            "2026-11-29T12:00:00.Z", "2024-02-29T00:00:00Z", "2025-02-29T00:00:00Z", "0000-03-01T00:00:00Z", True,
            "2026-11-29T12:0::00Z", "2026-11-29T1T:00:00Z", "2026-11-2-T12:00:00Z", "2026-11-29T12:00:0ZZ",
            "2026-11-29T12:00:00.1.3Z", "2026-11-29T12:00:00.12ZZ", "2026-11-29T12:00:00.-12Z", "2026-11-29T12:00:00.\u0661\u0662\u0663Z"]
ACCESS = [["premium"], ["pro", "premium"], [], ["PREMIUM"], "premium", [1], None, ["premium", 1], ["pro"], ["Premium", "x"], ["ΑΣ", "x"], ["ΑΣΑ"]]
REVENUE = [9.99, 10, 0, 4.99, "4.99", -1, 1e-400, 0.1, 9.990000001, None, True]
COUNTRIES = ["US", "DE", "FR", "us", 5, None, "GB", " US", ""]
PLATFORMS = ["ios", "android", "IOS", None, 1]
GENDERS = ["f", "m", "o", "F", None]
EMAILS = ["A@GMAIL.COM", "x@gmail.com", "y@yahoo.com", 5, None, "@gmail.com"]
NAMES = ["john", "Jürgen", "jane", "İlker", "Ĵ", "Ann", None, ["j"]]
DEVICES = ["iPhone Pro", "pro", "iPad Pro Max", None, "PRO"]
ACCOUNTS = ["a%d" % number for number in range(40)] + [" a1 ", "\u00a0a2\u3000", ["a3"], ["a", "b"], [" "], "", "  ", 7, 0,
                                                 True, False, None, "~a4", "A1"]
# Built-in strings are not trimmed: " c1" and "" are values of their own.
CUSTOMER_IDS = ["c%d" % number for number in range(40)] + [" c1", "", "C1", 5, True, None, ["c1"], {"c": 1}, "~c2"]
# Values for `matches`: the hand-written ones of Tests/SQL/patterns.rules (non-ASCII
# letters in both cases, combining marks, inner line breaks and white space, `-`, `]`, `\`, `/`,
# emoji), then those of the random patterns (random_rules.PATTERNS), some of which each accepts.
# Custom values are trimmed; `profile.last_name`, a built-in string, keeps its ends (a final
# line break included).
PATTERN_VALUES = [
    "BF-1234", "bf-1234", "BF-123", "BF-12345", "Bf-0000", "bf-12a4", "pro_monthly", "plus_annual_v12", "pro_annual_v",
    "x@corp.example.com", "A.B-c@staff.example.com", "x@corp-example.com", "x@CORP.example.com",
    "a\\b", "a/b", "a.b", "a[b]c", "(x)", "{1}", "*+?", "a|b", "^$", "-", "--", "]", "]]", "\\", "/", "[-]", "a-z",
    "\\/.[](){}*+?|^$-", "\\/.[](){}*+?|^$", "é", "É", "e\u0301", "E\u0301", "école", "ÉCOLE", "Straße", "STRASSE",
    "ΟΔΟΣ", "οδος", "οδοσ", "Σ", "σ", "ς", "ΑΣΑ", "İstanbul", "i\u0307stanbul", "istanbul", "ISTANBUL", "ǅ", "ǆ", "Ǆ",
    "😀", "😀😀", "a😀b", "🙏", "👍🏽", "a\nb", "a\r\nb", "line\u2028sep", "a\u00a0b", "a\u3000b", "a\tb", "a b", "a  b",
    "x1", "x_", "xé", "x-", "123", "12", "007", "0", "a", "aa", "aaa", "aaaa", "aaaaa", "ab", "abab", "ababab", "ba",
    "abc", "A", "Z", "z", "_", "ẞ", "ß", "ﬁ", "Ω", "ω", "\u2126", " a\n\nb ", "\u00a0BF-1234\u3000",
] + random_rules.pattern_values()
RAW_PATTERN_VALUES = ["a", "A", "a\n", "a\n\n", " a", "a ", "\na", "BF-1234\n", "a\r", "\u00a0a", "😀\n", "", None, 5, ["a"]] + PATTERN_VALUES[:40] + [
    value for _, values in random_rules.PATTERNS for value in values[:2]]
CUSTOM = {
    "level": STRINGS, "nick": NICKS, "score": NUMBERS, "opted_in": BOOLS, "goal_date": DATES, "sdk": VERSIONS,
    "tags": SETS, "odd-key": STRINGS + NUMBERS, "flag": BOOLS, "visits": NUMBERS, "experience": STRINGS,
    "interests": SETS, "reminders": BOOLS, "weekly_hours": NUMBERS,
    # A `by KEY`: strings (trimmed, arrays joined) draw; a number, a boolean, an
    # empty or blank text and null do not enter.
    "account": ACCOUNTS,
    "code": PATTERN_VALUES + [5, True, ["ab", "c"], None],
}
BUILTIN = {
    "birthday": BIRTHDAYS, "installed_at": INSTANTS, "created_at": INSTANTS, "last_seen_at": INSTANTS,
    "subscription_expires_at": INSTANTS + ["2026-11-29T13:00:00Z"] * 3, "app_version": VERSIONS, "os_version": VERSIONS,
    "install_app_version": VERSIONS, "access_levels": ACCESS, "total_revenue_usd": REVENUE, "country": COUNTRIES,
    "platform": PLATFORMS, "gender": GENDERS, "email": EMAILS, "first_name": NAMES, "device": DEVICES,
    "customer_user_id": CUSTOMER_IDS, "last_name": RAW_PATTERN_VALUES,
}
SPACES = ["", "", "", " ", "\t", "\u00a0", "\u2003"]

# Histories: instants around the edges of the windows and sticky durations of
# Tests/SQL/history.rules (now, now - 30m, 12h, 1d, 3d, 7d and 30d, each exactly and one millisecond
# either side), written in every form an instant may take (fractions longer than milliseconds,
# offsets, lowercase `t` and `z`), repeated, out of order, and up to the 100 a placement keeps.
MINUTE, HOUR = 60_000, 3_600_000
HISTORY_EDGES = [0, 30 * MINUTE, 12 * HOUR, DAY, 3 * DAY, 7 * DAY, 30 * DAY]
HISTORY_OFFSETS = sorted({-edge + delta for edge in HISTORY_EDGES for delta in (-1, 0, 1)}
                         | {DAY, 2 * HOUR, -500, -DAY - 12 * HOUR, -DAY + 12 * HOUR + 500, -40 * DAY, -400 * DAY, -2 * DAY})
HISTORY_PLACEMENTS = ["main_paywall", "onboarding", "settings", "p0", "p1", "p2", "unknown_place"]
HISTORY_EXPERIMENTS = ["pricing", "layout", "ex0", "ex1", "ex2", "other"]
HISTORY_VARIANTS = ["control", "discount", "trial", "compact", "wide", "v0", "v1", "v2", "v3", "gone", "Control", " wide"]
# Instants the rules name, so that `==` and the date bounds meet equal values.
HISTORY_NAMED = [1795867200500, 1795348800000, 1795305600000, 1795953599999]


def instant_text(ms, rng):
    """`ms` as an RFC 3339 instant, in one of the forms `ProfileHistory.instant` reads."""
    offset = rng.choice([0, 0, 0, 0, 330, -1, 1439, -1439, 60, -300])
    local = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=ms + offset * MINUTE)
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    millis = ms % 1000
    roll = rng.random()
    if millis or roll < 0.2:
        fraction = "%03d" % millis
        if roll < 0.1:
            fraction += rng.choice(["0", "999", "123456"])  # truncated to the millisecond
        elif fraction.endswith("00") and roll < 0.6:
            fraction = fraction.rstrip("0") or "0"
        text += "." + fraction
    if rng.random() < 0.1:
        text = text.replace("T", "t")
    if offset:
        text += "%s%02d:%02d" % ("-" if offset < 0 else "+", abs(offset) // 60, abs(offset) % 60)
    else:
        text += "z" if rng.random() < 0.1 else "Z"
    return text


def history(rng):
    """A valid `history` value (or None for none)."""
    roll = rng.random()
    if roll < 0.03:
        return {}
    shown = {}
    for placement in rng.sample(HISTORY_PLACEMENTS, rng.randint(0, 4)):
        roll = rng.random()
        if roll < 0.1:
            shown[placement] = []
            continue
        if roll < 0.13:
            moments = [NOW_MS - index * HOUR for index in range(100)]
        else:
            moments = [NOW_MS + rng.choice(HISTORY_OFFSETS) if rng.random() < 0.85 else rng.choice(HISTORY_NAMED)
                       for _ in range(rng.choice([1, 1, 2, 2, 3, 4, 5, 7]))]
            if rng.random() < 0.3:
                moments += moments[:2]  # the same instant again, perhaps written another way
        rng.shuffle(moments)
        shown[placement] = [instant_text(moment, rng) for moment in moments]
    assigned = {}
    for experiment in rng.sample(HISTORY_EXPERIMENTS, rng.randint(0, 3)):
        at = NOW_MS + rng.choice(HISTORY_OFFSETS)
        fields = [("variant", rng.choice(HISTORY_VARIANTS)), ("at", instant_text(at, rng))]
        rng.shuffle(fields)
        assigned[experiment] = dict(fields)
    parts = [("shown", shown), ("assigned", assigned)]
    rng.shuffle(parts)
    return {key: value for key, value in parts if value or rng.random() < 0.2}


# Hand-written lines for what generated profiles cannot show: escapes in keys and values,
# characters JSON may carry unescaped, strings that look like other JSON values or start with
# `~` (the mark the Spark reader puts on strings), the same key nested, whitespace between
# tokens, long runs of escapes, and SQL comment and quote markers.
EDGE_LINES = [
    r'{"id":"e1","country":"\u0055\u0053","custom_attributes":{"level":"\u0070ro","nick":"\u00c9COLE primaire"}}',
    r'{"id":"e2","first_name":"\ud83d\ude00 smile","country":"~US","custom_attributes":{"nick":"~tilde","level":"~pro"}}',
    '{"id":"e3","device":"a\u2028b\u2029c","custom_attributes":{"nick":"line\u2028sep","level":"\u00a0pro\u3000"}}',
    r'{"id":"e4","total_revenue_usd":123456789012345678901234567890,"custom_attributes":{"score":1E1,"visits":-0,"weekly_hours":2.5e-3}}',
    r'{"id":"e5","first_name":"İlker","custom_attributes":{"nick":"İSTANBUL","experience":"PRO"}}',
    r'{"id":"e6","nested":{"country":"US","id":"x","custom_attributes":{"level":"pro"}},"country":"DE"}',
    r'{"id":"e7","country":"a\":\"b","custom_attributes":{"nick":"\"quoted\" \\ back","level":"pro\"}"}}',
    '{"id":"e8","device":"' + '\\\\\\"' * 5000 + '","custom_attributes":{"nick":"' + '\\\\' * 20 + '"}}',
    r'{ "id" : "e9" , "country" : "US" , "custom_attributes" : { "level" : "pro" , "tags" : [ "a" , "b" ] } }',
    r'{"id":"e10","app_version":17.4,"os_version":"17.4","install_app_version":"5","custom_attributes":{"sdk":"5.2"}}',
    r'{"id":"e11","access_levels":["premium","~x"],"custom_attributes":{"interests":["~a","b"],"tags":["true"]}}',
    r'{"id":"\u00fc-e12","platform":"ios"}',
    r'{"id":13,"country":"US"}',
    r'{"\u0069d":"e14","coun\u0074ry":"US","custom_attributes":{"lev\u0065l":"pro"}}',
    r'{"id":"e15","custom_attributes":{" level ":"pro","odd-key":"\t x \t","flag":true,"opted_in":false}}',
    r'{"id":"e16","country":"","custom_attributes":{"level":""}}',
    r'{"id":"e17","country":null,"custom_attributes":null,"access_levels":null}',
    r'{"id":"e18","custom_attributes":{"nick":"--comment /* x */ $$ \u0027q\u0027","level":"*/ pro"}}',
    r'{"id":"e19","first_name":"\\","last_name":"\\\\\"","country":"{\"a\":1}","device":"[1]","email":"true"}',
    r'{"id":"e20","country":["US"],"device":{"a":"b"},"total_revenue_usd":"9.99","birthday":true,"access_levels":"premium"}',
    r'{"id":"e21","custom_attributes":{"nick":"null","level":"[x]","tags":"a,b","score":"5"}}',
    r'{"id":"e22","customer_user_id":"c\/1","email":"x\/@gmail.com","custom_attributes":{"nick":"\b\f\n\r\t"}}',
    # Custom arrays trimmed after joining; derived fields of unparsable or mistyped dates not set.
    r'{"id":"e26","birthday":"2025-02-30","installed_at":"garbage","custom_attributes":{"tags":[" a","b\u3000"],"level":["\u00a0low"," "]}}',
    r'{"id":"e27","birthday":19900101,"installed_at":1796040000000,"custom_attributes":{"tags":["\u00a0 "],"interests":[" music","sports"]}}',
    r'{"id":"e28","birthday":"1990-06-15","installed_at":null,"custom_attributes":{"tags":[" ' + "a" * 24 + '","' + "b" * 24 + ' "]}}',
    # Keys of the draws: escaped, marked, trimmed, joined, empty, mistyped.
    r'{"id":"e29","customer_user_id":"\u0063\u0031","installed_at":"2026-11-28T00:00:00Z","custom_attributes":{"account":"\u0061\u0031","level":"low"}}',
    r'{"id":"e30","customer_user_id":"~c1","installed_at":"2026-11-28T00:00:00Z","custom_attributes":{"account":"~a1","level":"mid","nick":"~n"}}',
    r'{"id":"e31","customer_user_id":"","installed_at":"2026-11-28T00:00:00Z","custom_attributes":{"account":[" a1","b "],"level":"LOW"}}',
    r'{"id":"e32","customer_user_id":12,"installed_at":"2026-11-28T00:00:00Z","custom_attributes":{"account":12,"level":"low","nick":true}}',
    r'{"id":"e33","customer_user_id":null,"custom_attributes":{"account":"\u3000","score":5,"nick":["x"]}}',
    r'{"customer_user_id":"c1","installed_at":"2026-11-28T00:00:00Z","custom_attributes":{"account":"a1","level":"low","nick":"n"}}',
    r'{"id":"e34","customer_user_id":"c1 ","custom_attributes":{"account":"a\"1","score":9,"nick":"o\u0027b"}}',
    # Keys that need trimming, each form of white space at either end (a key's text in PostgreSQL
    # escapes some of them), beside keys and values that only look like it.
    r'{"id":"e35","custom_attributes":{"\tlevel":"pro","nick":" n"}}',
    r'{"id":"e36","custom_attributes":{"level\u3000":"mid","score":1}}',
    r'{"id":"e37","custom_attributes":{"\u0085nick":"x","level":"low"}}',
    r'{"id":"e38","custom_attributes":{"level\u000b":"pro"}}',
    r'{"id":"e39","custom_attributes":{"\fnick":"y","level\r":"mid"}}',
    r'{"id":"e40","custom_attributes":{"\nlevel":"low","nick":"a\\t"}}',
    r'{"id":"e41","custom_attributes":{"\u00a0level":"pro","nick\u2028":"w"}}',
    r'{"id":"e42","custom_attributes":{"level":"\\r","nick":"\t"}}',
]
# Values that the string literals of Tests/SQL/injection.rules match (and near misses that a
# literal read as a LIKE pattern or regular expression would match), under ids holding the
# same characters, so the injection rule set's rows actually match and its splits draw.
INJECTION_PROFILES = [
    {"id": "i1'--", "custom_attributes": {"nick": "o'brien", "note": "it's", "tags": ["o'k", "--"]}},
    {"id": "i2\"/*", "custom_attributes": {"nick": "say \"hi\"", "note": "say \"hi\"", "tags": "a\"b,/*,*/,--"}},
    {"id": "i3\\$$", "custom_attributes": {"nick": "'; DROP TABLE profiles; --", "note": "back\\slash"}},
    {"id": "i4*/", "custom_attributes": {"nick": "O'Brien", "note": "--dash", "tags": ["O'K"]}},
    {"id": "i5%_", "custom_attributes": {"nick": "Al\\b", "note": "/*open", "tags": ["x\ny"]}},
    {"id": "i6", "custom_attributes": {"nick": "x\\", "note": "close*/", "tags": ["c\\d", "$$"]}},
    {"id": "i7", "custom_attributes": {"nick": "\\'abc", "note": "$$dollar$$", "tags": ["%"]}},
    {"id": "i8", "custom_attributes": {"nick": "--x", "note": "100%", "tags": ["a", "_"]}},
    {"id": "i9", "custom_attributes": {"nick": "/*open", "note": "UNDER_SCORE", "tags": ["o'k"]}},
    {"id": "i10", "custom_attributes": {"nick": "close*/", "note": "a'); DROP TABLE profiles; --"}},
    {"id": "i11", "custom_attributes": {"nick": "two\nlines -- */ x", "note": "underXscore"}},
    {"id": "i12", "custom_attributes": {"nick": "$$", "note": "1000"}},
    {"id": "i13", "custom_attributes": {"nick": "$tag$x$tag$", "x--y": "x'--y"}},
    {"id": "i14", "custom_attributes": {"nick": "x%", "x--y": "x'--yz", "a.b_c-": 2}},
    {"id": "i15", "custom_attributes": {"nick": "xyz", "x--y": "", "a.b_c-": 0}},
    {"id": "i16", "custom_attributes": {"nick": "a_", "a.b_c-": "1"}},
    {"id": "i17", "custom_attributes": {"nick": "x%_"}},
    {"id": "i18", "custom_attributes": {"nick": "A%_"}},
    {"id": "i19", "custom_attributes": {"nick": "AB"}},
    {"id": "i20", "custom_attributes": {"nick": ".*"}},
    {"id": "i21", "custom_attributes": {"nick": "^$"}},
    {"id": "i22", "custom_attributes": {"nick": "[a-z]"}},
    {"id": "i23", "custom_attributes": {"nick": "(?i)x"}},
    {"id": "i24", "custom_attributes": {"nick": "a|b"}},
    {"id": "i25", "custom_attributes": {"nick": "b"}},
    {"id": "i26", "custom_attributes": {"nick": "^.*$ [a-z]+ (x|y)? {2} \\d"}},
    {"id": "i27", "custom_attributes": {"nick": "a.b"}},
    {"id": "i28", "custom_attributes": {"nick": "ab"}},
    {"id": "i29", "custom_attributes": {"nick": "a_b"}},
    {"id": "i30", "custom_attributes": {"nick": "axb"}},
    {"id": "i31", "email": "o'brien+--/**/@x.com", "first_name": "\\", "last_name": "\\\\\""},
    {"id": "i32", "email": "Y'@x.com", "first_name": "'"},
    {"id": "i33", "email": "y@x.com", "first_name": "\"", "device": "\\\"q"},
    {"id": "i34", "first_name": "$$", "country": "a\":\"b"},
    {"id": "i35", "first_name": "$", "country": "a':'b", "device": "a\u2028b\u2029c"},
    {"id": "i36", "custom_attributes": {"nick": "x'\"\\--/**/$$%_"}, "email": "'; DROP TABLE profiles; --"},
    {"id": "i37", "custom_attributes": {"nick": "xo'b\"", "tags": ["c\\d"]}},
    {"id": "i38", "custom_attributes": {"nick": "o'b\"", "tags": "--,/*,*/"}},
    {"id": "i39", "custom_attributes": {"tags": ["O'K"], "x--y": "other"}},
    {"id": "i40", "custom_attributes": {"tags": ["x\ny", "o'K"], "x--y": "--"}},
    {"id": "i41'", "custom_attributes": {"tags": ["a\"b"], "x--y": "'"}},
    {"id": "i42\\", "custom_attributes": {"x--y": "x'--y "}},
] + [{"id": "i%d'\"\\%s" % (number, mark), "custom_attributes": {"nick": nick}}
     for number, (mark, nick) in enumerate([(mark, nick) for mark in ("--", "/*", "*/", "$$", "%_")
                                            for nick in ("O'BRIEN", "o'BriEn", "x.y", "1.2", "$$a", "b$$")], 43)]
INJECTION_LINES = [json.dumps(profile, ensure_ascii=index % 2 == 0) for index, profile in enumerate(INJECTION_PROFILES)]
# PostgreSQL's jsonb cannot hold U+0000.
NUL_LINES = [
    r'{"id":"e23","email":"nul\u0000byte","last_name":"a\u0000","custom_attributes":{"nick":"a\u0000b","code":"a\u0000b"}}',
    r'{"id":"e24\u0000\u0027--","email":"o\u0027brien+--/**/@x.com\u0000","custom_attributes":{"nick":"o\u0027brien\u0000"}}',
    r'{"id":"e25","first_name":"\u0000","custom_attributes":{"nick":"\u0000--","note":"it\u0027s\u0000","tags":["\u0000","o\u0027k"]}}',
]


def profile_lines(args, nul=False):
    """The generated profiles as JSON lines, a third each as written by default, with every
    non-ASCII character escaped, and compact; then the hand-written edge lines."""
    lines = []
    for index, profile in enumerate(profiles(args.count, args.seed)):
        if index % 3 == 1:
            lines.append(json.dumps(profile, ensure_ascii=True))
        elif index % 3 == 2:
            lines.append(json.dumps(profile, ensure_ascii=False, separators=(",", ":")))
        else:
            lines.append(json.dumps(profile, ensure_ascii=False))
    return lines + EDGE_LINES + INJECTION_LINES + (NUL_LINES if nul else [])


def profiles(count, seed):
    rng = random.Random(seed)
    # Histories from their own generator, so the rest of each profile stays as it was.
    histories = random.Random(seed * 31 + 1)
    out = []
    for index in range(count):
        profile = {}
        if rng.random() > 0.04:
            profile["id"] = "u%d" % index if rng.random() > 0.1 else "ü-'\\%d" % index
        for field, pool in BUILTIN.items():
            if rng.random() < 0.6:
                profile[field] = rng.choice(pool)
        custom = {}
        for key, pool in CUSTOM.items():
            if rng.random() < 0.55:
                custom[rng.choice(SPACES) + key + rng.choice(SPACES)] = rng.choice(pool)
        roll = rng.random()
        if roll < 0.85:
            profile["custom_attributes"] = custom
        elif roll < 0.9:
            profile["custom_attributes"] = None
        if histories.random() < 0.6:
            profile["history"] = history(histories)
        elif histories.random() < 0.05:
            profile["history"] = None
        keys = list(profile)
        rng.shuffle(keys)
        out.append({key: profile[key] for key in keys})
    return out


def layout_flags(args):
    """The `--layout` the queries are compiled for, as options."""
    return ["--layout", "columns"] if getattr(args, "layout", "json") == "columns" else []


def typed(args, rule_paths, lines, dialect):
    """With `--layout columns`: the typed table's columns for `rule_paths` and the lines whose
    profiles it can hold; else (None, lines)."""
    if getattr(args, "layout", "json") != "columns":
        return None, lines
    columns = typed_layout.schema(args.bin, rule_paths, dialect, NOW)
    return columns, typed_layout.representable(lines, columns)


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


def placements(binary, rules):
    result = run([binary, "resolve", "--all", "--rules", rules, "--now", NOW, "--format", "json", "--profile", "-"],
                 input="{\"id\":\"x\"}")
    names = [json.loads(line)["placement"] for line in result.stdout.splitlines() if line.strip()]
    if not names:
        sys.exit("error: cannot list placements of `%s`: %s" % (rules, result.stderr.strip()))
    return names


EXPERIMENT_KEYS = ("experiment", "variant", "held_out")


def key(row):
    """What a row decides: resolve's keys after `placement`; the experiment keys only where the row has them."""
    return ((row["audience"], row["kind"], row["id"], row["split"]) + tuple(row[name] for name in EXPERIMENT_KEYS if name in row)
            + (bool(row.get("sticky")),))


def cannot_draw(message):
    """Whether `resolve` rejected a line because a split or experiment keyed on `profile.id` met a
    profile without `id`."""
    return "cannot choose a variant" in message or "cannot draw a variant" in message


def expected_rows(args, rules, placement, lines, workdir):
    """`resolve --format json` over `lines`: rows per profile id, the lines a query should see
    (profiles `resolve` rejects for a split without an id are left out) and how many were left out."""
    source = os.path.join(workdir, "all.jsonl")
    with open(source, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    resolved = run([args.bin, "resolve", placement, "--rules", rules, "--now", NOW, "--format", "json", "--profiles", source])
    rejected = set()
    for line in resolved.stderr.splitlines():
        prefix = source + ":"
        if line.startswith(prefix) and cannot_draw(line):
            rejected.add(int(line[len(prefix):].split(":")[0]) - 1)
        elif line.strip():
            sys.exit("error: resolve failed: " + line)
    kept = [line for number, line in enumerate(lines) if number not in rejected]
    expected = collections.defaultdict(list)
    for line in resolved.stdout.splitlines():
        row = json.loads(line)
        expected[row["profile_id"]].append(key(row))
    return expected, kept, len(rejected)


def query_text(args, rules, placement, dialect):
    query = run([args.bin, "sql", placement, "--dialect", dialect, "--rules", rules, "--now", NOW] + layout_flags(args))
    if query.returncode != 0:
        sys.exit("error: targeting sql failed: " + query.stderr)
    return query.stdout


def compare(args, rules, placement, expected, rows, kept, rejected, label=""):
    """Compares a query's rows (dicts with resolve's keys) with `resolve`, per profile id; prints
    a line for the placement and up to `--show` mismatches; returns the number of failures."""
    actual = collections.defaultdict(list)
    for row in rows:
        if row.get("placement") != placement:
            sys.exit("error: wrong placement in row: %r" % (row,))
        actual[row["profile_id"]].append(key(row))
    by_id = collections.defaultdict(list)
    for line in kept:
        profile = json.loads(line)
        identifier = profile.get("id") if isinstance(profile.get("id"), str) else None
        by_id[identifier].append(line)
    passed = failed = 0
    for identifier in sorted(set(expected) | set(actual), key=lambda value: (value is None, value or "")):
        want = collections.Counter(expected.get(identifier, []))
        got = collections.Counter(actual.get(identifier, []))
        count = max(sum(want.values()), sum(got.values()))
        if want == got:
            passed += count
            continue
        failed += count
        if failed <= args.show * max(1, count):
            print("mismatch in `%s` for profile `%s`" % (placement, identifier))
            for line in by_id.get(identifier, [])[:3]:
                print("  profile: " + line)
            print("  resolve: %s" % sorted(want.elements(), key=str))
            print("  sql:     %s" % sorted(got.elements(), key=str))
    print("%s %s%s: %d passed, %d failed (%d profiles rejected by resolve left out)"
          % (os.path.basename(rules), placement, label, passed, failed, rejected))
    return failed


def postgres_rows(args, query, kept, workdir, columns=None):
    """Runs `query` over a temporary table `profiles` holding `kept` (with `columns`, the typed
    table of `--layout columns` holding their rows); its rows as dicts."""
    table = os.path.join(workdir, "table.jsonl")
    with open(table, "w", encoding="utf-8") as handle:
        if columns:
            handle.write("".join(typed_layout.csv_line(typed_layout.row(json.loads(line), columns), columns) + "\n" for line in kept))
        else:
            handle.write("".join(line + "\n" for line in kept))
    os.chmod(table, 0o644)
    script = os.path.join(workdir, "query.sql")
    with open(script, "w", encoding="utf-8") as handle:
        # JIT compilation of a query this size takes PostgreSQL longer than running it (README).
        handle.write("\\set ON_ERROR_STOP on\nSET jit = off;\n")
        if columns:
            handle.write(typed_layout.postgres_table(columns))
            handle.write("\\copy profiles FROM '%s' WITH (FORMAT csv)\n" % table)
        else:
            handle.write("CREATE TEMP TABLE profiles(profile jsonb);\n")
            handle.write("\\copy profiles(profile) FROM '%s' WITH (FORMAT csv, QUOTE E'\\x01', DELIMITER E'\\x02')\n" % table)
        handle.write("SELECT row_to_json(q) FROM (\n%s) AS q;\n" % query.rstrip().rstrip(";"))
    os.chmod(script, 0o644)
    result = run(shlex.split(args.psql) + ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-f", script], cwd="/")
    if result.returncode != 0:
        sys.exit("error: psql failed:\n" + result.stderr)
    # Decimals stay text (`51.3`, `40.0`), as PostgreSQL prints them, so shares compare exactly.
    return [json.loads(line, parse_float=str) for line in result.stdout.splitlines() if line.strip()]


def check(args, rules, placement, lines, workdir, label=""):
    columns, lines = typed(args, [rules], lines, "postgres")
    expected, kept, rejected = expected_rows(args, rules, placement, lines, workdir)
    rows = postgres_rows(args, query_text(args, rules, placement, "postgres"), kept, workdir, columns)
    return compare(args, rules, placement, expected, rows, kept, rejected, label)


def summary_key(row):
    return (row["placement"],) + key(row)


def resolvable(args, rule_sets, lines, workdir, name):
    """The lines that no placement of any of `rule_sets` rejects (a split without an id), written
    to `name` in `workdir`: (that path, the kept lines, how many were left out, and
    `resolve --all --format json` of the first rule set over them)."""
    source = os.path.join(workdir, name)
    with open(source, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")
    rejected = set()
    listings = []
    for rules in rule_sets:
        listed = run([args.bin, "resolve", "--all", "--rules", rules, "--now", NOW, "--format", "json", "--profiles", source])
        rejected |= {int(line[len(source) + 1:].split(":")[0]) - 1 for line in listed.stderr.splitlines() if line.startswith(source + ":")}
        listings.append(listed.stdout)
    kept = [line for number, line in enumerate(lines) if number not in rejected]
    with open(source, "w", encoding="utf-8") as handle:
        handle.write("\n".join(kept) + "\n")
    return source, kept, len(rejected), listings[0]


def share_text(value):
    """A share as the engine printed it: PostgreSQL's numeric comes as text (see `postgres_rows`),
    Spark's decimal as a `Decimal`; either way its digits, e.g. `51.3` or `0.0`."""
    return value if isinstance(value, str) else str(value)


def check_summary(args, rules, lines, workdir, dialect, rows_of, label=""):
    """`sql --all --summary` against `resolve --all --summary` over the profiles that no
    placement rejects: the same entries, zeros included, the same profile counts, and shares
    printed as the CLI prints them (one decimal, `51.3%` in text); with sticky experiments,
    the same count of profiles a recorded assignment kept in each entry."""
    columns, lines = typed(args, [rules], lines, dialect)
    source, kept, rejected, _ = resolvable(args, [rules], lines, workdir, "summary.jsonl")
    summary = run([args.bin, "resolve", "--all", "--summary", "--rules", rules, "--now", NOW, "--format", "json", "--profiles", source])
    if summary.returncode != 0:
        sys.exit("error: resolve --summary failed: " + summary.stderr)
    expected = {}
    for line in summary.stdout.splitlines():
        row = json.loads(line)
        if summary_key(row) in expected:
            sys.exit("error: resolve --summary lists %s twice" % (summary_key(row),))
        expected[summary_key(row)] = (row["profiles"], "%.1f" % row["share"], row.get("sticky"))
    if not lines and not expected:
        sys.exit("error: resolve --summary of `%s` lists nothing over no profiles" % rules)
    if lines and declares_sticky(rules) and not any(entry[2] for entry in expected.values()):
        sys.exit("error: no profile of the summary of `%s` is kept by a sticky assignment" % rules)
    query = run([args.bin, "sql", "--all", "--summary", "--dialect", dialect, "--rules", rules, "--now", NOW] + layout_flags(args))
    if query.returncode != 0:
        sys.exit("error: targeting sql --summary failed: " + query.stderr)
    actual = {}
    for row in rows_of(query.stdout, kept, columns):
        if summary_key(row) in actual:
            sys.exit("error: sql --summary returns %s twice" % (summary_key(row),))
        actual[summary_key(row)] = (int(row["profiles"]), share_text(row["share"]), None if row.get("sticky") is None else int(row["sticky"]))
    failed = 0
    for entry in sorted(set(expected) | set(actual), key=str):
        want, got = expected.get(entry), actual.get(entry)
        if want != got:
            failed += 1
            if failed <= args.show:
                print("summary mismatch %s: resolve %s, sql %s" % (entry, want, got))
    # In the same order: rule order, as resolve --summary prints them.
    if not failed and list(expected) != list(actual):
        failed += 1
        print("summary order differs: resolve %s, sql %s" % (list(expected)[:5], list(actual)[:5]))
    print("%s summary%s: %d entries (%d empty), %d failed (%d profiles rejected by resolve left out)"
          % (os.path.basename(rules), label, len(expected), sum(1 for entry in expected.values() if entry[0] == 0), failed, rejected))
    return failed


def changed_rules(workdir):
    """A copy of `Rules/` with thresholds moved, so a diff has transitions in every placement, and
    the first `always … -> nothing` row (`main_paywall`'s) turned into a split (which held-out profiles
    skip), so some profiles move between two `nothing`s that only `--by row` tells apart."""
    target = os.path.join(workdir, "changed-rules")
    os.makedirs(target, exist_ok=True)
    source = os.path.join(ROOT, "Rules")
    for name in os.listdir(source):
        if not name.endswith(".rules"):
            continue
        with open(os.path.join(source, name), encoding="utf-8") as handle:
            text = handle.read()
        text = (text.replace("profile.age >= 18", "profile.age >= 21").replace("weekly_hours >= 10", "weekly_hours >= 5")
                .replace('profile.app_version >= "4.2.0"', 'profile.app_version >= "4.2.0-0"')
                .replace('always premium_members   -> nothing\n', 'premium_members -> split "premium_holdout" {\n    50% -> nothing\n'
                         '    50% -> paywall "pw_standard"\n  }\n', 1))
        assert name != "placements.rules" or "premium_holdout" in text, "the shipped main_paywall changed: update this edit"
        with open(os.path.join(target, name), "w", encoding="utf-8") as handle:
            handle.write(text)
    return target


ONLY_OLD = """
placement only_old {
  pro_adults -> flow "old_pro"
  quiz_skippers -> nothing
}
"""
ONLY_NEW = """
placement only_new {
  premium_members -> flow "new_premium"
  outdated_app -> split "only_new_split" {
    30% -> flow "a"
    70% -> nothing
  }
}
"""


ONLY_OLD_EXPERIMENTS = """
placement only_old {
  new_users -> pricing_q4 {
    control  -> flow "o_c"
    discount -> flow "o_d"
  }
  lows_a -> nothing
}
"""
ONLY_NEW_EXPERIMENTS = """
placement only_new {
  scored_a -> onboarding_ab {
    short -> flow "n_s"
    long  -> flow "n_l"
    skip  -> nothing
  }
  everyone -> split "only_new_split" by account {
    30% -> flow "a"
    70% -> nothing
  }
}
"""


def rules_pair(workdir):
    """`Rules/` and a changed copy (see `changed_rules`), each with a placement of its own."""
    old = os.path.join(workdir, "old-rules")
    shutil.copytree(os.path.join(ROOT, "Rules"), old, dirs_exist_ok=True)
    with open(os.path.join(old, "only_old.rules"), "w", encoding="utf-8") as handle:
        handle.write(ONLY_OLD)
    new = changed_rules(workdir)
    with open(os.path.join(new, "only_new.rules"), "w", encoding="utf-8") as handle:
        handle.write(ONLY_NEW)
    return old, new


def experiments_pair(workdir):
    """`experiments.rules` and a copy whose experiment weights and holdout weight moved, so that
    profiles change variant (also between two variants of one destination, which only `--by row`
    tells apart) and enter or leave the holdout; each with a placement of its own."""
    with open(os.path.join(HERE, "experiments.rules"), encoding="utf-8") as handle:
        text = handle.read()
    changed = (text.replace("50% control\n  50% discount", "60% control\n  40% discount")
               .replace("10% a\n  90% b", "50% a\n  50% b").replace("holdout q4_holdout 20%", "holdout q4_holdout 25%"))
    if changed.count("60% control") != 1 or "50% a" not in changed or "25%" not in changed:
        sys.exit("error: experiments.rules no longer has the weights the diff test moves")
    return write_pair(workdir, "experiments", (text, ONLY_OLD_EXPERIMENTS), (changed, ONLY_NEW_EXPERIMENTS))


def write_pair(workdir, name, old, new):
    """Two rule set directories, `old-NAME` and `new-NAME` in `workdir`, each holding `NAME.rules`
    and `only.rules` from its (rules, placement of its own) pair; their paths."""
    pair = []
    for side, (rules, extra) in (("old", old), ("new", new)):
        directory = os.path.join(workdir, "%s-%s" % (side, name))
        os.makedirs(directory, exist_ok=True)
        for file, content in ((name + ".rules", rules), ("only.rules", extra)):
            with open(os.path.join(directory, file), "w", encoding="utf-8") as handle:
                handle.write(content)
        pair.append(directory)
    return tuple(pair)


ONLY_OLD_HISTORY = """
placement only_old {
  fresh -> pricing {
    control  -> flow "o_c"
    discount -> flow "o_d"
    trial    -> nothing
  }
  everyone -> flow "o_default"
}
"""
ONLY_NEW_HISTORY = """
placement only_new {
  twice -> layout {
    compact -> flow "n_c"
    wide    -> flow "n_w"
  }
  lows_seen -> nothing
}
"""


def history_pair(workdir):
    """`history.rules` and a copy whose sticky experiment's weights moved, so that drawn
    profiles change variant while those a recorded assignment keeps stay; each with a placement
    of its own."""
    with open(os.path.join(HERE, "history.rules"), encoding="utf-8") as handle:
        text = handle.read()
    changed = text.replace("50% control\n  30% discount\n  20% trial", "30% control\n  30% discount\n  40% trial")
    if changed == text:
        sys.exit("error: history.rules no longer has the weights the diff test moves")
    return write_pair(workdir, "history", (text, ONLY_OLD_HISTORY), (changed, ONLY_NEW_HISTORY))


DIFF_PARTS = {"row": ("audience", "kind", "id", "split"), "destination": ("kind", "id")}
# Each pair, and what its change must show: moves between two `nothing`s (which only --by row
# tells apart), moves between experiment variants and into or out of the holdout, or moves and
# sizes some of whose profiles a sticky assignment kept. Whether decisions carry the experiment
# keys depends on the rules.
DIFF_PAIRS = {"Rules -> changed rules": (rules_pair, "nothings"), "experiments.rules -> changed": (experiments_pair, "variants"),
              "history.rules -> changed": (history_pair, "sticky")}


def declares_sticky(path):
    """Whether some `.rules` file at `path` (a file or a directory) declares a sticky experiment."""
    files = [path] if os.path.isfile(path) else [os.path.join(root, name) for root, _, names in os.walk(path)
                                                  for name in names if name.endswith(".rules")]
    for name in files:
        with open(name, encoding="utf-8") as handle:
            if any(line.startswith("experiment ") and " sticky " in line for line in handle):
                return True
    return False


def help_columns(binary):
    """The columns `diff --help` says `diff --sql` returns, per case (`by row`, `by destination`, …)."""
    text = run([binary, "diff", "--help"]).stdout.splitlines()
    start = next(index for index, line in enumerate(text) if line.endswith("with these columns:"))
    cases, label = {}, None
    for line in text[start + 1:]:
        if line.startswith("    "):
            cases[label] += [column.strip() for column in line.split(",") if column.strip()]
        elif line.startswith("  ") and line.endswith(":"):
            label = line.strip()[:-1]
            cases[label] = []
        else:
            break
    if not {"by row", "by destination"} <= set(cases):
        sys.exit("error: diff --help lists no --sql columns: %s" % sorted(cases))
    return cases


def declares_section_11(directory):
    """Whether some `.rules` file under `directory` declares an experiment or a holdout, so
    decisions carry `experiment`, `variant` and `held_out`."""
    for root, _, files in os.walk(directory):
        for name in files:
            if name.endswith(".rules"):
                with open(os.path.join(root, name), encoding="utf-8") as handle:
                    if any(line.startswith(("experiment ", "holdout ")) for line in handle):
                        return True
    return False


def check_diff(args, lines, workdir, dialect, rows_of, label="", view="row", pair="Rules -> changed rules"):
    """`diff OLD NEW --sql` against `diff OLD NEW --profiles` over the profiles neither rule set
    rejects, both `--by view`: the same transitions with the same counts, and the same sizes for
    the placement only the old rules have and the one only the new rules have.

    With experiments or a holdout, decisions by row also carry `experiment`, `variant` and
    `held_out`; `diff` shows no match as null, so a held-out no match and another are compared
    as one there (their counts added on both sides)."""
    make, shows = DIFF_PAIRS[pair]
    old, new = make(workdir)
    carries = declares_section_11(old) or declares_section_11(new)
    sticky = declares_sticky(old) or declares_sticky(new)
    columns, lines = typed(args, [old, new], lines, dialect)
    source, kept, rejected, _ = resolvable(args, [old, new], lines, workdir, "diff.jsonl")
    report = run([args.bin, "diff", old, new, "--profiles", source, "--now", NOW, "--format", "json", "--by", view])
    if report.returncode != 0:
        sys.exit("error: diff failed: " + report.stderr)
    parts = DIFF_PARTS[view] + (EXPERIMENT_KEYS if carries and view == "row" else ())

    def shown(value):
        if value is not None and sorted(value) != sorted(parts):
            sys.exit("error: diff --by %s gives a decision with keys %s" % (view, sorted(value)))
        return tuple(None for _ in parts) + (False,) if value is None else tuple(value[part] for part in parts) + (True,)

    expected = collections.Counter()
    # With sticky experiments, how many of each entry's profiles a recorded assignment kept,
    # before and after (None for the side a placement lacks).
    expected_sticky = {}

    def add_sticky(entry, before, after):
        if sticky:
            previous = expected_sticky.get(entry, (None if before is None else 0, None if after is None else 0))
            expected_sticky[entry] = tuple(None if old is None else old + new for old, new in zip(previous, (before, after)))
    absent = tuple(None for _ in parts) + (None,)
    for placement in json.loads(report.stdout)["placements"]:
        for transition in placement["transitions"]:
            entry = (placement["placement"],) + shown(transition["from"]) + shown(transition["to"])
            expected[entry] += transition["count"]
            add_sticky(entry, transition.get("sticky_before"), transition.get("sticky_after"))
        for size in placement["sizes"] if placement["status"] in ("added", "removed") else []:
            if placement["status"] == "removed" and size["before"]:
                entry = (placement["placement"],) + shown(size["destination"]) + absent
                expected[entry] += size["before"]
                add_sticky(entry, size.get("sticky_before"), None)
            elif placement["status"] == "added" and size["after"]:
                entry = (placement["placement"],) + absent + shown(size["destination"])
                expected[entry] += size["after"]
                add_sticky(entry, None, size.get("sticky_after"))
    matched_from, matched_to = len(parts) + 1, 2 * len(parts) + 2
    if not any(entry[matched_to] is None for entry in expected) or not any(entry[matched_from] is None for entry in expected):
        sys.exit("error: the diff has no added or no removed placement to compare")
    if view == "row" and shows == "nothings" and not any(entry[2:4] == (None, None) and entry[matched_from + 2:matched_from + 4] == (None, None)
                                                     for entry in expected if entry[matched_from] and entry[matched_to]):
        sys.exit("error: the diff by row has no move between two `nothing`s to compare")
    if shows == "sticky" and not (any(counts[0] or counts[1] for counts in expected_sticky.values())
                                  and any(counts[0] == 0 for counts in expected_sticky.values())):
        sys.exit("error: the diff has no move or size with profiles kept by a sticky assignment and drawn ones to compare")
    if view == "row" and shows == "variants":
        variant, held_out = parts.index("variant") + 1, parts.index("held_out") + 1
        moves = [entry for entry in expected if entry[matched_from] and entry[matched_to]]
        if not any(entry[2:4] == entry[matched_from + 2:matched_from + 4] and entry[variant] != entry[matched_from + variant] for entry in moves):
            sys.exit("error: the diff by row has no move between two variants of one destination to compare")
        if not any(entry[held_out] != entry[matched_from + held_out] for entry in moves):
            sys.exit("error: the diff by row has no move into or out of the holdout to compare")
    query = run([args.bin, "diff", old, new, "--sql", dialect, "--now", NOW, "--by", view] + layout_flags(args))
    if query.returncode != 0:
        sys.exit("error: targeting diff --sql failed: " + query.stderr)
    actual = collections.Counter()
    actual_sticky = {}
    cases = help_columns(args.bin)
    documented = cases["by destination" if view == "destination" else
                       "by row, with experiments or a holdout in either rule set" if carries else "by row"]
    if sticky:
        documented = documented + cases["with a sticky experiment in either rule set, last"]
    rows = rows_of(query.stdout, kept, columns)
    for row in rows[:1]:
        if list(row) != documented:
            print("diff columns %s differ from those diff --help lists: %s" % (list(row), documented))
            return 1
    for row in rows:
        def side(prefix):
            matched = row[prefix + "matched"]
            if matched is not None and not matched:
                return tuple(None for _ in parts) + (False,)
            return tuple(row[prefix + part] for part in parts) + (None if matched is None else bool(matched),)
        entry = (row["placement"],) + side("from_") + side("to_")
        actual[entry] += int(row["profiles"])
        if sticky:
            counts = tuple(None if row[name] is None else int(row[name]) for name in ("sticky_before", "sticky_after"))
            previous = actual_sticky.get(entry, tuple(None if count is None else 0 for count in counts))
            actual_sticky[entry] = tuple(None if old is None else old + new for old, new in zip(previous, counts))
    failed = 0
    for entry in sorted(set(expected) | set(actual), key=str):
        if expected.get(entry) != actual.get(entry) or expected_sticky.get(entry) != actual_sticky.get(entry):
            failed += 1
            if failed <= args.show:
                print("diff mismatch %s: diff %s %s, sql %s %s" % (entry, expected.get(entry), expected_sticky.get(entry),
                                                                  actual.get(entry), actual_sticky.get(entry)))
    print("%s diff by %s%s: %d transitions and sizes, %d failed (%d profiles rejected by resolve left out)"
          % (pair, view, label, len(expected), failed, rejected))
    return failed


def check_all(args, rules, lines, workdir, dialect, rows_of, label=""):
    """Every placement of `rules` at once (`sql --all`, one query) against `resolve --all`, over
    the profiles no placement rejects; returns the number of failures."""
    columns, lines = typed(args, [rules], lines, dialect)
    _, kept, rejected, listing = resolvable(args, [rules], lines, workdir, "all-placements.jsonl")
    expected = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in listing.splitlines():
        row = json.loads(line)
        expected[row["placement"]][row["profile_id"]].append(key(row))
    query = run([args.bin, "sql", "--all", "--dialect", dialect, "--rules", rules, "--now", NOW] + layout_flags(args))
    if query.returncode != 0:
        sys.exit("error: targeting sql --all failed: " + query.stderr)
    by_placement = collections.defaultdict(list)
    for row in rows_of(query.stdout, kept, columns):
        by_placement[row["placement"]].append(row)
    failed = 0
    for placement in placements(args.bin, rules):
        failed += compare(args, rules, placement, expected[placement], by_placement[placement], kept, rejected, label)
    return failed


def check_layout(args, rule_sets, lines, workdir, dialect, rows_of, label):
    """Every check of one layout (`args.layout`) on an engine whose rows `rows_of` gives: the
    random rule sets as `--all`, each placement of `rule_sets`, their `--all` and `--summary`
    (over the profiles and over none), and `diff --sql` of each pair by row and by destination.
    Returns the number of failures."""
    failed = 0
    for rules in random_rule_sets(args, workdir):
        failed += check_all(args, rules, lines[:args.random_count], workdir, dialect, rows_of, label)
    for rules in rule_sets:
        rules = os.path.abspath(rules)
        for placement in placements(args.bin, rules):
            columns, corpus = typed(args, [rules], lines, dialect)
            expected, kept, rejected = expected_rows(args, rules, placement, corpus, workdir)
            query = query_text(args, rules, placement, dialect)
            failed += compare(args, rules, placement, expected, rows_of(query, kept, columns), kept, rejected, label)
        failed += check_all(args, rules, lines, workdir, dialect, rows_of, " (--all)" + label)
        for corpus, empty in ((lines, ""), ([], ", no profiles")):
            failed += check_summary(args, rules, corpus, workdir, dialect, rows_of, label + empty)
    for pair in DIFF_PAIRS:
        for view in DIFF_PARTS:
            failed += check_diff(args, lines, workdir, dialect, rows_of, label, view=view, pair=pair)
    return failed


def random_rule_sets(args, workdir):
    """`--random` generated rule sets (Tests/SQL/random_rules.py), each checked first."""
    import random_rules
    directory = os.path.join(workdir, "random")
    os.makedirs(directory, exist_ok=True)
    paths = random_rules.write(directory, args.random, args.seed)
    for path in paths:
        checked = run([args.bin, "check", path])
        if checked.returncode != 0:
            sys.exit("error: a generated rule set does not check:\n" + checked.stderr)
    return paths


def default_rule_sets():
    """The hand-written rule sets: the shipped rules, the stress and injection sets, the two
    sets with experiments, `by KEY` and the holdout, a six-row placement of a common shape,
    patterns, history, and rules that depend on rules (prerequisites, layers, caps over groups
    of placements)."""
    return [os.path.join(ROOT, "Rules")] + [os.path.join(HERE, name) for name in
                                            ("stress.rules", "injection.rules", "experiments.rules", "holdout.rules", "followup.rules",
                                             "patterns.rules", "history.rules", "dependent.rules")]


def arguments(doc, random_default):
    """The options both agreement scripts take."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--bin", required=True, help="path to the `targeting` executable")
    parser.add_argument("--count", type=int, default=3000, help="number of profiles (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default: %(default)s)")
    parser.add_argument("--show", type=int, default=5, help="mismatches printed per placement (default: %(default)s)")
    parser.add_argument("--rules", action="append", help="rule sets to test (default: Rules and Tests/SQL/{stress,injection,experiments,holdout,followup,patterns,history,dependent}.rules)")
    parser.add_argument("--random", type=int, default=random_default,
                        help="random rule sets of 10 placements each to add (default: %(default)s)")
    parser.add_argument("--random-count", type=int, default=500,
                        help="profiles (the first of the generated ones) for the random rule sets (default: %(default)s)")
    parser.add_argument("--layout", choices=("json", "columns", "both"), default="both",
                        help="the table: one JSON column, typed columns (profiles it cannot hold left out), or both (default)")
    return parser


def main():
    parser = arguments(__doc__, random_default=20)
    parser.add_argument("--psql", default="runuser -u postgres -- psql", help="psql command prefix (default: %(default)s)")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    rule_sets = args.rules or default_rule_sets()
    lines = profile_lines(args)
    failed = 0
    layouts = ("json", "columns") if args.layout == "both" else (args.layout,)
    with tempfile.TemporaryDirectory() as workdir:
        os.chmod(workdir, 0o755)

        def rows_of(query, kept, columns):
            return postgres_rows(args, query, kept, workdir, columns)
        for layout in layouts:
            args.layout = layout
            typed_label = " (columns)" if layout == "columns" else ""
            for rules in random_rule_sets(args, workdir):
                failed += check_all(args, rules, lines[:args.random_count], workdir, "postgres", rows_of, typed_label)
            for rules in rule_sets:
                rules = os.path.abspath(rules)
                for placement in placements(args.bin, rules):
                    failed += check(args, rules, placement, lines, workdir, typed_label)
                failed += check_all(args, rules, lines, workdir, "postgres", rows_of, " (--all)" + typed_label)
                for corpus, label in ((lines, ""), ([], " (no profiles)")):
                    failed += check_summary(args, rules, corpus, workdir, "postgres", rows_of, label + typed_label)
            for pair in DIFF_PAIRS:
                for view in DIFF_PARTS:
                    failed += check_diff(args, lines, workdir, "postgres", rows_of, typed_label, view=view, pair=pair)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
