#!/usr/bin/env python3
"""Fault tests for `targeting ingest` over the real binary: no update is ever lost.

Each check is a subcommand (`kill`, `concurrent`, `enospc`, `permissions`, `corrupt`, `history`); run.sh
runs them all. A check prints one summary line with its figures, and `FAIL: …` lines plus a
non-zero exit status when anything went wrong.
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

BINARY = os.environ.get("TARGETING", "")
FAILURES = []


def fail(message):
    FAILURES.append(message)
    if len(FAILURES) <= 20:
        print("FAIL: " + message, flush=True)
    elif len(FAILURES) == 21:
        print("FAIL: … (further failures not shown)", flush=True)


def finish(summary):
    print(summary, flush=True)
    if FAILURES:
        print(f"  {len(FAILURES)} failure(s)", flush=True)
        sys.exit(1)


# MARK: Data


def event(profile, key, value, screen="scr_faults"):
    """A `text_input` answer: stored under `key` as a custom attribute (no `input` declarations)."""
    return json.dumps({
        "profile_id": profile, "name": "flow_user_input", "instanceId": screen,
        "isBackendEvent": False, "isCustomerEvent": True,
        "element_id": key, "element_type": "text_input", "value": value,
    }, separators=(",", ":"))


def store_bytes(count, rng, prefix="p"):
    """A store of `count` profiles with a few fields, an unknown field and odd spacing."""
    lines = []
    for index in range(count):
        custom = {f"c{k}": f"v{rng.randrange(10**6)}" for k in range(rng.randrange(0, 4))}
        profile = {"id": f"{prefix}{index}", "email": f"user{index}@example.com", "custom_attributes": custom}
        if index % 7 == 0:
            profile["vip_note"] = {"kept": [1, 2.50, True]}
        text = json.dumps(profile, separators=(",", ":"))
        if index % 11 == 0:
            text = json.dumps(profile)  # spaces after separators: kept byte for byte unless changed
        lines.append(text)
    return ("\n".join(lines) + "\n").encode()


def write(path, data):
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode())


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def temporaries(directory, store_name):
    return sorted(name for name in os.listdir(directory) if name.startswith("." + store_name + ".tmp"))


def ingest_command(store, events, rules):
    return [BINARY, "ingest", *events, "--store", store, "--rules", rules]


def run_ingest(store, events, rules, user=None):
    command = ingest_command(store, events, rules)
    if user:
        command = ["runuser", "-u", user, "--"] + command
    return subprocess.run(command, capture_output=True, text=True)


def profiles_by_id(data, label):
    """The store's profiles parsed, by id; duplicate ids and bad lines are failures."""
    result = {}
    for number, line in enumerate(data.decode().splitlines(), 1):
        if not line.strip():
            continue
        try:
            profile = json.loads(line)
        except ValueError as error:
            fail(f"{label}: line {number} is not JSON ({error})")
            continue
        if profile.get("id") in result:
            fail(f"{label}: a second line for `{profile.get('id')}`")
        result[profile.get("id")] = profile
    return result


# MARK: 1. SIGKILL at random points


