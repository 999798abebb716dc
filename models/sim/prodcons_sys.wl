# prodcons_sys.wl: producer/consumer pairs synchronising at .sys scope
# (the flag-based wait/signal of seed 001 and the message passing of the
# seeds' litmus tests): a producer writes 8 lines and releases a flag, its
# consumer acquires the flag (spinning), reads the lines and releases an
# acknowledgement.  Keeps: release/acquire at one scope, data handed over
# every round.  Pairs are placed by the scope: same CU (cta), two CUs of
# one GPU (gpu), two GPUs (sys).
workload prodcons_sys
kind prodcons
scope sys
lines 8
rounds 16
