# expect: forbidden_syscall
# syscall: prlimit64
# args: --cpu 5 --wall 10
# max_cpu_ms: 1600
# Lowering the hard RLIMIT_CPU would have the kernel SIGKILL the interpreter after a second:
# a death snipgate did not cause, which it reports as a kill from outside (setup_error). Setting
# RLIMIT_CPU is a forbidden call, so the snippet cannot disguise its own end that way.
import resource
resource.setrlimit(resource.RLIMIT_CPU, (1, 1))
while True:
    pass
