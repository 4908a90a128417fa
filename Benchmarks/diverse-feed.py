#!/usr/bin/env python3
"""Writes COUNT posts of a diverse vocabulary as JSON Lines (benchmarks of whole processes):
half of them random lowercase words of 3-10 letters, half random Han characters, so that
almost every word is new to the word cache, unlike SampleFeed's common vocabulary."""
import json
import random
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
letters = "abcdefghijklmnopqrstuvwxyz"
han = [chr(c) for c in range(0x4E00, 0x9FA5)]
out = sys.stdout
for i in range(count):
    if random.random() < 0.5:
        words = ["".join(random.choice(letters) for _ in range(random.randint(3, 10))) for _ in range(random.randint(8, 40))]
        text = " ".join(words)
    else:
        text = "".join(random.choice(han) for _ in range(random.randint(20, 120)))
    out.write(json.dumps({"id": i, "author": "user%d" % (i % 5000), "text": text}, ensure_ascii=False) + "\n")
