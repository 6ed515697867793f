"""The table's web pages: a live spectator board, and a page for each seat's phone.

Served by aiohttp inside the table's process. Why aiohttp: it is a maintained asyncio
framework that is one package with no server to add (Starlette or FastAPI need an
ASGI server such as uvicorn beside them, and FastAPI pydantic too), it speaks
server-sent events and WebSockets itself, it ships wheels for the Pi's ARM builds
(and runs as pure Python without them), and it stays small beside the table on a
Pi Zero 2 W (its 512 MB of memory).

Layers: :mod:`.posts` (what the pages show, built from the game as each seat may see
it), :mod:`.feed` (the posts in order for every client), :mod:`.seats` and
:mod:`.joining` (who may open which seat), :mod:`.server` (the HTTP side),
:mod:`.live` (all of it wired to a running table). The page's own files are in
``static/``.
"""
