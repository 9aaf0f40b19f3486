"""Printable play aids (#32 point 3): any section, chapter or whole rulebook printed cleanly, in either language or
both side by side, with or without rulings, and a quick-reference sheet a reader collects in the browser."""
