"""The reference ingest: a minimal stdlib-Python input handler over the same event stream and
store (custom attributes by element id or the shipped `input` mapping; single choice, multi
choice, toggle and text inputs), writing the store back."""
import json
import sys

MAPPING = {("scr_quiz", "experience"): "experience", ("scr_quiz", "interests"): "interests",
           ("scr_quiz", "reminders"): "reminders", ("scr_quiz", "hours"): "weekly_hours"}
BUILTIN = {"email": "email", "name": "first_name"}


def main(events_path, store_path):
    profiles = {}
    order = []
    with open(store_path, encoding="utf-8") as store:
        for line in store:
            profile = json.loads(line)
            profiles[profile["id"]] = profile
            order.append(profile["id"])
    with open(events_path, encoding="utf-8") as events:
        for line in events:
            event = json.loads(line)
            if event.get("name") != "flow_user_input":
                continue
            pid = event["profile_id"]
            profile = profiles.get(pid)
            if profile is None:
                profile = profiles[pid] = {"id": pid}
                order.append(pid)
            element, kind = event["element_id"], event["element_type"]
            if kind == "single_choice":
                value = event["item_ids"][0] if event["item_ids"] else None
            elif kind == "multi_choice":
                value = ",".join(event["item_ids"]) or None
            elif kind == "toggle":
                value = 1 if event["value"] is True else 0
            else:
                value = event["value"].strip() or None
            if element in BUILTIN:
                profile[BUILTIN[element]] = value
                continue
            key = MAPPING.get((event.get("instanceId"), element), element)
            custom = profile.setdefault("custom_attributes", {})
            if value is None:
                custom.pop(key, None)
            else:
                custom[key] = value
    with open(store_path, "w", encoding="utf-8") as store:
        for pid in order:
            store.write(json.dumps(profiles[pid], separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
