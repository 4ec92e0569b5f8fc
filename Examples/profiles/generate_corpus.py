#!/usr/bin/env python3
"""Writes Examples/profiles/corpus.jsonl: a deterministic corpus of varied profiles for
`targeting diff` and benchmarks.

    python3 Examples/profiles/generate_corpus.py [COUNT] [OUTPUT]

The same COUNT always gives the same bytes (a fixed random seed, no clock).
"""
import json
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
output = sys.argv[2] if len(sys.argv) > 2 else "Examples/profiles/corpus.jsonl"
rnd = random.Random(20261129)

COUNTRIES = ["US", "DE", "FR", "ES", "IT", "NL", "GB", "BR", "JP", "IN", "TR", "CN", "MX"]
PLATFORMS = ["ios", "ipados", "android", "macos"]
VERSIONS = ["4.0.0", "4.1.9", "4.2.0-beta.3", "4.2.0", "4.2.1", "v4.3", "4.10.0", "5.0.0", "not a version"]
EXPERIENCE = ["beginner", "amateur", "pro"]
INTERESTS = ["sports", "music", "travel", "food"]


def maybe(p):
    return rnd.random() < p


def timestamp(day_offset):
    # days before 2026-11-29, at a random time of day
    base_day = 29 - day_offset
    month, day, year = 11, base_day, 2026
    while day < 1:
        month -= 1
        if month == 0:
            month, year = 12, year - 1
        day += [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return f"{year:04d}-{month:02d}-{day:02d}T{rnd.randrange(24):02d}:{rnd.randrange(60):02d}:00Z"


with open(output, "w", encoding="utf-8") as out:
    for n in range(count):
        p = {"id": f"p{n:06d}"}
        if maybe(0.9):
            p["country"] = rnd.choice(COUNTRIES)
        if maybe(0.95):
            p["platform"] = rnd.choice(PLATFORMS)
        if maybe(0.9):
            p["app_version"] = rnd.choice(VERSIONS)
        if maybe(0.7):
            p["birthday"] = f"{rnd.randrange(1950, 2014)}-{rnd.randrange(1, 13):02d}-{rnd.randrange(1, 29):02d}"
        if maybe(0.85):
            p["installed_at"] = timestamp(rnd.randrange(0, 90))
        if maybe(0.1):
            p["access_levels"] = ["premium"] if maybe(0.8) else []
        custom = {}
        if maybe(0.8):
            custom["experience"] = rnd.choice(EXPERIENCE)
        if maybe(0.6):
            custom["interests"] = ",".join(rnd.sample(INTERESTS, rnd.randrange(1, 4)))
        if maybe(0.5):
            custom["reminders"] = rnd.choice([0, 1])
        if maybe(0.5):
            custom["weekly_hours"] = rnd.randrange(0, 25) if maybe(0.95) else str(rnd.randrange(0, 25))
        if custom:
            p["custom_attributes"] = custom
        out.write(json.dumps(p, separators=(",", ":")) + "\n")
