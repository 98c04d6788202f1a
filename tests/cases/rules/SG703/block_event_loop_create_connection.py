# expect: block SG703@7
import asyncio


async def beacon():
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_connection(asyncio.Protocol, "collector.example.net", 443)
    transport.close()
