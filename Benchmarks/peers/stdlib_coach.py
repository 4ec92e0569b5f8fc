"""The specialised reference batch loop for the six-row placement `coach_paywall` (the rules
`targeting-bench coach-rules` writes): `json.loads` and the placement's conditions written out as
`if`s, printing the same JSON lines as `targeting resolve coach_paywall --format json`.
Benchmarks/run.sh checks both outputs are identical."""
import json
import sys
from datetime import date

TODAY = date(2026, 11, 29)


def adult(birthday):
    try:
        year, month, day = (int(part) for part in birthday.split("-"))
    except (AttributeError, ValueError):
        return False
    years = TODAY.year - year - ((TODAY.month, TODAY.day) < (month, day))
    return years >= 18


def number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def coach(profile):
    custom = profile.get("custom_attributes") or {}
    goal = custom.get("goal")
    interests = custom.get("interests")
    members = interests.split(",") if isinstance(interests, str) else []
    hours = number(custom.get("weekly_hours"))
    reminders = number(custom.get("reminders")) == 1
    adults = adult(profile.get("birthday"))
    regulars = hours is not None and 3 <= hours <= 10
    if goal == "build_muscle" and not adults:
        return "young_muscle", "pw_teen_strength"
    if goal in ("stay_fit", "sleep_better") and profile.get("country") == "DE":
        return "german_wellness", "pw_de_wellness"
    if ("travel" in members or "food" in members) and regulars:
        return "travelling_regulars", "pw_travel"
    if reminders and profile.get("platform") == "android":
        return "nudged_android", "pw_android_nudge"
    if adults and regulars:
        return "adult_regulars", "pw_regular"
    return "everyone", "pw_default"


def main(path):
    out = sys.stdout
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            profile = json.loads(line)
            audience, paywall = coach(profile)
            out.write(json.dumps({"profile_id": profile.get("id"), "placement": "coach_paywall", "audience": audience,
                                  "kind": "paywall", "id": paywall, "split": None},
                                 separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
