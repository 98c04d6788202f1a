# expect: forbidden_syscall
# syscall: prlimit64
# args: --cpu 1 --wall 8
# max_cpu_ms: 1600
# The snippet tries to raise its own soft RLIMIT_CPU to the hard limit and burn on. No process
# of the sandbox may set RLIMIT_CPU (the supervisor measures CPU itself, and a hard limit the
# candidate lowered would end it with a SIGKILL that looks like one from outside).
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
while True:
    pass
