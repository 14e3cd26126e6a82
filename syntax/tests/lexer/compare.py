#!/usr/bin/env python3
"""Compares two token dumps (JSON lines, one per file): Puppet's own lexer's
(puppet_tokens.rb) and ours (`cargo xtask dump tokens`).

    ruby syntax/tests/lexer/puppet_tokens.rb FILES > puppet.jsonl
    cargo xtask dump tokens FILES > ours.jsonl
    python3 syntax/tests/lexer/compare.py puppet.jsonl ours.jsonl

Prints the first difference of each differing file and a count."""
import json, sys

def load(path):
    out = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            r = json.loads(line)
            out[r["file"]] = r
    return out

theirs, ours = load(sys.argv[1]), load(sys.argv[2])
bad = 0
for name, t in theirs.items():
    o = ours.get(name)
    if o is None:
        print(f"{name}: missing from ours"); bad += 1; continue
    tt, ot = t["tokens"], o["tokens"]
    diff = None
    for i in range(max(len(tt), len(ot))):
        a = tt[i] if i < len(tt) else None
        b = ot[i] if i < len(ot) else None
        if a != b:
            diff = f"token {i}: puppet {a} ours {b}"; break
    if diff is None and t["error"] != o["error"]:
        diff = f"error: puppet {t['error']} ours {o['error']}"
    if diff:
        bad += 1
        print(f"{name}: {diff}")
print(f"{len(theirs)} files, {bad} differ")
sys.exit(1 if bad else 0)
