"""An agent beside Neovim: starts `locus mcp` on stdio through the Python `mcp` SDK (as
Claude Code or Codex would, from the current directory), calls `editor_get_context`, and
writes the envelope (`structuredContent`) to the file named by its one argument.

tests/e2e/test_nvim.py runs it from Neovim's `:terminal`, from a tmux pane beside Neovim, and
as a plain process while Neovim has lost focus. $LOCUS_BIN names the binary.
"""

import asyncio
import json
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters


async def main(out: Path) -> None:
    params = StdioServerParameters(command=os.environ["LOCUS_BIN"], args=["mcp"], env=dict(os.environ), cwd=os.getcwd())
    async with Client(params) as client:
        result = await client.call_tool("editor_get_context", {})
        envelope = result.structured_content
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(envelope), encoding="utf-8")
    tmp.rename(out)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
