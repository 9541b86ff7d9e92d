#!/usr/bin/env python3
"""The costliest straight runs of machine code in a callgrind profile.

A profile by function says little about the search: nearly all of it is one
function, the node, with its steps inlined. This report groups the
profile's instructions into runs of consecutive instructions executed the
same number of times (basic blocks, in effect) and lists the runs by the
instructions they cost, with the source lines they come from. A run whose
count is that of a step's callers rather than of the step shows work done
where it is not needed: the live windows of the move ordering, computed at
every node that reached the children loop, were found this way.

Make the profile from a build with line tables, for example:

    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=target/lines \\
        cargo build --release
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=PROFILE \\
        target/lines/release/c4 bench --no-book --threads 1 --limit 30 SET
    scripts/measure/hot-blocks.py PROFILE [TOP]

then read a run's code with `objdump -dl --no-show-raw-insn
--start-address=FIRST --stop-address=LAST target/lines/release/c4`.
TOP is how many runs to list (40). Exit status 2 on bad usage or an
unreadable profile.
"""

import collections
import re
import sys

# A run ends where the execution count changes or the next instruction
# lies further than any x86-64 instruction is long.
MAX_INSTRUCTION_BYTES = 15


def position(token, previous):
    """A position field of a callgrind line: absolute, relative (+N, -N) or
    the same as before (*)."""
    if token == "*":
        return previous
    if token[0] in "+-":
        return previous + int(token, 0)
    return int(token, 0)


def read_profile(path):
    """Instructions executed at each address, and the source lines each
    address's instructions are attributed to."""
    names = {}
    source = "?"
    address = line = 0
    call_cost_next = False
    executed = collections.Counter()
    lines_at = collections.defaultdict(collections.Counter)
    with open(path) as profile:
        for text in profile:
            text = text.rstrip("\n")
            named = re.match(r"^(fl|fi|fe)=\((\d+)\)(?: (.*))?$", text)
            if named:
                if named.group(3):
                    names[named.group(2)] = named.group(3)
                source = "/".join(names.get(named.group(2), "?").split("/")[-2:])
                continue
            if text.startswith("calls="):
                # The next cost line is the call's inclusive cost.
                call_cost_next = True
                continue
            if not text or text[0] not in "0123456789+-*":
                continue
            fields = text.split()
            if len(fields) < 2:
                continue
            address = position(fields[0], address)
            line = position(fields[1], line)
            if call_cost_next:
                call_cost_next = False
                continue
            executed[address] += int(fields[2]) if len(fields) > 2 else 0
            lines_at[address][f"{source}:{line}"] += 1
    return executed, lines_at


def runs(executed):
    """(instructions, count, length, first, last) of each run."""
    addresses = sorted(executed)
    found = []
    i = 0
    while i < len(addresses):
        j = i
        count = executed[addresses[i]]
        while (
            j + 1 < len(addresses)
            and executed[addresses[j + 1]] == count
            and addresses[j + 1] - addresses[j] <= MAX_INSTRUCTION_BYTES
        ):
            j += 1
        length = j - i + 1
        found.append((count * length, count, length, addresses[i], addresses[j]))
        i = j + 1
    return found


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and not sys.argv[2].isdigit()):
        print(f"usage: {sys.argv[0]} PROFILE [TOP]", file=sys.stderr)
        return 2
    top = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    try:
        executed, lines_at = read_profile(sys.argv[1])
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"hot-blocks.py: cannot read {sys.argv[1]}: {error}", file=sys.stderr)
        return 2
    total = sum(executed.values())
    if total == 0:
        print(f"hot-blocks.py: {sys.argv[1]} holds no instruction counts "
              "(was it made with --dump-instr=yes?)", file=sys.stderr)
        return 2
    print(f"{total:,} instructions in all")
    print("instructions  share  executions x length  first-last  source lines")
    for cost, count, length, first, last in sorted(runs(executed), reverse=True)[:top]:
        sources = collections.Counter()
        for address, lines in lines_at.items():
            if first <= address <= last:
                sources.update(lines)
        where = ", ".join(name for name, _ in sources.most_common(4))
        print(f"{cost:>12,} {100 * cost / total:5.2f}%  {count:>10,} x {length:>3}"
              f"  {first:#x}-{last:#x}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
