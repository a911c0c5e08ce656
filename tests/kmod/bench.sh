#!/bin/bash
suite=kmod
source tests/netns/lib.sh
t "boot" true
uname -a
lsmod
summary
