"""Peers over the same JSON Lines file and the placements of `resolve --all` (the orjson loop all
three; GrowthBook and JSON Logic the first two):
the stdlib loop with orjson, the GrowthBook Python SDK (features with ordered targeting rules
and an experiment for the split) and JSON Logic (one expression per placement). Each prints
one line per profile per placement. Usage: peers.py NAME PROFILES.jsonl

GrowthBook hashes its own way, so its split variants differ from Adapty's; GrowthBook and JSON
Logic leave out the `pricing_q4` experiment and the `q4_holdout` (they answer as a signed-out
user would), so they do a little less work than the others. The orjson loop prints exactly what `targeting resolve --format json` prints."""
import sys

import stdlib_resolve as reference

NOW = reference.NOW


def attributes(profile, custom):
    """The derived attributes GrowthBook and JSON Logic evaluate (as an SDK integration would)."""
    interests = custom.get("interests")
    return {
        "id": profile.get("id"),
        "experience": custom.get("experience"),
        "answered": "experience" in custom,
        "age": reference.age(profile.get("birthday")),
        "interests": interests.split(",") if isinstance(interests, str) else [],
        "reminders": custom.get("reminders") == 1,
        "weekly_hours": custom.get("weekly_hours") if isinstance(custom.get("weekly_hours"), (int, float)) else None,
        "app_version": profile.get("app_version") or "",
        "days": reference.days_since(profile.get("installed_at")),
        "country": profile.get("country"),
        "levels": profile.get("access_levels") if isinstance(profile.get("access_levels"), list) else [],
    }


def run_orjson(path):
    import orjson
    out = sys.stdout.buffer
    with open(path, "rb") as lines:
        for line in lines:
            profile = orjson.loads(line)
            custom = profile.get("custom_attributes") or {}
            held = reference.held_out(profile)
            for name, decide in (("onboarding_followup", lambda: reference.followup(profile, custom)),
                                 ("main_paywall", lambda: reference.paywall(profile, custom)),
                                 ("coaching_paywall", lambda: reference.coaching(profile, custom))):
                audience, kind, ident, split, experiment, variant = decide()
                out.write(orjson.dumps({"profile_id": profile.get("id"), "placement": name, "audience": audience,
                                        "kind": kind, "id": ident, "split": split,
                                        "experiment": experiment, "variant": variant,
                                        "held_out": held}) + b"\n")


def run_growthbook(path):
    import orjson
    from growthbook import GrowthBook
    adult = {"age": {"$gte": 18}}
    features = {
        "onboarding_followup": {"defaultValue": "flow_default", "rules": [
            {"condition": {"experience": "pro", **adult}, "force": "flow_pro_v2"},
            {"condition": {"experience": "amateur", "$or": [{"weekly_hours": {"$gte": 10}}, {"reminders": True}]}, "force": "flow_amateur_plan"},
            {"condition": {"experience": "amateur", "$not": {"weekly_hours": {"$gte": 10}}}, "force": "flow_amateur_casual"},
            {"condition": {"experience": "beginner", "interests": {"$elemMatch": {"$eq": "sports"}}}, "key": "sporty_beginners_v1",
             "variations": ["", "flow_sport_start_b", "flow_sport_start_a"], "weights": [0.1, 0.4, 0.5], "hashAttribute": "id"},
            {"condition": {"experience": "beginner"}, "force": "flow_beginner"},
            {"condition": {"answered": False}, "force": "flow_quiz_reminder"},
        ]},
        "main_paywall": {"defaultValue": "pw_standard", "rules": [
            {"condition": {"levels": {"$elemMatch": {"$eq": "premium"}}}, "force": ""},
            {"condition": {"$not": {"app_version": {"$vgte": "4.2.0"}}}, "force": "pw_update_first"},
            {"condition": {"country": "US", "days": {"$lte": 7}}, "force": "pw_intro_us"},
            {"condition": {"country": {"$in": sorted(reference.EU)}, "days": {"$lte": 7}}, "force": "pw_intro_eu"},
        ]},
    }
    gb = GrowthBook(features=features)
    out = sys.stdout
    with open(path, "rb") as lines:
        for line in lines:
            profile = orjson.loads(line)
            gb.set_attributes(attributes(profile, profile.get("custom_attributes") or {}))
            for name in ("onboarding_followup", "main_paywall"):
                out.write(f"{profile.get('id')} {name} {gb.get_feature_value(name, None)}\n")


def run_json_logic(path):
    import orjson
    from json_logic import jsonLogic
    v = lambda name: {"var": name}
    followup = {"if": [
        {"and": [{"==": [v("experience"), "pro"]}, {">=": [v("age"), 18]}]}, "flow_pro_v2",
        {"and": [{"==": [v("experience"), "amateur"]}, {"or": [{">=": [v("weekly_hours"), 10]}, v("reminders")]}]}, "flow_amateur_plan",
        {"and": [{"==": [v("experience"), "amateur"]}, {"!": {">=": [v("weekly_hours"), 10]}}]}, "flow_amateur_casual",
        {"and": [{"==": [v("experience"), "beginner"]}, {"in": ["sports", v("interests")]}]}, "split",
        {"==": [v("experience"), "beginner"]}, "flow_beginner",
        {"!": v("answered")}, "flow_quiz_reminder",
        "flow_default"]}
    paywall = {"if": [
        {"in": ["premium", v("levels")]}, "",
        {"<": [v("app_version"), "4.2.0"]}, "pw_update_first",
        {"and": [{"==": [v("country"), "US"]}, {"<=": [v("days"), 7]}]}, "pw_intro_us",
        {"and": [{"in": [v("country"), sorted(reference.EU)]}, {"<=": [v("days"), 7]}]}, "pw_intro_eu",
        "pw_standard"]}
    out = sys.stdout
    with open(path, "rb") as lines:
        for line in lines:
            profile = orjson.loads(line)
            data = attributes(profile, profile.get("custom_attributes") or {})
            for name, logic in (("onboarding_followup", followup), ("main_paywall", paywall)):
                out.write(f"{profile.get('id')} {name} {jsonLogic(logic, data)}\n")


if __name__ == "__main__":
    {"orjson": run_orjson, "growthbook": run_growthbook, "json-logic": run_json_logic}[sys.argv[1]](sys.argv[2])
