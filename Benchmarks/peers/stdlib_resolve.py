"""The specialised reference batch loop: the shipped rules' three placements written out in plain Python
(stdlib `json` and `hashlib`), over the same JSON Lines file, printing the same JSON lines as
`targeting resolve --all --format json`. Benchmarks/run.sh checks both outputs are identical."""
import hashlib
import json
import re
import sys
from datetime import datetime, timezone

NOW = datetime(2026, 11, 29, 12, 0, 0, tzinfo=timezone.utc)
NOW_MS = int(NOW.timestamp() * 1000)
EU = {"DE", "FR", "ES", "IT", "NL"}
TEAM = re.compile(r"[a-z0-9._%+-]+@(staff|qa)\.example\.com", re.ASCII)


def age(birthday):
    try:
        year, month, day = (int(part) for part in birthday.split("-"))
    except (AttributeError, ValueError):
        return None
    years = NOW.year - year
    if (NOW.month, NOW.day) < (month, day):
        years -= 1
    return years


def version(text):
    try:
        return tuple(int(part) for part in text.split("."))
    except (AttributeError, ValueError):
        return None


def days_since(instant):
    try:
        ms = int(datetime.strptime(instant, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp() * 1000)
    except (TypeError, ValueError):
        return None
    return (NOW_MS - ms) // 86_400_000


def bucket(split, profile_id):
    digest = hashlib.md5(f"{split}-{profile_id}".encode()).digest()
    return int.from_bytes(digest[8:16], "big") % 100


def signed_in(profile):
    cuid = profile.get("customer_user_id")
    return cuid if isinstance(cuid, str) else None


def held_out(profile):
    cuid = signed_in(profile)
    return cuid is not None and bucket("q4_holdout", cuid) < 5


def pricing(profile):
    """`pricing_q4`'s variant, or None for a user who has not signed in or whom the layer
    `paywall_experiments` draws outside its 60 % share."""
    cuid = signed_in(profile)
    if cuid is None or bucket("paywall_experiments", cuid) >= 60:
        return None
    return "control" if bucket("pricing_q4", cuid) < 50 else "discount"


def coaching_trial(profile):
    """`coaching_trial`'s variant (equal weights: by name, `trial_14d` first), or None for a user
    who has not signed in or whom the layer draws outside its share (60–99)."""
    cuid = signed_in(profile)
    if cuid is None or bucket("paywall_experiments", cuid) < 60:
        return None
    return "trial_14d" if bucket("coaching_trial", cuid) < 50 else "trial_7d"


def shown_count(profile, placements, window_ms):
    """How many distinct instants each placement was shown at in (now - window, now], summed."""
    history = profile.get("history")
    shown = history.get("shown") if isinstance(history, dict) else None
    if not isinstance(shown, dict):
        return 0
    total = 0
    for placement in placements:
        instants = set()
        for text in shown.get(placement) or []:
            try:
                ms = int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
            except (TypeError, ValueError, AttributeError):
                continue
            if NOW_MS - window_ms < ms <= NOW_MS:
                instants.add(ms)
        total += len(instants)
    return total


def tired(profile):
    both = ("main_paywall", "coaching_paywall")
    return shown_count(profile, both, 86_400_000) >= 2 or shown_count(profile, both, 7 * 86_400_000) >= 5


def subscribed(profile):
    levels = profile.get("access_levels")
    return isinstance(levels, list) and "premium" in levels


def team(profile):
    email = profile.get("email")
    return isinstance(email, str) and TEAM.fullmatch(email.strip().lower()) is not None


def modern_app(profile):
    v = version(profile.get("app_version"))
    return v is not None and v >= (4, 2, 0)


def committed(custom):
    reminders = custom.get("reminders") == 1
    hours = custom.get("weekly_hours")
    dedicated = isinstance(hours, (int, float)) and hours >= 10
    return custom.get("experience") == "amateur" and (dedicated or reminders)


def pricing_test(profile, custom):
    """`pricing_test_amateurs`' variant; None when the audience does not match or cannot draw."""
    if committed(custom) and modern_app(profile) and not subscribed(profile) and not team(profile):
        return pricing(profile)
    return None


def followup(profile, custom):
    if held_out(profile):
        return "everyone", "flow", "flow_default", None, None, None
    experience = custom.get("experience")
    years = age(profile.get("birthday"))
    adults = years is not None and years >= 18
    interests = custom.get("interests")
    sporty = isinstance(interests, str) and "sports" in interests.split(",")
    hours = custom.get("weekly_hours")
    dedicated = isinstance(hours, (int, float)) and hours >= 10
    if experience == "pro" and adults:
        return "pro_adults", "flow", "flow_pro_v2", None, None, None
    variant = pricing_test(profile, custom)
    if variant is not None:
        return "pricing_test_amateurs", "flow", "flow_amateur_plan" if variant == "control" else "flow_amateur_plan_discount", None, "pricing_q4", variant
    if committed(custom):
        return "committed_amateurs", "flow", "flow_amateur_plan", None, None, None
    if experience == "amateur" and not dedicated:
        return "casual_amateurs", "flow", "flow_amateur_casual", None, None, None
    if experience == "beginner" and sporty:
        r = bucket("sporty_beginners_v1", profile["id"])
        if r < 10:
            return "sporty_beginners", None, None, "sporty_beginners_v1", None, None
        return "sporty_beginners", "flow", "flow_sport_start_b" if r < 50 else "flow_sport_start_a", "sporty_beginners_v1", None, None
    if experience == "beginner":
        return "other_beginners", "flow", "flow_beginner", None, None, None
    if "experience" not in custom:
        return "quiz_skippers", "flow", "flow_quiz_reminder", None, None, None
    return "everyone", "flow", "flow_default", None, None, None


def paywall(profile, custom):
    # `always` rows apply to profiles the holdout holds out, too.
    if subscribed(profile):
        return "premium_members", None, None, None, None, None
    if team(profile):
        return "team_members", None, None, None, None, None
    if held_out(profile):
        if tired(profile):
            return "tired_of_paywalls", None, None, None, None, None
        return "everyone", "paywall", "pw_standard", None, None, None
    if not modern_app(profile):
        return "outdated_app", "paywall", "pw_update_first", None, None, None
    variant = pricing_test(profile, custom)
    if variant is not None:
        return "pricing_test_amateurs", "paywall", "pw_standard" if variant == "control" else "pw_discount", None, "pricing_q4", variant
    if tired(profile):
        return "tired_of_paywalls", None, None, None, None, None
    days = days_since(profile.get("installed_at"))
    new = days is not None and days <= 7
    country = profile.get("country")
    if country == "US" and new:
        return "new_us_modern", "paywall", "pw_intro_us", None, None, None
    if country in EU and new:
        return "new_eu_modern", "paywall", "pw_intro_eu", None, None, None
    return "everyone", "paywall", "pw_standard", None, None, None


def coaching(profile, custom):
    # Every row above `coached_pros` is `always`; held-out profiles skip the rows below them.
    if subscribed(profile):
        return "premium_members", None, None, None, None, None
    if team(profile):
        return "team_members", None, None, None, None, None
    if tired(profile):
        return "tired_of_paywalls", None, None, None, None, None
    if held_out(profile):
        return "everyone", None, None, None, None, None
    # The follow-up's decision: those it sends to the pro flow.
    if followup(profile, custom)[2] == "flow_pro_v2":
        variant = coaching_trial(profile)
        if variant is not None:
            return "coached_pros", "paywall", "pw_coaching_14d" if variant == "trial_14d" else "pw_coaching_7d", None, "coaching_trial", variant
        return "coached_pros", "paywall", "pw_coaching_7d", None, None, None
    return "everyone", None, None, None, None, None


def main(path):
    out = sys.stdout
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            profile = json.loads(line)
            custom = profile.get("custom_attributes") or {}
            held = held_out(profile)
            for name, decide in (("onboarding_followup", lambda: followup(profile, custom)), ("main_paywall", lambda: paywall(profile, custom)),
                                 ("coaching_paywall", lambda: coaching(profile, custom))):
                audience, kind, ident, split, experiment, variant = decide()
                out.write(json.dumps({"profile_id": profile.get("id"), "placement": name, "audience": audience,
                                      "kind": kind, "id": ident, "split": split,
                                      "experiment": experiment, "variant": variant, "held_out": held},
                                     separators=(",", ":"), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
