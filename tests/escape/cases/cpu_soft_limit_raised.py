# expect: timeout
# timeout_kind: cpu
# args: --cpu 1 --wall 8
# max_cpu_ms: 1600
# The snippet raises its own soft RLIMIT_CPU to the hard limit and burns on.
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
while True:
    pass
