"""An exporter's entry point: an ExportError ends it with its message and status 1."""

from __future__ import annotations

import sys
from typing import Callable

from .emitter import ExportError


def run_main(main: Callable[[], int], prog: str) -> None:
    try:
        sys.exit(main())
    except ExportError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        sys.exit(1)
