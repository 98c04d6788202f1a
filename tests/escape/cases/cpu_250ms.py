# expect: timeout
# timeout_kind: cpu
# args: --cpu 250ms --wall 8
# max_cpu_ms: 700
# --cpu 250ms means 250 ms, not a second (RLIMIT_CPU counts whole seconds).
while True:
    pass
