# expect: block SG207@4
import asyncio
async def main():
    await asyncio.create_subprocess_shell("ls")
