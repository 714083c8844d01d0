; Symbols for c: to be written.
