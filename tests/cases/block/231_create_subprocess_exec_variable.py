# expect: block SG211@4
import asyncio
async def main(prog):
    await asyncio.create_subprocess_exec(prog, "-c", "id")
