#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""trees.py - planted trees for the scan tests of admin_test.sh.

  trees.py deep DIR DEPTH   DEPTH nested directories "d", a name C0 AE at
                            the bottom (paths far beyond PATH_MAX)
  trees.py wide DIR N       N entries: N/1000 directories of up to 1000
                            hard links each (no inode per entry), plus
                            3 refused names; prints the entry count
  trees.py rss CMD...       run CMD (stdout discarded), print "STATUS
                            MAXRSS_KIB" of the child
"""
import os
import resource
import subprocess
import sys


def deep(top, depth):
    os.makedirs(top, exist_ok=True)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(os.open(b"bottom\xc0\xae", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)


def wide(top, n):
    os.makedirs(top, exist_ok=True)
    entries = 0
    per = 1000
    for d in range(0, (n + per - 1) // per):
        sub = os.path.join(top, "d%04d" % d)
        os.mkdir(sub)
        entries += 1
        first = os.path.join(sub, "f0")
        open(first, "w").close()
        entries += 1
        for i in range(1, min(per, n - d * per) - 1):
            os.link(first, os.path.join(sub, "f%d" % i))
            entries += 1
    for bad in (b"x\xc0\xae", b"y\xed\xa0\x80", b"z\xff"):
        open(os.path.join(top.encode(), bad), "w").close()
        entries += 1
    print(entries)


def rss(cmd):
    with open(os.devnull, "wb") as null:
        status = subprocess.call(cmd, stdout=null)
    print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "deep":
        deep(sys.argv[2], int(sys.argv[3]))
    elif what == "wide":
        wide(sys.argv[2], int(sys.argv[3]))
    elif what == "rss":
        rss(sys.argv[2:])
    else:
        sys.exit(__doc__)