def check_kill(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-kill-", dir=args.tmp)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    old = store_bytes(args.profiles, rng)
    # Events: answers for existing and new profiles; each session closed.
    lines = []
    for index in range(args.events):
        profile = f"p{rng.randrange(args.profiles)}" if rng.random() < 0.8 else f"new{rng.randrange(args.profiles // 4)}"
        lines.append(event(profile, f"k{rng.randrange(8)}", f"value {index}"))
        if index % 50 == 49:
            lines.append(json.dumps({"profile_id": profile, "name": "flow_did_disappear"}))
    events = os.path.join(work, "events.jsonl")
    write(events, "\n".join(lines) + "\n")
    tiny = os.path.join(work, "tiny.jsonl")
    write(tiny, event("p0", "after_kill", "recovered") + "\n")

    def fresh(label):
        directory = os.path.join(work, label)
        os.makedirs(directory, exist_ok=True)
        store = os.path.join(directory, "profiles.jsonl")
        write(store, old)
        return directory, store

    # The complete new version, from uninterrupted runs on copies.
    durations = []
    new = None
    for attempt in range(3):
        directory, store = fresh(f"reference{attempt}")
        started = time.monotonic()
        result = run_ingest(store, [events], rules)
        durations.append(time.monotonic() - started)
        if result.returncode != 0:
            fail(f"reference run exited {result.returncode}: {result.stderr.strip()}")
            finish("kill: reference run failed")
        if new is not None and read(store) != new:
            fail("two uninterrupted runs gave different stores")
        new = read(store)
    if new == old:
        fail("the event stream does not change the store")
    duration = sorted(durations)[1]
    expected_after = {}
    for label, start in (("old", old), ("new", new)):
        directory, store = fresh(f"after-{label}")
        write(store, start)
        result = run_ingest(store, [tiny], rules)
        if result.returncode != 0:
            fail(f"reference recovery run exited {result.returncode}: {result.stderr.strip()}")
        expected_after[label] = read(store)

    # How long the write takes: from the temporary file's appearance to its rename (the median
    # of three runs; fsync times vary on a busy disk).
    windows = []
    for attempt in range(3):
        directory, store = fresh(f"write-window{attempt}")
        process = subprocess.Popen(ingest_command(store, [events], rules), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        appeared = renamed = None
        while process.poll() is None and renamed is None:
            present = bool(temporaries(directory, "profiles.jsonl"))
            if appeared is None and present:
                appeared = time.monotonic()
            elif appeared is not None and not present:
                renamed = time.monotonic()
        process.wait()
        windows.append(max(renamed - appeared, 0.001) if appeared and renamed else 0.01)
    window = min(sorted(windows)[1], duration)

    outcomes = {"old": 0, "new": 0, "other": 0}
    recovered = 0
    killed = finished = left_temporaries = 0
    by_mode = {"uniform": [0, 0], "during-write": [0, 0]}  # [old, new]
    # Runs until `args.runs` kills have landed (a run that finishes before its kill counts as a
    # run, not a kill), at most 3 × `args.runs` runs.
    run = -1
    while killed < args.runs and run + 1 < 3 * args.runs:
        run += 1
        directory, store = fresh(f"run{run % 4}")
        for name in temporaries(directory, "profiles.jsonl"):
            os.unlink(os.path.join(directory, name))
        mode = "uniform" if run % 2 == 0 else "during-write"
        process = subprocess.Popen(ingest_command(store, [events], rules), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if mode == "uniform":
            time.sleep(rng.uniform(0, duration * 1.1))
        else:
            delay = rng.uniform(0, window * 1.3)
            while process.poll() is None and not temporaries(directory, "profiles.jsonl"):
                pass
            time.sleep(delay)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()
        process.stderr.close()
        if process.returncode not in (0, -signal.SIGKILL):
            fail(f"run {run}: exit status {process.returncode}")
        if process.returncode == 0:
            finished += 1
        else:
            killed += 1
        after = read(store)
        if after == old:
            state = "old"
        elif after == new:
            state = "new"
        else:
            outcomes["other"] += 1
            fail(f"run {run} ({mode}): the store is neither the old nor the new version ({len(after)} bytes)")
            shutil.copyfile(store, os.path.join(work, f"broken-{run}.jsonl"))
            continue
        outcomes[state] += 1
        by_mode[mode][0 if state == "old" else 1] += 1
        leftovers = temporaries(directory, "profiles.jsonl")
        if leftovers:
            left_temporaries += 1
        # The next run recovers: it succeeds, applies its event, and leaves no temporary file.
        result = run_ingest(store, [tiny], rules)
        if result.returncode != 0:
            fail(f"run {run}: the ingest after the kill exited {result.returncode}: {result.stderr.strip()}")
        elif read(store) != expected_after[state]:
            fail(f"run {run}: the ingest after the kill (store was {state}) did not give the expected store")
        elif temporaries(directory, "profiles.jsonl"):
            fail(f"run {run}: temporary files remain after the next ingest: {temporaries(directory, 'profiles.jsonl')}")
        else:
            recovered += 1
    if killed < args.runs:
        fail(f"only {killed} of {run + 1} runs were killed before they finished")
    shutil.rmtree(work) if not FAILURES else None
    finish(f"kill: {run + 1} runs ({len(old)} -> {len(new)} byte store, {args.events} events, run {duration:.2f}s, "
           f"write {window * 1000:.0f}ms), {killed} killed, {finished} finished first; store afterwards: "
           f"{outcomes['old']} old, {outcomes['new']} new, {outcomes['other']} other "
           f"(random delay: {by_mode['uniform'][0]} old/{by_mode['uniform'][1]} new; during the write: "
           f"{by_mode['during-write'][0]} old/{by_mode['during-write'][1]} new); "
           f"{left_temporaries} kills landed mid-write (a temporary file left); {recovered} of {run + 1} next ingests "
           f"succeeded, gave the expected store and left no temporary file")


# MARK: 2. Concurrent runs


def check_concurrent(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-concurrent-", dir=args.tmp)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    writers = args.writers
    shared = args.shared
    total_waits = 0
    total_updates = 0
    total_present = 0
    for round_ in range(args.rounds):
        old = store_bytes(shared, rng) + store_bytes(50, rng, prefix="untouched")
        events = []
        expected = {}  # (id, key) -> value
        for writer in range(writers):
            lines = []
            # Each pass sets every key once, in a shuffled order; a later pass replaces the
            # earlier values, so the last pass's values are the expected ones.
            for repeat in range(args.repeats):
                answers = []
                for profile_index in range(shared):
                    profile = f"p{profile_index}"
                    for key in ("a", "b"):
                        value = f"w{writer}-{profile_index}-{key}-{repeat}"
                        answers.append(event(profile, f"w{writer}_{key}", value))
                        expected[(profile, f"w{writer}_{key}")] = value
                rng.shuffle(answers)
                lines += answers
            for created in range(20):
                # Profiles new to the store, created by whichever writer comes first.
                profile = f"shared_new{created}"
                value = f"w{writer}-created-{created}"
                lines.append(event(profile, f"w{writer}_n", value))
                expected[(profile, f"w{writer}_n")] = value
            path = os.path.join(work, f"round{round_}-writer{writer}.jsonl")
            write(path, "\n".join(lines) + "\n")
            events.append(path)
        store = os.path.join(work, f"round{round_}.jsonl")
        write(store, old)
        processes = [subprocess.Popen(ingest_command(store, [path], rules), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                     for path in events]
        for writer, process in enumerate(processes):
            out, err = process.communicate()
            if process.returncode != 0:
                fail(f"round {round_}: writer {writer} exited {process.returncode}: {err.strip()}")
            if "waiting for another ingest" in err:
                total_waits += 1
        after = read(store)
        final = profiles_by_id(after, f"round {round_}")
        for (profile, key), value in expected.items():
            got = final.get(profile, {}).get("custom_attributes", {}).get(key)
            if got == value:
                total_present += 1
            else:
                fail(f"round {round_}: `{profile}`.{key} is {got!r}, expected {value!r}: an update was lost")
        total_updates += len(expected)
        # Equal to applying the files one after the other (any order gives the same profiles).
        serial = os.path.join(work, f"round{round_}-serial.jsonl")
        write(serial, old)
        order = list(events)
        rng.shuffle(order)
        for path in order:
            result = run_ingest(serial, [path], rules)
            if result.returncode != 0:
                fail(f"round {round_}: serial run exited {result.returncode}")
        if final != profiles_by_id(read(serial), f"round {round_} serial"):
            fail(f"round {round_}: the concurrent result differs from a serial application")
        # Profiles no writer touched keep their bytes.
        untouched = [line for line in old.splitlines() if b'"untouched' in line]
        kept = set(after.splitlines())
        if not all(line in kept for line in untouched):
            fail(f"round {round_}: an untouched profile's line changed")
        if len(final) != shared + 50 + 20:
            fail(f"round {round_}: {len(final)} profiles, expected {shared + 50 + 20}")
        if temporaries(work, os.path.basename(store)):
            fail(f"round {round_}: temporary files left")
    shutil.rmtree(work) if not FAILURES else None
    finish(f"concurrent: {args.rounds} rounds of {writers} simultaneous ingests on one store "
           f"({shared} shared profiles, 20 created by all): {total_present} of {total_updates} expected attribute values "
           f"present; {total_waits} runs waited for the lock; final stores compared with a serial application "
           f"({'all equal' if not FAILURES else 'see failures'})")


# MARK: 3. A full file system


def in_namespace(script):
    """Runs `script` (sh) as root in a private mount namespace."""
    return subprocess.run(["unshare", "-m", "sh", "-euc", script], capture_output=True, text=True)


def check_enospc(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-enospc-", dir=args.tmp)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    old = store_bytes(2500, rng)  # about 250 KB
    write(os.path.join(work, "old.jsonl"), old)
    big = os.path.join(work, "big.jsonl")
    write(big, "\n".join(event(f"p{index}", f"grow{key}", "x" * 50) for index in range(2500) for key in range(4)) + "\n")
    tiny = os.path.join(work, "tiny.jsonl")
    write(tiny, event("p1", "small", "fits") + "\n")
    size_k = (len(old) * 23 // 10) // 1024  # room for two copies of the old store, not for the old one and the big rewrite
    cases = {
        # name: (mount options, lock file present, events, expected status, expected message)
        "blocks": (f"size={size_k}k", True, big, 2, "No space left on device"),
        "blocks, no lock file yet": (f"size={size_k}k", False, big, 2, "No space left on device"),
        "inodes": ("size=4m,nr_inodes=3", True, tiny, 2, "No space left on device"),
        "inodes, lock cannot be created": ("size=4m,nr_inodes=2", False, tiny, 2, "No space left on device"),
        "room for a small change": (f"size={size_k}k", True, tiny, 0, ""),
    }
    checked = 0
    for name, (options, lock, events, status, message) in cases.items():
        case = os.path.join(work, name.replace(" ", "_").replace(",", ""))
        os.makedirs(os.path.join(case, "mnt"))
        script = f"""
            mount -t tmpfs -o {options} tmpfs {case}/mnt
            cp {work}/old.jsonl {case}/mnt/profiles.jsonl
            {"touch " + case + "/mnt/profiles.jsonl.lock" if lock else ":"}
            set +e
            {BINARY} ingest {events} --store {case}/mnt/profiles.jsonl --rules {rules} >{case}/out 2>{case}/err
            echo $? >{case}/status
            set -e
            cp {case}/mnt/profiles.jsonl {case}/after
            ls -a {case}/mnt >{case}/listing
            df -k {case}/mnt | tail -1 >{case}/df
        """
        result = in_namespace(script)
        if result.returncode != 0:
            fail(f"{name}: the namespace script failed: {result.stderr.strip()}")
            continue
        checked += 1
        got = int(read(os.path.join(case, "status")))
        err = read(os.path.join(case, "err")).decode()
        listing = read(os.path.join(case, "listing")).decode().split()
        if got != status:
            fail(f"{name}: exit status {got}, expected {status}: {err.strip()}")
        if message and message not in err:
            fail(f"{name}: stderr does not say `{message}`: {err.strip()!r}")
        if status != 0:
            if "profiles.jsonl" not in err:
                fail(f"{name}: the message does not name the store: {err.strip()!r}")
            if "Fatal error" in err or got >= 128:
                fail(f"{name}: crashed: {err.strip()!r}")
            if read(os.path.join(case, "after")) != old:
                fail(f"{name}: the store changed")
        elif read(os.path.join(case, "after")) == old:
            fail(f"{name}: the small change was not written")
        leftovers = [entry for entry in listing if ".tmp" in entry]
        if leftovers:
            fail(f"{name}: temporary files left: {leftovers}")
        if args.verbose:
            print(f"  {name}: exit {got}: {err.strip()}")
    shutil.rmtree(work) if not FAILURES else None
    finish(f"enospc: {checked} tmpfs cases: 4 full (out of blocks, out of inodes, with and without a lock file) "
           f"exit 2 naming the store and `No space left on device`, store byte-equal, no temporary file; "
           f"1 with room for a small change writes it")


# MARK: 4. Unwritable directory, read-only file system, a directory as the store


def check_permissions(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-perms-", dir=args.tmp)
    os.chmod(work, 0o755)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    old = store_bytes(200, rng)
    events = os.path.join(work, "events.jsonl")
    write(events, "\n".join(event(f"p{index}", "changed", "yes") for index in range(200)) + "\n")
    for path in (rules, events):
        os.chmod(path, 0o644)
    checked = 0

    def expect_failure(name, directory, err, status, words, store_path=None):
        nonlocal checked
        checked += 1
        store_path = store_path or os.path.join(directory, "profiles.jsonl")
        if status == 0 or status >= 64 or status < 0:
            fail(f"{name}: exit status {status}, expected 2: {err.strip()!r}")
        if "Fatal error" in err:
            fail(f"{name}: crashed: {err.strip()!r}")
        for word in words:
            if word not in err:
                fail(f"{name}: stderr does not say `{word}`: {err.strip()!r}")
        if args.verbose:
            print(f"  {name}: exit {status}: {err.strip()}")

    # a) chmod 555 directory, run as nobody, no lock file yet: the lock cannot be created.
    # b) the same with a lock file nobody may open: the temporary file cannot be created.
    for name, lock_owner in (("unwritable directory (no lock file)", None), ("unwritable directory (lock file present)", "nobody")):
        directory = os.path.join(work, name.split(" (")[0].replace(" ", "_") + ("_lock" if lock_owner else ""))
        os.makedirs(directory)
        store = os.path.join(directory, "profiles.jsonl")
        write(store, old)
        os.chmod(store, 0o644)
        if lock_owner:
            write(store + ".lock", "")
            shutil.chown(store + ".lock", lock_owner)
        before = sorted(os.listdir(directory))
        os.chmod(directory, 0o555)
        result = run_ingest(store, [events], rules, user="nobody")
        expect_failure(name, directory, result.stderr, result.returncode, ["Permission denied", store])
        if read(store) != old:
            fail(f"{name}: the store changed")
        if sorted(os.listdir(directory)) != before:
            fail(f"{name}: the directory's entries changed: {sorted(os.listdir(directory))}")
        os.chmod(directory, 0o755)

    # c) a read-only bind mount (root), with and without a lock file.
    for lock in (True, False):
        name = "read-only file system" + (" (lock file present)" if lock else " (no lock file)")
        directory = os.path.join(work, "readonly_lock" if lock else "readonly")
        os.makedirs(directory)
        store = os.path.join(directory, "profiles.jsonl")
        write(store, old)
        if lock:
            write(store + ".lock", "")
        before = sorted(os.listdir(directory))
        script = f"""
            mount --bind {directory} {directory}
            mount -o remount,bind,ro {directory}
            set +e
            {BINARY} ingest {events} --store {store} --rules {rules} >{work}/ro.out 2>{work}/ro.err
            echo $? >{work}/ro.status
        """
        outcome = in_namespace(script)
        if outcome.returncode != 0:
            fail(f"{name}: the namespace script failed: {outcome.stderr.strip()}")
            continue
        expect_failure(name, directory, read(f"{work}/ro.err").decode(), int(read(f"{work}/ro.status")), ["Read-only file system", store])
        if read(store) != old:
            fail(f"{name}: the store changed")
        if sorted(os.listdir(directory)) != before:
            fail(f"{name}: the directory's entries changed")

    # d) the store path is a directory.
    directory = os.path.join(work, "store_is_directory")
    store = os.path.join(directory, "profiles.jsonl")
    os.makedirs(store)
    write(os.path.join(store, "inside.txt"), "keep")
    before = sorted(os.listdir(directory)), sorted(os.listdir(store))
    result = run_ingest(store, [events], rules)
    expect_failure("store is a directory", directory, result.stderr, result.returncode, ["directory", store])
    if (sorted(os.listdir(directory)), sorted(os.listdir(store))) != before or read(os.path.join(store, "inside.txt")) != b"keep":
        fail(f"store is a directory: something changed: {sorted(os.listdir(directory))}")

    # e) a store nobody may read.
    directory = os.path.join(work, "unreadable_store")
    os.makedirs(directory)
    os.chmod(directory, 0o777)
    store = os.path.join(directory, "profiles.jsonl")
    write(store, old)
    os.chmod(store, 0o200)
    result = run_ingest(store, [events], rules, user="nobody")
    expect_failure("unreadable store", directory, result.stderr, result.returncode, [store])
    os.chmod(store, 0o644)
    if read(store) != old:
        fail("unreadable store: the store changed")

    shutil.rmtree(work) if not FAILURES else None
    finish(f"permissions: {checked} cases (chmod 555 as nobody with and without a lock file, read-only mount "
           f"with and without a lock file, a directory as the store, an unreadable store) exit 2 naming the store "
           f"and the reason, nothing changed")


# MARK: 5. A corrupt store line


def check_corrupt(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-corrupt-", dir=args.tmp)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    good = store_bytes(10, rng).splitlines()
    events = os.path.join(work, "events.jsonl")
    write(events, "\n".join(event(f"p{index}", "changed", "yes") for index in range(12)) + "\n")
    bad_lines = {
        "invalid JSON": b'{"id":"p2",',
        "truncated line": good[2][: len(good[2]) // 2],
        "not an object": b'["p2"]',
        "invalid UTF-8": b'{"id":"p2","first_name":"\xff\xfe"}',
        "NUL byte": b'{"id":"p2"}\x00',
        "duplicate id": good[0],
        "duplicate key": b'{"id":"p2","id":"p2b"}',
        "51-character attribute": b'{"id":"p2","custom_attributes":{"bio":"' + b"x" * 51 + b'"}}',
    }
    checked = 0
    for name, line in bad_lines.items():
        data = b"\n".join(good[:2] + [line] + good[3:]) + b"\n"
        store = os.path.join(work, name.replace(" ", "_") + ".jsonl")
        write(store, data)
        result = subprocess.run(ingest_command(store, [events], rules), capture_output=True)
        err = result.stderr.decode(errors="replace")
        checked += 1
        if result.returncode != 2:
            fail(f"{name}: exit status {result.returncode}, expected 2: {err.strip()!r}")
        if f"{store}:3" not in err:
            fail(f"{name}: the message does not name line 3 of the store: {err.strip()!r}")
        if read(store) != data:
            fail(f"{name}: the store changed")
        if temporaries(work, os.path.basename(store)):
            fail(f"{name}: temporary files left")
        if args.verbose:
            print(f"  {name}: {err.strip()}")
    shutil.rmtree(work) if not FAILURES else None
    finish(f"corrupt: {checked} stores with a bad line 3 ({', '.join(bad_lines)}) exit 2 naming `STORE:3`, byte-equal")


# MARK: 6. A store holding history


def shown(profile, placement, at, experiment=None, variant=None):
    """A `placement_shown` line: recorded in the profile's history (no rules needed)."""
    line = {"profile_id": profile, "name": "placement_shown", "placement": placement, "kind": "paywall", "id": "pw_a"}
    if experiment:
        line.update(experiment=experiment, variant=variant)
    line.update(held_out=False, at=at)
    return json.dumps(line, separators=(",", ":"))


def instant(minute):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1796119200 + 60 * minute))


def history_store_bytes(count, rng, prefix="h"):
    """A store whose profiles mostly hold a history (odd spacing on some lines)."""
    lines = []
    for index in range(count):
        profile = {"id": f"{prefix}{index}", "email": f"user{index}@example.com"}
        if index % 5:
            profile["history"] = {
                "shown": {"main_paywall": sorted({instant(rng.randrange(5000)) for _ in range(rng.randrange(1, 6))})},
                "assigned": {"pricing": {"variant": rng.choice(["control", "discount"]), "at": instant(0)}},
            }
        if index % 3 == 0:
            profile["custom_attributes"] = {"goal": f"g{rng.randrange(100)}"}
        text = json.dumps(profile, separators=(",", ":")) if index % 7 else json.dumps(profile)
        lines.append(text)
    return ("\n".join(lines) + "\n").encode()


def check_history(args):
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="faults-history-", dir=args.tmp)
    rules = os.path.join(work, "empty.rules")
    write(rules, "")
    count = max(args.profiles // 3, 100)
    old = history_store_bytes(count, rng) + history_store_bytes(50, rng, prefix="untouched")
    # Shown lines (some repeating an instant, some naming a new experiment), answers, and
    # profiles new to the store.
    lines = []
    for index in range(args.events // 2):
        profile = f"h{rng.randrange(count)}" if rng.random() < 0.9 else f"new{rng.randrange(50)}"
        if rng.random() < 0.7:
            experiment = rng.choice([None, "pricing", "onboarding_test"])
            lines.append(shown(profile, rng.choice(["main_paywall", "onboarding"]), instant(rng.randrange(6000)),
                               experiment, rng.choice(["control", "discount"]) if experiment else None))
        else:
            lines.append(event(profile, f"k{rng.randrange(4)}", f"value {index}"))
    events = os.path.join(work, "events.jsonl")
    write(events, "\n".join(lines) + "\n")
    store = os.path.join(work, "profiles.jsonl")

    # 1. The new version, twice the same; a second run of the same lines changes nothing.
    write(store, old)
    result = run_ingest(store, [events], rules)
    if result.returncode != 0:
        fail(f"reference run exited {result.returncode}: {result.stderr.strip()}")
        finish("history: reference run failed")
    new = read(store)
    write(store, old)
    run_ingest(store, [events], rules)
    if read(store) != new:
        fail("two uninterrupted runs gave different stores")
    run_ingest(store, [events], rules)
    if read(store) != new:
        fail("the same shown lines again changed the store")
    final = profiles_by_id(new, "history store")
    untouched = [line for line in old.splitlines() if b'"untouched' in line]
    if not all(line in set(new.splitlines()) for line in untouched):
        fail("an untouched profile's line (with its history) changed")
    for profile in final.values():
        for placement, kept in profile.get("history", {}).get("shown", {}).items():
            if kept != sorted(set(kept)) or len(kept) > 100:
                fail(f"`{profile.get('id')}`: shown instants of {placement} not ascending, once, at most 100")

    # 2. SIGKILL at random points: the store is always the old or the new version.
    durations = []
    for _ in range(2):
        write(store, old)
        started = time.monotonic()
        run_ingest(store, [events], rules)
        durations.append(time.monotonic() - started)
    duration = min(durations)
    kills = max(args.runs // 4, 10)
    outcomes = {"old": 0, "new": 0}
    killed = 0
    for run in range(3 * kills):
        if killed >= kills:
            break
        write(store, old)
        for name in temporaries(work, "profiles.jsonl"):
            os.unlink(os.path.join(work, name))
        process = subprocess.Popen(ingest_command(store, [events], rules), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if run % 2 == 0:
            time.sleep(rng.uniform(0, duration * 1.1))
        else:
            # During the write: once the temporary file is there.
            while process.poll() is None and not temporaries(work, "profiles.jsonl"):
                pass
            time.sleep(rng.uniform(0, 0.02))
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
        process.wait()
        if process.returncode == -signal.SIGKILL:
            killed += 1
        after = read(store)
        if after == old:
            outcomes["old"] += 1
        elif after == new:
            outcomes["new"] += 1
        else:
            fail(f"kill run {run}: the store is neither the old nor the new version")
    if os.path.exists(store + ".lock"):
        run_ingest(store, [events], rules)  # takes and removes a lock file a kill left

    # 3. Concurrent writers of shown lines: the same histories as one after the other.
    writers = []
    for writer in range(4):
        mine = [shown(f"h{rng.randrange(count)}", "main_paywall", instant(6000 + rng.randrange(3000)), f"w{writer}", f"v{rng.randrange(2)}")
                for _ in range(args.events // 10)]
        path = os.path.join(work, f"writer{writer}.jsonl")
        write(path, "\n".join(mine) + "\n")
        writers.append(path)
    write(store, old)
    processes = [subprocess.Popen(ingest_command(store, [path], rules), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for path in writers]
    for writer, process in enumerate(processes):
        _, err = process.communicate()
        if process.returncode != 0:
            fail(f"concurrent writer {writer} exited {process.returncode}: {err.strip()}")
    serial = os.path.join(work, "serial.jsonl")
    write(serial, old)
    for path in reversed(writers):
        run_ingest(serial, [path], rules)
    if profiles_by_id(read(store), "concurrent") != profiles_by_id(read(serial), "serial"):
        fail("the concurrent histories differ from a serial application")

    # 4. A corrupt history on line 3: exit 2 naming it, the store byte-equal.
    good = old.splitlines()
    bad_lines = {
        "history not an object": b'{"id":"h2","history":[]}',
        "date without time": b'{"id":"h2","history":{"shown":{"p":["2026-12-01"]}}}',
        "unknown history key": b'{"id":"h2","history":{"seen":{}}}',
        "101 instants": b'{"id":"h2","history":{"shown":{"p":[' + b",".join(b'"' + instant(m).encode() + b'"' for m in range(101)) + b']}}}',
    }
    for name, line in bad_lines.items():
        data = b"\n".join(good[:2] + [line] + good[3:]) + b"\n"
        path = os.path.join(work, name.replace(" ", "_") + ".jsonl")
        write(path, data)
        result = subprocess.run(ingest_command(path, [events], rules), capture_output=True)
        err = result.stderr.decode(errors="replace")
        if result.returncode != 2 or f"{path}:3" not in err or "history" not in err:
            fail(f"{name}: exit {result.returncode}, expected 2 naming `STORE:3` and the key: {err.strip()!r}")
        if read(path) != data:
            fail(f"{name}: the store changed")
    shutil.rmtree(work) if not FAILURES else None
    finish(f"history: {count + 50} profiles (4 in 5 with a history), {len(lines)} shown and answer lines: runs repeatable, "
           f"shown lines again change nothing, untouched lines byte-equal; {killed} SIGKILLs leave "
           f"{outcomes['old']} old/{outcomes['new']} new (half of them during the write); 4 concurrent shown writers equal a serial run; "
           f"{len(bad_lines)} corrupt histories on line 3 exit 2, byte-equal")


def main():
    global BINARY
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("check", choices=["kill", "concurrent", "enospc", "permissions", "corrupt", "history"])
    parser.add_argument("--binary", default=BINARY)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FAULTS_SEED", "20260529")))
    parser.add_argument("--tmp", default=None, help="where scratch directories go")
    parser.add_argument("--runs", type=int, default=200, help="kills to land (kill check)")
    parser.add_argument("--profiles", type=int, default=6000)
    parser.add_argument("--events", type=int, default=15000)
    parser.add_argument("--shared", type=int, default=2000, help="profiles every concurrent writer updates")
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    BINARY = os.path.abspath(args.binary)
    if not os.access(BINARY, os.X_OK):
        print(f"FAIL: no binary at `{BINARY}` (swift build first)")
        sys.exit(1)
    {"kill": check_kill, "concurrent": check_concurrent, "enospc": check_enospc,
     "permissions": check_permissions, "corrupt": check_corrupt, "history": check_history}[args.check](args)


if __name__ == "__main__":
    main()
