"""The two rule sets of the prerequisite batch row of Benchmarks/run.sh, printed to stdout.

    python3 Benchmarks/generate/prerequisite_rules.py prerequisite   # placement onboarding -> flow "onb_engaged"
    python3 Benchmarks/generate/prerequisite_rules.py copied         # the same condition written out

Both print one rule set: a six-row placement `onboarding` over the custom attributes of the
profiles `targeting-bench profiles` writes (experience, interests, reminders, weekly_hours), and a
placement `main_paywall` whose first row takes the adults onboarding sends to `onb_engaged`. They
differ in one segment, `after_engaged`: a prerequisite on onboarding's decision, or onboarding's
deciding condition copied out by hand (that row's audience, and not the audience of any row
above it). Names, rows and destinations are the same, so `resolve main_paywall` must print the
same lines for both.
"""
import sys

HEADER = """\
attribute experience: string one of ["beginner", "amateur", "pro"]
attribute interests: set of ["sports", "music", "travel", "food"]
attribute reminders: bool
attribute weekly_hours: number

segment pros = experience == "pro"
segment amateurs = experience == "amateur"
segment beginners = experience == "beginner"
segment sporty = interests has "sports"
segment wanderers = interests has any ["music", "travel"]
segment dedicated = weekly_hours >= 10
segment light = weekly_hours < 5
segment reminded = reminders == true
segment adults = profile.age >= 18
segment modern_app = profile.app_version >= "4.2.0"
"""

# Onboarding's rows in order: the audience, its expression over the segments above, the flow.
ONBOARDING = [
    ("dedicated_pros", "pros and dedicated and reminded", "onb_pro"),
    ("sporty_amateurs", "amateurs and sporty", "onb_sport"),
    ("light_beginners", "beginners and (wanderers or light)", "onb_light"),
    ("engaged", "(sporty or reminded) and not pros", "onb_engaged"),
    ("modern_adults", "adults and modern_app", "onb_modern"),
]
DEFAULT = "onb_default"
# The flow main_paywall asks about: given by the fourth row.
WANTED = "onb_engaged"


def prerequisite():
    """The condition as a prerequisite on onboarding's decision."""
    return f'placement onboarding -> flow "{WANTED}"'


def copied():
    """The same condition by hand: the deciding row's audience, and no row above it."""
    index = next(i for i, (_, _, flow) in enumerate(ONBOARDING) if flow == WANTED)
    deciding = ONBOARDING[index][1]
    above = [expression for _, expression, _ in ONBOARDING[:index]]
    return " and ".join([f"({deciding})"] + [f"not ({expression})" for expression in above])


def rules(condition):
    lines = [HEADER]
    lines += [f"audience {name} = {expression}" for name, expression, _ in ONBOARDING]
    lines.append("\nplacement onboarding {")
    lines += [f'  {name} -> flow "{flow}"' for name, _, flow in ONBOARDING]
    lines.append(f'  everyone -> flow "{DEFAULT}"')
    lines.append("}\n")
    lines.append(f"segment after_engaged = {condition}")
    lines.append("audience engaged_adults = after_engaged and adults")
    lines.append("audience modern_pros = pros and modern_app")
    lines.append("""
placement main_paywall {
  engaged_adults -> paywall "pw_engaged"
  modern_pros -> paywall "pw_pro"
  everyone -> paywall "pw_default"
}""")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    modes = {"prerequisite": prerequisite, "copied": copied}
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        sys.exit("usage: prerequisite_rules.py prerequisite|copied")
    sys.stdout.write(rules(modes[sys.argv[1]]()))
