# expect: block SG207@3
import asyncio.subprocess as x
x.create_subprocess_shell("id")
